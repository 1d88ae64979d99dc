"""Two scorers, one deal (issue 26), in Chromium: a host and a scorer's phone on the share enter
or correct the same deal; the one whose change comes second sees the first one's deal by its
device's name and in numbers, chooses, and gets the record the choice says. No deal is ever
stored twice, and no entry is renumbered behind anyone's back.

Each device is named on its first scoring action ("Whose phone is this?")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, WebSocketRoute
from ui import OnPhone, name_device, seat_table, tap_starting, type_pile

from scoring import black_spy
from storage import Store
from tools.browser import AppServer, forget_site, in_view, open_app, see, tap

pytestmark = pytest.mark.e2e
NAMES = ["Anna", "Ben", "Carla"]  # three: two piles typed a deal (the third fills itself in)
EVEN = {"points": dict.fromkeys(NAMES, 20)}  # each deal saved before the app starts
HOST_DEAL = {"Anna": 18, "Ben": 20, "Carla": 22}
PHONE_DEAL = {"Anna": 22, "Ben": 18, "Carla": 20}
HOST, PHONE = "Host's laptop", "Ben's phone"
# Whether the page's own hit test at (x, y) finds the element (nothing lies over it).
ON_TOP = """([element, x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === element || element.contains(hit));
}"""


@pytest.fixture
def table(on_phone: OnPhone, tmp_path: Path) -> tuple[AppServer, str, Page]:
    """Black Spy at deal 4, shared from the start: the app, the game and the host's page (on
    the `phone` the tests keep; the scorer's is another kept phone, `guest_phone`)."""
    game_id = seat_table(tmp_path / "data", "black-spy", NAMES, rounds=[EVEN] * 3)
    server, host = on_phone(tmp_path / "data", args=["--share"])
    return server, game_id, host


def stored_deals(server: AppServer, game_id: str, pages: list[Page]) -> list[dict[str, Any]]:
    """The deals stored, read once the app has stopped (it holds the data folder); its `pages`
    first leave it (a page loading from a stopped app ends on an error page, whose late
    arrival broke the next navigation, the one that puts the page away for the next test)."""
    for page in pages:
        if not page.is_closed():
            page.goto("about:blank")
    server.stop()
    store = Store.open(server.data_dir)
    try:
        return list(store.load_game(game_id)["rounds"])
    finally:
        store.close()


def scorer(page: Page, server: AppServer) -> Page:
    """A phone on the share link (`page`) that types the scorers' PIN."""
    tap(page, "Score")
    for digit in server.printed("Scorers' PIN:"):
        tap(page, digit)
    see(page, "You can enter this game's rounds now.")
    return page


def begin(page: Page, button: str, device: str | None = None) -> None:
    """Open an entry (a deal on the sheet: its row, named "Edit deal 3" and its numbers); on
    the device's first scoring action, name it."""
    if button.startswith("Edit"):
        tap_starting(page, button)
    else:
        tap(page, button)
    if device is not None:
        name_device(page, device)


def type_points(page: Page, points: dict[str, int]) -> None:
    """Each pile but the last on the number pad (the last fills itself in); not saved."""
    options = black_spy.Options(NAMES[0], frozenset(), 150)
    low, high = black_spy.pile_limits(options, moon=False)
    for name in NAMES[:-1]:
        type_pile(page, points[name], low, high)


def said(device: str, what: str, number: int, points: dict[str, int]) -> str:
    listed = ", ".join(f"{name} {value}" for name, value in points.items())
    return f"{device} {what} deal {number}: {listed}"


@pytest.mark.long
def test_two_scorers_at_one_table_see_each_others_deals_and_choose(
    table: tuple[AppServer, str, Page], second_phone: BrowserContext
) -> None:
    """A host and a scorer's phone, one after the other on one game: deal 4 saved in turn,
    deal 5 at the same moment, deal 3 corrected while deleted, deal 7 saved while the phone's
    connection was lost; then the host ends the phone's access. Every deal once, as chosen."""
    server, game_id, host = table
    link = Link()
    phone = scorer(link.opened(second_phone, server.printed("Guests open:")), server)
    try:
        in_turn(host, phone)
        at_the_same_moment(host, phone)
        deleted_and_put_back(host, phone)
        back_from_a_lost_connection(host, phone, link)
        host_ends_the_phones_access(host, phone)
    finally:
        phone.close()  # its connection was routed through `link`: no later test gets it
    deals = [deal["points"] for deal in stored_deals(server, game_id, [host])]
    fifth, sixth = (HOST_DEAL, PHONE_DEAL) if deals[4] == HOST_DEAL else (PHONE_DEAL, HOST_DEAL)
    assert deals == [EVEN["points"]] * 2 + [HOST_DEAL, HOST_DEAL, fifth, sixth, PHONE_DEAL]


