"""A table shared on the local network, in Chromium: the host plays, a viewer's phone follows
every save with no reload, a scorer with the PIN enters rounds too; the host starts and stops
the guests' door; a guest joins light and comes back by itself.

Three browser contexts are three phones; guests open the share link the app printed (its
network address, not 127.0.0.1). Wrong PINs that lock a phone out are played in-process
(tests/test_screens_share.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import SCENARIOS
from listening import listening
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from ui import EN, OnPhone, enter_deal, players_colors_drawn, seat_table, shown

import scoring
from tools.browser import (
    PHONE,
    WATCH_SERVER,
    AppServer,
    accessible,
    browser_speaking,
    open_app,
    see,
    settled,
    tap,
)
from tools.join_weight import join
from views.result import PICTURE_SCALE, picture_size

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]


@pytest.fixture
def shared(on_phone: OnPhone, tmp_path: Path) -> tuple[AppServer, Page]:
    """The app shared from its start, with a Black Spy game at the table three deals before
    its end (`whole_game`), and the host's page (on the phone the tests keep, which opens on
    the game at the table)."""
    seat_table(tmp_path / "data", "black-spy", NAMES, rounds=whole_game()[:-LAST_DEALS])
    return on_phone(tmp_path / "data", args=["--share"])


# What a guest's phone may download to join (tools/join_weight.py): the first time, and again
# from the same browser.
FIRST_JOIN_BYTES = 5_000_000
SECOND_JOIN_BYTES = 300_000
LAST_DEALS = 2  # the deals a shared game is played through on its phones: one each


def whole_game() -> list[dict[str, Any]]:
    """The scenario's deals, played again and again until the game is over."""
    deals: list[dict[str, Any]] = []
    while not scoring.standings({**BLACK_SPY, "rounds": deals})["finished"]:
        deals.append(BLACK_SPY["rounds"][len(deals) % len(BLACK_SPY["rounds"])])
    return deals


def totals_shown(page: Page, deals: list[dict[str, object]], timeout: float = 15_000) -> None:
    """Wait until `page` shows every total after `deals`."""
    result = scoring.standings({**BLACK_SPY, "rounds": deals})
    for name, total in result["totals"].items():
        shown(page, f"{name}: total {EN.number(total)}", timeout=timeout)


# A phone whose connection dropped asks whether the table answers at once, after a second, then
# less and less often, and at once when the device says its network is back
# (web/connection_note.js): it loads its page again within that second, under load.
BACK_BY_ITSELF_MS = 1_000 + 20_000


# The test cuts a tab's connection from inside the page: each websocket the page opens is kept,
# and `__cut()` closes them with the browser's own close, past the page's (the connection note
# takes a close the page did not ask for as a lost connection), as a network gone would.
# (It used to route the tab's websocket through Playwright, whose Python client forwards each
# message in this process; that was not why two fresh-clone runs saw the tab frozen after it
# came back: Flet's client was, see web/connection_note.js.)
CUTTABLE = """(() => {
    const Native = window.WebSocket;
    const close = Native.prototype.close;
    const opened = window.__opened = [];
    window.WebSocket = class extends Native {
        constructor(...args) {
            super(...args);
            opened.push(this);
        }
    };
    window.__cut = () => opened.forEach((socket) => close.call(socket, 3000, "cut by the test"));
})()"""


# What a tab that did not come back shows: its connection note, its messages, its totals.
TAB_STATE = """() => {
    const note = document.getElementById('debrief-connection-note');
    const totals = [...document.querySelectorAll('flt-semantics')]
        .flatMap(e => [e.getAttribute('aria-label') || '', ...(e.textContent || '').split('\\n')])
        .filter(label => /^.{1,40}: total \\S+$/.test(label));
    return `websockets opened ${window.__opened.length}; `
        + `note: ${note ? note.dataset.kind + (note.isConnected ? '' : ' (gone)') : 'none'}; `
        + `messages sent ${window.__debrief.sent}, received ${window.__debrief.received}; `
        + `totals shown: ${[...new Set(totals)].join(' | ') || 'none'}`;
}"""


