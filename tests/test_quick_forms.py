"""The quick record forms of FORMAT.md, rule by rule: Black Spy's points form (each pile's
counted points), Kompromat's outcome form and Spywhere's counts form. Each form replays to
what the detailed form of the same round gives, and is refused with a path-named error where
FORMAT.md says so."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from builders import (
    CODE,
    DOC,
    FOUR,
    T2,
    T3,
    T4,
    T5,
    TWO,
    black_spy,
    codes_and_paths,
    deal,
    item,
    moon,
    pile,
    record,
    standings,
)
from builders import mission as with_cards

import scoring
from scoring import black_spy as rules
from scoring import kompromat as kompromat_rules

THREE = FOUR[:3]


def points(names: list[str], *values: int, **extra: Any) -> dict[str, Any]:
    """A Black Spy deal in points form."""
    return {"points": dict(zip(names, values, strict=True)), **extra}


# --- Black Spy: points form ----------------------------------------------------------------


def test_a_deal_in_points_form_scores_the_piles_as_counted() -> None:
    rec = black_spy(FOUR, [points(FOUR, 18, 20, 20, 2), points(FOUR, -10, 36, 8, 26)])
    result = standings(rec)
    assert result["totals"] == {"Anna": 8, "Ben": 56, "Carla": 28, "Dirk": 28}
    assert result["next_deal"]["dealer"] == "Carla"


def test_points_form_and_cards_form_mix_round_by_round() -> None:
    cards = deal(
        FOUR,
        Anna=pile(2, 1, [8], 1),
        Ben=pile(1, 2, [9, 11]),
        Carla=pile(3, 0, [], 2),
        Dirk=pile(0, 3, [10], 1),
    )
    mixed = black_spy(FOUR, [cards, points(FOUR, 18, 20, 20, 2)])
    assert standings(mixed)["totals"] == {"Anna": 36, "Ben": 40, "Carla": 40, "Dirk": 4}


def test_the_piles_must_add_up_to_the_deal_total() -> None:
    rec = black_spy(FOUR, [points(FOUR, 18, 20, 20, 3)])
    assert codes_and_paths(rec) == [("PilesDoNotAddUp", "rounds[0].points")]
    no_good = black_spy(FOUR, [points(FOUR, 18, 20, 20, 2)], ["no-good-spies"])
    assert codes_and_paths(no_good) == [("PilesDoNotAddUp", "rounds[0].points")]
    assert standings(black_spy(FOUR, [points(FOUR, 20, 20, 20, 20)], ["no-good-spies"]))


@pytest.mark.parametrize(
    ("variants", "value", "code"),
    [([], -25, "NumberTooLow"), ([], 81, "NumberTooHigh"), (["no-good-spies"], -5, "NumberTooLow")],
)
def test_a_pile_is_within_what_one_pile_can_be(variants: list[str], value: int, code: str) -> None:
    rec = black_spy(FOUR, [points(FOUR, value, 0, 0, 60 - value)], variants)
    assert (code, "rounds[0].points.Anna") in codes_and_paths(rec)


def test_piles_no_split_of_the_deck_gives_are_refused() -> None:
    """−20, −20, 50, 50 needs eight coloured Spies; the deck has four."""
    rec = black_spy(FOUR, [points(FOUR, -20, -20, 50, 50)])
    assert codes_and_paths(rec) == [("PilesNotPossible", "rounds[0].points")]


def test_a_pile_of_80_is_a_moon_and_must_be_marked() -> None:
    rec = black_spy(FOUR, [points(FOUR, 80, -20, 0, 0)])
    assert codes_and_paths(rec) == [("MoonTakerRequired", "rounds[0].moon_taker")]


def test_a_marked_moon_scores_as_the_cards_would() -> None:
    """Anna took all 16 black cards and one coloured Spy (75): she keeps −5, everyone else gets
    60 plus their own coloured Spies."""
    counted = black_spy(FOUR, [points(FOUR, 75, -10, -5, 0, moon_taker="Anna")])
    cards = black_spy(FOUR, [moon(FOUR, "Anna", {"Ben": 2, "Carla": 1, "Anna": 1})])
    assert standings(counted)["totals"] == {"Anna": -5, "Ben": 50, "Carla": 55, "Dirk": 60}
    assert standings(counted)["totals"] == standings(cards)["totals"]
    assert standings(counted)["deals"][0]["moon"] == "Anna"


def test_a_moon_pile_is_80_less_its_coloured_spies_and_the_others_only_coloured_spies() -> None:
    taker_wrong = black_spy(FOUR, [points(FOUR, 72, -12, 0, 0, moon_taker="Anna")])
    assert ("MoonPileNotPossible", "rounds[0].points.Anna") in codes_and_paths(taker_wrong)
    other_wrong = black_spy(FOUR, [points(FOUR, 65, 5, -10, 0, moon_taker="Anna")])
    assert codes_and_paths(other_wrong) == [("PileBesideMoonNotPossible", "rounds[0].points.Ben")]
    no_good = black_spy(FOUR, [points(FOUR, 75, 5, 0, 0, moon_taker="Anna")], ["no-good-spies"])
    assert ("MoonPileNotPossible", "rounds[0].points.Anna") in codes_and_paths(no_good)


def test_capture_or_release_asks_the_moon_choice_in_points_form_too() -> None:
    variants = ["capture-or-release"]
    missing = black_spy(FOUR, [points(FOUR, 80, -20, 0, 0, moon_taker="Anna")], variants)
    assert codes_and_paths(missing) == [("MoonChoiceRequired", "rounds[0].moon_choice")]
    released = points(FOUR, 80, -20, 0, 0, moon_taker="Anna", moon_choice="release")
    assert standings(black_spy(FOUR, [released], variants))["totals"] == {
        "Anna": -60,
        "Ben": 0,
        "Carla": 0,
        "Dirk": 0,
    }
    given = points(FOUR, 70, -10, 0, 0, moon_taker="Anna", moon_choice="give")
    assert standings(black_spy(FOUR, [given], variants))["totals"]["Ben"] == 60  # Spies count 0
    no_moon = points(FOUR, 18, 20, 20, 2, moon_choice="give")
    rec = black_spy(FOUR, [no_moon], variants)
    assert codes_and_paths(rec) == [("MoonChoiceNotAllowed", "rounds[0].moon_choice")]


def test_a_round_has_cards_or_points_never_both() -> None:
    both = {**points(FOUR, 18, 20, 20, 2), "cards": {}}
    assert codes_and_paths(black_spy(FOUR, [both])) == [("BothForms", "rounds[0]")]


def test_moon_taker_belongs_to_the_points_form() -> None:
    cards = {**moon(FOUR, "Anna"), "moon_taker": "Anna"}
    assert ("UnknownKey", "rounds[0].moon_taker") in codes_and_paths(black_spy(FOUR, [cards]))
    stranger = points(FOUR, 80, -20, 0, 0, moon_taker="Zoe")
    assert codes_and_paths(black_spy(FOUR, [stranger])) == [
        ("UnknownPlayer", "rounds[0].moon_taker")
    ]


def every_split_of_three() -> set[tuple[int, ...]]:
    """The piles three players can take without a moon, by splitting the deck's scoring cards
    every way there is (independent of the engine's search)."""
    found: set[tuple[int, ...]] = set()
    splits = [(a, b, 6 - a - b) for a in range(7) for b in range(7 - a)]
    colored_splits = [(a, b, 4 - a - b) for a in range(5) for b in range(5 - a)]
    for spies, low, colored in itertools.product(splits, splits, colored_splits):
        for owners in itertools.product(range(3), repeat=4):
            piles = [10 * spies[i] + low[i] - 5 * colored[i] for i in range(3)]
            black = [spies[i] + low[i] for i in range(3)]
            for rank, owner in zip((8, 9, 10, 11), owners, strict=True):
                piles[owner] += rules.HIGH_POINTS[rank]
                black[owner] += 1
            if 16 not in black:
                found.add(tuple(sorted(piles)))
    return found


def test_the_split_search_accepts_exactly_the_piles_some_split_gives() -> None:
    possible = every_split_of_three()
    for a in range(-20, 81):
        for b in range(a, 81):
            c = 60 - a - b
            if b <= c <= 80:
                assert rules.piles_possible((a, b, c), False) == ((a, b, c) in possible), (a, b, c)


# --- Spywhere: counts form -----------------------------------------------------------------


def counted(ended_by: str | None = None, **counts: tuple[int, int]) -> dict[str, Any]:
    """A Spywhere ending in counts form: name=(own cards, correct)."""
    return {
        "counts": {
            name: {"own_cards": own, "correct": right} for name, (own, right) in counts.items()
        },
        "ended_by": ended_by,
    }


def spywhere(names: list[str], ending: dict[str, Any]) -> dict[str, Any]:
    options = {"removed_nationality": "belgium"} if len(names) in (3, 4) else {}
    return record("spywhere", names, options, [ending])


def test_counts_score_own_cards_times_one_plus_correct_and_the_ending_bonus() -> None:
    result = standings(spywhere(THREE, counted("Ben", Anna=(5, 2), Ben=(6, 1), Carla=(4, 0))))
    assert result["totals"] == {"Anna": 15, "Ben": 15, "Carla": 4}
    assert result["winners"] == ["Anna", "Ben"] and result["correct"]["Anna"] == 2


def test_correct_is_at_most_the_number_of_opponents() -> None:
    rec = spywhere(THREE, counted(None, Anna=(5, 3), Ben=(6, 1), Carla=(4, 0)))
    assert codes_and_paths(rec) == [("NumberTooHigh", "rounds[0].counts.Anna.correct")]
    two = record("spywhere", ["Anna", "Ben"], {}, [counted(None, Anna=(30, 2), Ben=(37, 0))])
    assert codes_and_paths(two) == [("NumberTooHigh", "rounds[0].counts.Ben.own_cards")]


def test_counts_name_every_player_and_no_stranger() -> None:
    missing = spywhere(THREE, counted(None, Anna=(5, 1), Ben=(6, 1)))
    assert codes_and_paths(missing) == [("MissingPlayer", "rounds[0].counts.Carla")]
    stranger = spywhere(THREE, counted("Zoe", Anna=(5, 1), Ben=(6, 1), Carla=(1, 0)))
    assert codes_and_paths(stranger) == [("UnknownPlayer", "rounds[0].ended_by")]


def test_an_ending_has_counts_or_what_was_laid_open_never_both() -> None:
    both = {**counted(None, Anna=(5, 1), Ben=(6, 1), Carla=(1, 0)), "own_cards": {}}
    assert codes_and_paths(spywhere(THREE, both)) == [("BothForms", "rounds[0]")]


# --- Kompromat: outcome form ---------------------------------------------------------------


def seen(
    card: dict[str, Any],
    winner: str | None,
    busts: tuple[str, ...] = (),
    perfect: tuple[str, ...] = (),
    no_cards: tuple[str, ...] = (),
    alarm: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A Kompromat mission in outcome form."""
    outcome: dict[str, Any] = {"winner": winner, "busts": list(busts), "perfect": list(perfect)}
    if no_cards:
        outcome["no_cards"] = list(no_cards)
    return {"card": card, "alarm": alarm, "outcome": outcome, **extra}


def kompromat(*rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return record("kompromat", TWO, {"first_player": "Anna"}, [{"missions": r} for r in rounds])


def test_outcomes_award_cards_tokens_and_perfect_returns() -> None:
    rec = kompromat(
        [
            seen(T5, "Anna"),
            seen(T4, "Ben", alarm=2),  # Ben takes the target and two tokens
            seen(CODE, "Anna", busts=("Ben",)),  # a bust: one more token
            seen(DOC, "Ben", perfect=("Ben",), perfect_return=["Ben"]),  # 21 gives one back
        ]
    )
    result = standings(rec)
    assert result["tokens"] == {"Anna": 0, "Ben": 2}
    assert (
        result["breakdown"]["Anna"]["targets"] == 5 and result["breakdown"]["Ben"]["targets"] == 4
    )
    assert result["missions"][0][0] == {
        "totals": None,
        "winner": "Anna",
        "tokens": {"Anna": 0, "Ben": 0},
    }


def test_outcome_and_cards_mix_in_a_round() -> None:
    """With any mission in outcome form the round's cards are not all known: a mission with
    cards may leave a player out although cards are left."""
    rec = kompromat(
        [with_cards(T5, [10, 9], [8]), seen(T4, "Anna"), seen(T3, None), seen(T2, None)]
    )
    assert standings(rec)["breakdown"]["Anna"]["targets"] == 9


def test_nine_tokens_end_the_game_in_outcome_form_too() -> None:
    first = [seen(T5, "Ben", alarm=3), seen(T4, "Ben", alarm=2), seen(T3, "Ben", alarm=2)]
    first.append(seen(CODE, "Anna", busts=("Ben",)))  # 8 tokens
    second = [seen(T2, "Ben", alarm=1), seen(DOC, None), seen(T3, None), seen(T2, None)]
    result = standings(kompromat(first, second))
    assert result["tokens"]["Ben"] == 9
    assert result["lost_by_tokens"] == "Ben" and result["winners"] == ["Anna"]


@pytest.mark.parametrize(
    ("outcome", "code", "where"),
    [
        (seen(T5, "Anna", busts=("Ben",), perfect=("Ben",)), "BustAndPerfect", "perfect"),
        (seen(T5, None, busts=("Ben",), no_cards=("Ben",)), "NoCardsButCounted", "no_cards"),
        (seen(T5, "Ben", busts=("Ben",)), "WinnerAboveLimit", "winner"),
        (seen(T5, "Ben", no_cards=("Ben",)), "WinnerWithoutCards", "winner"),
        (seen(T5, "Anna", perfect=("Ben",)), "PerfectWins", "winner"),
        (seen(T5, None, busts=("Ben",)), "OtherOfBustWins", "winner"),
        (seen(T5, "Zoe"), "UnknownPlayer", "winner"),
        (seen(T5, None, busts=("Ben", "Ben")), "ListedTwice", "busts[1]"),
    ],
)
def test_an_outcome_that_cannot_happen_is_refused(
    outcome: dict[str, Any], code: str, where: str
) -> None:
    rec = kompromat([outcome, seen(T4, None), seen(T3, None), seen(T2, None)])
    assert codes_and_paths(rec) == [(code, f"rounds[0].missions[0].outcome.{where}")]


def test_one_bust_and_the_other_without_cards_wins_nobody() -> None:
    nobody = seen(T5, None, busts=("Ben",), no_cards=("Anna",))
    result = standings(kompromat([nobody, seen(T4, None), seen(T3, None), seen(T2, None)]))
    assert result["breakdown"]["Anna"]["targets"] == 0 and result["tokens"]["Ben"] == 1


def test_a_perfect_return_needs_a_perfect_outcome() -> None:
    rec = kompromat(
        [seen(T5, "Anna", perfect_return=["Anna"]), seen(T4, None), seen(T3, None), seen(T2, None)]
    )
    assert codes_and_paths(rec) == [
        ("ReturnWithoutPerfect", "rounds[0].missions[0].perfect_return")
    ]


def test_a_mission_has_plays_or_an_outcome_never_both() -> None:
    both = {**seen(T5, "Anna"), "plays": {}}
    rec = kompromat([both, seen(T4, None), seen(T3, None), seen(T2, None)])
    assert codes_and_paths(rec) == [("BothForms", "rounds[0].missions[0]")]


def test_items_used_on_an_outcome_mission_follow_the_same_rules() -> None:
    """The Balaclava won on a mission may be used there by its winner; a Newspaper needs a
    player who played cards on the mission."""
    balaclava = seen(
        item("balaclava"), "Ben", alarm=2, effects=[{"item": "balaclava", "by": "Ben"}]
    )
    rec = kompromat([balaclava, seen(T4, None), seen(T3, None), seen(T2, None)])
    assert standings(rec)["tokens"]["Ben"] == 0
    newspaper = seen(item("newspaper"), "Anna")
    used = seen(
        T4, "Anna", no_cards=("Ben",), effects=[{"item": "newspaper", "by": "Anna", "on": "Ben"}]
    )
    rec = kompromat([newspaper, used, seen(T3, None), seen(T2, None)])
    assert codes_and_paths(rec) == [("NoCardsOnMission", "rounds[0].missions[1].effects[0].on")]


# --- Kompromat: an outcome being entered (the quick entry's draft) ---------------------------

PAIR = ("Anna", "Ben")


def test_the_marks_decide_the_winner_where_they_can_and_forget_it_when_they_no_longer_do() -> None:
    blank = kompromat_rules.OutcomeDraft()
    ben_bust = blank.marked("busts", "Ben", PAIR)
    assert (ben_bust.decided, ben_bust.winner) == (True, "Anna")  # one bust: the other wins
    assert ben_bust.marked("busts", "Ben", PAIR) == blank  # unmarked: nobody chosen any more
    both = ben_bust.marked("busts", "Anna", PAIR)
    assert (both.decided, both.winner) == (True, None)  # both above 21: nobody
    anna_21 = blank.marked("perfect", "Anna", PAIR)
    assert (anna_21.decided, anna_21.winner) == (True, "Anna")
    assert anna_21.marked("busts", "Anna", PAIR).perfect == frozenset()  # one mark per player
    idle = blank.marked("no_cards", "Anna", PAIR)
    assert (idle.decided, idle.winner) == (True, "Ben")


def test_a_chosen_winner_stands_until_the_marks_rule_it_out() -> None:
    chosen = kompromat_rules.OutcomeDraft().won_by("Ben")
    both_21 = chosen.marked("perfect", "Anna", PAIR).marked("perfect", "Ben", PAIR)
    assert (both_21.decided, both_21.winner) == (False, None)  # Ben's 21 had forced him first
    kept = chosen.marked("perfect", "Anna", PAIR).marked("perfect", "Anna", PAIR)
    assert (kept.decided, kept.winner) == (False, None)
    assert chosen.to_json() == {"winner": "Ben", "busts": [], "perfect": []}


def test_an_outcome_without_a_winner_yet_is_not_saved() -> None:
    empty = record("kompromat", TWO, {"first_player": "Anna"}, [])
    table = scoring.replay(empty).table
    draft = kompromat_rules.RoundDraft.blank(table, quick=True)
    cards = [T5, T4, T3, T2]
    for index, card in enumerate(cards):
        mission = draft.missions[index].with_card(kompromat_rules.MissionCard(**card))
        if index:
            mission = mission.with_outcome(mission.outcome.won_by("Anna"))
        draft = draft.with_mission(index, mission)
    errors = scoring.check_round(empty, draft.to_json(), None)
    assert [(err.code, err.path) for err in errors] == [
        ("MissingKey", "rounds[0].missions[0].outcome.winner")
    ]
    again = kompromat_rules.RoundDraft.from_json(draft.to_json(), table)
    assert again == draft and again.quick
    assert again.in_form(quick=False).to_json()["missions"][1]["plays"] == {"Anna": [], "Ben": []}
