"""Kompromat: one test per rule of RULES.md section 2, and per decision marked there."""

from __future__ import annotations

from typing import Any

import pytest
from builders import (
    ALL_FOURTEEN,
    CODE,
    DOC,
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
    rec = game(m(T5, [9], [8]))
    rec["rounds"][0]["missions"].pop()
    [error] = errors_of(rec)
    assert str(error) == "rounds[0].missions: must hold 4 missions, not 3"


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


# --- issue 8: the rulebook line by line ------------------------------------------------------


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