def back(page: Page, deals: list[dict[str, object]], restore: Callable[[], None]) -> None:
    """`restore` the network of a tab whose connection was cut, and wait until the tab is back
    by itself (it loads its page again, web/connection_note.js) and shows every total after
    `deals`; else say what the tab did meanwhile."""
    restored_at = time.monotonic()
    try:
        with page.expect_event("load", timeout=BACK_BY_ITSELF_MS):
            restore()
        accessible(page)  # Flutter's accessibility tree, for the test to read the page
        totals_shown(page, deals)
    except PlaywrightTimeoutError as missing:
        state = page.evaluate(TAB_STATE)
        raise AssertionError(f"{time.monotonic() - restored_at:.1f} s on: {state}") from missing


def scoreboard_shown(page: Page, deals: list[dict[str, object]]) -> None:
    """Wait until a watching phone's scoreboard shows every total in large type, the lowest
    (Black Spy's leaders) marked."""
    result = scoring.standings({**BLACK_SPY, "rounds": deals})
    best = min(result["totals"].values())
    for name, total in result["totals"].items():
        lead = ", leading" if total == best else ""
        shown(page, f"{name}: {EN.number(total)}{lead}")


def type_pin(page: Page, pin: str) -> None:
    for digit in pin:
        tap(page, digit)


def nothing_to_enter(page: Page) -> None:
    """A viewer's phone offers no entry, correction, undo or way into the host's app."""
    for name in (r"^Enter deal", r"^Edit deal", r"^Undo", r"^Back$", r"^New game$"):
        assert page.get_by_role("button", name=re.compile(name)).count() == 0, name


@pytest.mark.long
def test_a_host_and_two_phones_play_a_game_to_its_end(
    browser: Browser, shared: tuple[AppServer, Page], guest_phone: Callable[[str], Page]
) -> None:
    """The host and a scorer take turns entering the last deals; the viewer's phone shows
    every total after each save, with no reload, and the winner at the end."""
    server, host = shared
    link, pin = server.printed("Guests open:"), server.printed("Scorers' PIN:")
    assert "127.0.0.1" not in link  # the address other phones reach
    viewer = open_app(browser, link)
    scorer = guest_phone(link)
    shown(viewer, "Scoresheet")
    settled(viewer)
    players_colors_drawn(viewer, len(NAMES))  # each player's colour heads their column
    tap(scorer, "Score")
    type_pin(scorer, pin)
    see(scorer, "You can enter this game's rounds now.")
    deals = whole_game()
    totals_shown(viewer, deals[:-LAST_DEALS])
    first = len(deals) - LAST_DEALS + 1  # the deals before it were saved before the app started
    named: set[str] = set()  # each device is named on its first entry at the shared table
    for number, deal in enumerate(deals[-LAST_DEALS:], start=first):
        entering, device = (host, "Host") if number % 2 else (scorer, "Ben's phone")
        enter_deal(entering, number, NAMES, deal, None if device in named else device)
        named.add(device)
        totals_shown(viewer, deals[:number])  # the viewer follows every save at once
        scoreboard_shown(viewer, deals[:number])
        nothing_to_enter(viewer)
    final = scoring.standings({**BLACK_SPY, "rounds": deals})
    # The result on every phone at once: the places (ties shared), the totals, what made them.
    for page in (viewer, scorer, host):
        see(page, f"Game over: {' & '.join(final['winners'])} won!")
        for name, total in final["totals"].items():
            place = final["places"][name]
            shown(page, f"{place}. {name}: {EN.number(total)}")
    assert scorer.get_by_role("button", name="Back", exact=True).count() == 0
    for host_only in ("Finish and save to history", "Play again", "Home"):
        assert scorer.get_by_role("button", name=host_only).count() == 0
        assert viewer.get_by_role("button", name=host_only).count() == 0
    # The result as a picture, on a guest's phone too: a browser saves it (a download).
    for page in (scorer, host):
        card_pictured(page, final["winners"])
    # Play again: the same seats, the first deal one seat to the left of this game's.
    tap(host, "Play again")
    dealer = NAMES[(NAMES.index(BLACK_SPY["options"]["first_dealer"]) + 1) % len(NAMES)]
    see(host, f"Deal 1: {dealer} deals")
    see(host, "Enter deal 1")
    # The guests keep the result in front of them and are told of the next game, one tap away.
    for page in (viewer, scorer):
        see(page, "The host started a new game of Black Spy.")
        see(page, f"Game over: {' & '.join(final['winners'])} won!")
        assert page.get_by_role("button", name="Score", exact=True).count() == 0  # left behind
        tap(page, "Follow")
        see(page, f"Deal 1: {dealer} deals")
        assert page.get_by_text("Game over:").count() == 0
    for name in NAMES:  # the viewer's scoreboard: nobody leads before the first deal
        shown(viewer, f"{name}: 0")
    see(scorer, "Enter deal 1")  # and the scorer scores the new game


