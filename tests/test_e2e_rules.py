"""The rulebook at the table, in Chromium: what the entry screens allow and refuse (issue 8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    EN,
    OnPhone,
    Seat,
    chip,
    enter_deal,
    open_round_with_cards,
    save,
    shown,
    start_game,
    tap_starting,
)

import scoring
from tools.browser import see, tap, type_text

pytestmark = pytest.mark.e2e


def disabled(page: Page, name: str) -> bool:
    button = page.get_by_role("button", name=name, exact=True).first
    button.wait_for(state="attached", timeout=15_000)
    return button.get_attribute("aria-disabled") == "true"


def test_kompromat_entry_follows_the_rulebook(table: Seat) -> None:
    _, page = table("kompromat", ["Anna", "Ben"], {"first_player": "Anna"})
    open_round_with_cards(page, 1)
    chip(page, "Mission card: Chloroform")
    tap(page, "!!")
    # A played 1/11 shows what it counts as, and one tap declares the other value.
    tap(page, "Anna plays 10")
    tap(page, "Anna plays 1/11")
    shown(page, "Anna: total 21")
    tap(page, "Anna: 1/11 counts as 11", role="checkbox")
    shown(page, "Anna: 1/11 counts as 1")
    shown(page, "Anna: total 11")
    # No card after a bust: Ben's keypad stops at 27.
    for card in ("10", "9", "8"):
        tap(page, f"Ben plays {card}")
    shown(page, "Ben is above 21: no more cards on this mission.")
    assert disabled(page, "Ben plays 2")
    # Anna wins the Chloroform and its "!!": she may use it on this very mission.
    shown(page, "Anna wins this mission.")
    chip(page, "Use the Chloroform")
    shown(page, "Tokens after it: Anna 0, Ben 1")
    # A mission left empty while cards remain is named, with its player and round.
    for number, card, anna, ben in ((2, "Code", None, "2"), (3, "Document", "3", "3")):
        chip(page, f"Mission {number}")
        chip(page, f"Mission card: {card}")
        if anna:
            tap(page, f"Anna plays {anna}")
        tap(page, f"Ben plays {ben}")
    chip(page, "Mission 4")
    chip(page, "Mission card: Target (5 VP)")
    tap(page, "Anna plays 4")
    tap(page, "Ben plays 4")
    tap(page, "Save round")  # refused: every problem speaks now, naming player and mission
    shown(
        page,
        "Anna played no cards on mission 2 of round 1 but still had 10 cards: "
        "every mission gets cards until the deck runs out",
    )
    chip(page, "Mission 2")
    tap(page, "Anna plays 2")
    save(page, "Save round", "Round 1 saved.")
    chloroform = {"item": "chloroform", "by": "Anna"}
    entered = {
        "missions": [
            mission({"kind": "item", "item": "chloroform"}, [10, 1], [10, 9, 8], 2, [chloroform]),
            mission({"kind": "code"}, [2], [2]),
            mission({"kind": "document"}, [3], [3]),
            mission({"kind": "target", "vp": 5}, [4], [4]),
        ]
    }
    record = {
        "format": "game-record/1",
        "game": "kompromat",
        "players": [{"name": "Anna"}, {"name": "Ben"}],
        "options": {"first_player": "Anna"},
        "rounds": [entered],
    }
    for name, total in scoring.standings(record)["totals"].items():
        shown(page, f"{name}: {EN.number(total)} VP")


def mission(
    card: dict[str, Any], anna: list[Any], ben: list[Any], alarm: int = 0, effects: Any = None
) -> dict[str, Any]:
    entry = {"card": card, "alarm": alarm, "plays": {"Anna": anna, "Ben": ben}}
    return {**entry, "effects": effects} if effects else entry


def test_spywhere_offers_each_identification_card_once(table: Seat) -> None:
    _, page = table("spywhere", ["Anna", "Ben", "Carla"], {"removed_nationality": "belgium"})
    tap(page, "Cards")  # the wizard, with the cards laid open
    for name, passport in (("Anna", "Italy"), ("Ben", "Spain"), ("Carla", "France")):
        chip(page, f"{name}'s passport: {passport}")
    tap(page, "Next")
    tap(page, "Next")
    chip(page, "Anna on Ben: Spain")
    # Anna's one Spain card lies before Ben now: it is no longer offered for Carla (the chip's
    # own check mark shows before the server's redraw, so wait for the chip to go).
    laid = page.get_by_role("checkbox", name="Anna on Carla: Spain", exact=True)
    laid.wait_for(state="detached", timeout=15_000)
    shown(page, "Anna on Carla: Italy")
    assert page.get_by_role("checkbox", name="Carla on Ben: Spain", exact=True).count() == 1


def mole_game_after_deal_one(page: Page, born: dict[str, str]) -> list[str]:
    """A Black Spy game with The Mole, birth dates typed on New game for `born` only, and the
    first deal of the basic scenario entered: Anna 18, Ben 20, Carla 20, Dirk 2 (Ben deals
    next)."""
    record = scenario_record("black-spy-basic")
    names = [player["name"] for player in record["players"]]
    start_game(page, "Black Spy", names)
    chip(page, "The Mole")
    for name, date in born.items():
        type_text(page, f"{name}: born (YYYY-MM-DD or year)", date, drawn=False)
    tap(page, "Start Black Spy")
    enter_deal(page, 1, names, record["rounds"][0])
    return names


def test_the_mole_draft_says_who_is_younger_on_an_equal_total(page: Page) -> None:
    """Issue 22: Ben and Carla are equal on 20; the panel says why Ben picks first."""
    mole_game_after_deal_one(page, {"Ben": "1992-11-02", "Carla": "1979-06-30"})
    shown(page, "The Mole: 12 cards set aside first. Draft: Ben → Carla → Anna → Dirk")
    shown(page, "Equal on 20: Ben is younger than Carla")


def test_the_mole_draft_says_who_counts_as_older_for_having_no_birth_date(table: Seat) -> None:
    """Issue 22: Carla has no birth date; equal with Ben on 20, she counts as older. (Typing
    the dates on New game is the test above: this one starts at the table, after deal 1.)"""
    record = scenario_record("black-spy-basic")
    names = [player["name"] for player in record["players"]]
    options = {**record["options"], "variants": ["mole"]}
    _, page = table("black-spy", names, options, record["rounds"][:1], {"Ben": "1992-11-02"})
    shown(page, "The Mole: 12 cards set aside first. Draft: Ben → Carla → Anna → Dirk")
    shown(page, "Equal on 20: Carla has no birth date, counted as older")


def test_a_game_stored_before_a_rule_opens_at_the_round_to_correct(
    on_phone: OnPhone, tmp_path: Path
) -> None:
    """Issue 8: a stored game that breaks a rule added since is reported, kept, and opens at
    the offending round; once corrected it is an ordinary game again."""
    from test_storage import stale_kompromat, stored_by_version_2

    folder = tmp_path / "data"
    stored_by_version_2(folder, [stale_kompromat()], [])
    _, page = on_phone(folder)
    shown(page, "Round 1 needs a correction")  # on the game's card at home
    see(page, "breaks a rule in round 1: Anna played no cards on mission 4 of round 1")
    tap_starting(page, "Kompromat · Anna, Ben")
    shown(
        page,
        "This game was saved before Debrief knew a rule it breaks. Correct the "
        "round to go on; until then the game counts in no statistics.",
    )
    shown(page, "Correct round 1")
    chip(page, "Mission 4")
    tap(page, "Anna plays 6")
    save(page, "Save round", "Round 1 saved.")
    fixed = scenario_record("kompromat-first-round")
    for name, total in scoring.standings(fixed)["totals"].items():
        shown(page, f"{name}: {EN.number(total)} VP")
    shown(page, "Enter round 2 of 6 (Anna starts)")


def test_a_stored_spy_game_opens_at_the_event_to_correct(on_phone: OnPhone, tmp_path: Path) -> None:
    """Issue 8 for SPY, whose entry is always open: the stored game opens on the event that
    breaks a rule (Carla spies after she went out); once corrected, the next event's panel."""
    from test_storage import stored_by_version_2

    stale = {
        "format": "game-record/1",
        "game": "spy",
        "players": [{"name": name} for name in ("Anna", "Ben", "Carla")],
        "options": {},
        "rounds": [
            {"event": "bomb-lit", "by": "Anna", "base": "Ben"},
            {"event": "bomb-exploded", "by": "Carla", "base": "Ben"},
            {"event": "target", "by": "Carla", "base": "Anna"},
        ],
        "meta": {"id": "p1", "started": "2026-11-01T20:00:00+01:00", "ended": None},
    }
    folder = tmp_path / "data"
    stored_by_version_2(folder, [stale], [])
    _, page = on_phone(folder)
    shown(page, "Event 3 needs a correction")  # SPY has events
    tap_starting(page, "SPY · Anna, Ben, Carla")
    shown(page, "Correct event 3")
    chip(page, "Who spied?: Ben")
    chip(page, "On whose base?: Anna")
    tap(page, "Found Safe 1")
    shown(page, "What happened?")  # an ordinary game again
    page.get_by_role("button", name="3 Ben found Anna's Safe 1").wait_for(state="attached")


