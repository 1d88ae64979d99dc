"""Home: games in progress to continue with one tap, a new game, and the way to everything else."""

from __future__ import annotations

import flet as ft

import scoring
from storage.summaries import Summary

from . import buttons
from .games import GameView, view_of
from .hooks import memo
from .i18n import Translator
from .notices import notices_panel
from .state import AppState, use_screen
from .widgets import body, heading, icon_button, note


@memo
@ft.component
def HomeView(state: AppState) -> ft.View:
    t = state.t
    use_screen(state, "/")
    active = state.active_games()
    controls: list[ft.Control] = notices_panel(state)
    controls.append(
        buttons.FilledButton(
            t("New game"),
            icon=ft.Icons.ADD,
            height=56,
            on_click=lambda: state.go("/new"),
        )
    )
    controls.append(heading(t("Games in progress")))
    if not active:
        controls.append(note(t("No game in progress. Start one with New game.")))
    for summary in active:
        controls.append(GameCard(state, summary))
    controls += [
        ft.Divider(),
        ft.Row(
            wrap=True,
            controls=[
                buttons.OutlinedButton(
                    t("History"),
                    icon=ft.Icons.HISTORY,
                    height=48,
                    on_click=lambda: state.go("/history"),
                ),
                buttons.OutlinedButton(
                    t("Players"),
                    icon=ft.Icons.GROUP,
                    height=48,
                    on_click=lambda: state.go("/players"),
                ),
                buttons.OutlinedButton(
                    t("Statistics"),
                    icon=ft.Icons.INSIGHTS,
                    height=48,
                    on_click=lambda: state.go("/stats"),
                ),
            ],
        ),
    ]
    return ft.View(
        route="/",
        appbar=ft.AppBar(
            title=ft.Text("Debrief"),
            actions=[
                icon_button(
                    ft.Icons.SETTINGS, t("Settings"), on_click=lambda: state.go("/settings")
                )
            ],
        ),
        scroll=ft.ScrollMode.AUTO,
        controls=[ft.SafeArea(body(controls, spacing=12))],
    )


def round_called(t: Translator, game: GameView, index: int) -> str:
    """Round `index` as the game calls it, at the start of a line: "Deal 5", "Event 2" (a
    game whose rounds have no numbers, Spywhere's one: "Round 1")."""
    if "{number}" not in game.round_name:
        return t("Round {number}", number=index + 1)
    name = t(game.round_name, number=index + 1)
    return name[:1].upper() + name[1:]


@ft.component
def GameCard(state: AppState, summary: Summary) -> ft.Control:
    t = state.t
    game = view_of(summary.game)
    fix_round = summary.needs_correction
    if fix_round is not None:
        status = t("{round} needs a correction", round=round_called(t, game, fix_round))
    elif summary.finished:
        status = (
            t("Over: {names} won", names=", ".join(summary.winners))
            if summary.winners
            else t("Over: a draw")
        )
    elif summary.leaders:
        status = t(
            "{round} · leading: {names}",
            round=round_called(t, game, summary.rounds),
            names=", ".join(summary.leaders),
        )
    else:
        status = round_called(t, game, summary.rounds)
    kept = state.draft(summary.id)
    if kept is not None:
        index = summary.rounds if kept["round"] is None else scoring.as_int(kept["round"])
        status += " · " + t("{round} kept as a draft", round=round_called(t, game, index))
    return ft.Card(
        content=ft.ListTile(
            leading=ft.Icon(game.icon),
            title=ft.Text(f"{game.title} · {', '.join(summary.players)}"),
            subtitle=ft.Text(status),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda: state.go(f"/game/{summary.id}"),
        )
    )
