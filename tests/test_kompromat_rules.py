"""Kompromat: one test per rule of RULES.md section 2, and per decision marked there."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from builders import (
    ALL_FOURTEEN,
    CODE,
    DOC,
    SCENARIOS,
    T2,
    T3,
    T4,
    T5,
    codes_and_paths,
    errors_of,
    item,
    standings,
)
from builders import kompromat_game as game
from builders import mission as m

from scoring import kompromat as rules


def bust() -> list[Any]:
    return [10, 9, 8]  # 27


def test_one_eleven_counts_the_better_value() -> None:
    assert rules.mission_total(["10", "1/11"]) == 21
    assert rules.mission_total(["10", "5", "1/11"]) == 16
    assert rules.mission_total(["1/11", "1/11"]) == 12
    result = standings(game(m(T4, [10, "1/11"], [9, 8, 3])))
    assert result["breakdown"]["Anna"]["targets"] == 4
    assert result["missions"][0][0]["totals"] == {"Anna": 21, "Ben": 20}


def test_half_card_counts_one_half() -> None:
    result = standings(game(m(T4, [0.5, 9], [9])))
    assert result["missions"][0][0] == {
        "totals": {"Anna": 9.5, "Ben": 9},
        "winner": "Anna",
        "tokens": {"Anna": 0, "Ben": 0},
    }


def test_above_21_fails_with_a_token_and_cannot_win() -> None:
    result = standings(game(m(T4, [10, 9, 5], [2])))
    assert result["tokens"] == {"Anna": 1, "Ben": 0}
    assert result["breakdown"]["Ben"]["targets"] == 4


def test_perfect_21_may_return_a_token() -> None:
    first = m(T5, bust(), [2])  # Anna takes a token
    assert standings(game(first, m(T4, [10, "1/11"], [2])))["tokens"]["Anna"] == 1
    returned = m(T4, [10, "1/11"], [2], perfect_return=["Anna"])
    assert standings(game(first, returned))["tokens"]["Anna"] == 0


def test_perfect_return_without_tokens_returns_nothing() -> None:
    result = standings(game(m(T4, [10, "1/11"], [2], perfect_return=["Anna"])))
    assert result["tokens"]["Anna"] == 0


def test_perfect_return_needs_exactly_21() -> None:
    [error] = errors_of(game(m(T4, [10, 9], [2], perfect_return=["Anna"])))
    assert (error.code, error.path) == ("NotPerfect", "rounds[0].missions[0].perfect_return")
    assert "Anna has 19 on mission 1 of round 1, not exactly 21" in str(error)


def test_equal_totals_more_cards_wins_else_discarded() -> None:
    assert standings(game(m(T4, [10, 5], [5, 4, 6])))["breakdown"]["Ben"]["targets"] == 4
    result = standings(game(m(T4, [10, 5], [9, 6])))
    assert result["missions"][0][0]["winner"] is None
    assert result["totals"] == {"Anna": 0, "Ben": 0}


def test_no_cards_means_no_total() -> None:
    """A player whose deck is used up plays nothing on the last mission: no total there."""
    missions = [m(T5, ALL_FOURTEEN[0], [9]), m(T4, ALL_FOURTEEN[1], [8])]
    missions += [m(T3, ALL_FOURTEEN[2], [10]), m(T2, [], [2])]
    result = standings(game(*missions, packed=True))
    assert result["missions"][0][3]["totals"] == {"Anna": None, "Ben": 2}
    assert result["missions"][0][3]["winner"] == "Ben"
    assert result["breakdown"]["Ben"]["targets"] == 5 + 4 + 2


def test_counter_intelligence_tokens_go_to_the_winner() -> None:
    result = standings(game(m(CODE, [7, 7], [0.5, 6, 5], alarm=2)))
    assert result["tokens"] == {"Anna": 2, "Ben": 0}
    assert result["totals"] == {"Anna": 4, "Ben": 0}  # code 2 + 2 tokens


def eight_tokens_for_anna() -> list[dict[str, Any]]:
    """Anna wins missions with 3, 2 and 2 "!" and fails one: 8 tokens after four missions."""
    return [
        m(T5, [3], [2], alarm=3),
        m(T4, [4], [3], alarm=2),
        m(T4, [5], [4], alarm=2),
        m(T3, bust(), [6]),
    ]


def test_nine_tokens_lose_at_once() -> None:
    missions = [
        *eight_tokens_for_anna(),
        m(CODE, [4], [3], alarm=1),
        m(CODE, [5], [2]),
        m(DOC, [6], [4]),
    ]
    result = standings(game(*missions, rounds=2, packed=True))
    assert result["tokens"]["Anna"] == 9
    assert (result["finished"], result["lost_by_tokens"], result["winners"]) == (
        True,
        "Anna",
        ["Ben"],
    )
    assert len(result["missions"][1]) == 1  # the rest of the round is not resolved
    assert result["breakdown"]["Anna"]["codes"] == 2  # the mission was still won
    [error] = errors_of(game(*missions, rounds=3, packed=True))
    assert (error.code, error.path) == ("GameAlreadyOver", "rounds[2]")


def test_nine_token_check_after_the_perfect_return_decision() -> None:
    """Decision: the check follows steps 1 to 3, the perfect return before the award."""
    perfect = m(CODE, [10, "1/11"], [2], alarm=1, perfect_return=["Anna"])
    result = standings(game(*eight_tokens_for_anna(), perfect, packed=True))
    assert result["tokens"]["Anna"] == 8 and result["finished"] is False


def test_both_reaching_nine_on_one_mission_is_a_draw_decision() -> None:
    missions = eight_tokens_for_anna()
    for _ in range(4):  # Ben fails twice a round; Anna wins those missions, with no "!"
        missions += [m(None, [2], [10, 9, 8]), m(None, [3], [7, 7, 7, 6]), m(None), m(None)]
    missions.append(m(None, [9, 8, 7], [9, 8, 7]))  # both fail: 9 tokens each
    result = standings(game(*missions, packed=True))
    assert result["tokens"] == {"Anna": 9, "Ben": 9}
    assert (result["finished"], result["winners"], result["lost_by_tokens"]) == (True, [], None)
    assert result["token_losers"] == ["Anna", "Ben"]


def test_victory_points_after_six_rounds() -> None:
    missions = [
        m(T5, [10], [9]),
        m(T4, [8], [7]),
        m(CODE, [6], [5]),
        m(CODE, [4], [3]),
        m(item("drone"), [10], [9]),
        m(DOC, [7], [8]),
        m(DOC, [5], [6]),
        m(DOC, [3], [4]),
        m(T3, bust(), [9], alarm=3),
    ]
    result = standings(game(*missions, rounds=6, packed=True))
    assert result["finished"] is True
    assert result["breakdown"] == {
        "Anna": {"targets": 9, "items": 1, "codes": 6, "documents": 0, "tokens": 1},
        "Ben": {"targets": 3, "items": 0, "codes": 0, "documents": 12, "tokens": 3},
    }
    assert result["totals"] == {"Anna": 17, "Ben": 18}
    assert result["winners"] == ["Ben"]


@pytest.mark.parametrize(("count", "points"), [(1, 2), (2, 6), (3, 12)])
def test_code_and_document_sets(count: int, points: int) -> None:
    codes = [m(CODE, [10], [9]), m(CODE, [8], [7]), m(CODE, [6], [5])][:count]
    documents = [m(DOC, [9], [10]), m(DOC, [7], [8]), m(DOC, [5], [6])][:count]
    missions = codes + [m(None)] * (4 - count) + documents
    breakdown = standings(game(*missions, packed=True))["breakdown"]
    assert (breakdown["Anna"]["codes"], breakdown["Ben"]["documents"]) == (points, points)


def test_tie_on_points_more_tokens_wins_else_draw() -> None:
    tokens_tie = [m(T5, [9], [8]), m(T3, [8], [9], alarm=2)]  # Anna 5; Ben 3 + 2 tokens
    assert standings(game(*tokens_tie, rounds=6))["winners"] == ["Ben"]
    draw = [m(T5, [9], [8]), m(T3, [8], [9]), m(T2, [8], [9])]  # 5 against 3 + 2
    result = standings(game(*draw, rounds=6))
    assert result["totals"] == {"Anna": 5, "Ben": 5} and result["winners"] == []


def test_newspaper_adds_three_to_the_opponent() -> None:
    won = m(item("newspaper"), [9], [8])
    used = m(T5, [9], [10, 8], effects=[{"item": "newspaper", "by": "Anna", "on": "Ben"}])
    result = standings(game(won, used))
    assert result["missions"][1][0]["totals"] == {"Anna": 9, "Ben": 21}
    hit = m(T5, [9], [10, 7], effects=[{"item": "newspaper", "by": "Anna", "on": "Ben"}])
    result = standings(game(won, hit))
    assert result["missions"][1][0]["winner"] == "Ben"  # 17 + 3 = 20
    assert result["items"]["Anna"] == {"won": ["newspaper"], "unused": []}


def test_newspaper_is_counted_before_choosing_one_or_eleven() -> None:
    won = m(item("newspaper"), [9], [8])
    used = m(T5, [9], [10, "1/11"], effects=[{"item": "newspaper", "by": "Anna", "on": "Ben"}])
    assert standings(game(won, used))["missions"][1][0]["totals"]["Ben"] == 14


def test_vesper_martini_adjusts_own_total() -> None:
    won = m(item("vesper-martini"), [9], [8])
    used = m(T5, [10, 6, 4], [9], effects=[{"item": "vesper-martini", "by": "Anna", "adjust": 1}])
    assert standings(game(won, used))["missions"][1][0]["totals"]["Anna"] == 21


def test_chloroform_takes_no_tokens() -> None:
    won = m(item("chloroform"), [9], [8])
    used = m(T5, [9], [8], alarm=3, effects=[{"item": "chloroform", "by": "Anna"}])
    assert standings(game(won, used))["tokens"]["Anna"] == 0
    useless = m(T5, [8], [9], alarm=3, effects=[{"item": "chloroform", "by": "Anna"}])
    assert [e.code for e in errors_of(game(won, useless))] == ["ChloroformWithoutEffect"]


def test_balaclava_discards_two_tokens() -> None:
    won = m(item("balaclava"), [9], [8], alarm=3)
    used = m(T5, bust(), [8], effects=[{"item": "balaclava", "by": "Anna"}])
    assert standings(game(won, used))["tokens"]["Anna"] == 2  # 3 + 1 - 2


def test_balaclava_saves_from_nine_tokens() -> None:
    missions = eight_tokens_for_anna()
    missions[0] = m(item("balaclava"), [3], [2], alarm=3)
    saved = m(CODE, bust(), [2], effects=[{"item": "balaclava", "by": "Anna"}])
    result = standings(game(*missions, saved, packed=True))
    assert result["tokens"]["Anna"] == 7 and result["finished"] is False


def test_usb_stick_copies_an_item_already_used() -> None:
    missions = [
        m(item("usb-stick"), [9], [8]),
        m(item("newspaper"), [8], [9]),
        m(T5, [9], [8, 3], effects=[{"item": "newspaper", "by": "Ben", "on": "Anna"}]),
        m(
            T4,
            [9, 8],
            [8],
            effects=[{"item": "usb-stick", "by": "Anna", "as": "newspaper", "on": "Ben"}],
        ),
    ]
    result = standings(game(*missions))
    assert result["missions"][3][0]["totals"] == {"Anna": 17, "Ben": 11}
    early = [
        missions[0],
        m(
            T4,
            [9, 8],
            [8],
            effects=[{"item": "usb-stick", "by": "Anna", "as": "newspaper", "on": "Ben"}],
        ),
    ]
    assert [e.code for e in errors_of(game(*early))] == ["ItemNotUsedYet"]


def test_physical_items_are_recorded_as_used() -> None:
    won = m(item("jetpack"), [9], [8])
    used = m(T5, [9], [8], effects=[{"item": "jetpack", "by": "Anna"}])
    result = standings(game(won, used))
    assert result["items"]["Anna"] == {"won": ["jetpack"], "unused": []}
    assert result["breakdown"]["Anna"]["items"] == 1  # used or not, 1 VP


def test_an_item_is_used_only_by_its_holder_and_only_once() -> None:
    won = m(item("jetpack"), [9], [8])
    by_ben = m(T5, [9], [8], effects=[{"item": "jetpack", "by": "Ben"}])
    [error] = errors_of(game(won, by_ben))
    assert (error.code, error.path) == ("ItemNotWon", "rounds[1].missions[0].effects[0].item")
    twice = [
        won,
        m(T5, [9], [8], effects=[{"item": "jetpack", "by": "Anna"}]),
        m(T4, [9], [8], effects=[{"item": "jetpack", "by": "Anna"}]),
    ]
    assert [e.code for e in errors_of(game(*twice))] == ["ItemAlreadyUsed"]
    same_mission = m(item("jetpack"), [9], [8], effects=[{"item": "jetpack", "by": "Anna"}])
    assert [e.code for e in errors_of(game(same_mission))] == ["ItemNotYetUsable"]


def test_cards_must_fit_the_equipment_deck() -> None:
    four_sevens = game(m(T5, [7, 7], [2]), m(T4, [7, 7], [3]), packed=True)
    [error] = errors_of(four_sevens)
    assert error.code == "DeckExceeded" and error.path == "rounds[0].missions[1].plays.Anna[1]"
    assert "Anna played 4 × 7 this round, but the deck has only 3" in str(error)
    for bad in (0, 12, "7", "11", 1.5, True):
        [error] = errors_of(game(m(T5, [bad], [2])))
        assert (
            error.code == "NotAnEquipmentCard"
            and error.path == "rounds[0].missions[0].plays.Anna[0]"
        )


def test_missions_come_from_the_mission_deck() -> None:
    rec = game(m(T5, [9], [8]))
    rec["rounds"][0]["missions"][1]["card"] = T5
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("MissionDeckExceeded", "rounds[0].missions[1].card")
    rec = game(m(T5, [9], [8], alarm=3), m(T4, [9], [8], alarm=3))
    assert codes_and_paths(rec) == [("MissionDeckExceeded", "rounds[1].missions[0].alarm")]


def test_a_round_has_four_missions() -> None:
    """Four missions a round; fewer only where the game ends by 9 tokens (below)."""
    rec = game(m(T5, [9], [8]))
    rec["rounds"][0]["missions"].pop()
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("RoundEndedEarly", "rounds[0].missions")
    for count in (0, 5):
        rec = game(m(T5, [9], [8]), rounds=2, packed=True)
        both = rec["rounds"][0]["missions"] + rec["rounds"][1]["missions"]
        rec["rounds"] = [{"missions": both[:count]}]
        [error] = errors_of(rec)
        assert str(error) == f"rounds[0].missions: must hold 4 missions, not {count}"


def test_start_player_alternates_each_round() -> None:
    result = standings(game(m(T5, [9], [8]), first="Ben"))
    assert result["next_round"] == {"number": 2, "first_player": "Anna"}
    result = standings(game(m(T5, [9], [8]), rounds=2, first="Ben"))
    assert result["next_round"] == {"number": 3, "first_player": "Ben"}


def test_a_round_being_entered_is_previewed_mission_by_mission() -> None:
    import scoring

    rec = game(m(item("newspaper"), [9], [8]))
    draft = {
        "missions": [
            m(T5, [10, "1/11"], [9]),
            m(T4, [9], [10]),
            {"alarm": 0, "plays": {"Anna": [2]}},
            m(T3, [3], [4]),
        ]
    }
    draft["missions"][1]["effects"] = [{"item": "newspaper", "by": "Anna", "on": "Ben"}]
    result = scoring.replay(rec)
    previews = rules.RULES.preview(result.state, rules.RoundDraft.from_json(draft, result.table))
    newspaper = rules.Effect("newspaper", "Anna", "newspaper", on="Ben")
    assert previews[0].offers == {"Anna": (newspaper,), "Ben": ()}
    assert (previews[0].winner, previews[0].totals) == ("Anna", {"Anna": 21, "Ben": 9})
    assert previews[0].values["Anna"] == (10, 11)
    assert previews[1].totals == {"Anna": 9, "Ben": 13} and previews[1].winner == "Ben"
    assert previews[2].resolved is False and previews[2].totals == {"Anna": 2, "Ben": None}
    assert previews[3].resolved is False and previews[3].offers == {"Anna": (), "Ben": ()}
    left = previews[0].left["Anna"]
    assert left["10"] == 0 and left["1/11"] == 1 and left["2"] == 0 and left["9"] == 0


def test_a_mission_is_laid_once_each_player_has_cards_on_it_or_none_left() -> None:
    """What lets the cards entry open the next mission when the card is chosen: a mission
    where someone still holds cards but laid none is not done (the rules refuse it)."""
    import scoring

    result = scoring.replay(game(m(T5, [9], [8])))
    deck = [card for mission in ALL_FOURTEEN for card in mission]
    rest_of_annas = [card for card in deck if card not in (9, 2)]  # a preview lays them all
    draft = {
        "missions": [
            m(T4, [9], [8]),
            {"alarm": 0, "plays": {"Anna": [2]}},
            m(T3, rest_of_annas, [4]),
            {"alarm": 0, "plays": {"Ben": [3]}},
        ]
    }
    missions = rules.RoundDraft.from_json(draft, result.table)
    previews = rules.RULES.preview(result.state, missions)
    laid = [p.everyone_laid(d) for p, d in zip(previews, missions.missions, strict=True)]
    # mission 4: Anna laid none, but her 14 cards are all on missions 1 to 3
    assert laid == [True, False, True, True]
    quick = missions.in_form(True)
    assert not rules.RULES.preview(result.state, quick)[0].everyone_laid(quick.missions[0])


def test_cards_left_in_the_mission_deck() -> None:
    left = standings(game(m(T5, [9], [8]), m(T4, [9], [8])))["cards_left"]
    by_card = {(c["kind"], c.get("vp"), c.get("item")): c["left"] for c in left}
    assert (("target", 5, None)) not in by_card
    assert by_card[("target", 4, None)] == 1 and by_card[("code", None, None)] == 3 - 0


# --- the rulebook line by line ---------------------------------------------------------------


def test_a_one_eleven_is_declared_at_the_reveal() -> None:
    """ "Der Spieler muss erst entscheiden, welche Zahl sie darstellt, wenn er seine Karten
    aufdeckt." In a record 1 and 11 are a 1/11 whose value was declared; "1/11" takes its best
    value."""
    declared_one = standings(game(m(T4, [10, 1], [9])))
    assert declared_one["missions"][0][0]["totals"] == {"Anna": 11, "Ben": 9}
    busted_on_purpose = standings(game(m(T4, [10, 5, 11], [9])))  # 26: a token is 1 VP
    assert busted_on_purpose["missions"][0][0]["totals"]["Anna"] == 26
    assert busted_on_purpose["tokens"]["Anna"] == 1
    assert busted_on_purpose["totals"] == {"Anna": 1, "Ben": 4}
    best = standings(game(m(T4, [10, "1/11"], [9])))
    assert best["missions"][0][0]["totals"]["Anna"] == 21
    both_declared = standings(game(m(T4, [11, 1, 2], [9])))
    assert both_declared["missions"][0][0]["totals"]["Anna"] == 14


def test_two_one_elevens_in_any_spelling() -> None:
    """FORMAT.md: "Deck limit: two 1/11 cards in any spelling"."""
    rec = game(m(T5, [1, 11], [2]), m(T4, ["1/11"], [3]), packed=True)
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("DeckExceeded", "rounds[0].missions[1].plays.Anna[0]")
    assert "Anna played 3 × 1/11 this round, but the deck has only 2" in str(error)


def test_every_mission_gets_cards_until_the_deck_runs_out() -> None:
    """Players take turns until both have played on all four missions; "Wenn ein Spieler keine
    Karten mehr in seinem Stapel hat … kann dies bedeuten, dass er keine Karten auf eine Mission
    legt": a mission stays empty only when the player's other missions hold all 14 cards."""
    forgotten = game(m(T5, [9], [8]), m(T4, [7], [6]), m(T3, [5], [4]), m(T2, [], [3]), packed=True)
    [error] = errors_of(forgotten)
    assert (error.code, error.path) == (
        "NoCardsWhileCardsLeft",
        "rounds[0].missions[3].plays.Anna",
    )
    assert "Anna played no cards on mission 4 of round 1 but still had 11 cards" in str(error)
    absent = game(m(T5, [9], [8]), m(T4, [7], [6]), m(T3, [5], [4]), m(T2, [4]), packed=True)
    absent["rounds"][0]["missions"][3]["plays"].pop("Ben")
    assert codes_and_paths(absent) == [("NoCardsWhileCardsLeft", "rounds[0].missions[3].plays.Ben")]
    used_up = [m(T5, ALL_FOURTEEN[0], [9]), m(T4, ALL_FOURTEEN[1], [8])]
    used_up += [m(T3, ALL_FOURTEEN[2], [10]), m(T2, [], [2])]
    assert errors_of(game(*used_up, packed=True)) == []


