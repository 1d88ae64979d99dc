"""Kompromat's end where the table ends it, through the app's screens in-process
(tests/screens.py): a game that ends by 9 tokens on mission 2 of a round, entered
quickly, is saved without missions 3 and 4 and shows its winner as `scoring` says; a 21 after a
Vesper Martini says why it is a perfect 21; a token taken earlier in the round goes back on a
perfect 21; a used-up counter-intelligence card is not offered. Nothing here is the browser's
(tests/test_e2e_*.py play each game through once in Chromium)."""

from __future__ import annotations

import json
from typing import Any

from builders import SCENARIOS
from screens import Screen, Seated
from ui import (
    EN,
    checked_shown,
    chip,
    choose_form,
    enter_kompromat_outcomes,
    open_round_with_cards,
    save,
    see,
    shown,
    tap,
    tap_starting,
)

import scoring

NAMES = ["Anna", "Ben"]


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def no_control_named(screen: Screen, name: str) -> None:
    assert not screen.find(name), f"{name!r} is on the screen: {screen.texts()}"


def test_a_game_ended_by_nine_tokens_on_mission_2_is_saved_without_missions_3_and_4(
    seated: Seated,
) -> None:
    """Ben's 9th token (above 21 after Anna's Newspaper, on mission 2 of round 2): the entry
    says the game is over and asks for nothing more; Save keeps missions 1 and 2; the game is
    over and Anna wins, although Ben has more victory points."""
    record = scenario("kompromat-short-final-round-outcome")
    final = scoring.standings(record)
    assert (final["finished"], final["winners"], final["lost_by_tokens"]) == (True, ["Anna"], "Ben")
    assert len(record["rounds"][1]["missions"]) == 2
    first, last = record["rounds"]
    _, screen = seated("kompromat", NAMES, record["options"], rounds=[first])
    enter_kompromat_outcomes(screen, 2, NAMES, last, then_save=False)
    over = EN.plural(
        "{name} has {count} token: the game is over.",
        "{name} has {count} tokens: the game is over.",
        9,
        name="Ben",
    )
    shown(screen, over)
    shown(screen, EN("No mission follows: save the round as it stands."))
    no_control_named(screen, "Mission 3")  # nothing more is asked for
    no_control_named(screen, "Next mission")
    # (The browser test also took a picture of this entry, to look at: nothing is drawn here.)
    save(screen, "Save round", "Round 2 saved")
    shown(screen, EN("Game over: {names} won!", names=" & ".join(final["winners"])))
    shown(screen, EN("{name} reached 9 tokens and lost at once.", name="Ben"))
    for name, total in final["totals"].items():
        shown(screen, f"{name}: {EN.number(total)} VP")
    see(screen, "Target (3 VP): Ben · Document: Anna")  # round 2 as saved: two missions
    no_control_named(screen, "Enter round 3 of 6 (Ben starts)")
    # Corrected, it ends there again; once Ben is no longer above 21 (the winner is then the
    # table's to say), nobody reaches 9: missions 3 and 4 are asked for again.
    tap_starting(screen, "2 Round 2")
    see(screen, "Correct round 2")
    chip(screen, "Mission 2")
    shown(screen, over)
    chip(screen, "Ben: above 21", checked=False)
    assert screen.find("Mission 4", "checkbox"), screen.texts()
    tap(screen, "Anna wins")
    tap(screen, "Save round")  # refused: missions 3 and 4 are missing
    see(screen, "Not saved:")
    tap(screen, "Discard")
    shown(screen, EN("Game over: {names} won!", names="Anna"))


def test_a_perfect_21_after_a_vesper_martini_says_why(seated: Seated) -> None:
    """Decision (RULES.md §2): 21 after a Vesper Martini is a perfect 21. The cards entry shows
    the total after it at once (the card is chosen last) and says why a token may go back."""
    _, screen = seated("kompromat", NAMES, {"first_player": "Anna"})
    open_round_with_cards(screen, 1)
    tap(screen, "Anna plays 9")
    tap(screen, "Ben plays 8")
    tap(screen, "Mission card: Vesper Martini", role="checkbox")  # Anna wins it; mission 2 opens
    checked_shown(screen, "Mission 2")
    for card in ("10", "6", "4"):
        tap(screen, f"Anna plays {card}")
    tap(screen, "Ben plays 7")
    shown(screen, "Anna: total 20")
    chip(screen, "Anna: Vesper Martini: +1")
    shown(screen, "Anna: total 21")
    shown(
        screen,
        EN(
            "{name} has 21 with {items}: a perfect 21 (house rule).",
            name="Anna",
            items="Vesper Martini +1",
        ),
    )
    shown(screen, EN("Perfect 21: {name} returns a token", name="Anna"))


