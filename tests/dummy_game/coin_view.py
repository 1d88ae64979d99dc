"""Coin at the table: each player's wins, and a button per player that saves their toss (the
view of the test's fifth game). The round entry every game shares (views/round_entry.py)
does the rest: the buttons stay under the wins until the game is over, a refused toss is
said above them, and the bar offers undo."""

from __future__ import annotations

import flet as ft

from scoring.errors import N_
from views.frame import game_over_panel, screen
from views.games import AtTable, GameView, NewGameForm
from views.round_entry import Drawn, Entering, Form, RoundEntryOf, use_round_entry

from .coin_rules import RULES


@ft.component
def CoinScreen(at: AtTable, key: str | None = None) -> ft.View:
    entry = use_round_entry(at, ENTRY)
    controls: list[ft.Control] = [game_over_panel(at)]
    for name, wins in at.result.totals.items():
        said = at.t("{name}: {wins} wins", name=name, wins=wins)
        controls.append(ft.Text(said, semantics_label=said))
    if entry.control is not None:
        controls.append(entry.control)
    return screen(at, RULES.title, controls, entering=entry.open)


def toss_buttons(entering: Entering[None]) -> Drawn:
    """One button per player: that player won the toss, saved at once."""
    buttons: list[ft.Control] = [
        ft.FilledButton(
            entering.t("{name} wins the toss", name=name),
            on_click=lambda _e, winner=name: entering.save_round({"winner": winner}),
        )
        for name in entering.before.table.names
    ]
    return Drawn([], actions=buttons)


# A toss has nothing to enter before its button: the draft is empty.
ENTRY: RoundEntryOf[None, None] = RoundEntryOf(
    quick=Form(
        blank=lambda before: None,
        of_round=lambda before, toss: None,
        read_kept=lambda before, entry: None,
        kept=lambda nothing: {},
        entered=lambda before, nothing: before.blank_round(),
        fields=toss_buttons,
    ),
    cards=None,
    was_quick=lambda toss: True,
    title=lambda t, index, correcting: t("Toss {number}", number=index + 1),
    save_label=N_("Save"),  # not shown: each player's button saves
    saved=lambda t, after, index: t("Toss {number} saved.", number=index + 1),
    always_open=True,
)


def options_form(form: NewGameForm) -> list[ft.Control]:
    return []


VIEW = GameView(
    rules=RULES,
    icon=ft.Icons.MONETIZATION_ON,
    screen=CoinScreen,
    options_form=options_form,
    options_of=lambda seats, options: {},
)