def test_missions_after_the_nine_token_loss_need_no_cards() -> None:
    """FORMAT.md: a player has no cards on a mission "when the mission comes after the one where
    the game ended (9 tokens): those need not be entered"."""
    ended = m(CODE, [4], [3], alarm=1)  # Anna's 9th token
    rest = [m(CODE, [], []), m(DOC, [], []), {**m(T2), "plays": {}}]
    result = standings(game(*eight_tokens_for_anna(), ended, *rest, packed=True))
    assert (result["finished"], result["lost_by_tokens"]) == (True, "Anna")


def test_no_card_after_a_bust() -> None:
    """A player whose cards on a mission exceed 21 must stop: no card follows once the total,
    counting every 1/11 as 1, is above 21."""
    [error] = errors_of(game(m(T5, [10, 9, 5, 2], [8])))
    assert (error.code, error.path) == ("CardAfterBust", "rounds[0].missions[0].plays.Anna[3]")
    assert "Anna was already above 21 on mission 1 of round 1 (24)" in str(error)
    # 10 + 9 + a 1/11 counted as 1 is 20: one more card may follow, whatever is declared.
    assert errors_of(game(m(T5, [10, 9, "1/11", 2], [8]))) == []
    assert errors_of(game(m(T5, [10, 9, 11, 2], [8]))) == []


