"""SPY: one test per rule of RULES.md section 3."""

from __future__ import annotations

from typing import Any

import pytest
from builders import codes_and_paths, record, standings

THREE = ["Anna", "Ben", "Carla"]


def ev(kind: str, by: str, base: str) -> dict[str, Any]:
    return {"event": kind, "by": by, "base": base}


def spy(events: list[dict[str, Any]], names: list[str] = THREE) -> dict[str, Any]:
    return record("spy", names, {}, events)


def test_targets_are_found_in_order() -> None:
    events: list[dict[str, Any]] = []
    seen = []
    for _ in range(3):
        seen.append(standings(spy(events))["next_target"]["Ben"])
        events.append(ev("target", "Anna", "Ben"))
    seen.append(standings(spy(events))["next_target"]["Ben"])
    assert seen == ["safe-1", "safe-2", "top-secret-1", "top-secret-2"]


def test_top_secret_two_found_puts_the_owner_out() -> None:
    result = standings(spy([ev("target", "Anna", "Ben")] * 4))
    assert result["eliminated"] == ["Ben"]
    assert "Ben" not in result["next_target"]
    assert result["finished"] is False  # Anna and Carla are still in


def test_a_bomb_found_first_is_lit_then_explodes_on_the_finder() -> None:
    result = standings(spy([ev("bomb-lit", "Anna", "Carla"), ev("bomb-exploded", "Ben", "Carla")]))
    assert result["eliminated"] == ["Ben"]
    assert result["lit_bombs"]["Carla"] == 1  # the bomb stays lit


def test_an_explosion_needs_a_lit_bomb() -> None:
    assert codes_and_paths(spy([ev("bomb-exploded", "Ben", "Carla")])) == [
        ("NoLitBomb", "rounds[0].base")
    ]


@pytest.mark.parametrize(("players", "bombs"), [(2, 3), (3, 2), (4, 2)])
def test_bombs_per_base_decision(players: int, bombs: int) -> None:
    """Decision: the Bomb 2 cards (removed with 3 or 4 players) make 3 bombs a base with 2."""
    names = ["Anna", "Ben", "Carla", "Dirk"][:players]
    events = [ev("bomb-lit", "Anna", "Ben")] * bombs
    assert standings(spy(events, names))["lit_bombs"]["Ben"] == bombs
    assert codes_and_paths(spy([*events, ev("bomb-lit", "Anna", "Ben")], names)) == [
        ("NoUnlitBomb", f"rounds[{bombs}].base")
    ]


def test_the_last_player_remaining_wins_and_places_reverse_elimination() -> None:
    events = [ev("bomb-lit", "Anna", "Carla"), ev("bomb-exploded", "Ben", "Carla")]
    events += [ev("target", "Carla", "Anna")] * 4
    result = standings(spy(events))
    assert result["finished"] is True and result["winners"] == ["Carla"]
    assert result["eliminated"] == ["Ben", "Anna"]
    assert result["totals"] == {"Anna": 2, "Ben": 3, "Carla": 1}


def test_players_out_take_no_further_part() -> None:
    events = [ev("target", "Anna", "Ben")] * 4
    rec = spy([*events, ev("target", "Ben", "Carla")])
    assert codes_and_paths(rec) == [("PlayerOut", "rounds[4].by")]
    rec = spy([*events, ev("bomb-lit", "Carla", "Ben")])
    assert codes_and_paths(rec) == [("PlayerOut", "rounds[4].base")]


def test_nobody_spies_on_their_own_base() -> None:
    assert codes_and_paths(spy([ev("target", "Anna", "Anna")])) == [
        ("SamePlayer", "rounds[0].base")
    ]


def test_no_event_after_the_winner_is_known() -> None:
    events = [ev("target", "Anna", "Ben")] * 4
    rec = spy([*events, ev("target", "Anna", "Ben")], ["Anna", "Ben"])
    assert codes_and_paths(rec) == [("GameAlreadyOver", "rounds[4]")]


def test_spy_takes_two_to_four_players() -> None:
    assert codes_and_paths(spy([], ["Anna"])) == [("WrongPlayerCount", "players")]
    assert codes_and_paths(spy([], ["A", "B", "C", "D", "E"])) == [("WrongPlayerCount", "players")]


def test_the_log_says_what_each_event_revealed() -> None:
    events = [
        ev("target", "Anna", "Ben"),
        ev("bomb-lit", "Ben", "Carla"),
        ev("bomb-exploded", "Anna", "Carla"),
    ]
    log = standings(spy(events))["log"]
    assert [(e["target"], e["out"]) for e in log] == [
        ("safe-1", None),
        (None, None),
        (None, "Anna"),
    ]


def next_event(events: list[dict[str, Any]], names: list[str] = THREE) -> tuple[Any, Any]:
    """Who the next event's entry offers as the spy and the base it searched."""
    import scoring

    blank = scoring.blank_round(spy(events, names))
    return blank["by"], blank["base"]


def test_the_next_event_is_offered_to_the_next_player_in_turn_order() -> None:
    # The turn passes on after each event: after Anna, Ben spies (on the next base round
    # the table); after Carla, Anna again.
    assert next_event([]) == ("Anna", "Ben")
    assert next_event([ev("target", "Anna", "Carla")]) == ("Ben", "Carla")
    assert next_event([ev("target", "Anna", "Carla"), ev("bomb-lit", "Ben", "Anna")]) == (
        "Carla",
        "Anna",
    )
    four = ["Anna", "Ben", "Carla", "Dirk"]
    out = [ev("target", "Carla", "Ben")] * 4  # Ben is out
    assert next_event([*out, ev("target", "Anna", "Dirk")], four) == ("Carla", "Dirk")
    # A player who is out has no turn: after Anna comes Carla, not Ben.
    assert next_event([*out[:3], ev("target", "Anna", "Ben")], four) == ("Carla", "Dirk")
