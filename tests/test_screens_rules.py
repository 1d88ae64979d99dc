"""The rulebook at the table, through the app's screens in-process (tests/screens.py): what the
entry screens allow and refuse, The Mole's draft, Going Back's end and its halving, a stored
game that breaks a rule added since, and a damaged data folder said at start. Nothing here is
the browser's: a drawing, a lost tap or a control off the screen are the browser tests'
(tests/test_e2e_*.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from builders import SCENARIOS
from screens import Screen, Seated, Table
from ui import (
    EN,
    chip,
    enter_deal,
    open_round_with_cards,
    save,
    see,
    shown,
    start_game,
    tap,
    tap_starting,
    type_text,
)

import scoring

# The `screen_tables` fixture: screen_tables(folder, sharing=None) -> Table.
Tables = Callable[..., Table]


def disabled(screen: Screen, name: str) -> bool:
    found = screen.find(name, "button")
    assert found, f"no button {name!r}; the screen shows {screen.texts()}"
    return not found[0].enabled


def test_kompromat_entry_follows_the_rulebook(seated: Seated) -> None:
    _, screen = seated("kompromat", ["Anna", "Ben"], {"first_player": "Anna"})
    open_round_with_cards(screen, 1)
    chip(screen, "Mission card: Chloroform")
    tap(screen, "!!")
    # A played 1/11 shows what it counts as, and one tap declares the other value.
    tap(screen, "Anna plays 10")
    tap(screen, "Anna plays 1/11")
    shown(screen, "Anna: total 21")
    tap(screen, "Anna: 1/11 counts as 11", role="checkbox")
    shown(screen, "Anna: 1/11 counts as 1")
    shown(screen, "Anna: total 11")
    # No card after a bust: Ben's keypad stops at 27.
    for card in ("10", "9", "8"):
        tap(screen, f"Ben plays {card}")
    shown(screen, "Ben is above 21: no more cards on this mission.")
    assert disabled(screen, "Ben plays 2")
    # Anna wins the Chloroform and its "!!": she may use it on this very mission.
    shown(screen, "Anna wins this mission.")
    chip(screen, "Anna: use the Chloroform")
    shown(screen, "Tokens after it: Anna 0, Ben 1")
    # A mission left empty while cards remain is named, with its player and round.
    for number, card, anna, ben in ((2, "Code", None, "2"), (3, "Document", "3", "3")):
        chip(screen, f"Mission {number}")
        chip(screen, f"Mission card: {card}")
        if anna:
            tap(screen, f"Anna plays {anna}")
        tap(screen, f"Ben plays {ben}")
    chip(screen, "Mission 4")
    chip(screen, "Mission card: Target (5 VP)")
    tap(screen, "Anna plays 4")
    tap(screen, "Ben plays 4")
    tap(screen, "Save round")  # refused: every problem speaks now, naming player and mission
    shown(
        screen,
        "Anna played no cards on mission 2 of round 1 but still had 10 cards: "
        "every mission gets cards until the deck runs out",
    )
    chip(screen, "Mission 2")
    tap(screen, "Anna plays 2")
    save(screen, "Save round", "Round 1 saved.")
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
        shown(screen, f"{name}: {EN.number(total)} VP")


def mission(
    card: dict[str, Any], anna: list[Any], ben: list[Any], alarm: int = 0, effects: Any = None
) -> dict[str, Any]:
    entry = {"card": card, "alarm": alarm, "plays": {"Anna": anna, "Ben": ben}}
    return {**entry, "effects": effects} if effects else entry


def test_spywhere_offers_each_identification_card_once(seated: Seated) -> None:
    _, screen = seated("spywhere", ["Anna", "Ben", "Carla"], {"removed_nationality": "belgium"})
    tap(screen, "Cards")  # the wizard, with the cards laid open
    for name, passport in (("Anna", "Italy"), ("Ben", "Spain"), ("Carla", "France")):
        chip(screen, f"{name}'s passport: {passport}")
    tap(screen, "Next")
    tap(screen, "Next")
    chip(screen, "Anna on Ben: Spain")
    # Anna's one Spain card lies before Ben now: it is no longer offered for Carla (in the
    # browser the chip's own check mark showed before the server's redraw, and the test waited
    # for the chip to go; here the tap returns with the app's answer).
    assert not screen.find("Anna on Carla: Spain", "checkbox"), screen.texts()
    shown(screen, "Anna on Carla: Italy")
    assert len(screen.find("Carla on Ben: Spain", "checkbox")) == 1


def mole_game_after_deal_one(screen: Screen, born: dict[str, str]) -> list[str]:
    """A Black Spy game with The Mole, birth dates typed on New game for `born` only, and the
    first deal of the basic scenario entered: Anna 18, Ben 20, Carla 20, Dirk 2 (Ben deals
    next)."""
    record = scenario_record("black-spy-basic")
    names = [player["name"] for player in record["players"]]
    start_game(screen, "Black Spy", names)
    chip(screen, "The Mole")
    for name, date in born.items():
        type_text(screen, f"{name}: born (YYYY-MM-DD or year)", date)
    tap(screen, "Start Black Spy")
    enter_deal(screen, 1, names, record["rounds"][0])
    return names


def test_the_mole_draft_says_who_is_younger_on_an_equal_total(screen: Screen) -> None:
    """Ben and Carla are equal on 20; the panel says why Ben picks first."""
    mole_game_after_deal_one(screen, {"Ben": "1992-11-02", "Carla": "1979-06-30"})
    shown(screen, "The Mole: 12 cards set aside first. Draft: Ben → Carla → Anna → Dirk")
    shown(screen, "Equal on 20: Ben is younger than Carla")


def test_the_mole_draft_says_who_counts_as_older_for_having_no_birth_date(seated: Seated) -> None:
    """Carla has no birth date; equal with Ben on 20, she counts as older. (Typing
    the dates on New game is the test above: this one starts at the table, after deal 1.)"""
    record = scenario_record("black-spy-basic")
    names = [player["name"] for player in record["players"]]
    options = {**record["options"], "variants": ["mole"]}
    _, screen = seated("black-spy", names, options, record["rounds"][:1], {"Ben": "1992-11-02"})
    shown(screen, "The Mole: 12 cards set aside first. Draft: Ben → Carla → Anna → Dirk")
    shown(screen, "Equal on 20: Carla has no birth date, counted as older")


def test_a_game_stored_before_a_rule_opens_at_the_round_to_correct(
    screen_tables: Tables, tmp_path: Path
) -> None:
    """A stored game that breaks a rule added since is reported, kept, and opens at
    the offending round; once corrected it is an ordinary game again."""
    from test_storage import stale_kompromat, stored_by_version_2

    folder = tmp_path / "data"
    stored_by_version_2(folder, [stale_kompromat()], [])
    screen = screen_tables(folder).screen()
    shown(screen, "Round 1 needs a correction")  # on the game's card at home
    see(screen, "breaks a rule in round 1: Anna played no cards on mission 4 of round 1")
    tap_starting(screen, "Kompromat · Anna, Ben")
    shown(
        screen,
        "This game was saved before Debrief knew a rule it breaks. Correct the "
        "round to go on; until then the game counts in no statistics.",
    )
    shown(screen, "Correct round 1")
    chip(screen, "Mission 4")
    tap(screen, "Anna plays 6")
    save(screen, "Save round", "Round 1 saved.")
    fixed = scenario_record("kompromat-first-round")
    for name, total in scoring.standings(fixed)["totals"].items():
        shown(screen, f"{name}: {EN.number(total)} VP")
    shown(screen, "Enter round 2 of 6 (Anna starts)")


def test_a_stored_spy_game_opens_at_the_event_to_correct(
    screen_tables: Tables, tmp_path: Path
) -> None:
    """The same for SPY, whose entry is always open: the stored game opens on the event that
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
    screen = screen_tables(folder).screen()
    shown(screen, "Event 3 needs a correction")  # SPY has events
    tap_starting(screen, "SPY · Anna, Ben, Carla")
    shown(screen, "Correct event 3")
    chip(screen, "Who spied?: Ben")
    chip(screen, "On whose base?: Anna")
    tap(screen, "Found Safe 1")
    shown(screen, "What happened?")  # an ordinary game again
    # The event's row in the log: a button whose name holds its number and what happened, a
    # line each (which Playwright joined with a space).
    logged = screen.find(re.compile(r"3\sBen found Anna's Safe 1"), "button")
    assert logged, screen.texts()


