"""Drive the app in a real browser: the app served in web mode, headless Chromium, Playwright.

Used by the end-to-end tests and by tools/screenshots.py. Flutter draws on a canvas; the
accessibility tree (turned on by clicking its hidden placeholder) exposes every control by
role and name, which is how the tests find buttons and read texts.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
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
    """`python main.py --web` on a free port with its own data folder and launch secret.

    `url` is the link the app prints (it carries the secret); `env` adds to or, with None
    values, removes from the server's environment; `web=False` starts it as `python main.py`.
    """

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        secret: str | None = None,
        env: dict[str, str | None] | None = None,
        web: bool = True,
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.secret = secret or secrets.token_urlsafe(24)
        self.extra_env = env or {}
        self.web = web
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?key={self.secret}"

    @property
    def log(self) -> Path:
        return self.data_dir.parent / f"server-{self.port}.log"

    def start(self) -> AppServer:
        env = {**os.environ, "DEBRIEF_DATA_DIR": str(self.data_dir), "LANG": "en_US.UTF-8"}
        env["DEBRIEF_SECRET"] = self.secret
        for name, value in self.extra_env.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log, "ab")  # noqa: SIM115
        command = [sys.executable, "main.py", *(["--web"] if self.web else [])]
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port), "--no-browser"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app ended at start:\n{self.log.read_text()}")
            if self._answers():
                return self
            time.sleep(0.3)
        raise RuntimeError(f"the app did not start on {self.origin}:\n{self.log.read_text()}")

    def _answers(self) -> bool:
        """Whether the server answers HTTP on its port (any answer: the guard may refuse)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/")
            return connection.getresponse().status < 500
        except OSError:
            return False
        finally:
            connection.close()

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
