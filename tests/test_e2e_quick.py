"""Quick entry in Chromium: a whole Black Spy game typed as each pile's points on the number
pad (the last pile filling itself in, moons one tap), every total checked against `scoring`;
a deal corrected in the form it was entered; the table's choice of form remembered."""

from __future__ import annotations

import copy
import json
import random

import generators
import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    EN,
    Seat,
    chip,
    choose_form,
    enter_deal_quickly,
    enter_kompromat_outcomes,
    enter_spywhere_counts,
    open_cards_entry,
    save,
    scrolled_into_view,
    shown,
    tap_starting,
    type_pile,
)

import scoring
from scoring import black_spy
from tools.browser import see, tap, tap_unchanged

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


def totals_shown(page: Page, deals: list[dict[str, object]]) -> None:
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


def test_a_quick_deal_is_corrected_on_the_pad_and_the_form_is_remembered(table: Seat) -> None:
    _, page = table("black-spy", NAMES)
    deals = counted_game()[:2]
    for number, deal in enumerate(deals, start=1):
        enter_deal_quickly(page, number, NAMES, deal, OPTIONS)
    tap_starting(page, "Edit deal 1")  # a deal typed as points opens as points
    shown(page, "Anna's pile: 18")
    tap_unchanged(page, "Anna's pile: 18")  # the pile the pad is on: chosen again, as it was
    rules = black_spy.Options(NAMES[0], frozenset(), 150)
    type_pile(page, 28, *black_spy.pile_limits(rules, moon=False))
    tap(page, "Dirk's pile: −8")  # filled in: Dirk gives the 10 back; typed here too
    tap(page, "Minus")
    shown(page, "Dirk's pile: −")  # being typed: its "−", not the −8 that would fill it
    tap(page, "8")
    tap(page, "Save deal")
    corrected = copy.deepcopy(deals)
    corrected[0]["points"] = {"Anna": 28, "Ben": 20, "Carla": 20, "Dirk": -8}
    totals_shown(page, corrected)
    tap(page, "Enter deal 3")
    shown(page, "Anna's pile: nothing yet")  # the pad again: the game's form


def test_a_saved_quick_deal_is_corrected_on_the_pad_at_once(table: Seat) -> None:
    """Issue 24: correcting a saved quick deal, the pad was dead (every pile typed, none
    chosen: keys did nothing, the last pile did not fill itself in). It opens as a new deal
    does: the pad on the first pile, the last pile filled in from the rest."""
    _, page = table("black-spy", NAMES)
    deal = counted_game()[0]  # Anna 18, Ben 20, Carla 20, Dirk 2
    enter_deal_quickly(page, 1, NAMES, deal, OPTIONS)
    tap_starting(page, "Edit deal 1")
    shown(page, "Anna's pile: 18")
    tap(page, "2")  # the first key starts Anna's pile afresh
    tap(page, "8")
    shown(page, "Anna's pile: 28")
    shown(page, "Dirk's pile: −8")  # filled in: 60 − 28 − 20 − 20
    tap_unchanged(page, "Ben's pile: 20")  # where the pad went after 28: chosen again
    tap(page, "Next pile")  # on to Carla
    tap(page, "1")
    tap(page, "5")
    shown(page, "Dirk's pile: −3")
    save(page, "Save deal", "Deal 1 saved")
    totals_shown(page, [{"points": {"Anna": 28, "Ben": 20, "Carla": 15, "Dirk": -3}}])


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


def test_a_kompromat_outcome_is_corrected_as_entered_and_the_form_is_remembered(
    table: Seat,
) -> None:
    """A round entered by outcomes reopens by outcomes; a player marked above 21 there takes
    a token (a victory point at the end); "Cards" switches the form and the next round opens
    in it."""
    names = ["Anna", "Ben"]
    played = generators.kompromat_record(random.Random(1), max_rounds=1, names=names)
    record = generators.in_outcome_form(played)
    first = record["rounds"][0]["missions"][0]
    assert first["outcome"] == {"winner": "Ben", "busts": [], "perfect": [], "no_cards": []}
    _, page = table("kompromat", names, record["options"])
    enter_kompromat_outcomes(page, 1, names, record["rounds"][0])
    tap_starting(page, "1 Round 1")  # the round in the list: its correction
    see(page, "Correct round 1")
    chip(page, "Anna: above 21")
    save(page, "Save round", "Round 1 saved")
    corrected = copy.deepcopy(record)
    corrected["rounds"][0]["missions"][0]["outcome"]["busts"] = ["Anna"]
    totals = scoring.standings(corrected)["totals"]
    assert totals["Anna"] == scoring.standings(record)["totals"]["Anna"] + 1  # Anna's token
    for name, total in totals.items():
        shown(page, f"{name}: {EN.number(total)} VP")
    tap_starting(page, "Enter round 2 of 6")
    tap(page, "Cards")
    see(page, "Anna plays 7")
    tap(page, "Discard")
    tap_starting(page, "Enter round 2 of 6")
    see(page, "Anna plays 7")  # the table's choice stands


