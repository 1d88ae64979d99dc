"""Quick entry in Chromium: a whole Black Spy game typed as each pile's points on the number
pad (the last pile filling itself in, moons one tap), every total checked against `scoring`;
what needs Flutter's drawing: the pad and the row it types in within reach with six players,
the sheet shown from its top after a long entry. Corrections in the form entered, the form
remembered and the pad's logic are played in-process (tests/test_screens_quick.py)."""

from __future__ import annotations

import json

import generators
import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    EN,
    Device,
    Seat,
    chip,
    enter_deal_quickly,
    open_cards_entry,
    save,
    scrolled_into_view,
    shown,
)

import scoring
from tools.browser import tap

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
OPTIONS = BLACK_SPY["options"]


def counted_game() -> list[dict[str, object]]:
    """The scenario's deals in points form, again and again until the game is over."""
    deals: list[dict[str, object]] = []
    while not scoring.standings({**BLACK_SPY, "rounds": deals})["finished"]:
        deal = BLACK_SPY["rounds"][len(deals) % len(BLACK_SPY["rounds"])]
        deals.append(generators.as_points_form(deal, no_good_spies=False))
    return deals


def totals_shown(page: Device, deals: list[dict[str, object]]) -> None:
    result = scoring.standings({**BLACK_SPY, "rounds": deals})
    for name, total in result["totals"].items():
        shown(page, f"{name}: total {EN.number(total)}")


@pytest.mark.long
def test_a_whole_game_in_quick_entry(table: Seat) -> None:
    """The scenario's game in points, its first two deals saved before (plain deals, as the
    tests below enter): the moon deal, the deals after it and the end entered on the pad."""
    deals = counted_game()
    _, page = table("black-spy", NAMES, rounds=deals[:2])
    for number, deal in enumerate(deals[2:], start=3):
        enter_deal_quickly(page, number, NAMES, deal, OPTIONS)
        totals_shown(page, deals[:number])
    winners = scoring.standings({**BLACK_SPY, "rounds": deals})["winners"]
    shown(page, f"Game over: {' & '.join(winners)} won!")


def test_after_a_long_entry_the_sheet_opens_at_its_top(table: Seat) -> None:
    """Saving an entry scrolled down to its Save shows the sheet from its top, with the button
    for the next deal in view (the sheet kept the entry's scroll offset: with a sheet longer
    than the screen, "Enter deal" was above it, out of reach)."""
    even = {"points": dict.fromkeys(NAMES, 15)}  # eight of them: 120 each, the game goes on
    _, page = table("black-spy", NAMES, rounds=[even] * 8)  # a sheet longer than the screen
    page.set_viewport_size({"width": 400, "height": 500})  # a small phone: the sheet is taller
    open_cards_entry(page, "Enter deal 9")  # the cards: an entry taller than the screen
    for name, spies in (("Anna", 2), ("Ben", 2), ("Carla", 1)):  # 20, 20, 10 and Dirk 10
        chip(page, f"{name}: black Spies: {spies}")
    save(page, "Save deal", "Deal 9 saved")  # the page scrolls down to it
    button = page.get_by_role("button", name="Enter deal 10", exact=True)
    button.wait_for(state="attached")
    box = button.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 500, box


PAD_KEYS = [*"1234567890", "Delete a digit"]


def in_view(page: Page, name: str) -> tuple[float, float]:
    """The top and bottom of the button named `name`, asserted to be on the phone's screen."""
    box = page.get_by_role("button", name=name, exact=True).first.bounding_box()
    assert box is not None, name
    top, bottom = box["y"], box["y"] + box["height"]
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert top >= 0 and bottom <= height, (name, top, bottom)
    return top, bottom


def test_with_six_players_the_pad_stays_in_reach_and_shows_where_it_types(table: Seat) -> None:
    """Six Spywhere players on a phone: every key and Save on the screen (below the players'
    rows they had left it), and each row the pad moves on to scrolled into view."""
    names = ["Anna", "Ben", "Carla", "Dirk", "Eva", "Finn"]
    _, page = table("spywhere", names)
    for key in [*PAD_KEYS, "Next player", "Save scores"]:
        in_view(page, key)
    pad_top, _ = in_view(page, "1")
    for name, own in zip(names[:-1], "56789", strict=True):  # each a digit no other can follow
        tap(page, own)
        following = names[names.index(name) + 1]
        row = f"{following}'s own cards: nothing yet"
        page.get_by_role("button", name=row, exact=True).wait_for()
        scrolled_into_view(page, row, bottom=pad_top)
