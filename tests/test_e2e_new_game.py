"""The usual table first: New game offers the tables played lately, and one of them is at its
next game's first entry in three taps from Home (issue 27)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from damaged import scenario
from ui import OnPhone, shown, tap_starting

from storage import Store
from tools.browser import see, tap

pytestmark = pytest.mark.e2e


def test_a_recent_table_is_at_its_next_deal_in_three_taps(
    on_phone: OnPhone, tmp_path: Path
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
    _, page = on_phone(folder)
    tap(page, "New game")  # 1
    shown(page, "Recent tables")
    # Each table once, its players in seating order and its game (the button's two lines,
    # which Playwright joins with a space).
    spy = page.get_by_role("button", name=re.compile(r"^Anna, Ben, Carla\sSPY"))
    spy.first.wait_for(state="attached", timeout=15_000)
    tap_starting(page, "Anna, Ben, Carla, Dirk Black Spy · The Mole")  # 2
    # The same seats and variant; the deal one seat to the left of last week's first dealer.
    see(page, "Deal 1: Ben deals 15 cards each")
    tap(page, "Enter deal 1")  # 3
    see(page, "Save deal")
    # Tapped again while that game waits at the table: it opens, no second game is made.
    tap(page, "Discard")
    tap(page, "Back")
    tap(page, "New game")
    tap_starting(page, "Anna, Ben, Carla, Dirk Black Spy · The Mole")
    see(page, "Deal 1: Ben deals 15 cards each")  # the same game, not one dealt by Carla
    tap(page, "Back")
    in_progress = page.get_by_role(
        "button", name=re.compile(r"^Black Spy · Anna, Ben, Carla, Dirk")
    )
    assert in_progress.count() == 1
    # Its card says where it is as Black Spy calls it (Playwright joins its lines with spaces).
    assert (
        page.get_by_role("button", name=re.compile(r"Anna, Ben, Carla, Dirk\sDeal 1\b")).count()
        == 1
    )
