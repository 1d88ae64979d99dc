"""A complete game of each of the four games, played through the app in Chromium.

The rounds come from tests/scenarios (continued to the end of the game where a scenario
stops early); the totals and the winner the app shows are checked against `scoring`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from ui import (
    EN,
    chip,
    enter_kompromat_round,
    enter_spy_event,
    enter_spywhere_ending,
    shown,
    start_game,
)

import scoring
from tools.browser import see, tap

pytestmark = pytest.mark.e2e


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def names_of(record: dict[str, Any]) -> list[str]:
    return [p["name"] for p in record["players"]]


def winner_line(result: dict[str, Any]) -> str:
    return EN("Game over: {names} won!", names=" & ".join(result["winners"]))


def test_spy_full_game(page: Page) -> None:
    record = scenario("spy-three-players")
    names = names_of(record)
    events = record["rounds"] + [{"event": "target", "by": "Ben", "base": "Carla"}] * 3
    start_game(page, "SPY", names)
    tap(page, "Start SPY")
    for number, event in enumerate(events, start=1):
        # The turn has moved on: the entry offers the spy the rules expect next.
        offered = scoring.blank_round({**record, "rounds": events[: number - 1]})["by"]
        chosen = page.get_by_role("checkbox", name=f"Who spied?: {offered}", checked=True)
        chosen.first.wait_for(state="attached", timeout=15_000)
        enter_spy_event(page, event, number)
    final = scoring.standings({**record, "rounds": events})
    assert final["finished"] and final["winners"] == ["Ben"]
    shown(page, winner_line(final))
    for name in final["eliminated"]:
        shown(page, f"Out · place {final['totals'][name]}", timeout=5_000)
    shown(page, "Won: the last one in")  # the winner's base, no next target to find
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tap(page, "Share the result")  # a browser has no share sheet here: copied instead
    played = scoring.replay({**record, "rounds": events})
    ranking = ", ".join(f"{played.places[n]}. {n}" for n in played.ranking)  # places: no scores
    see(page, "Copied: SPY, ")
    see(page, f"{winner_line(final)} {ranking}")  # who won, then the places
    assert page.evaluate("navigator.clipboard.readText()").endswith(
        f"{winner_line(final)} {ranking}"
    )


def test_spywhere_full_game(page: Page) -> None:
    record = scenario("spywhere-four-players")
    names = names_of(record)
    start_game(page, "Spywhere", names)
    chip(page, f"Removed nationality: {record['options']['removed_nationality'].capitalize()}")
    tap(page, "Start Spywhere")
    enter_spywhere_ending(page, names, record["rounds"][0])
    final = scoring.standings(record)
    for name, total in final["totals"].items():
        shown(page, f"{name}: {EN.number(total)} points")
    shown(page, winner_line(final))


def later_kompromat_rounds(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Rounds 2 to 6 from the mission cards the scenario left: Anna plays the higher card."""
    left = scoring.standings(record)["cards_left"]
    cards = [
        {k: v for k, v in card.items() if k != "left"} for card in left for _ in range(card["left"])
    ]
    rounds = []
    for number in range(5):
        missions = []
        for index in range(4):
            high = 10 - 2 * index
            missions.append(
                {
                    "card": cards[number * 4 + index],
                    "alarm": 0,
                    "plays": {"Anna": [high], "Ben": [high - 1]},
                }
            )
        rounds.append({"missions": missions})
    return rounds


def test_kompromat_new_game_and_a_round_of_every_kind_of_card(page: Page) -> None:
    """New game with its first player, then the scenario's round (cards of every kind, a
    0.5 and a 1/11 among the plays) entered with the cards: the totals as `scoring` says."""
    record = scenario("kompromat-first-round")
    names = names_of(record)
    start_game(page, "Kompromat", names)
    chip(page, f"First player: {record['options']['first_player']}")
    tap(page, "Start Kompromat")
    enter_kompromat_round(page, 1, names, record["rounds"][0])
    for name, total in scoring.standings(record)["totals"].items():
        shown(page, f"{name}: {EN.number(total)} VP")
