"""Emoji in players' names drawn at a table with no internet, in Chromium with every
other host cut off.

Roboto has no emoji; Flutter fetches the piece of Noto Color Emoji that a name on screen needs
from the app's own server, once it meets a character it cannot draw: a table whose names have
emoji loads that piece (and draws the emoji in colour, not as empty boxes); one whose names have
none loads no piece at all.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import flet_web
import pytest
from fontTools.ttLib import TTFont
from playwright.sync_api import Browser, BrowserContext, FloatRect, Page, Response, Route

from storage import Store
from tools.browser import WATCH_SERVER, AppServer, accessible, painted, see, tap, type_text
from tools.emoji_font import client_fallbacks

pytestmark = pytest.mark.e2e

SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
KIM = "\U0001f469\u200d\U0001f4bb Kim"  # 👩‍💻: woman, zero-width joiner, laptop
MO = "\u2764\ufe0f Mo"  # ❤️
EMOJI_PATH = "/assets/fonts/notocoloremoji/"
LOCAL = {"127.0.0.1", "localhost"}

# Pixels of a colour no part of the app's theme has (lowest and highest red, green, blue): the
# heart's red, the saltire's blue.
RED = (181, 255, 0, 89, 0, 89)
SALTIRE_BLUE = (0, 39, 61, 149, 151, 255)
COUNT_PIXELS = """async ([png, [r0, r1, g0, g1, b0, b1]]) => {
    const image = new Image();
    image.src = "data:image/png;base64," + png;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (r >= r0 && r <= r1 && g >= g0 && g <= g1 && b >= b0 && b <= b1) count++;
    }
    return count;
}"""


class Fonts:
    """Every font file the page asked this server for, with the answer's status; and every
    request to another host, which never left the browser (the table has no internet)."""

    def __init__(self) -> None:
        self.answers: dict[str, int] = {}
        self.elsewhere: list[str] = []

    def route(self, route: Route) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL:
            self.elsewhere.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    def response(self, response: Response) -> None:
        path = urlsplit(response.url).path
        if path.startswith("/assets/fonts/"):
            self.answers[path.removeprefix("/assets/fonts/")] = response.status

    def emoji(self) -> dict[str, int]:
        return {path: status for path, status in self.answers.items() if "notocoloremoji/" in path}


@pytest.fixture
def offline(browser: Browser) -> Iterator[tuple[BrowserContext, Fonts]]:
    fonts = Fonts()
    context = browser.new_context(viewport={"width": 400, "height": 800})
    context.route("**/*", fonts.route)
    context.on("response", fonts.response)
    try:
        yield context, fonts
    finally:
        context.close()


def table_with(tmp_path: Path, names: list[str]) -> tuple[AppServer, str]:
    """The app serving a data folder with `names` on the roster and at a game of SPY; and the
    game's id."""
    store = Store.open(tmp_path / "data")
    try:
        for name in names:
            store.add_player(name)
        game = store.create_game("spy", [{"name": name} for name in names], {})
    finally:
        store.close()
    return AppServer(tmp_path / "data").start(), game["meta"]["id"]


def open_table(context: BrowserContext, server: AppServer, game: str) -> Page:
    page = context.new_page()
    page.add_init_script(WATCH_SERVER)
    page.goto(f"{server.origin}/game/{game}?key={server.secret}")
    accessible(page)
    return page


def pixels(page: Page, colour: tuple[int, ...], clip: FloatRect | None = None) -> int:
    """How many pixels of the page (or of `clip`) are of `colour`."""
    painted(page)
    png = base64.b64encode(page.screenshot(clip=clip)).decode()
    return int(page.evaluate(COUNT_PIXELS, [png, list(colour)]))


def until(
    page: Page, check: Callable[[], bool], what: Callable[[], object], timeout: float = 20.0
) -> None:
    """Wait until `check()` is true (fonts arrive, then Flutter lays the text out again); if
    it is not within `timeout` seconds, fail saying `what()`. The page's events are taken in
    while Playwright waits (not during a sleep)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what()}")
        page.wait_for_timeout(200)


def piece_paths(text: str) -> set[str]:
    """The emoji pieces the client fetches for `text` (for the characters Roboto lacks)."""
    roboto = TTFont(Path(flet_web.__file__).parent / "web" / "assets/fonts/roboto.woff2")
    lacking = {ord(c) for c in text if ord(c) >= 160} - set(roboto.getBestCmap())
    return {font.path for font in client_fallbacks().chosen(lacking)}


def test_emoji_names_fetch_their_piece_offline_and_draw_in_colour(
    tmp_path: Path, offline: tuple[BrowserContext, Fonts]
) -> None:
    context, fonts = offline
    server, game = table_with(tmp_path, [KIM, MO, "Anna"])
    try:
        page = open_table(context, server, game)
        see(page, "Kim")
        wanted = piece_paths(KIM + MO)  # one piece has 👩, 💻 and ❤: the client fetches it alone
        assert len(wanted) == 1
        until(page, lambda: set(fonts.emoji()) >= wanted, lambda: fonts.answers)
        assert fonts.emoji() == dict.fromkeys(wanted, 200)
        until(page, lambda: pixels(page, RED) > 20, lambda: "the heart is not red")

        # The flag (a black flag and six tag characters) typed as a new player's name: its
        # piece is the only one with tag characters.
        tap(page, "Back")
        tap(page, "Players")
        field = page.get_by_role("textbox", name="Name", exact=True).first
        field.wait_for(state="visible", timeout=15_000)
        box = field.bounding_box()
        assert box is not None
        assert pixels(page, SALTIRE_BLUE, box) == 0
        type_text(page, "Name", f"{SCOTLAND} Ailsa")
        flag = piece_paths(SCOTLAND)
        assert len(flag) == 1 and not flag & wanted
        until(page, lambda: set(fonts.emoji()) >= wanted | flag, lambda: fonts.answers)
        assert fonts.emoji() == dict.fromkeys(wanted | flag, 200)
        until(page, lambda: pixels(page, SALTIRE_BLUE, box) > 10, lambda: "no saltire")
    finally:
        server.stop()
    assert fonts.elsewhere == []


def test_a_table_without_emoji_fetches_no_emoji_font(
    tmp_path: Path, offline: tuple[BrowserContext, Fonts]
) -> None:
    context, fonts = offline
    server, game = table_with(tmp_path, ["Anna", "Ben", "Carla"])
    try:
        page = open_table(context, server, game)
        see(page, "Anna")
        tap(page, "Back")
        tap(page, "Players")
        see(page, "Carla")
        page.wait_for_timeout(2000)  # a fallback font is fetched a frame after it is missed
        painted(page)
    finally:
        server.stop()
    assert "roboto.woff2" in fonts.answers  # fonts are watched
    assert fonts.emoji() == {}
    assert fonts.elsewhere == []
