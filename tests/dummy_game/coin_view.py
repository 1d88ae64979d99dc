"""Coin at the table: who won each toss (the view of the test's fifth game)."""

from __future__ import annotations

import flet as ft

from views.frame import game_over_panel, screen
from views.games import AtTable, GameView, NewGameForm
from views.state import REFUSALS

from .coin_rules import RULES


@ft.component
def CoinScreen(at: AtTable, key: str | None = None) -> ft.View:
    state = at.state

    def toss(winner: str) -> None:
        try:
            state.save_round(at.game_id, None, {"winner": winner})
        except REFUSALS as refused:
            state.say(" ".join(state.refusal(refused)))

    controls: list[ft.Control] = [game_over_panel(at)]
    for name, wins in at.result.totals.items():
        controls.append(ft.Text(f"{name}: {wins} wins", semantics_label=f"{name}: {wins} wins"))
        if not at.result.finished:
            controls.append(
                ft.FilledButton(f"{name} wins the toss", on_click=lambda _e, n=name: toss(n))
            )
    return screen(at, RULES.title, controls)


def options_form(form: NewGameForm) -> list[ft.Control]:
    return []


VIEW = GameView(
    rules=RULES,
    icon=ft.Icons.MONETIZATION_ON,
    screen=CoinScreen,
    options_form=options_form,
    options_of=lambda seats, options: {},
)
