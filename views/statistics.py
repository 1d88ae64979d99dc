"""Statistics of the table: over a period, for a group of players and a game, what the games
say (scoring/group_stats.py works it out; this screen only shows it)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import flet as ft

from scoring.group_stats import (
    ALL_TIME,
    Feat,
    GroupStats,
    People,
    Period,
    PlayerRecord,
    counted,
    group_stats,
    most_played_shown,
    records,
)
from storage.store import Player

from . import buttons, games
from .hooks import memo, use_value
from .i18n import Translator
from .notices import notices_panel
from .state import AppState, use_screen
from .theme import shades_of
from .widgets import (
    back_bar,
    body,
    choice_chips,
    color_chip,
    color_dot,
    heading,
    info_box,
    labelled_chips,
    note,
)

ALL = "*"


def period_of(choice: str, today: dt.date) -> Period:
    if choice == "month":
        return Period.month_of(today)
    if choice == "year":
        return Period.year_of(today)
    return ALL_TIME


@memo
@ft.component
def StatisticsView(state: AppState) -> ft.View:
    t = state.t
    use_screen(state, "/stats")
    period, set_period = use_value("all")
    game, set_game = use_value(ALL)
    no_one: tuple[str, ...] = ()
    group, set_group = use_value(no_one)
    roster = state.players(include_archived=True)
    people, names = people_of(roster)
    shade = shades_of(roster, state.dark)
    today = dt.date.today()

    def work_out() -> tuple[GroupStats, list[Feat]]:
        chosen = counted(
            state.summaries(),
            people,
            period_of(period, today),
            group,
            None if game == ALL else game,
        )
        return group_stats(chosen, people), records(chosen)

    # Worked out again only when the data or a filter changed (10,000 games: 0.6 s), not for
    # a redraw that changes neither (the language, the theme).
    stats, feats = ft.use_memo(work_out, [state.revision, period, game, group, today])

    def toggle(person: str) -> None:
        set_group(tuple(p for p in group if p != person) if person in group else (*group, person))

    controls: list[ft.Control] = [
        buttons.FilledButton(
            t("Year in review"),
            icon=ft.Icons.CALENDAR_TODAY,
            height=48,
            on_click=lambda: state.go("/stats/year"),
        ),
        choice_chips(
            t("Period"),
            [("month", t("This month")), ("year", t("This year")), ("all", t("All time"))],
            period,
            set_period,
        ),
        choice_chips(
            t("Game"),
            [(ALL, t("All games")), *((v.id, v.title) for v in games.load().values())],
            game,
            set_game,
        ),
        labelled_chips(
            t("Games all of these played"),
            [
                color_chip(
                    ft.Text(p["name"]),
                    p["id"] in group,
                    shade[p["id"]],
                    on_click=lambda _, person=p["id"]: toggle(person),
                )
                for p in roster
                if not p["archived"] or p["id"] in group
            ],
        ),
        *overview(t, stats),
        *records_list(state, feats),
    ]
    playing = [person for person, record in stats.players.items() if record.games]
    playing.sort(key=lambda person: (-stats.players[person].wins, names[person].casefold()))
    controls += [player_card(t, names, person, stats, shade[person]) for person in playing]
    return ft.View(
        route="/stats",
        appbar=back_bar(t("Statistics"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[ft.SafeArea(body([*notices_panel(state), *controls], spacing=12))],
    )


def people_of(roster: list[Player]) -> tuple[People, dict[str, str]]:
    """Each roster player by id: every name they played under (their name now first), and
    their name now."""
    people = {p["id"]: [p["name"], *p["former_names"]] for p in roster}
    return people, {person: names[0] for person, names in people.items()}


def games_played(t: Translator, count: int, minutes: int) -> str:
    """ "12 games · 9 h 30 min played" """
    counted = t.plural("{count} game", "{count} games", count)
    return counted + " · " + t("{time} played", time=t.duration(minutes))


def overview(t: Translator, stats: GroupStats) -> list[ft.Control]:
    """How many games, how long, and which games most."""
    if not stats.games:
        return [note(t("No finished game counts here."))]
    lines = [
        games_played(t, stats.games, stats.minutes),
        t(
            "Most played: {games}",
            games=", ".join(
                f"{games.view_of(game).title} ({count})"
                for game, count in most_played_shown(stats.most_played)
            ),
        ),
    ]
    return [heading(t("All of it")), *(ft.Text(line) for line in lines)]


def records_list(state: AppState, feats: list[Feat]) -> list[ft.Control]:
    """Each record and who holds it; a tap opens the game it happened in."""
    if not feats:
        return []
    t = state.t
    tiles: list[ft.Control] = [heading(t("Records"))]
    for feat in feats:
        title = f"{games.view_of(feat.game).title}: {t(feat.kind.title)}"
        if feat.kind.best == "count":  # how many games, and who in the latest
            said = t.plural(
                "{count} game · the latest: {name}",
                "{count} games · the latest: {name}",
                int(feat.value),
                name=feat.holder,
            )
        else:
            said = t("{value} · {name}", value=t.number(feat.value), name=feat.holder)
        tiles.append(
            ft.ListTile(
                title=ft.Text(title),
                subtitle=ft.Text(said),
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                on_click=lambda _, game_id=feat.game_id: state.go(f"/history/{game_id}"),
            )
        )
    return tiles


def player_card(
    t: Translator, names: dict[str, str], person: str, stats: GroupStats, color: str
) -> ft.Control:
    record = stats.players[person]
    lines = [
        t(
            "Games {games} · wins {wins} · average place {place}",
            games=record.games,
            wins=record.wins,
            place=t.number(round(record.average_place or Fraction(0), 1)),
        ),
        t(
            "Winning streak: now {now}, longest {longest}",
            now=record.current_streak,
            longest=record.longest_streak,
        ),
        *rivals(t, names, record),
    ]
    opponents = stats.opponents[person][:3]
    if opponents:
        lines.append(
            t(
                "Plays most with: {players}",
                players=", ".join(f"{names[other]} ({count})" for other, count in opponents),
            )
        )
    return info_box(
        [
            ft.Row(
                [color_dot(color), ft.Text(names[person], weight=ft.FontWeight.BOLD, size=16)],
                spacing=6,
            ),
            *(ft.Text(line, size=13) for line in lines),
        ],
        ft.Colors.SURFACE_CONTAINER_HIGH,
        spacing=2,
    )


def rivals(t: Translator, names: dict[str, str], record: PlayerRecord) -> list[str]:
    said = []
    if record.rival is not None:
        said.append(t("Rival: {name}", name=names[record.rival]))
    if record.favourite_victim is not None:
        said.append(t("Favourite victim: {name}", name=names[record.favourite_victim]))
    return said
