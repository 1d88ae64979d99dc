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


def test_equal_lowest_totals_share_the_win_decision() -> None:
    """RULES.md 1: "Lowest total wins. **Decision:** equal lowest totals share the win." Every
    player on the lowest total wins, whoever reached it first; one lowest total wins alone."""
    rec = black_spy(
        FOUR, [seventy_five_for(FOUR, "Anna", "Ben"), seventy_five_for(FOUR, "Anna", "Carla")]
    )
    result = standings(rec)
    assert result["finished"] is True and result["totals"]["Ben"] == result["totals"]["Carla"]
    assert result["winners"] == ["Ben", "Carla"]
    rec["rounds"][1] = seventy_five_for(FOUR, "Anna", "Dirk")  # Ben −15 and Dirk −15 now
    assert standings(rec)["winners"] == ["Ben", "Dirk"]
    rec["rounds"][1] = deal(FOUR, Anna=pile(6, 6, [8, 9, 10]), Ben=pile(high=[11], colored=4))
    assert standings(rec)["winners"] == ["Ben"]  # −30 alone


@pytest.mark.parametrize(("players", "end"), [(3, 200), (4, 150), (5, 120), (6, 100)])
def test_default_end_value_by_player_count(players: int, end: int) -> None:
    names = ["Anna", "Ben", "Carla", "Dirk", "Emil", "Frida"][:players]
    assert standings(black_spy(names, []))["end_value"] == end


def test_the_end_value_can_be_changed_as_a_house_rule_decision() -> None:
    """RULES.md 1: "**Decision:** the end value can be changed as a house rule." A game set to
    end at 60 ends when a total reaches 60; set to 61, the same deal does not end it."""
    rec = black_spy(FOUR, [sixty_for(FOUR, "Anna", "Ben")], end_value=60)
    assert standings(rec)["end_value"] == 60
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


# Deal 1 of a Mole game: Anna and Ben equal on 30, Carla 5, Dirk −5. With Anna the first dealer,
# deal 2 is Ben's: seating order from his left is Carla, Dirk, Anna, Ben, so Anna picks before
# Ben when nothing else parts them; with Dirk the first dealer, deal 2 is Anna's and Ben does.
EQUAL_ON_THIRTY = deal(
    FOUR,
    Anna=pile(spies=3),
    Ben=pile(spies=3),
    Carla=pile(high=[11]),
    Dirk=pile(low=6, high=[8, 9, 10], colored=4),
)
# Deal 1: Dirk 60, Anna, Ben and Carla equal on 0.
THREE_ON_NOTHING = deal(FOUR, Anna=pile(low=6, high=[8, 9, 10, 11], colored=4), Dirk=pile(spies=6))


def mole_order(
    born: dict[str, str] | None = None, first_dealer: str = "Anna", first: dict | None = None
) -> list[str]:
    """The Mole's draft order before deal 2."""
    dealt = first or EQUAL_ON_THIRTY
    rec = black_spy(FOUR, [dealt], ["mole"], born, first_dealer=first_dealer)
    order: list[str] = standings(rec)["next_deal"]["mole_draft_order"]
    return order


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


def test_mole_equal_totals_the_youngest_picks_first_by_birth_date() -> None:
    """RULES.md 1, The Mole: "the player with the highest total takes 3 cards from the Mole,
    then the next highest, …, the lowest takes the last 3. Equal totals: the **youngest** of
    them picks first." A day younger is younger, whatever the seats say."""
    assert mole_order({"Anna": "1990-05-01", "Ben": "1990-05-02"}) == [
        "Ben",
        "Anna",
        "Carla",
        "Dirk",
    ]
    assert mole_order({"Anna": "1990-05-02", "Ben": "1990-05-01"}, "Dirk")[:2] == ["Anna", "Ben"]
    assert mole_order({"Anna": "1975-12-31", "Ben": "1976-01-01"})[:2] == ["Ben", "Anna"]


