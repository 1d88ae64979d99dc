"""Black Spy: one test per rule of RULES.md section 1, and per decision marked there."""

from __future__ import annotations

from fractions import Fraction

import pytest
from builders import FOUR, black_spy, deal, errors_of, moon, pile, standings

import scoring
from scoring import black_spy as rules

THREE = FOUR[:3]
# Deal 1 of the basic scenario: Anna 18, Ben 20, Carla 20, Dirk 2.
SCENARIO_DEAL_ONE = deal(
    FOUR,
    Anna=pile(2, 1, [8], 1),
    Ben=pile(1, 2, [9, 11]),
    Carla=pile(3, 0, [], 2),
    Dirk=pile(0, 3, [10], 1),
)


def sixty_for(names: list[str], taker: str, other: str) -> dict:
    """`taker` scores 60 (all six black Spies); `other` takes the rest: 20 − 20 = 0."""
    return deal(names, **{taker: pile(spies=6), other: pile(low=6, high=[8, 9, 10, 11], colored=4)})


def seventy_five_for(names: list[str], taker: str, other: str) -> dict:
    """`taker` scores 75 (6 Spies, 6 low, 8, 9, 10); `other` gets 5 − 20 = −15."""
    return deal(names, **{taker: pile(6, 6, [8, 9, 10]), other: pile(high=[11], colored=4)})


def forty_for(names: list[str], taker: str, other: str) -> dict:
    """`taker` scores 40 (4 Spies); `other` gets 20 + 20 − 20 = 20."""
    return deal(names, **{taker: pile(spies=4), other: pile(2, 6, [8, 9, 10, 11], 4)})


def nothing_for(names: list[str], taker: str, other: str, third: str) -> dict:
    """`taker` scores 0 without a moon: `other` 75, `third` 5 − 20."""
    return deal(names, **{other: pile(6, 6, [8, 9, 10]), third: pile(high=[11], colored=4)})


@pytest.mark.parametrize(("players", "cards"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_cards_dealt_by_player_count(players: int, cards: int) -> None:
    names = ["Anna", "Ben", "Carla", "Dirk", "Emil", "Frida"][:players]
    assert standings(black_spy(names, []))["next_deal"]["cards_each"] == cards


def test_the_deal_passes_clockwise() -> None:
    rec = black_spy(FOUR, [], first_dealer="Carla", end_value=1000)
    dealers = []
    for _ in range(5):
        dealers.append(standings(rec)["next_deal"]["dealer"])
        rec["rounds"].append(forty_for(FOUR, "Anna", "Ben"))
    assert dealers == ["Carla", "Dirk", "Anna", "Ben", "Carla"]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (3, ["left", "right", "left", "right"]),
        (4, ["left", "right", "across", "left"]),
        (5, ["left", "right", "left", "right"]),
        (6, ["left", "right", "left", "right"]),
    ],
)
def test_pass_direction(players: int, expected: list[str]) -> None:
    assert [rules.pass_direction(players, n) for n in range(1, 5)] == expected


@pytest.mark.parametrize(
    ("taken", "points"),
    [
        (pile(low=1), 1),
        (pile(low=6), 6),
        (pile(spies=1), 10),
        (pile(high=[8]), 2),
        (pile(high=[9]), 3),
        (pile(high=[10]), 4),
        (pile(high=[11]), 5),
        (pile(colored=1), -5),
        (pile(2, 1, [8], 1), 18),
    ],
)
def test_card_points(taken: dict, points: int) -> None:
    taken_pile = rules.Pile(**{**taken, "black_high": frozenset(taken["black_high"])})
    options = rules.Options("Anna", frozenset(), 150)
    assert rules.pile_points(taken_pile, options) == points


def test_scenario_deal_points_from_cards() -> None:
    first = SCENARIO_DEAL_ONE
    assert standings(black_spy(FOUR, [first]))["totals"] == {
        "Anna": 18,
        "Ben": 20,
        "Carla": 20,
        "Dirk": 2,
    }


def test_a_deal_totals_sixty() -> None:
    totals = standings(black_spy(FOUR, [forty_for(FOUR, "Anna", "Ben")]))["totals"]
    assert sum(totals.values()) == 60


def test_shooting_the_moon_gives_everyone_else_sixty_and_coloured_spies_still_count() -> None:
    rec = black_spy(FOUR, [moon(FOUR, "Carla", colored={"Carla": 1, "Ben": 2, "Dirk": 1})])
    assert standings(rec)["totals"] == {"Anna": 60, "Ben": 50, "Carla": -5, "Dirk": 55}


