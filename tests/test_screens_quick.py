"""Quick entry through the app's screens in-process (tests/screens.py): a Black Spy deal typed
as each pile's points on the number pad and corrected there (the pad moving on by itself, the
last pile filling itself in), a Kompromat round by its missions' outcomes and a Spywhere end by
its counts, each corrected in the form it was entered; the table's choice of form remembered.
Every total is checked against `scoring`. The browser (tests/test_e2e_quick.py) keeps a whole
Black Spy game typed on the pad and what needs Flutter: the pad and the rows it types in
within reach, the sheet shown from its top after a long entry."""

from __future__ import annotations

import copy
import json
import random

import generators
from builders import SCENARIOS
from screens import Screen, Seated
from test_e2e_quick import NAMES, OPTIONS, counted_game, totals_shown
from ui import (
    EN,
    chip,
    choose_form,
    enter_deal_quickly,
    enter_kompromat_outcomes,
    enter_spywhere_counts,
    save,
    see,
    shown,
    tap,
    tap_starting,
    type_pile,
)

import scoring
from scoring import black_spy


def tap_unchanged(screen: Screen, name: str) -> None:
    """Tap a control whose tap changes nothing on the screen (the pile being typed, tapped
    again): the app answers with no drawing, so nothing is sent to the device (the browser
    tests' `tap_unchanged` waits on that; another pile chosen would be drawn anew)."""
    sent = len(screen.sent)
    tap(screen, name)
    assert screen.sent[sent:] == [], f"tapping {name!r} changed the screen"


def test_a_quick_deal_is_corrected_on_the_pad_and_the_form_is_remembered(seated: Seated) -> None:
    _, screen = seated("black-spy", NAMES)
    deals = counted_game()[:2]
    for number, deal in enumerate(deals, start=1):
        enter_deal_quickly(screen, number, NAMES, deal, OPTIONS)
    tap_starting(screen, "Edit deal 1")  # a deal typed as points opens as points
    shown(screen, "Anna's pile: 18")
    tap_unchanged(screen, "Anna's pile: 18")  # the pile the pad is on: chosen again, as it was
    rules = black_spy.Options(NAMES[0], frozenset(), 150)
    type_pile(screen, 28, *black_spy.pile_limits(rules, moon=False))
    tap(screen, "Dirk's pile: −8")  # filled in: Dirk gives the 10 back; typed here too
    tap(screen, "Minus")
    shown(screen, "Dirk's pile: −")  # being typed: its "−", not the −8 that would fill it
    tap(screen, "8")
    tap(screen, "Save deal")
    corrected = copy.deepcopy(deals)
    corrected[0]["points"] = {"Anna": 28, "Ben": 20, "Carla": 20, "Dirk": -8}
    totals_shown(screen, corrected)
    tap(screen, "Enter deal 3")
    shown(screen, "Anna's pile: nothing yet")  # the pad again: the game's form


def test_a_saved_quick_deal_is_corrected_on_the_pad_at_once(seated: Seated) -> None:
    """Correcting a saved quick deal, the pad was once dead (every pile typed, none chosen:
    keys did nothing, the last pile did not fill itself in). It opens as a new deal
    does: the pad on the first pile, the last pile filled in from the rest."""
    _, screen = seated("black-spy", NAMES)
    deal = counted_game()[0]  # Anna 18, Ben 20, Carla 20, Dirk 2
    enter_deal_quickly(screen, 1, NAMES, deal, OPTIONS)
    tap_starting(screen, "Edit deal 1")
    shown(screen, "Anna's pile: 18")
    tap(screen, "2")  # the first key starts Anna's pile afresh
    tap(screen, "8")
    shown(screen, "Anna's pile: 28")
    shown(screen, "Dirk's pile: −8")  # filled in: 60 − 28 − 20 − 20
    tap_unchanged(screen, "Ben's pile: 20")  # where the pad went after 28: chosen again
    tap(screen, "Next pile")  # on to Carla
    tap(screen, "1")
    tap(screen, "5")
    shown(screen, "Dirk's pile: −3")
    save(screen, "Save deal", "Deal 1 saved")
    totals_shown(screen, [{"points": {"Anna": 28, "Ben": 20, "Carla": 15, "Dirk": -3}}])


