"""Adding a game takes one module in scoring/ and one in views/ (issue 10): a fifth game,
registered by the test server's start-up only, appears in New game, plays, and shows in
History, with no other module touched. Its entry, a refused save and undo come from the
round entry every game shares (issue 24)."""

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
    shown(page, "Toss 1")  # the shared entry, always open: its title
    tap(page, "Anna wins the toss")
    shown(page, "Anna: 1 wins")
    tap(page, "Undo: save round 1")  # the shared bar's undo
    shown(page, "Anna: 0 wins")
    for winner, wins in (("Anna", 1), ("Ben", 1), ("Anna", 2)):
        tap(page, f"{winner} wins the toss")
        shown(page, f"{winner}: {wins} wins")
    # No one wins two tosses in a row: the rules refuse it, the shared entry says so.
    refusal = "Not saved: Round 4: Anna is not one of Ben"
    tap(page, "Anna wins the toss")
    shown(page, refusal)
    shown(page, "Anna: 2 wins")
    tap(page, "Ben wins the toss")
    shown(page, "Ben: 2 wins")
    page.get_by_text(refusal).wait_for(state="detached")  # a save answers the refusal
    tap(page, "Anna wins the toss")
    shown(page, "Game over: Anna won!")
    tap(page, "Finish and save to history")
    tap(page, "History")
    shown(page, "Game: Coin")  # the filter offers it
    page.get_by_text("Coin · Anna, Ben").first.wait_for(state="attached", timeout=15_000)
