"""How many taps a round costs: the shared scenarios' rounds entered through the real app in
Chromium, as a new user enters them, every click and key press on the page counted.

    .venv/bin/python tools/taps.py

Prints one JSON line per game and entry mode, e.g. {"game": "black-spy", "mode": "quick",
"players": 4, "rounds": 3, "median_taps": 7, "max_taps": 8}. A round's taps run from opening
its entry to its Save; choosing the entry mode, once per game, counts in the first round. The
last line counts the taps from Home to deal 1's entry of a table played before: set up in New
game, and taken from New game's recent tables.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import damaged  # noqa: E402
import generators  # noqa: E402
from builders import SCENARIOS  # noqa: E402
from playwright.sync_api import Browser, Page  # noqa: E402
from ui import (  # noqa: E402
    chip,
    enter_deal,
    enter_deal_quickly,
    enter_kompromat_outcomes,
    enter_kompromat_round,
    enter_spy_event,
    enter_spywhere_counts,
    enter_spywhere_ending,
    start_game,
    tap_starting,
)

from storage import Store  # noqa: E402
from tools.browser import AppServer, chromium, open_app, tap  # noqa: E402

# Every tap (a pointer going down) and key press reaching the page, from its first script on.
COUNTER = """
window.__taps = 0;
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => { window.__taps += 1; }, true);
}
"""


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def counted(page: Page, enter: Callable[[], None]) -> int:
    """The taps `enter` costs."""
    before = int(page.evaluate("window.__taps"))
    enter()
    return int(page.evaluate("window.__taps")) - before


def play(browser: Browser, record: dict[str, Any], title: str, enter_round: Any) -> list[int]:
    """A new game of `record`'s players, each of its rounds entered and counted."""
    with tempfile.TemporaryDirectory() as folder:
        server = AppServer(Path(folder) / "data").start()
        page = open_app(browser, server.url)
        page.add_init_script(COUNTER)
        page.evaluate(COUNTER)
        try:
            start_game(page, title, [p["name"] for p in record["players"]])
            options = record["options"]
            if "first_player" in options:
                chip(page, f"First player: {options['first_player']}")
            if "removed_nationality" in options:
                removed = options["removed_nationality"].capitalize()
                chip(page, f"Removed nationality: {removed}")
            tap(page, f"Start {title}")
            return [
                counted(page, lambda n=number, r=rnd: enter_round(page, n, r))
                for number, rnd in enumerate(record["rounds"], start=1)
            ]
        finally:
            page.close()
            server.stop()


def to_first_deal(browser: Browser) -> str:
    """Taps from Home to deal 1's entry of the usual table (four known players, The Mole):
    as a new game from New game, and as one of New game's recent tables (last week's game)."""
    played = damaged.scenario("black-spy-basic", "last-week", ended="2026-11-20T22:00:00+01:00")
    played["options"]["variants"] = ["mole"]
    names = [p["name"] for p in played["players"]]
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "data")
        try:
            for name in names:  # in the roster, as after the game they played
                store.add_player(name)
            store.add_games([played])
        finally:
            store.close()
        server = AppServer(Path(folder) / "data").start()
        page = open_app(browser, server.url)
        page.evaluate(COUNTER)
        try:

            def new_game() -> None:
                start_game(page, "Black Spy", names, known=True)
                chip(page, "The Mole")
                tap(page, "Start Black Spy")
                tap(page, "Enter deal 1")

            def recent_table() -> None:
                tap(page, "New game")
                tap_starting(page, f"{', '.join(names)} Black Spy · The Mole")
                tap(page, "Enter deal 1")

            from_new_game = counted(page, new_game)
            tap(page, "Discard")
            tap(page, "Back")
            from_recent = counted(page, recent_table)
        finally:
            page.close()
            server.stop()
    return json.dumps(
        {"to": "deal 1's entry", "from_new_game": from_new_game, "from_recent_table": from_recent}
    )


def line(game: str, mode: str, record: dict[str, Any], taps: list[int]) -> str:
    return json.dumps(
        {
            "game": game,
            "mode": mode,
            "players": len(record["players"]),
            "rounds": len(taps),
            "median_taps": statistics.median(taps),
            "max_taps": max(taps),
            "taps": taps,
        }
    )


def main() -> int:
    black_spy = scenario("black-spy-basic")
    names = [p["name"] for p in black_spy["players"]]
    counted_deals = {
        **black_spy,
        "rounds": [generators.as_points_form(d, False) for d in black_spy["rounds"]],
    }
    kompromat = scenario("kompromat-first-round")
    # The scenario has one round; outcomes are counted on a whole game (four rounds to the
    # 9-token end: "!" marks, players above 21, at 21 giving a token back), the one
    # tests/test_e2e_games.py plays.
    outcomes = generators.in_outcome_form(
        generators.kompromat_record(random.Random(20261122), names=["Anna", "Ben"])
    )
    spy = scenario("spy-three-players")
    spywhere = scenario("spywhere-four-players")
    spywhere_names = [p["name"] for p in spywhere["players"]]
    with chromium() as browser:
        runs = [
            (
                "black-spy",
                "quick",
                counted_deals,
                "Black Spy",
                lambda page, n, deal: enter_deal_quickly(
                    page, n, names, deal, black_spy["options"]
                ),
            ),
            (
                "black-spy",
                "detailed",
                black_spy,
                "Black Spy",
                lambda page, n, deal: enter_deal(page, n, names, deal),
            ),
            (
                "kompromat",
                "quick",
                outcomes,
                "Kompromat",
                lambda page, n, rnd: enter_kompromat_outcomes(page, n, ["Anna", "Ben"], rnd),
            ),
            (
                "kompromat",
                "detailed",
                kompromat,
                "Kompromat",
                lambda page, n, rnd: enter_kompromat_round(
                    page, n, [p["name"] for p in kompromat["players"]], rnd
                ),
            ),
            (
                "spy",
                "detailed",
                spy,
                "SPY",
                lambda page, n, event: enter_spy_event(page, event, n),
            ),
            (
                "spywhere",
                "quick",
                {
                    **spywhere,
                    "rounds": [generators.as_counts_form(e) for e in spywhere["rounds"]],
                },
                "Spywhere",
                lambda page, n, ending: enter_spywhere_counts(page, spywhere_names, ending),
            ),
            (
                "spywhere",
                "detailed",
                spywhere,
                "Spywhere",
                lambda page, n, ending: enter_spywhere_ending(page, spywhere_names, ending),
            ),
        ]
        for game, mode, record, title, enter_round in runs:
            print(line(game, mode, record, play(browser, record, title, enter_round)), flush=True)
        print(to_first_deal(browser), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
