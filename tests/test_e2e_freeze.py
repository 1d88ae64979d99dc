"""No session freezes in silence: a component that raises while the screen is
redrawn must not stop the session's later updates."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from damaged import good_folder
from startup import faults
from ui import OnPhone, shown

from tools.browser import see, tap

pytestmark = pytest.mark.e2e


def wait_until(condition: Callable[[], bool], seconds: float = 15) -> None:
    """Wait for a state outside the page (a file the server removes)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the state was not reached"
        time.sleep(0.05)


@pytest.mark.fails_on_purpose
def test_a_component_that_raises_once_does_not_freeze_the_session(
    on_phone: OnPhone, tmp_path: Path
) -> None:
    """In flet 1.0.5 one exception while re-rendering ended the update loop for good: every
    later change was dropped without a word. Now the player is told, and the next change
    reaches the screen."""
    folder = tmp_path / "data"
    good_folder(folder)
    switch = tmp_path / "raise-once"
    env: dict[str, str | None] = {
        "PYTHONPATH": faults(),
        "DEBRIEF_FAULT": "render-once",
        "DEBRIEF_FAULT_SWITCH": str(switch),
        "DEBRIEF_FAULT_TARGET": "views.players:PlayersView",
    }
    _, page = on_phone(folder, env=env)
    shown(page, "Games in progress")
    switch.write_text("on")
    tap(page, "Players")  # the players' screen is drawn: it raises
    wait_until(lambda: not switch.exists())  # it did raise
    see(page, "Something went wrong")
    # The failed drawing left the home screen, or the next one drew the players' screen
    # (the change was kept): either way the change after it must reach the screen.
    players = page.get_by_text("Add a player")
    new_game = page.get_by_role("button", name="New game", exact=True)
    players.or_(new_game).first.wait_for(state="visible", timeout=15_000)
    if players.count():
        tap(page, "Back")
    tap(page, "New game")
    shown(page, "Which game?")
