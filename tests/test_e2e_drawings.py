"""What a tap draws again, counted in the app's server (tests/drawings.py): only the screen on
top follows a change; a screen under it, and the app's stack of screens, are not drawn again
for a change they do not show (issue 25: a Save drew the home screen under the game, and the
whole app, again)."""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path
from typing import Any

import pytest
from builders import SCENARIOS
from drawings import read
from startup import TESTS, python_path
from ui import OnPhone, chip, open_cards_entry, seat_table, shown

from tools.browser import see, tap

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
ROW = "Black Spy · Anna, Ben, Carla, Dirk"


class Drawings:
    """The counts of the server's drawings, by component, read once it has gone quiet."""

    def __init__(self, server: Any, report: Path) -> None:
        self.pid, self.report = server.process.pid, report

    def quiet(self, calm: float = 0.3) -> collections.Counter[str]:
        last = read(self.pid, self.report)
        while True:
            time.sleep(calm)
            now = read(self.pid, self.report)
            if now == last:
                return now
            last = now

    def during(self, action: Any) -> collections.Counter[str]:
        """The drawings that `action` (a tap that waits for its answer) set off."""
        before = self.quiet()
        action()
        return self.quiet() - before


@pytest.fixture
def counted(on_phone: OnPhone, tmp_path: Path) -> tuple[Any, Drawings]:
    """A Black Spy game after three deals, served by a server that counts its drawings; the
    page on it (it reopens on the game)."""
    seat_table(tmp_path / "data", "black-spy", NAMES, rounds=BLACK_SPY["rounds"][:3])
    report = tmp_path / "drawings.json"
    env: dict[str, str | None] = {
        "PYTHONPATH": python_path("drawings", TESTS),
        "DEBRIEF_DRAWINGS": str(report),
    }
    server, page = on_phone(tmp_path / "data", env=env)
    shown(page, "Enter deal 4")
    return page, Drawings(server, report)


def test_a_save_draws_only_the_game_screen_again_once(counted: tuple[Any, Drawings]) -> None:
    page, drawings = counted
    open_cards_entry(page, "Enter deal 4")
    chip(page, "Anna: black Spies: 1")

    def save() -> None:
        tap(page, "Save deal")
        see(page, "Edit deal 4")

    drawn = drawings.during(save)
    # Once, with the saved deal: the entry closes in the drawing that shows the game with it
    # (closed at once, the screen was drawn first with the sheet as it was, then again).
    assert drawn["GameScreen"] == 1 and drawn["BlackSpyScreen"] == 1, drawn
    assert drawn["App"] == 0 and drawn["HomeView"] == 0 and drawn["GameCard"] == 0, drawn


def test_opening_a_game_leaves_home_beneath_as_drawn_and_back_draws_it_afresh(
    counted: tuple[Any, Drawings],
) -> None:
    page, drawings = counted
    back = drawings.during(lambda: (tap(page, "Back"), shown(page, "New game")))
    assert back["HomeView"] == 1, back  # it was drawn under the game: now it catches up

    def open_game() -> None:
        page.get_by_role("button", name=ROW, exact=False).first.click()
        shown(page, "Enter deal 4")

    opened = drawings.during(open_game)
    assert opened["GameScreen"] == 1 and opened["App"] == 1, opened
    assert opened["HomeView"] == 0 and opened["GameCard"] == 0, opened
