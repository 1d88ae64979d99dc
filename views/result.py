"""The end of a game, on every screen that shows it (the host's, each guest's, the history's):
the places with their ties, each player's score and what made it, how long the game took, and
what comes next: play again, share the result, put the game into the history, go home."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

import flet as ft
from babel.dates import format_date

import scoring

from .games import AtTable, view_of
from .i18n import Translator, minutes_between
from .state import HOST, AppState
from .widgets import info_box, note


def game_over_panel(at: AtTable, explanation: list[ft.Control] | None = None) -> ft.Control:
    """The result of a finished game (nothing while it goes on): the winners, the places,
    what made each score, the game's length, a game's own `explanation` (a tie-break, a loss
    by tokens) and the actions."""
    t, result = at.t, at.result
    if not result.finished:
        return ft.Container()
    if result.winners:
        headline = t("Game over: {names} won!", names=" & ".join(result.winners))
    else:
        headline = t("Game over: a draw.")
    controls: list[ft.Control] = [
        ft.Text(headline, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD),
        places(at),
        *(explanation or []),
    ]
    length = game_length(at)
    if length is not None:
        controls.append(note(t("Played in {duration}", duration=t.duration(length))))
    controls.append(actions(at))
    return info_box(controls, ft.Colors.TERTIARY_CONTAINER)


def places(at: AtTable) -> ft.Control:
    """A line per player, best first: the place (shared on a tie, as the rules say), the
    name, the score (where the game has one) and what made it."""
    t, result = at.t, at.result
    view = view_of(at.record["game"])
    made = view.made_of(t, result)
    rows: list[ft.Control] = []
    for name in result.ranking:
        score = t.number(result.totals[name]) if view.totals_are_scores else None
        rows.append(place_row(t, result.places[name], name, score, made.get(name)))
    return ft.Column(rows, spacing=6)


def place_row(
    t: Translator, place: int, name: str, score: str | None, made: str | None
) -> ft.Control:
    """ "1.  Greta   120" with what made it under the name; spoken as one line."""
    said = t("{place}. {name}", place=place, name=name)
    if score is not None:
        said = t("{place}. {name}: {score}", place=place, name=name, score=score)
    title = ft.TextThemeStyle.TITLE_MEDIUM
    top = ft.Row(
        [
            ft.Text(name, expand=True, theme_style=title, weight=bold_if(place == 1)),
            *([ft.Text(score, theme_style=title, weight=bold_if(place == 1))] if score else []),
        ]
    )
    lines: list[ft.Control] = [top]
    if made:
        lines.append(ft.Text(made, size=13))
        said = f"{said}\n{made}"  # a line each, as Flutter joins a card's texts
    row = ft.Row(
        [
            ft.Container(ft.Text(t("{place}.", place=place), theme_style=title), width=32),
            ft.Column(lines, spacing=0, expand=True),
        ],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    return ft.Semantics(content=row, label=said, container=True, exclude_semantics=True)


def bold_if(bold: bool) -> ft.FontWeight | None:
    return ft.FontWeight.BOLD if bold else None


def game_length(at: AtTable) -> int | None:
    """Minutes from the start to the end (into the history, else the last change)."""
    meta = at.record.get("meta") or {}
    started = meta.get("started")
    ended = at.app.ended_at(at.game_id)
    return minutes_between(started if isinstance(started, str) else None, ended)


def actions(at: AtTable) -> ft.Control:
    """Share for everyone; the host also plays again, finishes (into the history) and goes
    home: a guest's phone shows this game only."""
    state, t, game_id = at.app, at.t, at.game_id
    share = ft.OutlinedButton(
        t("Share the result"),
        icon=ft.Icons.SHARE,
        height=48,
        on_click=result_sharer(state, result_text(t, at.record, at.result)),
    )
    if state.role != HOST:
        return ft.Row([share], wrap=True)
    buttons: list[ft.Control] = [
        ft.FilledButton(
            t("Play again"),
            icon=ft.Icons.REPLAY,
            height=48,
            on_click=lambda: play_again(state, game_id),
        ),
        share,
    ]
    if state.is_active(game_id):
        buttons.append(
            ft.FilledButton(
                t("Finish and save to history"),
                icon=ft.Icons.CHECK,
                height=48,
                on_click=lambda: finish(state, game_id),
            )
        )
    buttons.append(
        ft.TextButton(t("Home"), icon=ft.Icons.HOME, height=48, on_click=lambda: state.go("/"))
    )
    column: list[ft.Control] = [ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)]
    if not state.is_active(game_id):
        column.append(note(t("This game is in the history.")))
    return ft.Column(column, spacing=6)


def result_text(t: Translator, record: scoring.GameRecord, result: scoring.Replay) -> str:
    """The result as a message to send: "Black Spy, 14 Nov: Greta 120, Ben 165, …" (winner
    first)."""
    title = view_of(str(record["game"])).title
    started = str(record.get("meta", {}).get("started") or "")
    try:
        when = format_date(dt.datetime.fromisoformat(started), "d MMM", locale=t.language)
    except ValueError:
        when = ""
    scores = ", ".join(f"{name} {t.number(result.totals[name])}" for name in result.ranking)
    return f"{title}, {when}: {scores}" if when else f"{title}: {scores}"


def result_sharer(state: AppState, text: str) -> Callable[[], Awaitable[None]]:
    """Send the result with the phone's share sheet; elsewhere (a desktop, any browser: the
    web's share sheet needs HTTPS, which a table on the local network is not) copy it. Decided
    by platform, not by trying."""

    async def share() -> None:
        page = ft.context.page
        phone = page.platform in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS)
        if phone and not page.web:
            await ft.Share().share_text(text)
            return
        await ft.Clipboard().set(text)
        state.say(state.t("Copied: {result}", result=text))

    return share


def finish(state: AppState, game_id: str) -> None:
    """Put the game into the history and go home (unless that could not be saved)."""
    if state.tried(lambda: state.finish(game_id)):
        state.go("/")


def play_again(state: AppState, game_id: str) -> None:
    """The same table's next game, at the table (`AppState.play_again`)."""
    new_id = state.attempt(lambda: state.play_again(game_id))
    if new_id is not None:
        state.go(f"/game/{new_id}")
