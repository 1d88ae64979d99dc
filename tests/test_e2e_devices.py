"""Several tabs and devices on one game, in Chromium: each follows every save at once, no change
made from an old state overwrites a newer one, and undo undoes only what this tab did.

A tab is another page of the same browser context (the same device: it shares the device's
drafts); a device is another context."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import generators
import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    Seat,
    chip,
    choose_form,
    enter_deal,
    enter_spy_event,
    open_cards_entry,
    pile_shows,
    shown,
    tap_starting,
)

import scoring
from tools.browser import held_answers, in_view, open_app, released_answers, see, showing, tap

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
SPY = json.loads((SCENARIOS / "spy-three-players.json").read_text())
SPY_NAMES = [p["name"] for p in SPY["players"]]
SPY_EVENTS = SPY["rounds"] + [{"event": "target", "by": "Ben", "base": "Carla"}] * 3


def event_row(page: Page, number: int, by: str) -> None:
    """Wait until SPY's event log lists event `number`, made by `by`."""
    page.get_by_role("button", name=re.compile(rf"^{number} {re.escape(by)} ")).first.wait_for(
        state="attached", timeout=15_000
    )


def undo_buttons(page: Page) -> int:
    return page.get_by_role("button", name=re.compile(r"^Undo")).count()


def test_a_second_tab_follows_each_save_and_cannot_undo_the_first_tabs(table: Seat) -> None:
    app, page = table("spy", SPY_NAMES)
    enter_spy_event(page, SPY_EVENTS[0], 1)
    second = open_app(page.context, app.url)  # the same device, another tab: opens the game
    try:
        event_row(second, 1, SPY_EVENTS[0]["by"])
        enter_spy_event(second, SPY_EVENTS[1], 2)
        event_row(page, 2, SPY_EVENTS[1]["by"])  # the first tab follows, with no reload
        # The last change is the second tab's: the first may not undo it (nor its own, which
        # is no longer the latest).
        page.get_by_role("button", name=re.compile(r"^Undo")).wait_for(state="detached")
        assert undo_buttons(second) == 1
    finally:
        second.close()


def test_a_stale_tab_cannot_finish_a_game_that_is_no_longer_over(table: Seat) -> None:
    app, page = table("spy", SPY_NAMES, rounds=SPY_EVENTS[:-1])
    enter_spy_event(page, SPY_EVENTS[-1], len(SPY_EVENTS))  # the last, which this device undoes
    stale = open_app(page.context, app.url)
    try:
        finish = stale.get_by_role("button", name="Finish and save to history", exact=True)
        finish.wait_for()
        held_answers(stale)  # from now on the stale tab shows the game as it was
        tap(page, f"Undo: save event {len(SPY_EVENTS)}")  # the game is not over any more
        finish.click()  # tapped on the old screen, before it could follow
        released_answers(stale)
        tap(page, "Back")
        shown(page, "Games in progress")
        see(page, "SPY · Anna, Ben, Carla")  # still at the table, not in the history
        stale.get_by_role("button", name="Finish and save to history").wait_for(state="detached")
    finally:
        stale.close()


def test_a_save_from_an_old_state_is_refused_and_the_entry_kept(
    table: Seat, guest_phone: Callable[[str], Page]
) -> None:
    app, page = table("black-spy", NAMES)
    other = guest_phone(app.url)  # another device: it opens on the game at the table
    open_cards_entry(other, "Enter deal 1")
    chip(other, "Anna: black Spies: 1")
    pile_shows(other, "Anna", 10)
    enter_deal(page, 1, NAMES, BLACK_SPY["rounds"][0])  # meanwhile, on the first device
    see(other, "saved deal 1: ")  # at once, named, in numbers, beside the entry
    tap(other, "Save deal")  # typed as deal 1, which is taken: refused, nothing lost
    see(other, "Choose above what becomes of your entry.")
    pile_shows(other, "Anna", 10)
    first = scoring.standings({**BLACK_SPY, "rounds": BLACK_SPY["rounds"][:1]})
    shown(page, f"Anna: total {first['totals']['Anna']}")
    tap(other, "Save mine as deal 2")  # seen, saved on purpose as the next deal
    see(other, "Deal 2 saved")
    shown(page, "Enter deal 3")


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
    """Issue 24: a refused save was said in the entry in Black Spy and in a note at the
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
