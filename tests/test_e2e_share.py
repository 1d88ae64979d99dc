"""A table shared on the local network, in Chromium: the host plays, a viewer's phone follows
every save with no reload, a scorer with the PIN enters rounds too, and wrong PINs lock out.

Three browser contexts are three phones; guests open the share link the app printed (its
network address, not 127.0.0.1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders import SCENARIOS
from playwright.sync_api import Browser, Page
from ui import EN, enter_deal, shown, start_game

import scoring
from tools.browser import AppServer, open_app, see, tap

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[AppServer]:
    server = AppServer(tmp_path / "data", args=["--share"]).start()
    try:
        yield server
    finally:
        server.stop()


def totals_shown(page: Page, rounds: int) -> None:
    """Wait until `page` shows every total after the scenario's first `rounds` deals."""
    result = scoring.standings({**BLACK_SPY, "rounds": BLACK_SPY["rounds"][:rounds]})
    for name, total in result["totals"].items():
        shown(page, f"{name}: total {EN.number(total)}")


def type_pin(page: Page, pin: str) -> None:
    for digit in pin:
        tap(page, digit)


def nothing_to_enter(page: Page) -> None:
    for name in ("Enter deal 1", "Enter deal 2", "Enter deal 3", "Back", "New game"):
        assert page.get_by_role("button", name=name, exact=True).count() == 0, name


def test_a_viewer_follows_every_save_and_a_scorer_enters_with_the_pin(
    browser: Browser, shared: AppServer
) -> None:
    link, pin = shared.printed("Guests open:"), shared.printed("Scorers' PIN:")
    assert "127.0.0.1" not in link  # the address other phones reach
    host = open_app(browser, shared.url)
    start_game(host, "Black Spy", NAMES)
    tap(host, "Start Black Spy")
    viewer = open_app(browser, link)
    scorer = open_app(browser, link)
    shown(viewer, "Scoresheet")
    enter_deal(host, 1, NAMES, BLACK_SPY["rounds"][0])
    totals_shown(viewer, 1)  # no reload: the viewer's phone follows the host's save
    nothing_to_enter(viewer)
    tap(scorer, "Score")
    type_pin(scorer, pin)
    see(scorer, "You can enter this game's rounds now.")
    enter_deal(scorer, 2, NAMES, BLACK_SPY["rounds"][1])
    totals_shown(viewer, 2)
    totals_shown(host, 2)
    nothing_to_enter(viewer)
    assert scorer.get_by_role("button", name="Back", exact=True).count() == 0


def test_five_wrong_pins_lock_the_phone_out_even_with_the_right_one(
    browser: Browser, shared: AppServer
) -> None:
    link, pin = shared.printed("Guests open:"), shared.printed("Scorers' PIN:")
    wrong = "000000" if pin != "000000" else "111111"
    host = open_app(browser, shared.url)
    start_game(host, "Black Spy", NAMES)
    tap(host, "Start Black Spy")
    guest = open_app(browser, link)
    tap(guest, "Score")
    for _ in range(4):
        type_pin(guest, wrong)
        see(guest, "That is not the PIN.")
    type_pin(guest, wrong)
    see(guest, "Too many wrong PINs: wait a minute, then try again.")
    type_pin(guest, pin)  # locked: even the right PIN does not open it now
    see(guest, "Too many wrong PINs")
    assert guest.get_by_text("You can enter this game's rounds now.").count() == 0
