"""What a guest's phone downloads to join a shared table, counted from Chromium's network events.

    .venv/bin/python tools/join_weight.py

serves the app with a Black Spy game shared, joins it from a new phone (a browser with nothing
cached), then again from the same phone, then from a new phone on Chromium's "Fast 3G"
throttling, and prints one JSON line: the bytes each join took on the wire (HTTP responses with
their headers, and the websocket's messages) and how long the slow join took until the
scoreboard was drawn. docs/manual.md's figures come from here; tests/test_e2e_share.py checks the
byte targets.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Chromium DevTools' "Fast 3G" preset: 1.44 Mbit/s down, 675 kbit/s up, 562.5 ms round trips.
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.44 * 1_000_000 / 8,
    "uploadThroughput": 675 * 1_000 / 8,
}


class WireBytes:
    """Counts what a page receives on the wire from the moment it is made: every HTTP response
    (`encodedDataLength`: headers and body as sent, compressed) and every websocket message's
    payload. Make it before the page loads anything."""

    def __init__(self, page: Any, throttle: dict[str, Any] | None = None) -> None:
        self.http = 0
        self.websocket = 0
        self.responses: dict[str, int] = {}  # URL -> its bytes, to see what weighs
        self._urls: dict[str, str] = {}
        session = page.context.new_cdp_session(page)
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.loadingFinished", self._finished)
        session.on("Network.webSocketFrameReceived", self._frame)
        session.send("Network.enable")
        if throttle:
            session.send("Network.emulateNetworkConditions", throttle)

    @property
    def total(self) -> int:
        return self.http + self.websocket

    def _sent(self, event: dict[str, Any]) -> None:
        self._urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        length = int(event["encodedDataLength"])
        self.http += length
        self.responses[self._urls.get(event["requestId"], "?")] = length

    def _frame(self, event: dict[str, Any]) -> None:
        self.websocket += len(event["response"]["payloadData"])

    def heaviest(self, count: int = 5) -> list[tuple[str, int]]:
        return sorted(self.responses.items(), key=lambda item: -item[1])[:count]


def join(context: Any, link: str, throttle: dict[str, Any] | None = None) -> tuple[Any, WireBytes]:
    """A page of `context` that joins the table at `link` and waits for its scoreboard."""
    from tools.browser import WATCH_SERVER, accessible

    page = context.new_page()
    counted = WireBytes(page, throttle)
    page.add_init_script(WATCH_SERVER)
    page.goto(link, timeout=300_000)
    accessible(page)
    page.get_by_text("Scoresheet").first.wait_for(timeout=300_000)
    return page, counted


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.ui import seat_table
    from tools.browser import PHONE, AppServer, launch, open_app

    folder = Path(tempfile.mkdtemp()) / "data"
    seat_table(folder, "black-spy", ["Anna", "Ben", "Carla", "Dirk"])
    server = AppServer(folder, args=["--share"]).start()
    try:
        link = server.printed("Guests open:")
        with sync_playwright() as driver:
            browser = launch(driver)
            open_app(browser, server.url)  # the host opens the game the guests see
            phone = browser.new_context(viewport=PHONE)
            first_page, first = join(phone, link)
            first_page.close()
            _, second = join(phone, link)
            slow_phone = browser.new_context(viewport=PHONE)
            started = time.monotonic()
            _, slow = join(slow_phone, link, FAST_3G)
            slow_seconds = time.monotonic() - started
            browser.close()
    finally:
        server.stop()
    print(
        json.dumps(
            {
                "first_join_bytes": first.total,
                "second_join_bytes": second.total,
                "fast_3g_join_seconds": round(slow_seconds, 1),
                "fast_3g_join_bytes": slow.total,
                "heaviest": first.heaviest(),
            }
        )
    )


if __name__ == "__main__":
    main()
