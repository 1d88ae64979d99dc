"""Kompromat's end where the table ends it, in Chromium (issue 22): a game that ends by 9 tokens
on mission 2 of a round, entered quickly, is saved without missions 3 and 4 and shows its
winner as `scoring` says; a 21 after a Vesper Martini says why it is a perfect 21."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    EN,
    Seat,
    chip,
    choose_form,
    enter_kompromat_outcomes,
    open_round_with_cards,
    save,
    shown,
    tap_starting,
)

import scoring
from tools.browser import see, shot, tap

pytestmark = pytest.mark.e2e
NAMES = ["Anna", "Ben"]
# Where the screenshot of the entry saying the game is over goes (DEBRIEF_SHOTS: a folder).
SHOTS = Path(os.environ.get("DEBRIEF_SHOTS", "/tmp"))


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def no_control_named(page: Page, name: str) -> None:
    assert page.locator(f'flt-semantics[aria-label="{name}"]').count() == 0, name
    assert page.get_by_role("checkbox", name=name, exact=True).count() == 0, name


def test_a_game_ended_by_nine_tokens_on_mission_2_is_saved_without_missions_3_and_4(
    table: Seat,
) -> None:
    """Ben's 9th token (above 21 after Anna's Newspaper, on mission 2 of round 2): the entry
    says the game is over and asks for nothing more; Save keeps missions 1 and 2; the game is
    over and Anna wins, although Ben has more victory points."""
    record = scenario("kompromat-short-final-round-outcome")
    final = scoring.standings(record)
    assert (final["finished"], final["winners"], final["lost_by_tokens"]) == (True, ["Anna"], "Ben")
    assert len(record["rounds"][1]["missions"]) == 2
    first, last = record["rounds"]
    _, page = table("kompromat", NAMES, record["options"], rounds=[first])
    enter_kompromat_outcomes(page, 2, NAMES, last, then_save=False)
    over = EN.plural(
        "{name} has {count} token: the game is over.",
        "{name} has {count} tokens: the game is over.",
        9,
        name="Ben",
    )
    shown(page, over)
    shown(page, EN("No mission follows: save the round as it stands."))
    no_control_named(page, "Mission 3")  # nothing more is asked for
    no_control_named(page, "Next mission")
    page.get_by_text(over).first.scroll_into_view_if_needed()
    shot(page, SHOTS / "kompromat-game-over.png")
    save(page, "Save round", "Round 2 saved")
    shown(page, EN("Game over: {names} won!", names=" & ".join(final["winners"])))
    shown(page, EN("{name} reached 9 tokens and lost at once.", name="Ben"))
    for name, total in final["totals"].items():
        shown(page, f"{name}: {EN.number(total)} VP")
    see(page, "Target (3 VP): Ben · Document: Anna")  # round 2 as saved: two missions
    no_control_named(page, "Enter round 3 of 6 (Ben starts)")
    # Corrected, it ends there again; once Ben is no longer above 21 (the winner is then the
    # table's to say), nobody reaches 9: missions 3 and 4 are asked for again.
    tap_starting(page, "2 Round 2")
    see(page, "Correct round 2")
    chip(page, "Mission 2")
    shown(page, over)
    chip(page, "Ben: above 21", checked=False)
    page.get_by_role("checkbox", name="Mission 4").wait_for()
    tap(page, "Anna wins")
    tap(page, "Save round")  # refused: missions 3 and 4 are missing
    see(page, "Not saved: ")
    tap(page, "Discard")
    shown(page, EN("Game over: {names} won!", names="Anna"))


def test_a_perfect_21_after_a_vesper_martini_says_why(table: Seat) -> None:
    """Decision (RULES.md §2): 21 after a Vesper Martini is a perfect 21. The cards entry shows
    the total after it at once (the card is chosen last) and says why a token may go back."""
    _, page = table("kompromat", NAMES, {"first_player": "Anna"})
    open_round_with_cards(page, 1)
    tap(page, "Anna plays 9")
    tap(page, "Ben plays 8")
    tap(page, "Mission card: Vesper Martini", role="checkbox")  # Anna wins it; mission 2 opens
    page.get_by_role("checkbox", name="Mission 2", checked=True).wait_for()
    for card in ("10", "6", "4"):
        tap(page, f"Anna plays {card}")
    tap(page, "Ben plays 7")
    shown(page, "Anna: total 20")
    chip(page, "Vesper Martini: +1")
    shown(page, "Anna: total 21")
    shown(
        page,
        EN(
            "{name} has 21 with {items}: a perfect 21 (house rule).",
            name="Anna",
            items="Vesper Martini +1",
        ),
    )
    shown(page, EN("Perfect 21: {name} returns a token", name="Anna"))


def test_a_token_taken_earlier_in_the_round_goes_back_on_a_perfect_21(table: Seat) -> None:
    """Issue 24: Anna starts the round without tokens, takes one above 21 on mission 1 and has
    a perfect 21 on mission 2: she may return it (the screen read the tokens held at the
    round's start, none, and kept the chip disabled; the engine returns it)."""
    _, page = table("kompromat", NAMES, {"first_player": "Anna"})
    tap_starting(page, "Enter round 1 of 6")
    choose_form(page, "Quick")
    chip(page, "Anna: above 21")  # Ben wins by the marks; Anna takes a fail token
    tap(page, "Mission card: Target (5 VP)", role="checkbox")  # mission 2 opens by itself
    page.get_by_role("checkbox", name="Mission 2", checked=True).wait_for()
    chip(page, "Anna: 21")
    back = page.get_by_role("checkbox", name="Perfect 21: Anna returns a token", exact=True)
    back.wait_for()
    assert back.is_enabled(), "Anna holds the token she took on mission 1"
    chip(page, "Perfect 21: Anna returns a token")  # and a single 21 wins the mission
    tap(page, "Mission card: Target (3 VP)", role="checkbox")  # mission 3 opens by itself
    shown(page, "Mission 2: Anna wins. Tokens: Anna 0, Ben 0")  # the token went back


def test_a_used_up_counter_intelligence_card_is_not_offered(table: Seat) -> None:
    """Issue 24 (found playing it through): both "!!" cards laid on missions 1 and 2, the
    third mission still offered "!!", refused only on Save once the whole round was in. The
    engine's preview says which marks are left; the entry offers only those."""
    _, page = table("kompromat", NAMES, {"first_player": "Anna"})
    tap_starting(page, "Enter round 1 of 6")
    choose_form(page, "Quick")
    for number, (winner, card) in enumerate([("Anna", "Target (5 VP)"), ("Ben", "Target (4 VP)")]):
        page.get_by_role("checkbox", name=f"Mission {number + 1}", checked=True).wait_for()
        tap(page, "!!")
        tap(page, f"{winner} wins")
        tap(page, f"Mission card: {card}", role="checkbox")  # the next mission opens
    page.get_by_role("checkbox", name="Mission 3", checked=True).wait_for()
    assert marks_disabled(page) == {"!!": True, "!": False, "!!!": False}


def marks_disabled(page: Page) -> dict[str, bool]:
    """Whether each "!" mark of the mission shown can be chosen (its segment disabled)."""
    found = {}
    for marks in ("!", "!!", "!!!"):
        segment = page.get_by_role("button", name=marks, exact=True).first
        segment.wait_for(state="attached", timeout=15_000)
        found[marks] = segment.get_attribute("aria-disabled") == "true"
    return found
