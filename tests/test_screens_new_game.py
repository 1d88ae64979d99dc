"""The usual table first, through the app's screens in-process (tests/screens.py): New game
offers the tables played lately, and one of them is at its next game's first entry in three taps
from Home. Nothing here is the browser's (tests/test_e2e_*.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from damaged import scenario
from screens import Table
from ui import see, shown, tap, tap_starting

from storage import Store


def test_a_recent_table_is_at_its_next_deal_in_three_taps(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    played = scenario("black-spy-basic", "last-week", ended="2026-11-20T22:00:00+01:00")
    played["options"]["variants"] = ["mole"]
    older = scenario("spy-three-players", "two-weeks-ago", ended="2026-11-13T22:00:00+01:00")
    store = Store.open(folder)
    try:
        store.add_games([played, older])
    finally:
        store.close()
    screen = screen_tables(folder).screen()
    tap(screen, "New game")  # 1
    shown(screen, "Recent tables")
    # Each table once, its players in seating order and its game (the button's two lines, one
    # name of two lines here, which Playwright joined with a space).
    assert screen.find(re.compile(r"^Anna, Ben, Carla\sSPY"), "button"), screen.texts()
    tap_starting(screen, "Anna, Ben, Carla, Dirk\nBlack Spy · The Mole")  # 2
    # The same seats and variant; the deal one seat to the left of last week's first dealer.
    see(screen, "Deal 1: Ben deals 15 cards each")
    tap(screen, "Enter deal 1")  # 3
    see(screen, "Save deal")
    # Tapped again while that game waits at the table: it opens, no second game is made.
    tap(screen, "Discard")
    tap(screen, "Back")
    tap(screen, "New game")
    tap_starting(screen, "Anna, Ben, Carla, Dirk\nBlack Spy · The Mole")
    see(screen, "Deal 1: Ben deals 15 cards each")  # the same game, not one dealt by Carla
    tap(screen, "Back")
    in_progress = screen.find(re.compile(r"^Black Spy · Anna, Ben, Carla, Dirk"), "button")
    assert len(in_progress) == 1, screen.texts()
    # Its card says where it is as Black Spy calls it (its lines, which Playwright joined with
    # spaces).
    assert len(screen.find(re.compile(r"Anna, Ben, Carla, Dirk\sDeal 1\b"), "button")) == 1


def test_the_usual_table_stays_among_the_recent_ones_after_an_evening_of_other_games(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    """Five Black Spy games of the usual four, then one evening of four other tables: the
    usual table dropped out (only the four newest tables were kept), and with it its 3-tap
    start. The tables a group returns to stay: the most played first, then the newest."""
    folder = tmp_path / "data"
    usual = []
    for n in range(5):
        game = scenario("black-spy-basic", f"usual-{n}", ended=f"2026-11-{10 + n}T22:00:00+01:00")
        game["meta"]["started"] = f"2026-11-{10 + n}T20:00:00+01:00"
        usual.append(game)
    evening = []
    for n, names in enumerate((["Eve", "Finn"], ["Eve", "Gus"], ["Finn", "Gus"], ["Eve", "Hal"])):
        game = scenario("kompromat-short-final-round-outcome", f"evening-{n}")
        game["players"] = [{"name": name} for name in names]
        game["options"] = {"first_player": names[0]}
        game["rounds"] = []
        game["meta"]["started"] = f"2026-11-20T1{n}:00:00+01:00"
        game["meta"]["ended"] = f"2026-11-20T1{n}:30:00+01:00"
        evening.append(game)
    store = Store.open(folder)
    try:
        store.add_games([*usual, *evening])
    finally:
        store.close()
    screen = screen_tables(folder).screen()
    tap(screen, "New game")
    assert screen.find(re.compile(r"^Anna, Ben, Carla, Dirk\sBlack Spy"), "button"), screen.texts()


def test_going_backs_end_and_halvings_are_said_as_the_rules_have_them(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    """With Going Back New game said "The game ends at 200" (it ends above it), and "(200 →
    100 → 50)", which reads like the cascade the rules exclude (a halved total is not halved
    again at once)."""
    screen = screen_tables(tmp_path / "data").screen()
    tap(screen, "New game")
    tap_starting(screen, "Black Spy")
    for name in ("Anna", "Ben", "Carla"):
        screen.type_text("New player", name, submit=True)
    screen.chip("Going Back")
    see(screen, "The game ends above 200 (3 players: 200 by the rules).")
    see(screen, "200 ÷ 2 = 100, 100 ÷ 2 = 50")
    screen.see_not("200 → 100")