def test_mole_a_bare_birth_year_counts_as_1_january_decision() -> None:
    """RULES.md 1, The Mole: "**Decision:** a bare birth year counts as 1 January of that
    year". So "1990" is older than 2 January 1990 and younger than 31 December 1989, and the
    same age as 1 January 1990: then seating order decides, whichever way it goes."""
    assert mole_order({"Anna": "1990", "Ben": "1990-01-02"})[:2] == ["Ben", "Anna"]
    assert mole_order({"Anna": "1989-12-31", "Ben": "1990"})[:2] == ["Ben", "Anna"]
    assert mole_order({"Anna": "1990-01-02", "Ben": "1990"}, "Dirk")[:2] == ["Anna", "Ben"]
    for same in ({"Anna": "1990", "Ben": "1990-01-01"}, {"Anna": "1990-01-01", "Ben": "1990"}):
        assert mole_order(same)[:2] == ["Anna", "Ben"], same  # Ben deals: Anna sits first
        assert mole_order(same, "Dirk")[:2] == ["Ben", "Anna"], same  # Anna deals: Ben does
    assert mole_order({"Anna": 1990, "Ben": "1990"}, "Dirk")[:2] == ["Ben", "Anna"]


def test_mole_without_a_birth_date_counts_as_older_than_everyone_with_one_decision() -> None:
    """RULES.md 1, The Mole: "**Decision:** … a player without a birth date counts as older than
    everyone with one". However old the other, and whichever way seating would go."""
    assert mole_order({"Ben": "1900-01-01"})[:2] == ["Ben", "Anna"]
    assert mole_order({"Ben": "1000"})[:2] == ["Ben", "Anna"]
    assert mole_order({"Anna": "1900"}, "Dirk")[:2] == ["Anna", "Ben"]
    born = {"Anna": "1950"}  # three equal on 0: Anna first, then Carla and Ben by their seats
    assert mole_order(born, first=THREE_ON_NOTHING) == ["Dirk", "Anna", "Carla", "Ben"]


def test_mole_still_equal_pick_in_seating_order_starting_left_of_the_dealer_decision() -> None:
    """RULES.md 1, The Mole: "**Decision:** … players still equal (same date, or none known)
    pick in seating order starting left of the dealer." The dealer of the deal drafted for (deal
    2: the first dealer's left neighbour) picks last of those equal."""
    for born in ({}, {"Anna": "1990-05-01", "Ben": "1990-05-01"}):
        assert mole_order(born)[:2] == ["Anna", "Ben"], born  # Ben deals deal 2
        assert mole_order(born, "Dirk")[:2] == ["Ben", "Anna"], born  # Anna deals
        assert mole_order(born, "Carla")[:2] == ["Anna", "Ben"], born  # Dirk deals
        assert mole_order(born, "Ben")[:2] == ["Anna", "Ben"], born  # Carla deals
    # Three equal on 0, Ben dealing: from his left Carla, (Dirk,) Anna, Ben.
    assert mole_order(first=THREE_ON_NOTHING) == ["Dirk", "Carla", "Anna", "Ben"]
    assert mole_order(first=THREE_ON_NOTHING, first_dealer="Ben") == [
        "Dirk",
        "Anna",
        "Ben",
        "Carla",
    ]


# --- The Mole's draft, explained: which ties there were and what broke each --------------------


def mole_draft(
    born: dict[str, str] | None = None, first_dealer: str = "Anna", first: dict | None = None
) -> rules.MoleDraft:
    """The typed draft before deal 2, as the table screen reads it."""
    dealt = first or EQUAL_ON_THIRTY
    rec = black_spy(FOUR, [dealt], ["mole"], born, first_dealer=first_dealer)
    next_deal = rules.RULES.next_deal(scoring.replay(rec).state)
    assert next_deal is not None and next_deal.mole_draft is not None
    assert next_deal.mole_draft_order == next_deal.mole_draft.order
    return next_deal.mole_draft


