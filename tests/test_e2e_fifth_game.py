"""Adding a game takes one module in scoring/ and one in views/ (issue 10): a fifth game,
registered by the test server's start-up only, appears in New game, plays, and shows in
History, with no other module touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from startup import python_path
from ui import OnPhone, shown, start_game

from tools.browser import tap

pytestmark = pytest.mark.e2e
TESTS = Path(__file__).resolve().parent


def test_a_fifth_game_plays_and_shows_in_history(on_phone: OnPhone, tmp_path: Path) -> None:
    env: dict[str, str | None] = {"PYTHONPATH": python_path("dummy_game.at_start", TESTS)}
    _, page = on_phone(tmp_path / "data", env=env)
    start_game(page, "Coin", ["Anna", "Ben"])
    tap(page, "Start Coin")
    for wins in (1, 2, 3):
        tap(page, "Anna wins the toss")
        shown(page, f"Anna: {wins} wins")
    shown(page, "Game over: Anna won!")
    tap(page, "Finish and save to history")
    tap(page, "History")
    shown(page, "Game: Coin")  # the filter offers it
    page.get_by_text("Coin · Anna, Ben").first.wait_for(state="attached", timeout=15_000)