def seven_tokens_for_anna() -> list[dict[str, Any]]:
    """Round 1: Anna takes 3, 2 and 1 "!" and fails once: 7 tokens."""
    return [
        m(T5, [3], [2], alarm=3),
        m(T4, [4], [3], alarm=2),
        m(T4, bust(), [5]),
        m(T3, [6, 7, 7], [6], alarm=1),
    ]


def test_items_can_be_used_at_once_a_balaclava_saves_on_its_own_mission() -> None:
    """ "Gegenstände können sofort nach dem Erwerb verwendet werden." Decision: the winner of a
    mission may use the item won with it in that same mission's effects when the item acts after
    an award (Chloroform, Balaclava, a USB Stick acting as one of them), before the 9-token check:
    e.g. a Balaclava won on the mission whose "!!" brings its winner to 9."""
    won = m(item("balaclava"), [5], [4], alarm=2)  # Anna: 7 + 2 = 9 tokens
    lost = standings(game(*seven_tokens_for_anna(), won, packed=True))
    assert (lost["lost_by_tokens"], lost["finished"]) == ("Anna", True)
    saved = {**won, "effects": [{"item": "balaclava", "by": "Anna"}]}
    result = standings(game(*seven_tokens_for_anna(), saved, packed=True))
    assert (result["tokens"]["Anna"], result["finished"]) == (7, False)
    assert result["items"]["Anna"] == {"won": ["balaclava"], "unused": []}