def card_pictured(page: Page, winners: list[str]) -> None:
    """ "Share as picture" saves a PNG of the result card as drawn: as wide as a player's line
    and as tall as from the headline to the card's last line (so every player is in it)."""
    with page.expect_download() as caught:
        tap(page, "Share as picture")
    download = caught.value
    assert re.fullmatch(r"debrief-black-spy-\d{4}-\d\d-\d\d\.png", download.suggested_filename)
    png = Path(download.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    size = picture_size(png)
    assert size is not None
    width, height = size
    first = page.get_by_text(re.compile(r"^1\. ")).first.bounding_box()  # the winner's line
    headline = f"Game over: {' & '.join(winners)} won!"
    top = page.get_by_text(headline, exact=True).bounding_box()
    bottom = page.get_by_text(re.compile(r"· Debrief$")).bounding_box()
    assert first and top and bottom
    across, down = 12 + 12, 12 + 6  # the card's margins (views/result.py)
    ratio = width / (first["width"] + across)  # the picture's pixels a point
    # 3, whatever the screen; or, where Flutter's renderer cut the capture to the screen, the
    # screen's own 1 (views/result.cut_to_the_screen). A cut picture is neither.
    assert min(abs(ratio - PICTURE_SCALE), abs(ratio - 1.0)) < 0.02, (width, height)
    assert abs(height - (bottom["y"] + bottom["height"] - top["y"] + down) * ratio) <= 4 * ratio


def test_the_host_starts_and_stops_sharing_from_the_game(
    browser: Browser, on_phone: OnPhone, guest_phone: Callable[[str], Page], tmp_path: Path
) -> None:
    """Without --share nothing listens on the network; the game's "Share this table" starts
    sharing (a door on every address, a link and a PIN), and "Stop sharing" closes it: the
    door stops listening, and a new start gives a new link, which the old one does not open."""
    seat_table(tmp_path / "data", "black-spy", NAMES)
    server, host = on_phone(tmp_path / "data")  # it opens on the game at the table
    assert server.process is not None
    assert set(listening(server.process.pid)) == {("127.0.0.1", server.port)}
    tap(host, "Share this table")
    tap(host, "Start sharing")
    see(host, "PIN for scorers")
    link, pin = server.printed("Guests open:"), server.printed("Scorers' PIN:")
    see(host, link)  # the dialog shows the link and PIN the terminal printed
    see(host, f"PIN {' '.join(pin)}")
    door = int(link.removeprefix("http://").split("/")[0].split(":")[1])
    assert set(listening(server.process.pid)) == {
        ("127.0.0.1", server.port),
        ("0.0.0.0", door),
    }
    viewer = guest_phone(link)
    shown(viewer, "Scoresheet")
    tap(host, "Stop sharing")
    see(host, "Sharing stopped: every link and PIN has ended.")
    assert set(listening(server.process.pid)) == {("127.0.0.1", server.port)}
    tap(host, "Share this table")
    tap(host, "Start sharing")
    see(host, "PIN for scorers")
    new_link = server.printed("Guests open:")
    assert new_link != link
    refused = viewer.goto(link)  # the old link (and the old cookie) at the new door
    assert refused is not None and refused.status == 403
    see(viewer, "Scan the host's new code")  # told as a guest, not as the host
    with browser_speaking(browser, "de-DE,de") as german:  # a phone set to German
        guest = open_app(german.new_context(viewport=PHONE), new_link)
        shown(guest, "Wertungsblock")  # in its own language, whatever the host's
        assert guest.get_by_role("button", name="Mitschreiben").count() == 1


# Whether Flutter's screen (its host element) takes no input: no tap, no focus, no screen
# reader's action.
SCREEN_INERT = """() => {
    const screen = document.querySelector("flutter-view, flt-glass-pane");
    return screen !== null && screen.inert === true;
}"""


def test_a_guest_joins_light_comes_back_by_itself_and_sees_the_end_of_sharing(
    browser: Browser, shared: tuple[AppServer, Page]
) -> None:
    """A new phone's first join stays under 5 MB on the wire and a second one from the same
    browser under 300 KB (its cache); a guest whose connection drops keeps the last scores with
    a note, and is back on the live scoreboard by itself when the table can be reached again;
    when the host stops sharing, every guest is told so over the last scores."""
    server, host = shared
    link = server.printed("Guests open:")
    phone = browser.new_context(viewport=PHONE)  # nothing cached
    first_page, first = join(phone, link)
    assert first.total <= FIRST_JOIN_BYTES, first.heaviest()
    first_page.close()
    watcher, second = join(phone, link)
    assert second.total <= SECOND_JOIN_BYTES, second.heaviest()
    # A third tab, whose connection the test cuts (`CUTTABLE`), twice.
    dropped = phone.new_page()
    dropped.add_init_script(WATCH_SERVER)
    dropped.add_init_script(CUTTABLE)
    dropped.goto(link)
    accessible(dropped)
    deals = whole_game()
    before = deals[:-LAST_DEALS]
    totals_shown(dropped, before)
    # Cut while the network is up but the table does not answer (the host's app restarting):
    # the tab asks again by itself and is back.
    dropped.route("**/*", lambda route: route.abort())
    dropped.evaluate("() => window.__cut()")
    see(dropped, "Lost the connection to the host.")
    back(dropped, before, lambda: dropped.unroute("**/*"))
    # Cut with the network gone (the phone's Wi-Fi) while the host saves a deal: the last scores
    # stay readable under the note, and the phone, told its network is back, is back at once
    # with the deal saved meanwhile.
    phone.set_offline(True)
    dropped.evaluate("() => window.__cut()")
    see(dropped, "Lost the connection to the host.")
    totals_shown(dropped, before)
    enter_deal(host, len(before) + 1, NAMES, deals[len(before)], "Host")
    back(dropped, deals[: len(before) + 1], lambda: phone.set_offline(False))  # no tap
    # The host stops sharing: every guest at once is told so, over the last scores.
    tap(host, "Sharing this table")
    tap(host, "Stop sharing")
    for guest in (watcher, dropped):
        see(guest, "The host stopped sharing.")
        see(guest, "scan the host's new code")
        totals_shown(guest, deals[: len(before) + 1])
        assert guest.get_by_text("Working...").count() == 0
        # What no longer works is not offered: the screen under the note takes no tap (Score
        # stayed as it was, and did nothing), and is drawn as such.
        assert guest.evaluate(SCREEN_INERT), "the screen under the note still takes taps"
