"""Spywhere: one test per rule of RULES.md section 4, and per decision marked there."""

from __future__ import annotations

from typing import Any

import pytest
from builders import codes_and_paths, errors_of, record, standings

FIVE = ["Anna", "Ben", "Carla", "Dirk", "Emil"]


def ending(
    passports: dict[str, list[str]],
    own: dict[str, int],
    guesses: dict[str, dict[str, list[str]]],
    ended_by: str | None = None,
) -> dict[str, Any]:
    return {
        "passports": passports,
        "own_cards": own,
        "identifications": guesses,
        "ended_by": ended_by,
    }


def spywhere(names: list[str], rounds: list[Any], **options: Any) -> dict[str, Any]:
    return record("spywhere", names, options, rounds)


PASSPORTS = {
    "Anna": ["italy"],
    "Ben": ["spain"],
    "Carla": ["france"],
    "Dirk": ["germany"],
    "Emil": ["england"],
}
OWN = {"Anna": 5, "Ben": 3, "Carla": 4, "Dirk": 6, "Emil": 0}


def test_score_is_own_cards_times_one_plus_correct() -> None:
    guesses = {
        "Anna": {"Ben": ["spain"], "Carla": ["france"], "Dirk": ["italy"]},
        "Ben": {"Anna": ["france"]},
    }
    result = standings(spywhere(FIVE, [ending(PASSPORTS, OWN, guesses)]))
    assert result["correct"] == {"Anna": 2, "Ben": 0, "Carla": 0, "Dirk": 0, "Emil": 0}
    assert result["totals"] == {
        "Anna": 15,
        "Ben": 3,
        "Carla": 4,
        "Dirk": 6,
        "Emil": 0,
    }  # wrong costs nothing
    assert result["finished"] is True and result["winners"] == ["Anna"]


def test_ending_the_game_by_attempts_on_everyone_scores_three() -> None:
    guesses = {
        "Emil": {"Anna": ["spain"], "Ben": ["italy"], "Carla": ["germany"], "Dirk": ["france"]}
    }
    result = standings(spywhere(FIVE, [ending(PASSPORTS, OWN, guesses, "Emil")]))
    assert result["totals"]["Emil"] == 0 * 2 + 3
    result = standings(spywhere(FIVE, [ending(PASSPORTS, OWN, guesses, None)]))  # draw pile ran out
    assert result["totals"]["Emil"] == 0


def test_only_a_player_with_attempts_on_everyone_ends_the_game() -> None:
    guesses = {"Emil": {"Anna": ["spain"]}}
    rec = spywhere(FIVE, [ending(PASSPORTS, OWN, guesses, "Emil")])
    assert codes_and_paths(rec) == [("EndedWithoutAllAttempts", "rounds[0].ended_by")]


def test_equal_highest_share_the_win_decision() -> None:
    result = standings(spywhere(FIVE, [ending(PASSPORTS, {**OWN, "Ben": 6}, {})]))
    assert result["winners"] == ["Ben", "Dirk"]


@pytest.mark.parametrize("count", [3, 4])
def test_three_or_four_players_remove_a_nationality(count: int) -> None:
    names = FIVE[:count]
    assert codes_and_paths(spywhere(names, [])) == [
        ("RemovedNationalityRequired", "options.removed_nationality")
    ]
    passports = {name: PASSPORTS[name] for name in names}
    own = {name: 1 for name in names}
    rec = spywhere(names, [ending(passports, own, {})], removed_nationality="italy")
    assert codes_and_paths(rec) == [("NationalityRemoved", "rounds[0].passports.Anna[0]")]
    rec = spywhere(
        names, [ending(passports, own, {"Ben": {"Anna": ["italy"]}})], removed_nationality="belgium"
    )
    assert standings(rec)["totals"]["Ben"] == 2