def test_game_ends_when_a_total_reaches_the_end_value_and_lowest_wins() -> None:
    rec = black_spy(FOUR, [seventy_five_for(FOUR, "Anna", "Ben")])
    assert standings(rec)["finished"] is False
    rec["rounds"].append(seventy_five_for(FOUR, "Anna", "Carla"))  # Anna exactly 150
    result = standings(rec)
    assert result["finished"] is True
    assert result["totals"] == {"Anna": 150, "Ben": -15, "Carla": -15, "Dirk": 0}
    assert result["winners"] == ["Ben", "Carla"]  # Decision: equal lowest share the win
    assert result["next_deal"] is None


@pytest.mark.parametrize(("players", "end"), [(3, 200), (4, 150), (5, 120), (6, 100)])
def test_default_end_value_by_player_count(players: int, end: int) -> None:
    names = ["Anna", "Ben", "Carla", "Dirk", "Emil", "Frida"][:players]
    assert standings(black_spy(names, []))["end_value"] == end


def test_end_value_is_a_house_rule() -> None:
    rec = black_spy(FOUR, [sixty_for(FOUR, "Anna", "Ben")], end_value=60)
    assert standings(rec)["finished"] is True
    assert standings({**rec, "options": {**rec["options"], "end_value": 61}})["finished"] is False


def test_no_round_after_the_end() -> None:
    rec = black_spy(FOUR, [sixty_for(FOUR, "Anna", "Ben")] * 2, end_value=60)
    [error] = errors_of(rec)
    assert error.code == "GameAlreadyOver" and error.path == "rounds[1]"


def test_no_good_spies_makes_coloured_spies_worth_zero_and_a_deal_eighty() -> None:
    rec = black_spy(FOUR, [forty_for(FOUR, "Anna", "Ben")], ["no-good-spies"])
    totals = standings(rec)["totals"]
    assert totals["Ben"] == 40 and sum(totals.values()) == 80


def test_capture_or_release_give() -> None:
    rec = black_spy(FOUR, [moon(FOUR, "Carla", {"Ben": 4}, "give")], ["capture-or-release"])
    assert standings(rec)["totals"] == {"Anna": 60, "Ben": 60, "Carla": 0, "Dirk": 60}


def test_capture_or_release_release() -> None:
    rec = black_spy(FOUR, [moon(FOUR, "Carla", {"Ben": 4}, "release")], ["capture-or-release"])
    assert standings(rec)["totals"] == {"Anna": 0, "Ben": 0, "Carla": -60, "Dirk": 0}


def test_capture_or_release_requires_the_choice() -> None:
    rec = black_spy(FOUR, [moon(FOUR, "Carla")], ["capture-or-release"])
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("MoonChoiceRequired", "rounds[0].moon_choice")
    assert "Carla took all 16 black cards" in str(error)


def test_moon_choice_only_when_asked() -> None:
    rec = black_spy(FOUR, [moon(FOUR, "Carla", choice="give")])  # variant off
    assert [e.code for e in errors_of(rec)] == ["MoonChoiceNotAllowed"]
    rec = black_spy(
        FOUR, [{**forty_for(FOUR, "Anna", "Ben"), "moon_choice": "give"}], ["capture-or-release"]
    )
    assert [e.code for e in errors_of(rec)] == ["MoonChoiceNotAllowed"]


MOLE_BORN = {"Anna": "1988-03-14", "Ben": "1992-11-02", "Carla": "1979-06-30", "Dirk": "2001-01-09"}


def test_mole_deal_one_is_dealt_normally() -> None:
    next_deal = standings(black_spy(FOUR, [], ["mole"], MOLE_BORN))["next_deal"]
    assert next_deal["cards_each"] == 15
    assert "mole_cards" not in next_deal and "mole_draft_order" not in next_deal


@pytest.mark.parametrize(("players", "each"), [(3, 17), (4, 12), (5, 9), (6, 7)])
def test_mole_sets_aside_three_cards_per_player_from_deal_two(players: int, each: int) -> None:
    names = ["Anna", "Ben", "Carla", "Dirk", "Emil", "Frida"][:players]
    rec = black_spy(names, [forty_for(names, "Anna", "Ben")], ["mole"])
    next_deal = standings(rec)["next_deal"]
    assert (next_deal["cards_each"], next_deal["mole_cards"]) == (each, 3 * players)


