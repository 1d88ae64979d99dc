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
def browser() -> Iterator[object]:
    from tools.browser import chromium

    with chromium() as opened:
        yield opened


@pytest.fixture
def app(tmp_path: Path) -> Iterator[object]:
    from tools.browser import AppServer

    server = AppServer(tmp_path / "data").start()
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
def page(browser: object, app: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """The app in a phone-sized page; on failure a screenshot goes to test-failures/."""
    from tools.browser import open_app

    opened = open_app(browser, app.url)  # type: ignore[arg-type, attr-defined]
    yield opened
    if getattr(request.node, "failed_call", False):
        FAILURE_SHOTS.mkdir(exist_ok=True)
        opened.screenshot(path=str(FAILURE_SHOTS / f"{request.node.name}.png"), full_page=True)
    opened.close()