def test_items_can_be_used_at_once_chloroform_on_its_own_mission() -> None:
    """Decision (RULES.md §2): Chloroform acts after the award, so its winner may use it on the
    mission that won it: no tokens from the counter-intelligence card under it."""
    taken = m(item("chloroform"), [9], [8], alarm=3)
    assert standings(game(taken))["tokens"]["Anna"] == 3
    protected = {**taken, "effects": [{"item": "chloroform", "by": "Anna"}]}
    assert standings(game(protected))["tokens"]["Anna"] == 0


def test_items_can_be_used_at_once_a_usb_stick_as_balaclava() -> None:
    """Decision (RULES.md §2): a USB Stick acting as Chloroform or Balaclava may be used on the
    mission that won it (copying an item used earlier in the game)."""
    balaclava = [
        m(item("balaclava"), [9], [8]),
        m(T5, bust(), [7], effects=[{"item": "balaclava", "by": "Anna"}]),
    ]
    stick = m(
        item("usb-stick"),
        [10, 8],
        [9, 8],
        alarm=2,
        effects=[{"item": "usb-stick", "by": "Anna", "as": "balaclava"}],
    )
    result = standings(game(*balaclava, stick))
    assert result["tokens"]["Anna"] == 0  # 0 + 2 "!!" − 2
    assert "usb-stick" in result["used_items"]