def scenario_record(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def test_the_app_starts_on_a_damaged_folder_and_says_what_was_kept_aside(
    screen_tables: Tables, tmp_path: Path
) -> None:
    """Every damage of tests/damaged.py at once; the app starts, shows each notice
    and the game in progress."""
    from damaged import damaged_folder

    folder = damaged_folder(tmp_path / "data")
    screen = screen_tables(folder).screen()
    tap_starting(screen, "Black Spy · Anna, Ben, Carla, Dirk")
    shown(screen, "Deal 4: Dirk deals 15 cards each")
    tap(screen, "Back")
    see(screen, "the data's version mark was damaged")
    see(screen, "an interrupted change could not be completed")
    see(screen, "debrief.lock was not a lock file")
    see(screen, "an entry of active.json (chess-1) cannot be used")


def test_with_going_back_the_sheet_says_how_far_it_is_to_go_above_the_end(seated: Seated) -> None:
    """With Going Back a game ends only above the end value: from 0 it takes 101
    points to pass 100 (the sheet said 100, which only reaches it), and the sheet says so."""
    options = {"first_dealer": "Anna", "variants": ["going-back"], "end_value": 100}
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla", "Dirk"], options)
    shown(screen, EN("To end: the points that take a total above {end} (Going Back).", end=100))
    shown(screen, "101")


def test_the_halving_legend_shows_a_halving_of_this_game(seated: Seated) -> None:
    """The legend under the sheet once said "75 ÷ 2 = 37.5" whatever the game; it shows a
    halving the sheet has (end value 100, three players: Anna reaches 50, halved to 25)."""

    def pile(spies: int = 0) -> dict[str, Any]:
        return {"black_spies": spies, "black_low": 0, "black_high": [], "colored_spies": 0}

    rest = {"black_spies": 0, "black_low": 6, "black_high": [8, 9, 10, 11], "colored_spies": 4}
    rounds = [
        {"cards": {"Anna": pile(2), "Ben": pile(4), "Carla": rest}},
        {"cards": {"Anna": pile(3), "Ben": pile(3), "Carla": rest}},  # Anna: 50, halved
    ]
    options = {"first_dealer": "Anna", "variants": ["going-back"], "end_value": 100}
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla"], options, rounds)
    shown(screen, "Anna: total 25")
    shown(
        screen,
        EN(
            "{reached} ÷ 2 = {became}: the total reached, halved (Going Back)",
            reached="50",
            became="25",
        ),
    )


def test_the_halving_choice_shows_what_this_end_value_halves_to(screen: Screen) -> None:
    """The halving option once read "Exact (37.5)" whatever the end value. Three players
    end at 200: 200 ÷ 2 = 100, 100 ÷ 2 = 50, every halving is whole and the choice changes
    nothing (each halving on its own: an arrow after an arrow read like a cascade); at 210,
    105 halves to 52.5, or 52 rounded down, 53 up."""
    start_game(screen, "Black Spy", ["Anna", "Ben", "Carla"])
    chip(screen, "Going Back")
    shown(screen, EN("Halving"))
    shown(
        screen,
        EN(
            "With the end value {end} every halving is whole ({steps}): the choice changes "
            "nothing.",
            end=200,
            steps="200 ÷ 2 = 100, 100 ÷ 2 = 50",
        ),
    )
    tap(screen, "End value plus")
    shown(screen, EN("Halving {reached} ÷ 2", reached="105"))
    shown(screen, EN("Exact {half}", half="52.5"))
    shown(screen, EN("Down {half}", half="52"))
    shown(screen, EN("Up {half}", half="53"))