def test_a_spywhere_ending_counted_and_corrected_on_the_pad(table: Seat) -> None:
    """The end of a Spywhere game as the table counts it: own cards on the pad, how many each
    named right, who ended it; every score as `scoring` says. Corrected in the same form; the
    wizard ("Cards") opens instead once the table chose it."""
    record = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    names = [p["name"] for p in record["players"]]
    counted = generators.as_counts_form(record["rounds"][0])
    _, page = table("spywhere", names)
    enter_spywhere_counts(page, names, counted)
    for name, total in scoring.standings({**record, "rounds": [counted]})["totals"].items():
        shown(page, f"{name}: {EN.number(total)} points")
    tap(page, "Correct the end of the game")
    tap(page, "Anna's own cards: 5")  # as entered; a tap chooses it for the pad
    tap(page, "1")
    tap(page, "2")  # 12: two digits, the pad moves on
    corrected = copy.deepcopy(counted)
    corrected["counts"]["Anna"]["own_cards"] = 12
    save(page, "Save scores", "Scores saved")
    for name, total in scoring.standings({**record, "rounds": [corrected]})["totals"].items():
        shown(page, f"{name}: {EN.number(total)} points")
    tap(page, "Correct the end of the game")
    tap(page, "Cards")
    see(page, "Everyone shows their passport.")


def test_a_counted_ending_corrected_with_the_cards_keeps_what_both_forms_hold(table: Seat) -> None:
    """Issue 24 (found playing it through): correcting an ending counted on the pad with the
    cards started from nothing; who ended the game and each player's own cards, which both
    forms hold, come along."""
    record = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    names = [p["name"] for p in record["players"]]
    counted = generators.as_counts_form(record["rounds"][0])
    _, page = table("spywhere", names)
    enter_spywhere_counts(page, names, counted)
    tap(page, "Correct the end of the game")
    tap(page, "Cards")
    tap(page, "Next")  # to the own cards
    for name in names:  # each count as saved: "minus" only where there is one to take off
        minus = page.get_by_role("button", name=f"{name}: own cards minus", exact=True)
        minus.wait_for(state="attached")
        held = counted["counts"][name]["own_cards"] > 0
        assert (minus.get_attribute("aria-disabled") != "true") == held, name
    tap(page, "Next")
    tap(page, "Next")  # to who ended the game
    ended = f"{counted['ended_by']} tried everyone"
    page.get_by_role("radio", name=ended, checked=True).wait_for(timeout=15_000)
    tap(page, "Discard")  # the wizard can be left as every entry can (it had no Discard)
    shown(page, "Correct the end of the game")


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


def test_a_kompromat_mission_records_everything_above_its_card(table: Seat) -> None:
    """Quick entry of a mission: a perfect 21's token back and the "!" marks lie above the list
    of mission cards, so that the card, tapped last, opens the next mission with nothing of
    this one skipped below it."""
    _, page = table("kompromat", ["Anna", "Ben"])
    tap_starting(page, "Enter round 1 of 6")
    choose_form(page, "Quick")
    chip(page, "Anna: 21")
    card = page.get_by_role("checkbox", name="Mission card: Target (5 VP)").first
    back = page.get_by_role("checkbox", name="Perfect 21: Anna returns a token").first
    alarm = page.get_by_role("button", name="!", exact=True).first
    for above in (back, alarm):
        above.wait_for(state="attached", timeout=15_000)
        top, card_top = above.bounding_box(), card.bounding_box()
        assert top and card_top and top["y"] < card_top["y"]
    tap(page, "!")  # (Anna holds no token yet to give back; her 21 won the mission)
    tap(page, "Mission card: Target (5 VP)", role="checkbox")  # last: on to mission 2
    page.get_by_role("checkbox", name="Mission 2", checked=True).wait_for(timeout=15_000)