def test_items_that_act_before_the_reveal_wait_for_the_next_mission() -> None:
    """Decision (RULES.md §2): "Newspaper and Vesper Martini change totals before the reveal
    decides, so they apply from the next mission on"; only the mission's winner holds its item."""
    newspaper = m(
        item("newspaper"), [9], [8], effects=[{"item": "newspaper", "by": "Anna", "on": "Ben"}]
    )
    [error] = errors_of(game(newspaper))
    assert (error.code, error.path) == ("ItemNotYetUsable", "rounds[0].missions[0].effects[0].item")
    assert "Anna wins the Newspaper on mission 1 of round 1" in str(error)
    by_loser = m(item("balaclava"), [9], [8], alarm=1, effects=[{"item": "balaclava", "by": "Ben"}])
    [error] = errors_of(game(by_loser))
    assert (error.code, error.path) == ("ItemNotWonHere", "rounds[0].missions[0].effects[0].by")


# --- the round where the game ends by 9 tokens -----------------------------------------------


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def ninth_token_on_mission_two() -> list[dict[str, Any]]:
    """Round 2 after `eight_tokens_for_anna`: Anna wins mission 1, and on mission 2 its "!"."""
    return [m(CODE, [5], [4]), m(DOC, [6], [3], alarm=1), m(T3, [7], [2]), m(T2, [8], [9])]


def test_missions_after_the_nine_token_loss_may_be_left_out() -> None:
    """RULES.md §2 (Decision) and FORMAT.md: "When the game ends by 9 tokens, the missions after
    the ending one are never revealed: they may be left out of the record" (1 to 3 missions)."""
    whole = game(*eight_tokens_for_anna(), *ninth_token_on_mission_two(), packed=True)
    expected = standings(whole)
    assert (expected["lost_by_tokens"], expected["finished"]) == ("Anna", True)
    del expected["cards_left"]  # the mission cards left out were not laid out
    for kept in (2, 3):
        rec = copy.deepcopy(whole)
        del rec["rounds"][1]["missions"][kept:]
        assert {k: v for k, v in standings(rec).items() if k != "cards_left"} == expected
    ended_first = game(*eight_tokens_for_anna(), m(CODE, [5], [4], alarm=1), packed=True)
    del ended_first["rounds"][1]["missions"][1:]
    assert standings(ended_first)["lost_by_tokens"] == "Anna"


