"""Several tabs and devices on one game, in Chromium: where a refused save is said, on the
screen as drawn (in the entry, above Save).

That each tab and device follows every save at once, that no change made from an old state
overwrites a newer one and that undo undoes only what this tab did is played in-process:
tests/test_screens_devices.py."""

from __future__ import annotations

import random

import generators
import pytest
from playwright.sync_api import Page
from ui import Seat, choose_form, tap_starting

from tools.browser import in_view, showing, tap

pytestmark = pytest.mark.e2e


def said_above(page: Page, text: str, button: str) -> None:
    """`text` is shown in the entry, above the button it is about, with the button in view
    (not in a note over the bottom of the screen, which covers what is there and goes away).
    Flutter also hands a note's text to an announcer off the screen: only what is drawn on
    the screen counts."""
    said = showing(page, text)
    said.first.wait_for(state="attached", timeout=15_000)
    target = page.get_by_role("button", name=button, exact=True).first
    in_view(page, target)
    button_box = target.bounding_box()
    boxes = [box for box in (said.nth(i).bounding_box() for i in range(said.count())) if box]
    drawn = [box for box in boxes if box["y"] >= 0]
    assert button_box is not None and drawn, (text, boxes)
    assert all(box["y"] + box["height"] <= button_box["y"] for box in drawn), (
        text,
        drawn,
        button_box,
    )


def test_a_refused_save_is_said_in_the_entry_above_save(table: Seat) -> None:
    """A refused save was once said in the entry in Black Spy and in a note at the
    bottom of the screen in Kompromat (over the Save button): one way for every game and
    every refusal, in the entry above Save."""
    names = ["Anna", "Ben"]
    record = generators.in_outcome_form(
        generators.kompromat_record(random.Random(1), max_rounds=1, names=names)
    )
    _, page = table("kompromat", names, record["options"])
    tap_starting(page, "Enter round 1 of 6")
    choose_form(page, "Quick")
    tap(page, "Save round")  # nothing entered: the rules refuse it
    said_above(page, "Not saved: ", "Save round")
