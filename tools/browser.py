"""Drive the app in a real browser: the app served in web mode, headless Chromium, Playwright.

Used by the end-to-end tests and by tools/screenshots.py. Flutter draws on a canvas; the
accessibility tree (turned on by clicking its hidden placeholder) exposes every control by
role and name, which is how the tests find buttons and read texts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 400, "height": 800}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # CanvasKit needs WebGL; without a GPU, SwiftShader renders it (screenshots are not blank).
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AppServer:
    """`python main.py --web` on a free port with its own data folder."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> AppServer:
        env = {
            **os.environ,
            "DEBRIEF_DATA_DIR": str(self.data_dir),
            "FLET_FORCE_WEB_SERVER": "1",
            "LANG": "en_US.UTF-8",
        }
        log = open(self.data_dir.parent / f"server-{self.port}.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "main.py", "--web", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url, timeout=2) as answer,
            ):
                if answer.status == 200:
                    return self
            time.sleep(0.3)
        raise RuntimeError(f"the app did not start on {self.url}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def open_app(browser: Browser, url: str, size: dict[str, int] = PHONE) -> Page:
    """A new page on the app, with Flutter's accessibility tree turned on."""
    page = browser.new_page(viewport=size)
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    page.wait_for_selector("flt-semantics", state="attached", timeout=30_000)
    page.evaluate(WATCH_CHANGES)
    return page


# --- actions that wait for the app (every step is a round trip to the Python server) ---------


QUIET_MS = 150  # no change to the page for this long: the redraw has landed
WATCH_CHANGES = """() => {
    if (window.__debriefWatching) return;
    window.__debriefWatching = true;
    window.__lastChange = performance.now();
    new MutationObserver(() => { window.__lastChange = performance.now(); })
        .observe(document.body, {subtree: true, childList: true, attributes: true,
                                 characterData: true});
}"""


def settle(page: Page) -> None:
    """Wait until the redraw from the previous action has landed: a tap on a node that is being
    replaced is lost (Flutter rebuilds its accessibility nodes on every redraw). The answer of
    the Python server takes a moment to arrive, hence the first short wait."""
    page.evaluate(WATCH_CHANGES)
    page.wait_for_timeout(60)
    page.wait_for_function(
        f"() => performance.now() - window.__lastChange > {QUIET_MS}", polling=30, timeout=15_000
    )


def tap(page: Page, name: str, role: str = "button", timeout: float = 15_000) -> None:
    """Tap the control with this accessible name, once it is there and enabled."""
    settle(page)
    target = page.get_by_role(role, name=name, exact=True).first  # type: ignore[arg-type]
    target.wait_for(state="visible", timeout=timeout)
    target.click(timeout=timeout)


def type_text(page: Page, field: str, text: str, submit: bool = False) -> None:
    """Type into the text field labelled `field` (Flutter creates the input when focused)."""
    box = page.get_by_role("textbox", name=field, exact=True).first
    box.wait_for(state="visible", timeout=15_000)
    settle(page)  # a pending redraw or refocus would swallow what is typed
    for attempt in range(4):  # the first tap on a fresh page may be taken before Flutter is ready
        box.click()
        try:
            page.wait_for_function(
                "() => document.activeElement && "
                "['INPUT', 'TEXTAREA'].includes(document.activeElement.tagName)",
                timeout=5_000,
            )
            break
        except PlaywrightTimeout:
            if attempt == 3:
                raise
            settle(page)
    box.fill(text)
    if submit:
        page.keyboard.press("Enter")


def see(page: Page, text: str, timeout: float = 15_000) -> None:
    """Wait until `text` is shown (in any control's accessible text)."""
    page.get_by_text(text, exact=False).first.wait_for(state="attached", timeout=timeout)


def shot(page: Page, path: Path | str, full: bool = False) -> None:
    page.wait_for_timeout(400)  # let animations settle
    page.screenshot(path=str(path), full_page=full)