def test_mole_draft_highest_first_ties_youngest_first() -> None:
    first = SCENARIO_DEAL_ONE
    order = standings(black_spy(FOUR, [first], ["mole"], MOLE_BORN))["next_deal"][
        "mole_draft_order"
    ]
    assert order == ["Ben", "Carla", "Anna", "Dirk"]  # Ben (1992) is younger than Carla (1979)
    older_ben = {**MOLE_BORN, "Ben": "1970"}
    order = standings(black_spy(FOUR, [first], ["mole"], older_ben))["next_deal"][
        "mole_draft_order"
    ]
    assert order[:2] == ["Carla", "Ben"]


def test_mole_ties_without_birth_dates_decision() -> None:
    """Decision: no birth date counts as oldest; a bare year as 1 January; still equal: seating
    order from the dealer's left."""
    tie = deal(
        FOUR,
        Anna=pile(spies=3),
        Ben=pile(spies=3),
        Carla=pile(low=6, high=[8, 9, 10, 11], colored=4),
    )
    # Anna and Ben tie at 30; next dealer is Ben (deal 2), so Carla, Dirk, Anna, Ben is seat order.
    order = standings(black_spy(FOUR, [tie], ["mole"]))["next_deal"]["mole_draft_order"]
    assert order[:2] == ["Anna", "Ben"]
    order = standings(black_spy(FOUR, [tie], ["mole"], {"Ben": "1990"}))["next_deal"][
        "mole_draft_order"
    ]
    assert order[:2] == ["Ben", "Anna"]
    born = {"Anna": "1990", "Ben": "1990-05-01"}
    order = standings(black_spy(FOUR, [tie], ["mole"], born))["next_deal"]["mole_draft_order"]
    assert order[:2] == ["Ben", "Anna"]


def test_mole_a_bare_birth_year_counts_as_the_first_of_january_decision() -> None:
    """Decision (README, house rules): "a bare birth year counts as 1 January", so "1990" and
    "1990-01-01" are the same age and the next tie-break, seating order from the dealer's left,
    decides."""
    tie = deal(
        FOUR,
        Anna=pile(spies=3),
        Ben=pile(spies=3),
        Carla=pile(low=6, high=[8, 9, 10, 11], colored=4),
    )
    for born in ({"Anna": "1990", "Ben": "1990-01-01"}, {"Anna": "1990-01-01", "Ben": "1990"}):
        order = standings(black_spy(FOUR, [tie], ["mole"], born))["next_deal"]["mole_draft_order"]
        assert order[:2] == ["Anna", "Ben"], born


def test_calling_color_dealer_calls_and_the_player_to_the_left_leads() -> None:
    rec = black_spy(FOUR, [forty_for(FOUR, "Anna", "Ben")], ["calling-color"], first_dealer="Dirk")
    next_deal = standings(rec)["next_deal"]
    assert (next_deal["dealer"], next_deal["caller"], next_deal["leader"]) == (
        "Anna",
        "Anna",
        "Ben",
    )
    assert "caller" not in standings(black_spy(FOUR, []))["next_deal"]


def test_following_rank_changes_no_score() -> None:
    deals = [forty_for(FOUR, "Anna", "Ben"), moon(FOUR, "Dirk", {"Carla": 2})]
    plain = standings(black_spy(FOUR, deals))
    following = standings(black_spy(FOUR, deals, ["following-rank"]))
    assert following["round_totals"] == plain["round_totals"]


def test_going_back_ends_only_when_a_total_exceeds_the_end_value() -> None:
    # 3 players, end 200: Anna 60, 120, 180, then exactly 200 goes back to 100 (not 50).
    deals = [sixty_for(THREE, "Anna", "Ben")] * 3
    deals.append(deal(THREE, Anna=pile(low=6, high=[8, 9, 10, 11]), Ben=pile(spies=6, colored=4)))
    result = standings(black_spy(THREE, deals, ["going-back"]))
    assert [t["Anna"] for t in result["round_totals"]] == [60, 120, 180, 100]
    assert result["finished"] is False
    assert result["deals"][3]["halved"] == ["Anna"]
    deals.append(seventy_five_for(THREE, "Anna", "Ben"))  # 175
    assert standings(black_spy(THREE, deals, ["going-back"]))["finished"] is False
    deals.append(sixty_for(THREE, "Anna", "Ben"))  # 235 exceeds 200
    result = standings(black_spy(THREE, deals, ["going-back"]))
    assert result["totals"]["Anna"] == 235 and result["finished"] is True


