"""The phone the browser tests play on starts each test as a new device: its page is used
again from one test to the next (tests/conftest.py), but nothing the test before stored in
the browser is left, and the app loads anew on it."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import open_on_phone, put_away
from traffic import Traffic

from tools.browser import see

pytestmark = pytest.mark.e2e

LEFT = """() => [localStorage.getItem("left"), sessionStorage.getItem("left"),
    document.cookie.includes("left=1"), !!window.leftOver]"""
SESSION = "() => sessionStorage.getItem('_flet_session_id')"  # Flet's client keeps it there


def test_the_next_test_gets_the_page_as_a_new_device(
    phone: Any, app: Any, request: pytest.FixtureRequest
) -> None:
    first = open_on_phone(phone, app)
    session = first.evaluate(SESSION)
    assert session
    first.evaluate(
        """() => { localStorage.setItem("left", "1"); sessionStorage.setItem("left", "1");
        document.cookie = "left=1"; window.leftOver = true; }"""
    )
    put_away(first, request)
    # Not drawing the app between two tests, but on its site: Chromium keeps the renderer.
    assert first.url == f"{app.origin}/favicon.png"
    second = open_on_phone(phone, app)
    assert second is first  # the same page, loaded anew
    see(second, "New game")
    assert second.evaluate(LEFT) == [None, None, False, False]
    assert second.evaluate(SESSION) not in (None, session)  # a session of its own
    put_away(second, request)


def test_a_load_asks_nothing_that_the_server_refuses(
    phone: Any, app: Any, request: pytest.FixtureRequest
) -> None:
    """Everything the page asks for is answered, the app's manifest too (the browser reads it
    as the page loads): a manifest is asked for without cookies unless its link says
    otherwise, and the guard refuses a request without the launch secret's cookie."""
    traffic = Traffic().watch(phone)
    try:
        with phone.expect_event("response", predicate=is_manifest, timeout=15_000) as manifest:
            page = open_on_phone(phone, app)
        see(page, "New game")
    finally:
        traffic.unwatch(phone)
    assert manifest.value.status == 200, manifest.value.status
    assert traffic.refused == [], traffic.refused
    put_away(page, request)


def is_manifest(response: Any) -> bool:
    return bool(response.url.endswith("/manifest.json"))