def in_turn(host: Page, phone: Page) -> None:
    """The host saves deal 4 first; the phone sees it at once, beside its own, keeps it."""
    begin(host, "Enter deal 4", HOST)
    begin(phone, "Enter deal 4", PHONE)
    type_points(host, HOST_DEAL)
    type_points(phone, PHONE_DEAL)
    tap(host, "Save deal")
    see(host, "Deal 4 saved")
    see(phone, said(HOST, "saved", 4, HOST_DEAL))  # at once, before the phone's Save
    # Never renumbered behind the player's back; nothing to type until the player chooses.
    phone.get_by_text("Deal 4", exact=True).wait_for(timeout=15_000)
    assert phone.get_by_role("button", name="Next pile").count() == 0
    no_cards = phone.get_by_role("button", name="Cards", exact=True)
    assert no_cards.count() == 0  # no switch to the other form, whose own draft is not this
    tap(phone, "Keep theirs")
    see(phone, "Edit deal 4")  # the entry closed on the sheet


def at_the_same_moment(host: Page, phone: Page) -> None:
    """Both tap Save on deal 5 at once: one of them sees the other's and saves its own as
    deal 6."""
    begin(host, "Enter deal 5")  # named once: not asked again
    begin(phone, "Enter deal 5")
    type_points(host, HOST_DEAL)
    type_points(phone, PHONE_DEAL)
    saves = [page.get_by_role("button", name="Save deal", exact=True) for page in (host, phone)]
    boxes = [ready_to_tap(page, button) for page, button in zip((host, phone), saves, strict=True)]
    for page, (x, y) in zip((host, phone), boxes, strict=True):
        page.mouse.click(x, y)  # both at once: neither waits for the app's answer
    for page in (host, phone):  # each either saved its deal 5 or sees the other's
        told = page.get_by_text("Deal 5 saved").or_(page.get_by_text("saved deal 5:"))
        told.first.wait_for(state="attached", timeout=15_000)
    second, winner, points = (
        (phone, HOST, HOST_DEAL)
        if host.get_by_text("Deal 5 saved").count()
        else (host, PHONE, PHONE_DEAL)
    )
    see(second, said(winner, "saved", 5, points))
    tap(second, "Save mine as deal 6")
    see(second, "Deal 6 saved")


def host_ends_the_phones_access(host: Page, phone: Page) -> None:
    """The share panel lists the phone by its name and role; End access (asked once more)
    shows the phone at once that its access ended."""
    tap_starting(host, "Sharing this table")
    see(host, f"{PHONE}, scorer")
    tap(host, "End access")
    see(host, f"End {PHONE}'s access until a new share?")
    tap(host, "End access")
    see(host, "No phone has joined yet.")
    see(phone, "The host ended this phone's access")
    assert phone.get_by_role("button", name="Enter deal 8").count() == 0


def deleted_and_put_back(host: Page, phone: Page) -> None:
    """The host corrects deal 3 while the phone deletes it: the host puts its correction
    back, in its place."""
    begin(host, "Edit deal 3")
    type_points(host, HOST_DEAL)
    begin(phone, "Edit deal 3")
    tap(phone, "Delete deal")
    see(phone, "Deal 3 deleted")
    see(host, f"{PHONE} deleted deal 3.")  # at once, beside the host's correction
    tap(host, "Put mine back")
    see(host, "Deal 3 saved")


def back_from_a_lost_connection(host: Page, phone: Page, link: Link) -> None:
    """The phone loses its connection in the middle of deal 7, the host saves deal 7, the
    phone comes back, sees it, and replaces it with its own."""
    begin(phone, "Enter deal 7")
    type_points(phone, PHONE_DEAL)
    link.cut()
    connections = link.connections
    begin(host, "Enter deal 7")
    type_points(host, HOST_DEAL)
    tap(host, "Save deal")
    see(host, "Deal 7 saved")
    link.restore()
    see(phone, said(HOST, "saved", 7, HOST_DEAL), timeout=60_000)  # back, and told at once
    assert link.connections > connections  # it came back on a connection of its own
    tap(phone, "Replace theirs with mine")
    see(phone, "Deal 7 saved")


def ready_to_tap(page: Page, button: Locator) -> tuple[float, float]:
    """The centre of `button`, once it is shown whole and nothing lies over it (a note)."""
    in_view(page, button)
    box = button.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.wait_for_function(ON_TOP, arg=[button.element_handle(), x, y], timeout=15_000)
    return x, y


class Link:
    """A phone's connection to the app, which a test cuts (every socket closed, new ones
    refused at once) and restores."""

    def __init__(self) -> None:
        self.open: list[WebSocketRoute] = []
        self.down = False
        self.connections = 0  # made through the link (a phone that came back made another)

    def opened(self, context: BrowserContext, url: str) -> Page:
        """A new page of `context` on `url` as a new device, connected through this link."""
        forget_site(context, "{0.scheme}://{0.netloc}".format(urlsplit(url)))
        return open_app(context, url, before_load=self.routed)

    def routed(self, page: Page) -> None:
        page.route_web_socket(re.compile(".*"), self.route)

    def route(self, socket: WebSocketRoute) -> None:
        if self.down:
            socket.close()
            return
        socket.connect_to_server()
        self.open.append(socket)
        self.connections += 1

    def cut(self) -> None:
        self.down = True
        for socket in self.open:
            socket.close()
        self.open.clear()

    def restore(self) -> None:
        self.down = False