def test_a_round_ended_early_without_a_nine_token_loss_is_refused() -> None:
    """A short round anywhere else is refused, at the round's missions, saying why."""
    rec = scenario("kompromat-short-final-round-cards")  # Anna's 9th token on mission 1
    rec["rounds"][1]["missions"][0]["alarm"] = 0  # she stays at 8: the game goes on
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("RoundEndedEarly", "rounds[1].missions")
    assert str(error) == (
        "rounds[1].missions: holds 1 of 4 missions, but nobody reached 9 tokens on mission 1: "
        "only a 9-token loss ends a round early"
    )
    earlier = game(*eight_tokens_for_anna(), *ninth_token_on_mission_two(), packed=True)
    del earlier["rounds"][0]["missions"][3:]  # round 1 of 2 cut short: nobody has 9 there
    assert "RoundEndedEarly" in [e.code for e in errors_of(earlier)]


def test_a_round_ended_early_is_refused_in_outcome_and_mixed_form_too() -> None:
    for name, where in (("outcome", 1), ("mixed", 2)):
        rec = scenario(f"kompromat-short-final-round-{name}")
        last = rec["rounds"][where]["missions"]
        rec["rounds"][where]["missions"] = last[:-1]  # the mission that ended it left out
        assert codes_and_paths(rec) == [("RoundEndedEarly", f"rounds[{where}].missions")]


def test_a_short_round_may_leave_a_mission_without_cards() -> None:
    """Where missions are left out, a player's other cards may lie on them: a mission without
    cards is no error there (as in a round with outcomes, the round's cards are not all known)."""
    rec = scenario("kompromat-short-final-round-cards")
    rec["rounds"][1]["missions"][0]["plays"]["Ben"] = []
    result = standings(rec)
    assert (result["lost_by_tokens"], result["tokens"]["Anna"]) == ("Anna", 9)
    kept = copy.deepcopy(rec)  # the missions after it kept as laid: Ben had cards left
    kept["rounds"][1]["missions"] += [m(T3, [2], [2]), m(T2, [3], [3]), m(CODE, [4], [4])]
    assert codes_and_paths(kept) == [("NoCardsWhileCardsLeft", "rounds[1].missions[0].plays.Ben")]


def draft_after_eight_tokens(
    missions: list[dict[str, Any]],
) -> tuple[dict[str, Any], Any, rules.RoundDraft]:
    """A game where Anna has 8 tokens, and round 2 being entered as `missions`."""
    import scoring

    rec = game(*eight_tokens_for_anna(), packed=True)
    result = scoring.replay(rec)
    return rec, result.state, rules.RoundDraft.from_json({"missions": missions}, result.table)


def test_the_mission_that_brings_nine_tokens_ends_the_round_being_entered() -> None:
    """Once a mission is resolved with a player at 9 tokens the entry asks for nothing more:
    the preview says who lost there, and the round is saved as it stands (missions 1–2)."""
    import scoring

    rec, state, draft = draft_after_eight_tokens(ninth_token_on_mission_two()[:2])
    previews = rules.RULES.preview(state, draft)
    assert len(draft.missions) == 4  # missions 3 and 4 not entered
    assert [p.losers for p in previews] == [(), ("Anna",), (), ()]
    assert previews[1].ends_game and not previews[0].ends_game
    assert [p.ended for p in previews] == [False, False, True, True]
    assert rules.missions_played(previews) == 2
    saved = draft.saved(previews)
    assert len(saved["missions"]) == 2
    assert scoring.check_round(rec, saved) == []
    over = scoring.standings({**rec, "rounds": [*rec["rounds"], saved]})
    assert (over["finished"], over["winners"]) == (True, ["Ben"])


def test_the_game_ends_only_once_the_mission_is_fully_resolved() -> None:
    """A perfect 21's token back (before the award) or a Balaclava can keep the count below 9:
    then the round goes on and all four missions are asked for."""
    perfect = m(DOC, [10, "1/11"], [3], alarm=1)  # 21: Anna may give a token back
    _, state, draft = draft_after_eight_tokens([m(CODE, [5], [4]), perfect])
    assert rules.missions_played(rules.RULES.preview(state, draft)) == 2
    returned = draft.with_mission(1, draft.missions[1].with_return("Anna"))
    previews = rules.RULES.preview(state, returned)
    assert (previews[1].tokens, previews[1].losers) == ({"Anna": 8, "Ben": 0}, ())
    assert rules.missions_played(previews) == 4
    assert len(returned.saved(previews)["missions"]) == 4
    balaclava = m(item("balaclava"), [5], [4], alarm=1)  # won and used at once (Decision)
    _, state, draft = draft_after_eight_tokens([balaclava])
    assert rules.RULES.preview(state, draft)[0].losers == ("Anna",)
    used = rules.Effect("balaclava", "Anna", "balaclava")
    saved_by_it = draft.with_mission(0, draft.missions[0].with_effect(used))
    assert rules.missions_played(rules.RULES.preview(state, saved_by_it)) == 4


def test_the_game_ends_in_the_quick_entry_too() -> None:
    quick = [
        {"card": CODE, "alarm": 0, "outcome": {"winner": "Anna", "busts": [], "perfect": []}},
        {"card": DOC, "alarm": 0, "outcome": {"winner": "Ben", "busts": ["Anna"], "perfect": []}},
    ]
    rec, state, draft = draft_after_eight_tokens(quick)
    assert draft.quick
    previews = rules.RULES.preview(state, draft)
    assert previews[1].losers == ("Anna",) and rules.missions_played(previews) == 2
    import scoring

    assert scoring.check_round(rec, draft.saved(previews)) == []


