"""Pieces every game's table screen shares: the bar with undo, the game-over panel, notes."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

import scoring

from .i18n import Translator
from .state import AppState
from .widgets import back_bar, body, icon_button, info_box, note


def game_bar(state: AppState, game_id: str, title: str) -> ft.AppBar:
    t = state.t

    def undo() -> None:
        label = state.undo()
        state.say(t("Undone: {what}", what=label) if label else t("Nothing to undo"))

    return back_bar(
        title,
        lambda: state.go("/"),
        t,
        actions=[
            icon_button(
                ft.Icons.UNDO, t("Undo"), disabled=not state.can_undo(game_id), on_click=undo
            )
        ],
    )


def game_over_panel(
    state: AppState,
    game_id: str,
    result: scoring.Replay,
    explanation: list[ft.Control] | None = None,
) -> ft.Control:
    """The winner, and the way to put the game into the history."""
    t = state.t
    if not result.finished:
        return ft.Container()
    if result.winners:
        headline = t("Game over: {names} won!", names=" & ".join(result.winners))
    else:
        headline = t("Game over: a draw.")
    controls: list[ft.Control] = [
        ft.Text(headline, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD),
        *(explanation or []),
    ]
    if state.is_active(game_id):
        controls.append(
            ft.FilledButton(
                t("Finish and save to history"),
                icon=ft.Icons.CHECK,
                height=48,
                on_click=lambda: finish(state, game_id),
            )
        )
    else:
        controls.append(note(t("This game is in the history.")))
    return info_box(controls, ft.Colors.TERTIARY_CONTAINER)


def snack(state: AppState) -> list[ft.Control]:
    """The last note (saved, undone, ...) as a line under the app bar."""
    if not state.message:
        return []
    return [
        ft.Container(
            ft.Row([ft.Icon(ft.Icons.INFO_OUTLINE, size=18), ft.Text(state.message, expand=True)]),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=8,
            padding=8,
        )
    ]


def problems_text(state: AppState, errors: list[scoring.RecordError]) -> list[str]:
    return [state.t.problem(error) for error in errors]


def screen(state: AppState, game_id: str, title: str, controls: list[ft.Control]) -> ft.View:
    """A game's table screen: its bar (back, undo) over the content, scrolling."""
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, title),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def correction_banner(t: Translator, fix_round: int | None) -> list[ft.Control]:
    """For a game stored before a rule it breaks: which round to correct, and why it matters."""
    if fix_round is None:
        return []
    return [
        info_box(
            [
                ft.Text(
                    t("Round {number} needs a correction", number=fix_round + 1),
                    weight=ft.FontWeight.BOLD,
                ),
                ft.Text(
                    t(
                        "This game was saved before Debrief knew a rule it breaks. Correct the "
                        "round to go on; until then the game counts in no statistics."
                    )
                ),
            ],
            ft.Colors.ERROR_CONTAINER,
        )
    ]


def entry_exits(
    state: AppState, fix_round: int | None, close_entry: Callable[[], None]
) -> tuple[Callable[[], None], Callable[[], None]]:
    """(leave, saved) for a round's entry: normally both close the entry; while a stored game
    needs a correction, leaving goes home and a saved correction shows the game afresh (the
    game screen is made anew for it, so this one must not change its own state)."""
    if fix_round is None:
        return close_entry, close_entry
    return (lambda: state.go("/")), (lambda: None)


def finish(state: AppState, game_id: str) -> None:
    """Put the game into the history and go home (unless that could not be saved)."""
    if state.tried(lambda: state.finish(game_id)):
        state.go("/")
