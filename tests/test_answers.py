"""The rules questions the screens ask, answered by the engine in typed results:
drafts that round-trip to the record format, the scoresheet, the boards, score parts."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import generators
from builders import SCENARIOS, T5, item, kompromat_game, mission

import scoring
from scoring import black_spy, kompromat, spy, spywhere


def scenario(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def test_black_spy_drafts_round_trip_and_edit_by_the_rules() -> None:
    record = scenario("black-spy-basic")
    table = scoring.replay(record).table
    for raw in record["rounds"]:
        assert black_spy.Deal.from_json(raw, table).to_json() == raw
    draft = black_spy.Deal.blank(table)
    draft = draft.with_count("Anna", "black_spies", 9)
    assert draft.piles["Anna"].black_spies == black_spy.BLACK_SPIES  # a deal holds six
    draft = draft.with_high_card("Ben", 8).with_high_card("Anna", 8)
    assert 8 in draft.piles["Anna"].black_high and 8 not in draft.piles["Ben"].black_high
    rest = draft.completed("Dirk").piles["Dirk"]
    assert (rest.black_spies, rest.black_low, rest.colored_spies) == (0, 6, 4)
    assert rest.black_high == frozenset({9, 10, 11})
    # A count set straight to its number can make the others hold too many: the automatic
    # pile then has none of that part, so the sum the error names is the others' own.
    jumped = black_spy.Deal.blank(table).with_count("Anna", "black_spies", 4)
    jumped = jumped.completed("Dirk").with_count("Ben", "black_spies", 3).completed("Dirk")
    assert jumped.piles["Dirk"].black_spies == 0


def test_the_black_spy_sheet() -> None:
    record = scenario("black-spy-basic")
    result = scoring.replay(record)
    sheet = black_spy.RULES.sheet(result.state, tuple(result.leaders))
    assert [deal.number for deal in sheet.deals] == [1, 2, 3]
    assert sheet.totals == result.totals and sheet.end_value == 150
    assert sheet.to_end("Anna") == 150 - result.totals["Anna"]
    assert sheet.next_deal is not None and sheet.next_deal.dealer == "Dirk"
    assert sheet.next_deal.pass_direction == "left"


def test_kompromat_round_drafts_round_trip_and_edit() -> None:
    record = scenario("kompromat-first-round")
    table = scoring.replay(record).table
    raw = record["rounds"][0]
    draft = kompromat.RoundDraft.from_json(raw, table)
    again = kompromat.RoundDraft.from_json(draft.to_json(), table)
    assert again == draft
    first = draft.missions[0].played("Ben", "2").declared("Anna", 1, 1)
    assert first.cards_of("Anna") == ("10", "1") and first.cards_of("Ben")[-1] == "2"
    assert first.to_json()["plays"]["Anna"] == [10, 1]
    assert first.taken_back("Ben", 3).cards_of("Ben") == ("9", "8", "3")


def test_the_kompromat_board() -> None:
    record = kompromat_game(
        mission(T5, [9], [8], alarm=2), mission(item("balaclava"), [7], [10]), packed=True
    )
    result = scoring.replay(record)
    board = kompromat.RULES.board(result.state)
    anna, ben = board.players
    assert (anna.tokens, anna.to_loss, anna.near_loss) == (2, 7, False)
    assert ben.unused_items == ("balaclava",)
    assert board.next_round == (2, "Ben")
    assert [m.winner for m in board.rounds[0][:2]] == ["Anna", "Ben"]
    assert (kompromat.MissionCard("target", vp=5), 1) not in board.cards_left


def test_a_kompromat_game_over_warns_of_no_loss() -> None:
    """Found by a new player: at the end of the sixth round the winner's card still said "1
    more and Anna loses!" under "Game over". A finished game warns nobody, 8 tokens or 9."""
    record = generators.kompromat_record(random.Random(0), max_rounds=6, names=["Anna", "Ben"])
    played = scoring.replay(record)
    assert played.finished and len(record["rounds"]) == 6
    board = kompromat.RULES.board(played.state)
    assert [player.tokens for player in board.players] == [8, 5]
    assert not any(player.near_loss for player in board.players)
    going_on = kompromat.Standing("Anna", 8, 0, {}, ())  # 8 tokens with rounds to come
    assert going_on.near_loss and going_on.to_loss == 1
    lost = scoring.replay(scenario("kompromat-short-final-round-outcome"))  # Ben at 9
    assert not any(player.near_loss for player in kompromat.RULES.board(lost.state).players)


def test_the_spy_board() -> None:
    result = scoring.replay(scenario("spy-three-players"))
    board = spy.RULES.board(result.state)
    anna = board.bases[0]
    assert anna.owner == "Anna" and anna.place == 3 and anna.next_target is None
    assert board.still_in == ("Ben", "Carla")
    assert board.log[0].kind == "target" and board.log[0].target == "safe-1"


def test_spywhere_drafts_and_score_parts() -> None:
    record = scenario("spywhere-four-players")
    result = scoring.replay(record)
    ending = spywhere.Ending.from_json(record["rounds"][0], result.table)
    assert spywhere.Ending.from_json(ending.to_json(), result.table) == ending
    parts = spywhere.score_parts(ending, "Anna")
    assert parts.total == result.totals["Anna"] == Fraction(18)
    draft = spywhere.Ending.blank(result.table).with_own_cards("Anna", 5, limit=18)
    assert draft.with_own_cards("Anna", 20, limit=18).own_cards["Anna"] == 18
    assert draft.with_guess("Anna", "Ben", 0, "spain").identifications["Anna"] == {
        "Ben": ("spain",)
    }


def test_the_sheet_shows_what_a_halved_total_became_and_never_a_negative_distance() -> None:
    def pile(spies: int = 0, low: int = 0, high: tuple[int, ...] = (), colored: int = 0) -> dict:
        return {
            "black_spies": spies,
            "black_low": low,
            "black_high": list(high),
            "colored_spies": colored,
        }

    rest = pile(low=6, high=(8, 9, 10, 11), colored=4)
    record = {
        "format": "game-record/1",
        "game": "black-spy",
        "players": [{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}],
        "options": {
            "first_dealer": "Anna",
            "variants": ["going-back"],
            "end_value": 100,
            "halves": "exact",
        },
        "rounds": [
            {"cards": {"Anna": pile(2), "Ben": pile(4), "Carla": rest}},
            {"cards": {"Anna": pile(3), "Ben": pile(3), "Carla": rest}},  # Anna: 50, halved
            {"cards": {"Anna": pile(0), "Ben": pile(6), "Carla": rest}},  # Ben: 130, over
        ],
    }
    result = scoring.replay(record)
    sheet = black_spy.RULES.sheet(result.state, tuple(result.leaders))
    second = sheet.deals[1]
    assert second.halved_to == {"Anna": (Fraction(50), Fraction(25))}
    # The column leads to the Total: 20 + 30 = 50, halved to 25, + 0 = 25.
    assert sum(deal.points["Anna"] for deal in sheet.deals[:2]) == 50
    assert sheet.totals["Anna"] == 25 + sheet.deals[2].points["Anna"]
    assert sheet.to_end("Ben") == 0 and sheet.over_by("Ben") == 30
    # With Going Back the game ends only above 100: from 25 that takes 76 points.
    assert sheet.over_by("Anna") == 0 and sheet.to_end("Anna") == 76