def only_tie(draft: rules.MoleDraft) -> rules.MoleTie:
    [tie] = draft.ties
    return tie


def test_mole_draft_explains_only_equal_totals() -> None:
    apart = deal(
        FOUR,
        Anna=pile(spies=4),
        Ben=pile(spies=2, colored=1),
        Carla=pile(low=6, high=[8, 9, 10, 11], colored=2),
        Dirk=pile(colored=1),
    )
    draft = mole_draft(first=apart)  # 40, 15, 10, −5: nothing to explain
    assert (draft.order, draft.ties) == (("Anna", "Ben", "Carla", "Dirk"), ())
    forty = mole_draft(first=forty_for(FOUR, "Anna", "Ben"))  # Anna 40, Ben 20, Carla 0, Dirk 0
    assert forty.order[:2] == ("Anna", "Ben")
    assert [tie.players for tie in forty.ties] == [("Carla", "Dirk")]  # only the real tie
    assert mole_draft({}).ties[0].players == ("Anna", "Ben")
    assert mole_draft({}).dealer == "Ben"


def test_mole_draft_names_the_younger_and_the_total_they_were_equal_on() -> None:
    draft = mole_draft({"Anna": "1988-03-14", "Ben": "1992-11-02"})
    assert draft.order == ("Ben", "Anna", "Carla", "Dirk")
    assert draft.ties == (
        rules.MoleTie(Fraction(30), ("Ben", "Anna"), (rules.Younger("Ben", "Anna", "birth-date"),)),
    )
    scenario = mole_draft(MOLE_BORN, first=SCENARIO_DEAL_ONE)
    assert only_tie(scenario) == rules.MoleTie(
        Fraction(20), ("Ben", "Carla"), (rules.Younger("Ben", "Carla", rules.BIRTH_DATE),)
    )


def test_mole_draft_says_when_a_bare_birth_year_decided() -> None:
    """Only when the year alone could not: the same year, one of them a bare year."""
    year = rules.BIRTH_YEAR
    assert only_tie(mole_draft({"Anna": "1990", "Ben": "1990-01-02"})).broken_by == (
        rules.Younger("Ben", "Anna", year),
    )
    assert only_tie(mole_draft({"Anna": "1990-06-01", "Ben": "1990"})).broken_by == (
        rules.Younger("Anna", "Ben", year),
    )
    # A different year decides by itself, bare or not.
    assert only_tie(mole_draft({"Anna": "1990", "Ben": "1985-05-01"})).broken_by == (
        rules.Younger("Anna", "Ben", rules.BIRTH_DATE),
    )
    # The same day because a bare year counts as 1 January: seating order decides.
    for born in ({"Anna": "1990", "Ben": "1990-01-01"}, {"Anna": "1990", "Ben": "1990"}):
        assert only_tie(mole_draft(born)).broken_by == (rules.Seated(("Anna", "Ben"), year),)


def test_mole_draft_says_who_counted_as_older_for_having_no_birth_date() -> None:
    assert only_tie(mole_draft({"Ben": "1990"})).broken_by == (
        rules.Younger("Ben", "Anna", rules.NO_DATE),
    )
    draft = mole_draft({"Anna": "1950"}, first=THREE_ON_NOTHING)
    assert only_tie(draft) == rules.MoleTie(
        Fraction(0),
        ("Anna", "Carla", "Ben"),
        (rules.Younger("Anna", "Carla", rules.NO_DATE), rules.Seated(("Carla", "Ben"), "no-date")),
    )