def test_going_back_halves_exactly_half_the_end_value() -> None:
    deals = [sixty_for(THREE, "Anna", "Ben"), forty_for(THREE, "Anna", "Carla")]
    assert standings(black_spy(THREE, deals, ["going-back"]))["totals"]["Anna"] == 50


@pytest.mark.parametrize(("halves", "expected"), [("exact", 37.5), ("down", 37), ("up", 38)])
def test_going_back_halves_setting(halves: str, expected: float) -> None:
    rec = black_spy(FOUR, [seventy_five_for(FOUR, "Anna", "Ben")], ["going-back"], halves=halves)
    assert standings(rec)["totals"]["Anna"] == expected


def test_exact_halves_stay_exact_over_many_deals() -> None:
    rec = black_spy(
        FOUR,
        [seventy_five_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben")],
        ["going-back"],
    )
    assert standings(rec)["totals"]["Anna"] == 77.5
    assert rules.halve(Fraction(75), "exact") == Fraction(75, 2)


def test_going_back_a_player_who_scores_nothing_is_not_halved_again_decision() -> None:
    """Decision: only a deal that brings a total to the value halves it."""
    deals = [sixty_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben")]  # 60, 100 -> 50
    deals.append(nothing_for(FOUR, "Anna", "Ben", "Carla"))
    totals = [
        t["Anna"]
        for t in standings(black_spy(FOUR, deals, ["going-back"], end_value=100))["round_totals"]
    ]
    assert totals == [60, 50, 50]


def test_without_going_back_exactly_the_end_value_ends_the_game() -> None:
    deals = [sixty_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben")]
    assert standings(black_spy(FOUR, deals, end_value=100))["finished"] is True


def test_rest_of_deal_fills_the_last_player() -> None:
    rec = black_spy(FOUR, [])
    draft = {
        "cards": {
            "Anna": pile(2, 1, [8], 1),
            "Ben": pile(1, 2, [9, 11]),
            "Carla": pile(3, 0, [], 2),
            "Dirk": pile(),
        }
    }
    filled = scoring.complete_round(rec, draft, "dirk")
    assert filled["cards"]["Dirk"] == pile(0, 3, [10], 1)
    assert scoring.check_round(rec, filled) == []


def test_rest_of_deal_refuses_when_the_others_already_exceed_a_deal() -> None:
    assert (
        rules.rest_of_deal({"Anna": rules.Pile(black_spies=4), "Ben": rules.Pile(black_spies=3)})
        is None
    )
    assert (
        rules.rest_of_deal(
            {
                "Anna": rules.Pile(black_high=frozenset({8})),
                "Ben": rules.Pile(black_high=frozenset({8})),
            }
        )
        is None
    )


def test_deal_that_does_not_add_up_names_what_is_wrong() -> None:
    bad = deal(FOUR, Anna=pile(spies=5), Ben=pile(low=6, high=[8, 9, 10, 11], colored=4))
    [error] = errors_of(black_spy(FOUR, [bad]))
    assert str(error) == "rounds[0].cards: the black Spies add up to 5, but a deal has 6"


def test_too_many_black_spies_for_one_player() -> None:
    bad = deal(FOUR, Ben=pile(spies=7))
    messages = [str(e) for e in errors_of(black_spy(FOUR, [forty_for(FOUR, "Anna", "Ben"), bad]))]
    assert "rounds[1].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal" in messages


def test_high_card_taken_twice_or_by_nobody() -> None:
    bad = deal(FOUR, Anna=pile(spies=6, high=[8, 9]), Ben=pile(low=6, high=[9, 10], colored=4))
    errors = errors_of(black_spy(FOUR, [bad]))
    assert [(e.code, e.path) for e in errors] == [
        ("HighCardTwice", "rounds[0].cards.Ben.black_high"),
        ("HighCardMissing", "rounds[0].cards"),
    ]
    assert "black 9 was taken by Anna and Ben" in str(errors[0])
    assert "nobody took the black 11" in str(errors[1])


def test_draft_points_while_typing_and_once_complete() -> None:
    rec = black_spy(FOUR, [])
    draft = scoring.blank_round(rec)
    draft["cards"]["Anna"] = pile(2, 1, [8], 1)
    assert scoring.draft_points(rec, draft)["Anna"] == 18
    complete = moon(FOUR, "Carla", {"Ben": 4})
    assert scoring.draft_points(rec, complete) == {"Anna": 60, "Ben": 40, "Carla": 0, "Dirk": 60}