def test_a_token_taken_earlier_in_the_round_goes_back_on_a_perfect_21(seated: Seated) -> None:
    """Anna starts the round without tokens, takes one above 21 on mission 1 and has
    a perfect 21 on mission 2: she may return it (the screen read the tokens held at the
    round's start, none, and kept the chip disabled; the engine returns it)."""
    _, screen = seated("kompromat", NAMES, {"first_player": "Anna"})
    tap_starting(screen, "Enter round 1 of 6")
    choose_form(screen, "Quick")
    chip(screen, "Anna: above 21")  # Ben wins by the marks; Anna takes a fail token
    tap(screen, "Mission card: Target (5 VP)", role="checkbox")  # mission 2 opens by itself
    checked_shown(screen, "Mission 2")
    chip(screen, "Anna: 21")
    back = screen.find("Perfect 21: Anna returns a token", "checkbox")
    assert back, screen.texts()
    assert back[0].enabled, "Anna holds the token she took on mission 1"
    chip(screen, "Perfect 21: Anna returns a token")  # and a single 21 wins the mission
    tap(screen, "Mission card: Target (3 VP)", role="checkbox")  # mission 3 opens by itself
    shown(screen, "Mission 2: Anna wins. Tokens: Anna 0, Ben 0")  # the token went back


def test_a_used_up_counter_intelligence_card_is_not_offered(seated: Seated) -> None:
    """Found playing it through: both "!!" cards laid on missions 1 and 2, the
    third mission still offered "!!", refused only on Save once the whole round was in. The
    engine's preview says which marks are left; the entry offers only those."""
    _, screen = seated("kompromat", NAMES, {"first_player": "Anna"})
    tap_starting(screen, "Enter round 1 of 6")
    choose_form(screen, "Quick")
    for number, (winner, card) in enumerate([("Anna", "Target (5 VP)"), ("Ben", "Target (4 VP)")]):
        checked_shown(screen, f"Mission {number + 1}")
        tap(screen, "!!")
        tap(screen, f"{winner} wins")
        tap(screen, f"Mission card: {card}", role="checkbox")  # the next mission opens
    checked_shown(screen, "Mission 3")
    assert marks_disabled(screen) == {"!!": True, "!": False, "!!!": False}


def marks_disabled(screen: Screen) -> dict[str, bool]:
    """Whether each "!" mark of the mission shown can be chosen (its segment disabled)."""
    found = {}
    for marks in ("!", "!!", "!!!"):
        segments = screen.find(marks, "button")
        assert segments, f"no {marks!r} on the screen: {screen.texts()}"
        found[marks] = not segments[0].enabled
    return found


def test_the_tokens_panel_counts_the_round_being_entered(seated: Seated) -> None:
    """Ben has 6 tokens; on mission 1 of round 2 he goes above 21 (one more). The panel over
    the entry says 7 and warns ("2 more and Ben loses!") while the round is entered: it said
    6 and warned of nothing, so it could never warn in the round where the loss happens."""
    record = scenario("kompromat-short-final-round-outcome")
    _, screen = seated("kompromat", NAMES, record["options"], rounds=record["rounds"][:1])
    shown(screen, EN.plural("{count} token", "{count} tokens", 6))
    tap_starting(screen, "Enter round 2 of 6")
    choose_form(screen, "Quick")
    chip(screen, "Ben: above 21")  # Anna wins, as the marks decide
    tap(screen, "Mission card: Target (2 VP)", role="checkbox")  # mission 2 opens
    shown(screen, EN.plural("{count} token", "{count} tokens", 7))
    shown(
        screen,
        EN.plural(
            "{count} more and {name} loses!", "{count} more and {name} loses!", 2, name="Ben"
        ),
    )
    tap(screen, "Discard")
    shown(screen, EN.plural("{count} token", "{count} tokens", 6))  # the game as it is


def won(card: dict[str, Any], winner: str) -> dict[str, Any]:
    """A mission in outcome form that `winner` wins plainly."""
    return {"card": card, "alarm": 0, "outcome": {"winner": winner, "busts": [], "perfect": []}}


ITEMS_WON = {  # round 1: Anna takes the Chloroform and the GPS Tracker, Ben the Balaclava
    "missions": [
        won({"kind": "item", "item": "chloroform"}, "Anna"),
        won({"kind": "item", "item": "gps-tracker"}, "Anna"),
        won({"kind": "item", "item": "balaclava"}, "Ben"),
        won({"kind": "target", "vp": 5}, "Ben"),
    ]
}


def test_each_item_offered_says_whose_it_is_and_only_where_it_may_be_used(seated: Seated) -> None:
    """Anna holds the Chloroform and the GPS Tracker, Ben the Balaclava: a mission's chips said
    "Use the Balaclava", "Use the GPS Tracker" with no holder, and offered the Chloroform where
    saving refuses it (Anna does not win that mission, or it has no "!" marks)."""
    _, screen = seated("kompromat", NAMES, {"first_player": "Anna"}, rounds=[ITEMS_WON])
    tap_starting(screen, "Enter round 2 of 6")
    choose_form(screen, "Quick")
    shown(screen, "Anna: use the GPS Tracker")
    shown(screen, "Ben: use the Balaclava")
    no_control_named(screen, "Anna: use the Chloroform")  # no "!" yet: it would change nothing
    tap(screen, "!!")
    tap(screen, "Anna wins")
    shown(screen, "Anna: use the Chloroform")
    tap(screen, "Ben wins")
    no_control_named(screen, "Anna: use the Chloroform")  # Ben takes the tokens, not Anna
