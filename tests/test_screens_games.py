"""Games played through the app's screens in-process (tests/screens.py): a whole Black Spy game
with the Mole by its cards, a whole Kompromat game in outcome form, the last round that ends a
game, a correction and a refused entry. The totals and
the winner the screens show are checked against `scoring`. (Each game is also played through
once in Chromium: tests/test_e2e_games.py.)"""

from __future__ import annotations

import copy
import random
from typing import Any

import generators
from builders import BASIC_ENDING
from screens import Screen, Seated
from test_e2e_games import later_kompromat_rounds, names_of, scenario, winner_line
from ui import (
    EN,
    card_says,
    chip,
    enter_deal,
    enter_kompromat_outcomes,
    enter_kompromat_round,
    open_cards_entry,
    shown,
    start_game,
    tap_starting,
)

import scoring


def test_black_spy_whole_game_with_the_mole_entered_by_its_cards(screen: Screen) -> None:
    """New game with The Mole, the scenario's deals and the deal that ends it, each by its
    cards: the totals, the next deal's dealer and cards, the Mole's draft, the final totals
    and the winner, each as `scoring` says."""
    record = scenario("black-spy-basic")
    record["options"]["variants"] = ["mole"]
    names = names_of(record)
    start_game(screen, "Black Spy", names)
    chip(screen, "The Mole")
    screen.tap("Start Black Spy")
    for number, deal in enumerate(record["rounds"], start=1):
        enter_deal(screen, number, names, deal)
    so_far = scoring.standings(record)
    for name, total in so_far["totals"].items():
        shown(screen, f"{name}: total {EN.number(total)}")
    after = so_far["next_deal"]
    shown(
        screen,
        EN(
            "Deal {number}: {dealer} deals {cards} cards each",
            number=after["number"],
            dealer=after["dealer"],
            cards=after["cards_each"],
        ),
    )
    draft = EN.plural(
        "The Mole: {count} card set aside first. Draft: {order}",
        "The Mole: {count} cards set aside first. Draft: {order}",
        after["mole_cards"],
        order=" → ".join(after["mole_draft_order"]),
    )
    shown(screen, draft)
    enter_deal(screen, 4, names, BASIC_ENDING)
    final = scoring.standings({**record, "rounds": [*record["rounds"], BASIC_ENDING]})
    assert final["finished"]
    for name, total in final["totals"].items():
        shown(screen, f"{name}: total {EN.number(total)}")
    shown(screen, winner_line(final))


def test_kompromat_last_round_entered_with_the_cards_ends_the_game(seated: Seated) -> None:
    """Five rounds saved (the scenario's and four more), the sixth entered with the cards: the
    game is over, with the totals and the winner as `scoring` says."""
    record = scenario("kompromat-first-round")
    names = names_of(record)
    rounds = record["rounds"] + later_kompromat_rounds(record)
    _, screen = seated("kompromat", names, record["options"], rounds=rounds[:5])
    enter_kompromat_round(screen, 6, names, rounds[5])
    final = scoring.standings({**record, "rounds": rounds})
    assert final["finished"]
    for name, total in final["totals"].items():
        shown(screen, f"{name}: {EN.number(total)} VP")
    shown(screen, winner_line(final))


def test_a_wrong_entry_is_explained_and_cannot_be_saved(seated: Seated) -> None:
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla"])
    open_cards_entry(screen, "Enter deal 1")
    chip(screen, "Anna: black Spies: 4")
    chip(screen, "Ben: black Spies: 3")  # 7 black Spies: Carla, filled in, cannot make it add up
    problem = "the black Spies add up to 7, but a deal has 6"
    in_card = problem[:1].upper() + problem[1:]
    card_says(screen, "Ben", in_card)  # in the card of the pile just changed, under the finger
    screen.tap("Save deal")
    screen.see("Not saved: what to put right is said above.")  # where Save was tapped
    assert sum(text.count(in_card) for text in screen.texts()) == 1, screen.texts()  # once
    card_says(screen, "Ben", in_card)  # still there: nothing saved
    screen.tap("Discard")
    shown(screen, "Enter deal 1")  # the deal was not saved


def test_a_past_round_is_edited_and_the_totals_follow(seated: Seated) -> None:
    record = scenario("black-spy-basic")
    _, screen = seated("black-spy", names_of(record), rounds=record["rounds"][:2])
    tap_starting(screen, "Edit deal 1")  # the row of deal 1 on the scoresheet
    shown(screen, "Correct deal 1")
    chip(screen, "Anna: coloured Spies: 0")
    chip(screen, "Ben: coloured Spies: 1")
    screen.tap("Save deal")
    edited: dict[str, Any] = copy.deepcopy(record)
    edited["rounds"] = edited["rounds"][:2]
    edited["rounds"][0]["cards"]["Anna"]["colored_spies"] = 0
    edited["rounds"][0]["cards"]["Ben"]["colored_spies"] = 1
    for name, total in scoring.standings(edited)["totals"].items():
        shown(screen, f"{name}: total {EN.number(total)}")


def test_kompromat_whole_game_in_outcome_form(seated: Seated) -> None:
    """Every mission entered by how it ended (quick entry), a game with "!" marks, players
    above 21, at 21 (tokens back), without cards, to its end: every total as `scoring` says."""
    names = ["Anna", "Ben"]
    played = generators.kompromat_record(random.Random(20261122), names=names)
    record = generators.in_outcome_form(played)
    assert scoring.standings(record)["totals"] == scoring.standings(played)["totals"]
    _, screen = seated("kompromat", names, record["options"])
    rounds = record["rounds"]
    for number, rnd in enumerate(rounds, start=1):
        enter_kompromat_outcomes(screen, number, names, rnd)
        so_far = scoring.standings({**record, "rounds": rounds[:number]})
        for name, total in so_far["totals"].items():
            shown(screen, f"{name}: {EN.number(total)} VP")
    final = scoring.standings(record)
    assert final["finished"]
    shown(screen, winner_line(final))
