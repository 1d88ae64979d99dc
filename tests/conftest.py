"""Fixtures for the browser tests: the app served from a temporary data folder, and Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def playwright() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def devices(playwright: object) -> Iterator[object]:
    from tools.browser import launch

    opened = launch(playwright)  # type: ignore[arg-type]
    yield opened
    opened.close()


@pytest.fixture
def browser(devices: object) -> Iterator[object]:
    """Chromium: each of its `new_context`s is another device. The devices a test opened are
    closed after it: a page left open keeps drawing, and took the CPU from every later test."""
    yield devices
    for context in devices.contexts:  # type: ignore[attr-defined]
        context.close()


@pytest.fixture(scope="session")
def phone(playwright: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The phone most tests play on: one Chromium profile kept for the whole session (each test
    still gets a fresh page with nothing stored, see `page`). Flet's web client is 17 MB of
    JavaScript and WebAssembly; kept in this profile's cache, the next test's page loads it
    compiled instead of compiling it again (about 2.5 s of CPU less per test)."""
    from tools.browser import launch_phone

    context = launch_phone(playwright, tmp_path_factory.mktemp("phone-profile"))  # type: ignore[arg-type]
    yield context
    context.close()


@pytest.fixture(scope="session")
def app_port() -> list[int]:
    """The port this test process serves the app on, test after test: the browser's cache is
    kept per address, port included. A list, so that `app` can move it when it is taken."""
    from tools.browser import free_port

    return [free_port()]


@pytest.fixture
def app(tmp_path: Path, app_port: list[int]) -> Iterator[object]:
    from tools.browser import AppServer, PortTaken, free_port

    try:
        server = AppServer(tmp_path / "data", port=app_port[0]).start()
    except PortTaken:  # another program took it between two tests: move on (a cache miss)
        app_port[0] = free_port()
        server = AppServer(tmp_path / "data", port=app_port[0]).start()
    yield server
    server.stop()


FAILURE_SHOTS = Path(__file__).resolve().parent.parent / "test-failures"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.failed_call = report.failed  # type: ignore[attr-defined]


@pytest.fixture
def page(phone: object, app: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """The app in a phone-sized page, on a phone with nothing stored (as a new device); on
    failure a screenshot goes to test-failures/."""
    from tools.browser import forget_site, open_app

    forget_site(phone, app.origin)  # type: ignore[arg-type, attr-defined]
    opened = open_app(phone, app.url)  # type: ignore[arg-type, attr-defined]
    yield opened
    if getattr(request.node, "failed_call", False):
        FAILURE_SHOTS.mkdir(exist_ok=True)
        opened.screenshot(path=str(FAILURE_SHOTS / f"{request.node.name}.png"), full_page=True)
    for left in opened.context.pages:  # the test's page and any tab it opened beside it
        left.close()
    opened.context.clear_permissions()