def scenario_record(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def test_the_app_starts_on_a_damaged_folder_and_says_what_was_kept_aside(
    on_phone: OnPhone, tmp_path: Path
) -> None:
    """Issue 9.5: every damage of tests/damaged.py at once; the app starts, shows each notice
    and the game in progress."""
    from damaged import damaged_folder

    folder = damaged_folder(tmp_path / "data")
    _, page = on_phone(folder)
    tap_starting(page, "Black Spy · Anna, Ben, Carla, Dirk")
    shown(page, "Deal 4: Dirk deals 15 cards each")
    tap(page, "Back")
    see(page, "the data's version mark was damaged")
    see(page, "an interrupted change could not be completed")
    see(page, "debrief.lock was not a lock file")
    see(page, "an entry of active.json (chess-1) cannot be used")


def test_with_going_back_the_sheet_says_how_far_it_is_to_go_above_the_end(table: Seat) -> None:
    """Issue 24: with Going Back a game ends only above the end value: from 0 it takes 101
    points to pass 100 (the sheet said 100, which only reaches it), and the sheet says so."""
    options = {"first_dealer": "Anna", "variants": ["going-back"], "end_value": 100}
    _, page = table("black-spy", ["Anna", "Ben", "Carla", "Dirk"], options)
    shown(page, EN("To end: the points that take a total above {end} (Going Back).", end=100))
    shown(page, "101")


def test_the_halving_legend_shows_a_halving_of_this_game(table: Seat) -> None:
    """Issue 24: the legend under the sheet said "75 ÷ 2 = 37.5" whatever the game; it shows a
    halving the sheet has (end value 100, three players: Anna reaches 50, halved to 25)."""

    def pile(spies: int = 0) -> dict[str, Any]:
        return {"black_spies": spies, "black_low": 0, "black_high": [], "colored_spies": 0}

    rest = {"black_spies": 0, "black_low": 6, "black_high": [8, 9, 10, 11], "colored_spies": 4}
    rounds = [
        {"cards": {"Anna": pile(2), "Ben": pile(4), "Carla": rest}},
        {"cards": {"Anna": pile(3), "Ben": pile(3), "Carla": rest}},  # Anna: 50, halved
    ]
    options = {"first_dealer": "Anna", "variants": ["going-back"], "end_value": 100}
    _, page = table("black-spy", ["Anna", "Ben", "Carla"], options, rounds)
    shown(page, "Anna: total 25")
    shown(
        page,
        EN(
            "{reached} ÷ 2 = {became}: the total reached, halved (Going Back)",
            reached="50",
            became="25",
        ),
    )


def test_the_halving_choice_shows_what_this_end_value_halves_to(page: Page) -> None:
    """Issue 24: the halving option read "Exact (37.5)" whatever the end value. Three players
    end at 200: 200 → 100 → 50, every halving is whole and the choice changes nothing; at 210,
    105 halves to 52.5, or 52 rounded down, 53 up."""
    start_game(page, "Black Spy", ["Anna", "Ben", "Carla"])
    chip(page, "Going Back")
    shown(page, EN("Halving"))
    shown(
        page,
        EN(
            "With the end value {end} every halving is whole ({steps}): the choice changes "
            "nothing.",
            end=200,
            steps="200 → 100 → 50",
        ),
    )
    tap(page, "End value plus")
    shown(page, EN("Halving {reached} ÷ 2", reached="105"))
    shown(page, EN("Exact {half}", half="52.5"))
    shown(page, EN("Down {half}", half="52"))
    shown(page, EN("Up {half}", half="53"))