def test_a_kompromat_outcome_is_corrected_as_entered_and_the_form_is_remembered(
    seated: Seated,
) -> None:
    """A round entered by outcomes reopens by outcomes; a player marked above 21 there takes
    a token (a victory point at the end); "Cards" switches the form and the next round opens
    in it."""
    names = ["Anna", "Ben"]
    played = generators.kompromat_record(random.Random(1), max_rounds=1, names=names)
    record = generators.in_outcome_form(played)
    first = record["rounds"][0]["missions"][0]
    assert first["outcome"] == {"winner": "Ben", "busts": [], "perfect": [], "no_cards": []}
    _, screen = seated("kompromat", names, record["options"])
    enter_kompromat_outcomes(screen, 1, names, record["rounds"][0])
    tap_starting(screen, "1 Round 1")  # the round in the list: its correction
    see(screen, "Correct round 1")
    chip(screen, "Anna: above 21")
    save(screen, "Save round", "Round 1 saved")
    corrected = copy.deepcopy(record)
    corrected["rounds"][0]["missions"][0]["outcome"]["busts"] = ["Anna"]
    totals = scoring.standings(corrected)["totals"]
    assert totals["Anna"] == scoring.standings(record)["totals"]["Anna"] + 1  # Anna's token
    for name, total in totals.items():
        shown(screen, f"{name}: {EN.number(total)} VP")
    tap_starting(screen, "Enter round 2 of 6")
    tap(screen, "Cards")
    see(screen, "Anna plays 7")
    tap(screen, "Discard")
    tap_starting(screen, "Enter round 2 of 6")
    see(screen, "Anna plays 7")  # the table's choice stands


def test_a_spywhere_ending_counted_and_corrected_on_the_pad(seated: Seated) -> None:
    """The end of a Spywhere game as the table counts it: own cards on the pad, how many each
    named right, who ended it; every score as `scoring` says. Corrected in the same form; the
    wizard ("Cards") opens instead once the table chose it."""
    record = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    names = [p["name"] for p in record["players"]]
    counted = generators.as_counts_form(record["rounds"][0])
    _, screen = seated("spywhere", names)
    enter_spywhere_counts(screen, names, counted)
    for name, total in scoring.standings({**record, "rounds": [counted]})["totals"].items():
        shown(screen, f"{name}: {EN.number(total)} points")
    tap(screen, "Correct the end of the game")
    tap(screen, "Anna's own cards: 5")  # as entered; a tap chooses it for the pad
    tap(screen, "1")
    tap(screen, "2")  # 12: two digits, the pad moves on
    corrected = copy.deepcopy(counted)
    corrected["counts"]["Anna"]["own_cards"] = 12
    save(screen, "Save scores", "Scores saved")
    for name, total in scoring.standings({**record, "rounds": [corrected]})["totals"].items():
        shown(screen, f"{name}: {EN.number(total)} points")
    tap(screen, "Correct the end of the game")
    tap(screen, "Cards")
    see(screen, "Everyone shows their passport.")


def test_a_counted_ending_corrected_with_the_cards_keeps_what_both_forms_hold(
    seated: Seated,
) -> None:
    """Found playing it through: correcting an ending counted on the pad with the
    cards started from nothing; who ended the game and each player's own cards, which both
    forms hold, come along."""
    record = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    names = [p["name"] for p in record["players"]]
    counted = generators.as_counts_form(record["rounds"][0])
    _, screen = seated("spywhere", names)
    enter_spywhere_counts(screen, names, counted)
    tap(screen, "Correct the end of the game")
    tap(screen, "Cards")
    tap(screen, "Next")  # to the own cards
    for name in names:  # each count as saved: "minus" only where there is one to take off
        [minus] = screen.find(f"{name}: own cards minus", "button")
        held = counted["counts"][name]["own_cards"] > 0
        assert minus.enabled == held, name
    tap(screen, "Next")
    tap(screen, "Next")  # to who ended the game
    ended = f"{counted['ended_by']} tried everyone"
    assert screen.checked(ended, "radio"), screen.texts()
    tap(screen, "Discard")  # the wizard can be left as every entry can (it had no Discard)
    shown(screen, "Correct the end of the game")


def test_a_kompromat_mission_records_everything_above_its_card(seated: Seated) -> None:
    """Quick entry of a mission: a perfect 21's token back and the "!" marks lie above the list
    of mission cards, so that the card, tapped last, opens the next mission with nothing of
    this one skipped below it."""
    _, screen = seated("kompromat", ["Anna", "Ben"])
    tap_starting(screen, "Enter round 1 of 6")
    choose_form(screen, "Quick")
    chip(screen, "Anna: 21")
    # Above: before it in the screen's order, which is the entry's column's, top to bottom
    # (where each is drawn, in pixels, is the browser's to see).
    order = [node.name for node in screen.nodes()]
    card = order.index("Mission card: Target (5 VP)")
    for above in ("Perfect 21: Anna returns a token", "!"):
        assert order.index(above) < card, (above, order)
    tap(screen, "!")  # (Anna holds no token yet to give back; her 21 won the mission)
    tap(screen, "Mission card: Target (5 VP)", role="checkbox")  # last: on to mission 2
    assert screen.checked("Mission 2"), screen.texts()
