"""Temporary."""

from __future__ import annotations

from typing import Any

import flet as ft

import scoring

from .frame import game_bar
from .state import AppState


@ft.component
def SpyScreen(
    state: AppState, game_id: str, record: dict[str, Any], result: scoring.Replay
) -> ft.View:
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, record),
        controls=[ft.Text(str(result.standings()["totals"]))],
    )
