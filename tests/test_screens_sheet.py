"""Black Spy's scoresheet in a long game, through the app's screens in-process
(tests/screens.py): at deal 40 it shows its last deals, the earlier ones a tap away and each
still correctable. How the sheet fits a phone (six long names, German words whole) is the
browser's: tests/test_e2e_sheet.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from generators import black_spy_deal
from screens import Screen, Table
from ui import EN, seat_table, shown, tap, tap_starting

from views.games.black_spy import LATEST_DEALS

NAMES = ["Maximilian", "Anna", "Alexandra", "Christopher", "Ben", "Katharina"]


def earlier(count: int) -> str:
    """The button that shows the deals before the last ones."""
    return EN.plural("{count} earlier deal", "{count} earlier deals", count)


def edit_buttons(screen: Screen) -> int:
    """How many deals' rows the sheet has drawn (each a button named "Edit deal N" and its
    numbers)."""
    return sum(
        1 for node in screen.nodes() if node.role == "button" and node.name.startswith("Edit deal ")
    )


def test_at_deal_40_the_sheet_holds_the_last_deals_and_deal_1_is_still_corrected(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    rng = random.Random(40)
    rounds = [black_spy_deal(rng, NAMES, False, 0.05) for _ in range(40)]
    folder = tmp_path / "data"
    seat_table(folder, "black-spy", NAMES, {"first_dealer": NAMES[0], "end_value": 100_000}, rounds)
    screen = screen_tables(folder).screen()
    assert screen.find("Enter deal 41", "button"), screen.texts()
    tap_starting(screen, "Edit deal 40")  # the last deal, as ever
    shown(screen, "Correct deal 40")
    tap(screen, "Discard")
    assert edit_buttons(screen) == LATEST_DEALS
    tap(screen, earlier(40 - LATEST_DEALS))
    tap_starting(screen, "Edit deal 1")
    shown(screen, "Correct deal 1")
    tap(screen, "Discard")
    # Back on the sheet, the earlier deals are still shown, until hidden.
    assert edit_buttons(screen) == 40
    tap(screen, EN("Hide earlier deals"))
    assert screen.find(earlier(40 - LATEST_DEALS), "button"), screen.texts()
    assert edit_buttons(screen) == LATEST_DEALS
