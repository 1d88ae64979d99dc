"""Play again: the same table's next game keeps its players and options, and whoever began
passes that on to the player on their left."""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import SCENARIOS

import scoring


def scenario(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((SCENARIOS / f"{name}.json").read_text())
    return record


def names(players: list[Any]) -> list[str]:
    return [player["name"] for player in players]


def table_of(record: dict[str, Any]) -> str:
    return scoring.table_key(record["game"], names(record["players"]), record["options"])


def a_new_game(record: dict[str, Any], players: list[Any], options: dict[str, Any]) -> Any:
    """The next game as New game starts it: no rounds yet, valid."""
    return scoring.replay({**record, "players": players, "options": options, "rounds": []})


def test_black_spy_keeps_the_seats_and_the_deal_moves_one_seat_left() -> None:
    record = scenario("black-spy-basic")
    record["options"] = {**record["options"], "variants": ["mole"], "end_value": 150}
    players, options = scoring.next_game(record)
    assert players == record["players"]  # birth dates too (The Mole)
    assert options == {**record["options"], "first_dealer": "Ben"}
    assert a_new_game(record, players, options).standings()["next_deal"]["dealer"] == "Ben"


def test_black_spy_the_last_seats_first_dealer_passes_to_the_first_seat() -> None:
    record = scenario("black-spy-basic")
    record["options"]["first_dealer"] = "Dirk"
    assert scoring.next_game(record)[1]["first_dealer"] == "Anna"


def test_kompromat_the_other_player_starts() -> None:
    record = scenario("kompromat-first-round")
    first = record["options"]["first_player"]
    players, options = scoring.next_game(record)
    assert names(players) == names(record["players"])
    assert options["first_player"] != first
    assert options["first_player"] in names(players)
    assert scoring.next_game({**record, "options": options})[1]["first_player"] == first


@pytest.mark.parametrize("name", ["spy-three-players", "spywhere-four-players"])
def test_spy_and_spywhere_turn_the_turn_order_by_one(name: str) -> None:
    record = scenario(name)
    before = names(record["players"])
    players, options = scoring.next_game(record)
    assert names(players) == [*before[1:], before[0]]
    assert options == record["options"]
    a_new_game(record, players, options)  # valid: raises otherwise
    # As many games as players: everyone began once and the table is as it was.
    for _ in range(len(before) - 1):
        players, options = scoring.next_game({**record, "players": players, "options": options})
    assert names(players) == before


def test_an_invalid_record_has_no_next_game() -> None:
    record = scenario("black-spy-basic")
    record["options"]["first_dealer"] = "Zoe"
    with pytest.raises(scoring.InvalidRecord):
        scoring.next_game(record)


@pytest.mark.parametrize(
    "name",
    ["black-spy-basic", "kompromat-first-round", "spy-three-players", "spywhere-four-players"],
)
def test_a_game_played_again_is_the_same_table(name: str) -> None:
    record = scenario(name)
    players, options = scoring.next_game(record)
    again = {**record, "players": players, "options": options, "rounds": []}
    assert table_of(again) == table_of(record)


def test_other_options_or_seats_are_another_table() -> None:
    record = scenario("black-spy-basic")
    mole = {**record, "options": {**record["options"], "variants": ["mole"]}}
    swapped = {
        **record,
        "players": [record["players"][1], record["players"][0], *record["players"][2:]],
    }
    assert table_of(mole) != table_of(record)
    assert table_of(swapped) != table_of(record)  # Ben left of Anna now