@pytest.mark.parametrize("count", [2, 5, 6])
def test_other_counts_remove_no_nationality(count: int) -> None:
    names = ([*FIVE, "Frida"])[:count]
    assert codes_and_paths(spywhere(names, [], removed_nationality="italy")) == [
        ("RemovedNationalityNotAllowed", "options.removed_nationality")
    ]


def test_no_nationality_on_two_passports() -> None:
    rec = spywhere(FIVE, [ending({**PASSPORTS, "Emil": ["italy"]}, OWN, {})])
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("PassportTwice", "rounds[0].passports.Emil[0]")
    assert str(error) == "rounds[0].passports.Emil[0]: italy is also Anna's passport"


def test_two_players_two_passports_two_guesses() -> None:
    passports = {"Anna": ["italy", "spain"], "Ben": ["france", "germany"]}
    guesses = {"Anna": {"Ben": ["france", "germany"]}, "Ben": {"Anna": ["italy", "belgium"]}}
    result = standings(
        spywhere(["Anna", "Ben"], [ending(passports, {"Anna": 20, "Ben": 7}, guesses, "Anna")])
    )
    assert result["correct"] == {"Anna": 2, "Ben": 1}
    assert result["totals"] == {"Anna": 20 * 3 + 3, "Ben": 14}


def test_two_players_need_two_passports_and_at_most_two_guesses() -> None:
    passports = {"Anna": ["italy"], "Ben": ["france", "germany"]}
    rec = spywhere(["Anna", "Ben"], [ending(passports, {"Anna": 1, "Ben": 1}, {})])
    assert codes_and_paths(rec) == [("WrongLength", "rounds[0].passports.Anna")]
    passports = {"Anna": ["italy", "spain"], "Ben": ["france", "germany"]}
    guesses = {"Anna": {"Ben": ["france", "germany", "italy"]}}
    rec = spywhere(["Anna", "Ben"], [ending(passports, {"Anna": 1, "Ben": 1}, guesses)])
    assert codes_and_paths(rec) == [("NumberTooHigh", "rounds[0].identifications.Anna.Ben")]


def test_own_cards_are_limited_by_the_cards_of_a_nationality() -> None:
    rec = spywhere(FIVE, [ending(PASSPORTS, {**OWN, "Ben": 19}, {})])
    assert codes_and_paths(rec) == [("NumberTooHigh", "rounds[0].own_cards.Ben")]


def test_one_attempt_per_opponent_and_not_on_yourself() -> None:
    rec = spywhere(FIVE, [ending(PASSPORTS, OWN, {"Anna": {"Ben": ["spain", "italy"]}})])
    assert codes_and_paths(rec) == [("NumberTooHigh", "rounds[0].identifications.Anna.Ben")]
    rec = spywhere(FIVE, [ending(PASSPORTS, OWN, {"Anna": {"Anna": ["italy"]}})])
    assert codes_and_paths(rec) == [("SamePlayer", "rounds[0].identifications.Anna.Anna")]


def test_exactly_one_round() -> None:
    one = ending(PASSPORTS, OWN, {})
    assert standings(spywhere(FIVE, []))["finished"] is False
    assert codes_and_paths(spywhere(FIVE, [one, one])) == [("GameAlreadyOver", "rounds[1]")]


def test_one_identification_card_per_nationality() -> None:
    """RULES.md §4: "An attempt is made by laying one of your identification cards (one per
    nationality, six per player) before an opponent, so a player never names the same
    nationality against two opponents"."""
    guesses = {"Anna": {"Ben": ["spain"], "Carla": ["spain"]}}
    rec = spywhere(FIVE, [ending(PASSPORTS, OWN, guesses)])
    [error] = errors_of(rec)
    assert (error.code, error.path) == (
        "NationalityNamedTwice",
        "rounds[0].identifications.Anna.Carla[0]",
    )
    assert "Anna already named spain against Ben" in str(error)
    other_guessers = {"Anna": {"Ben": ["spain"]}, "Carla": {"Ben": ["spain"]}}
    assert errors_of(spywhere(FIVE, [ending(PASSPORTS, OWN, other_guessers)])) == []
