"""The table screen of a game: each game has its own screen; this picks it."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

import scoring
from storage.errors import StorageError

from .black_spy_screen import BlackSpyScreen
from .kompromat_screen import KompromatScreen
from .spy_screen import SpyScreen
from .spywhere_screen import SpywhereScreen
from .state import AppState
from .widgets import back_bar

ScreenFactory = Callable[..., ft.View]
SCREENS: dict[str, ScreenFactory] = {
    "black-spy": BlackSpyScreen,
    "kompromat": KompromatScreen,
    "spy": SpyScreen,
    "spywhere": SpywhereScreen,
}


@ft.component
def GameView(state: AppState, game_id: str) -> ft.View:
    t = state.t
    _ = state.revision
    try:
        record = state.record(game_id)
    except StorageError as error:
        return ft.View(
            route=f"/game/{game_id}",
            appbar=back_bar("Debrief", lambda: state.go("/"), t),
            controls=[ft.Text(t.problem(error))],
        )
    try:
        result, correction = scoring.replay_until_broken(record)
    except scoring.InvalidRecord as invalid:  # broken outside its rounds: nothing to open
        return ft.View(
            route=f"/game/{game_id}",
            appbar=back_bar("Debrief", lambda: state.go("/"), t),
            controls=[ft.Text(t.problem(error)) for error in invalid.errors],
        )
    fix_round = None if correction is None else correction.round
    # A new screen instance per number of rounds (and round to correct): a saved round shows a
    # fresh screen rather than one updated both by itself and by this parent at once (which
    # sometimes froze it).
    screen_key = f"{game_id}:{len(record['rounds'])}:{fix_round}"
    return SCREENS[record["game"]](
        state, game_id, record, result, fix_round=fix_round, key=screen_key
    )