def test_correcting_a_short_round_asks_for_the_missions_again_once_nobody_reaches_nine() -> None:
    import scoring

    rec = scenario("kompromat-short-final-round-outcome")
    before = scoring.replay({**rec, "rounds": rec["rounds"][:1]})
    draft = rules.RoundDraft.from_json(rec["rounds"][1], before.table)
    assert len(draft.missions) == 4 and draft.quick  # the two left out, blank again
    previews = rules.RULES.preview(before.state, draft)
    assert rules.missions_played(previews) == 2 and previews[1].losers == ("Ben",)
    second = draft.missions[1]
    calmer = second.with_outcome(second.outcome.marked("busts", "Ben", ("Anna", "Ben")))
    calmer = calmer.with_outcome(calmer.outcome.won_by("Anna"))  # Ben stays at 21 or under
    corrected = draft.with_mission(1, calmer)
    previews = rules.RULES.preview(before.state, corrected)
    assert rules.missions_played(previews) == 4 and not any(p.losers for p in previews)
    saved = corrected.saved(previews)
    assert len(saved["missions"]) == 4
    problems = [(e.code, e.path) for e in scoring.check_round(rec, saved, 1)]
    assert ("MissingKey", "rounds[1].missions[2].card") in problems


# --- the decisions on items, as RULES.md §2 writes them ---------------------------------------


VESPER_UP = {"item": "vesper-martini", "by": "Anna", "adjust": 1}
VESPER_DOWN = {"item": "vesper-martini", "by": "Anna", "adjust": -1}
NEWSPAPER_ON_BEN = {"item": "newspaper", "by": "Anna", "on": "Ben"}


def test_one_eleven_proposed_on_the_total_after_newspaper_and_vesper_decision() -> None:
    """ "A declared 1/11 and the proposal for an undeclared one are made on the total *after*
    the Newspaper and the Vesper Martini of that mission": 10 + 1/11 with a Newspaper on it
    proposes 1 (14), not 11 (24); with a Vesper Martini +1 it proposes 1 (12), with −1 11 (20)."""
    import scoring

    won = [m(item("newspaper"), [9], [8]), m(item("vesper-martini"), [7], [6])]
    on_ben = m(T5, [9], [10, "1/11"], effects=[NEWSPAPER_ON_BEN])
    assert standings(game(*won, on_ben))["missions"][2][0]["totals"]["Ben"] == 14
    up = m(T5, [10, "1/11"], [9], effects=[VESPER_UP])
    assert standings(game(*won, up))["missions"][2][0]["totals"]["Anna"] == 12
    down = m(T5, [10, "1/11"], [9], effects=[VESPER_DOWN])
    assert standings(game(*won, down))["missions"][2][0]["totals"]["Anna"] == 20
    declared = m(T5, [10, 11], [9], effects=[VESPER_UP])  # declared: as declared, then +1
    assert standings(game(*won, declared))["missions"][2][0]["totals"]["Anna"] == 22
    # The entry proposes the same, and shows the total after the items before the card is in.
    result = scoring.replay(game(*won))
    draft = rules.RoundDraft.from_json(
        {"missions": [{"alarm": 0, "plays": {"Anna": [10, "1/11"]}, "effects": [VESPER_UP]}]},
        result.table,
    )
    preview = rules.RULES.preview(result.state, draft)[0]
    assert preview.values["Anna"] == (10, 1) and preview.totals["Anna"] == 12


def test_21_after_an_item_is_perfect_and_above_21_after_them_a_bust_decision() -> None:
    """ "Exactly 21 after a Newspaper or Vesper Martini is a perfect 21 (a token may be
    returned), and above 21 after them is a bust: every rule reads the total after the items."""
    won = [m(item("vesper-martini"), [9], [8]), m(item("newspaper"), [7], [6])]
    token = m(T5, bust(), [2])  # Anna takes a token she may give back
    perfect = m(T4, [10, 6, 4], [9], effects=[VESPER_UP], perfect_return=["Anna"])
    result = standings(game(*won, token, perfect))
    assert result["missions"][3][0]["totals"]["Anna"] == 21
    assert result["tokens"]["Anna"] == 0 and result["perfect"]["Anna"] == 1
    # 21 by the cards, 20 after the Vesper Martini −1: no perfect 21 any more.
    not_perfect = m(T4, [10, "1/11"], [9], effects=[VESPER_DOWN], perfect_return=["Anna"])
    assert [e.code for e in errors_of(game(*won, token, not_perfect))] == ["NotPerfect"]
    # 19 + the Newspaper's 3: above 21, a failed mission and a token; Anna wins with 9.
    busted = m(T4, [9], [10, 9], effects=[NEWSPAPER_ON_BEN])
    result = standings(game(*won, busted))
    assert result["missions"][2][0]["totals"] == {"Anna": 9, "Ben": 22}
    assert result["missions"][2][0]["winner"] == "Anna" and result["tokens"]["Ben"] == 1
    # 21 by the cards is a bust after the Newspaper: it cannot give a token back.
    lost_21 = m(T4, [9], [10, 9, 2], effects=[NEWSPAPER_ON_BEN], perfect_return=["Ben"])
    assert [e.code for e in errors_of(game(*won, lost_21))] == ["NotPerfect"]