def test_mole_draft_says_when_seating_order_decided() -> None:
    assert only_tie(mole_draft({})).broken_by == (rules.Seated(("Anna", "Ben"), rules.NO_DATE),)
    same = {"Anna": "1990-05-01", "Ben": "1990-05-01"}
    assert only_tie(mole_draft(same, "Dirk")).broken_by == (
        rules.Seated(("Ben", "Anna"), rules.SAME_DATE),
    )
    everyone = only_tie(mole_draft(first=THREE_ON_NOTHING))  # one run of three, Ben dealing
    assert everyone.broken_by == (rules.Seated(("Carla", "Anna", "Ben"), rules.NO_DATE),)


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
def test_going_back_halves_are_exact_unless_set_to_round_down_or_up_decision(
    halves: str, expected: float
) -> None:
    """RULES.md 1, Going Back: "**Decision:** halves are exact (4 players: 75 → 37.5); a
    house-rule setting may round them down or up instead." A game that names no setting halves
    exactly."""
    rec = black_spy(FOUR, [seventy_five_for(FOUR, "Anna", "Ben")], ["going-back"], halves=halves)
    assert standings(rec)["totals"]["Anna"] == expected
    unset = black_spy(FOUR, [seventy_five_for(FOUR, "Anna", "Ben")], ["going-back"])
    assert standings(unset)["totals"]["Anna"] == 37.5


def test_exact_halves_stay_exact_over_many_deals() -> None:
    rec = black_spy(
        FOUR,
        [seventy_five_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben")],
        ["going-back"],
    )
    assert standings(rec)["totals"]["Anna"] == 77.5
    assert rules.halve(Fraction(75), "exact") == Fraction(75, 2)


def test_going_back_a_value_is_reached_only_when_a_deal_brings_the_total_to_it_decision() -> None:
    """RULES.md 1, Going Back: "**Decision:** a value counts as reached only when a deal brings
    the total to it ("erreicht"): a player left on 75 by a 0-point deal is not halved again."
    A deal of minus points that brings a total down to the value reaches it too."""
    deals = [sixty_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben")]  # 60, 100 -> 50
    deals.append(nothing_for(FOUR, "Anna", "Ben", "Carla"))
    totals = [
        t["Anna"]
        for t in standings(black_spy(FOUR, deals, ["going-back"], end_value=100))["round_totals"]
    ]
    assert totals == [60, 50, 50]
    # 4 players, end 150: Anna 40, 80, then a coloured Spy alone (−5) brings her to 75: halved.
    minus_five = deal(
        FOUR, Anna=pile(colored=1), Ben=pile(6, 6, [8, 9, 10], 3), Carla=pile(high=[11])
    )
    deals = [forty_for(FOUR, "Anna", "Ben"), forty_for(FOUR, "Anna", "Ben"), minus_five]
    result = standings(black_spy(FOUR, deals, ["going-back"]))
    assert [t["Anna"] for t in result["round_totals"]] == [40, 80, 37.5]
    assert result["deals"][2]["halved"] == ["Anna"]


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


@pytest.mark.parametrize("cards", [-1, [], "cards", None])
def test_draft_points_of_a_draft_whose_cards_are_no_object_are_none(cards: object) -> None:
    """Found by tests/test_previews.py: a draft read "as far as it can be" reads
    nothing where its cards are not an object of piles; it does not crash."""
    rec = black_spy(FOUR, [])
    assert scoring.draft_points(rec, {"cards": cards}) == {}


def test_the_distance_to_the_end_is_what_ends_the_game_decision() -> None:
    """With Going Back a game ends only above the end value, so from 91 it takes 10
    points (9 only reach 100, and are halved); from 37.5 (an exact half) it takes 63. Without
    Going Back, reaching the end value ends it: 9."""

    def sheet(total: Fraction, going_back: bool) -> rules.Sheet:
        return rules.Sheet((), {"Anna": total}, (), 100, going_back, frozenset(), None)

    assert sheet(Fraction(91), going_back=True).to_end("Anna") == 10
    assert sheet(Fraction(75, 2), going_back=True).to_end("Anna") == 63
    assert sheet(Fraction(100), going_back=True).to_end("Anna") == 1
    assert sheet(Fraction(91), going_back=False).to_end("Anna") == 9
    assert sheet(Fraction(100), going_back=False).to_end("Anna") == 0
