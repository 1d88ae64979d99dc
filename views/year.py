"""A year in review: the year's games and hours, the table's most played game, each player's
best game of the year and the records set that year (scoring/group_stats.py works it out),
shareable as a picture like a game's result."""

from __future__ import annotations

import datetime as dt

import flet as ft
from babel.dates import format_date

from scoring.group_stats import BestGame, YearInReview, counted, local_day, year_in_review

from . import buttons, games
from .hooks import memo, use_value
from .i18n import Translator
from .notices import notices_panel
from .result import picture_sharer
from .state import AppState, use_screen
from .statistics import games_played, people_of
from .theme import shades_of
from .widgets import back_bar, body, choice_chips, color_dot, heading, info_box, note


@memo
@ft.component
def YearView(state: AppState) -> ft.View:
    t = state.t
    use_screen(state, "/stats/year")
    roster = state.players(include_archived=True)
    people, names = people_of(roster)
    played = counted(state.summaries(), people)
    years = sorted({day.year for s in played if (day := local_day(s.started))}, reverse=True)
    this_year = dt.date.today().year
    year, set_year = use_value(years[0] if years and this_year not in years else this_year)
    review = year_in_review(played, people, year)
    shades = shades_of(roster, state.dark)
    card = review_card(t, names, review, shades)
    picture = ft.Screenshot(content=card)
    controls: list[ft.Control] = []
    if len(years) > 1:
        controls.append(
            choice_chips(
                t("Year"),
                [(str(y), str(y)) for y in years],
                str(year),
                lambda chosen: set_year(int(chosen)),
            )
        )
    controls.append(picture)
    if review.games:
        controls.append(
            buttons.OutlinedButton(
                t("Share as picture"),
                icon=ft.Icons.IMAGE,
                height=48,
                on_click=picture_sharer(picture, f"debrief-{year}.png", summary_line(t, review)),
            )
        )
    return ft.View(
        route="/stats/year",
        appbar=back_bar(t("Year in review"), lambda: state.go("/stats"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[ft.SafeArea(body([*notices_panel(state), *controls], spacing=12))],
    )


def summary_line(t: Translator, review: YearInReview) -> str:
    """What goes with the picture: "2026 at the table: 270 games · 351 h played"."""
    at_table = t("{year} at the table", year=review.year)
    return at_table + ": " + games_played(t, review.games, review.minutes)


def best_game_line(t: Translator, name: str, best: BestGame, day: str) -> str:
    """A player's best game in its own game's words: "Dirk: Black Spy, 3 Mar: place 1, ahead
    by 62 points"; a win by the other's rule loss says it ("Ben lost by 9 tokens"); SPY, of
    places only, its place."""
    view = games.view_of(best.game)
    rules = view.rules
    parts = [
        t(
            "{name}: {game}, {day}: place {place}",
            name=name,
            game=view.title,
            day=day,
            place=best.place,
        )
    ]
    if best.lost_by_rule is not None and rules.lost_by_rule is not None:
        parts.append(t(rules.lost_by_rule, name=best.lost_by_rule))
    elif best.margin:
        parts.append(t(view.margin_words, margin=t.number(best.margin)))
    elif best.margin == 0 and rules.ahead_at_equal is not None:
        parts.append(t(rules.ahead_at_equal))
    return ", ".join(parts)


def review_card(
    t: Translator, names: dict[str, str], review: YearInReview, shades: dict[str, str]
) -> ft.Control:
    """The year on one card (what the picture shows), each player in their colour."""
    lines: list[ft.Control] = [
        ft.Text(t("{year} at the table", year=review.year), size=22, weight=ft.FontWeight.BOLD)
    ]
    if not review.games:
        lines.append(note(t("No finished game that year.")))
    else:
        lines.append(ft.Text(games_played(t, review.games, review.minutes)))
        if review.most_played:
            tied, count = review.most_played
            titles = ", ".join(games.view_of(game).title for game in tied)
            said = (
                f"{titles} ({count})"
                if len(tied) == 1
                else t.plural(
                    "{games} ({count} each)", "{games} ({count} each)", count, games=titles
                )
            )
            lines.append(ft.Text(t("Most played: {games}", games=said)))
        lines.append(heading(t("Best game of the year")))
        for person, best in sorted(review.best_games.items(), key=lambda i: names[i[0]].casefold()):
            day = local_day(best.started)
            when = format_date(day, "d MMM", locale=t.language) if day else ""
            said = best_game_line(t, names[person], best, when)
            lines.append(
                ft.Row(
                    [color_dot(shades[person], 10), ft.Text(said, size=13, expand=True)],
                    spacing=6,
                )
            )
        if review.records:
            lines.append(heading(t("Records set this year")))
            for feat in review.records:
                lines.append(
                    ft.Text(
                        f"{games.view_of(feat.game).title}: {t(feat.kind.title)} · "
                        f"{t.number(feat.value)} · {feat.holder}",
                        size=13,
                    )
                )
    lines.append(ft.Text("Debrief", size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    return info_box(lines, spacing=4)