def test_a_perfect_21_after_an_item_says_why_in_the_preview_decision() -> None:
    """The entry offers the token back where the total after the items is 21, and carries
    what made it 21 (the screen says it): the Vesper Martini here; nothing for plain cards."""
    import scoring

    result = scoring.replay(game(m(item("vesper-martini"), [9], [8])))
    draft = rules.RoundDraft.from_json(
        {
            "missions": [
                {"alarm": 0, "plays": {"Anna": [10, 6, 4], "Ben": [10, "1/11"]}},
            ]
        },
        result.table,
    )
    vesper = rules.Effect("vesper-martini", "Anna", "vesper-martini", adjust=1)
    with_vesper = draft.with_mission(0, draft.missions[0].with_effect(vesper))
    preview = rules.RULES.preview(result.state, with_vesper)[0]  # no card yet: not resolved
    assert preview.totals == {"Anna": 21, "Ben": 21} and not preview.resolved
    assert preview.perfect == {"Anna": (vesper,), "Ben": ()}
    assert rules.RULES.preview(result.state, draft)[0].perfect == {"Ben": ()}
    quick = with_vesper.in_form(quick=True)
    marked = quick.missions[0].with_outcome(
        quick.missions[0].outcome.marked("perfect", "Anna", ("Anna", "Ben"))
    )
    preview = rules.RULES.preview(result.state, quick.with_mission(0, marked))[0]
    assert preview.perfect == {"Anna": (vesper,)}  # the table's mark, after its Vesper Martini


def test_balaclava_may_be_used_at_any_token_count_and_discards_up_to_two_decision() -> None:
    """ "The Balaclava may be used after the award of any mission, whatever its holder's tokens
    (it discards up to two); the app offers it unasked when a player would reach 9." """
    import scoring

    won = m(item("balaclava"), [9], [8])
    for before, anna, after in (([], [2], 0), ([m(T5, bust(), [2])], [2], 0)):
        used = m(T4, anna, [3], effects=[{"item": "balaclava", "by": "Anna"}])  # 0 or 1 token
        result = standings(game(won, *before, used))
        assert result["tokens"]["Anna"] == after
        assert result["items"]["Anna"] == {"won": ["balaclava"], "unused": []}
    two = m(T4, bust(), [3], alarm=2, effects=[{"item": "balaclava", "by": "Anna"}])
    assert standings(game(won, m(T5, [4], [3], alarm=3), two))["tokens"]["Anna"] == 2  # 3+1-2
    result = scoring.replay(game(won))  # no token at all: offered all the same
    offers = rules.RULES.offers(result.state, None, None, "Anna")
    assert rules.Effect("balaclava", "Anna", "balaclava") in offers


def test_usb_stick_repeats_an_item_either_player_used_decision() -> None:
    """ "The USB Stick may repeat any item already used in this game, by either player":
    Anna's stick repeats Ben's Newspaper and her own Jetpack; an item nobody used is refused."""
    import scoring

    missions = [
        m(item("usb-stick"), [9], [8]),
        m(item("newspaper"), [8], [9]),  # Ben's
        m(item("jetpack"), [7], [6]),  # Anna's
        m(T5, [9], [8, 3], effects=[{"item": "newspaper", "by": "Ben", "on": "Anna"}]),
        m(T4, [7], [6], effects=[{"item": "jetpack", "by": "Anna"}]),
    ]
    result = scoring.replay(game(*missions))
    offers = rules.RULES.offers(result.state, None, None, "Anna")
    copies = {effect.acts_as for effect in offers if effect.item == "usb-stick"}
    assert copies == {"newspaper", "jetpack"}
    as_newspaper = {"item": "usb-stick", "by": "Anna", "as": "newspaper", "on": "Ben"}
    repeated = m(T3, [9, 8], [8, 2], effects=[as_newspaper])
    played = standings(game(*missions, repeated))
    assert played["missions"][5][0]["totals"] == {"Anna": 17, "Ben": 13}
    as_jetpack = {"item": "usb-stick", "by": "Anna", "as": "jetpack"}
    assert errors_of(game(*missions, m(T3, [9], [8], effects=[as_jetpack]))) == []
    as_drone = {"item": "usb-stick", "by": "Anna", "as": "drone"}
    assert [e.code for e in errors_of(game(*missions, m(T3, [9], [8], effects=[as_drone])))] == [
        "ItemNotUsedYet"
    ]


def test_a_token_taken_earlier_in_the_round_may_go_back_on_a_perfect_21() -> None:
    """Anna holds no token when round 1 starts; at 21 on mission 1 she has none to
    return; above 21 there she takes one, and at 21 on mission 2 she may return it, as saving
    does (the screen read the tokens held at the round's start and refused)."""
    import scoring

    start = scoring.replay(game())
    outcome = {"winner": "Anna", "busts": [], "perfect": ["Anna"]}  # a single 21 wins
    at_21_first = [{"card": CODE, "alarm": 0, "outcome": outcome}]
    first = rules.RoundDraft.from_json({"missions": at_21_first}, start.table)
    assert rules.RULES.preview(start.state, first)[0].may_return == frozenset()
    bust_then_21 = [
        {"card": DOC, "alarm": 0, "outcome": {"winner": "Ben", "busts": ["Anna"], "perfect": []}},
        {"card": CODE, "alarm": 0, "outcome": outcome},
    ]
    draft = rules.RoundDraft.from_json({"missions": bust_then_21}, start.table)
    assert rules.RULES.preview(start.state, draft)[1].may_return == {"Anna"}
    returned = draft.with_mission(1, draft.missions[1].with_return("Anna"))
    previews = rules.RULES.preview(start.state, returned)
    assert previews[1].tokens == {"Anna": 0, "Ben": 0}  # saving returns it too
    unresolved = draft.with_mission(0, draft.missions[0].with_outcome(rules.OutcomeDraft()))
    assert rules.RULES.preview(start.state, unresolved)[1].may_return == {"Anna"}  # not known
