"""The browser tests' waits end: a page that stops drawing, or whose script never returns,
fails the test within the wait's timeout instead of holding its worker for good (a full run
once hung for half an hour in `painted`, waiting on a promise that had no timeout); and the
frame pacing that DEBRIEF_TEST_FPS turns on draws at the rate asked, and the app's animations
run as much faster as the tests ask."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from tools import browser
from tools.browser import end_busy_renderers, painted, settled

pytestmark = pytest.mark.e2e

BLANK = "data:text/html,<p>a page</p>"


@pytest.fixture
def blank(phone: Any) -> Iterator[Any]:
    page = phone.new_page()
    page.goto(BLANK)
    yield page
    page.close()


def fails_within(wait: Callable[[], None], seconds: float, says: str) -> None:
    started = time.monotonic()
    with pytest.raises(AssertionError, match=says):
        wait()
    assert time.monotonic() - started < seconds


def test_painted_returns_on_a_page_that_draws(blank: Any) -> None:
    painted(blank, timeout=5_000)
    settled(blank, timeout=5_000)


def test_a_page_that_draws_no_frame_fails_the_wait(blank: Any) -> None:
    blank.evaluate("() => { window.requestAnimationFrame = () => 0; }")
    fails_within(lambda: painted(blank, timeout=1_000), 10, "drew no frame in 1 s")


def test_a_page_whose_script_never_returns_fails_the_wait(blank: Any) -> None:
    blank.evaluate("() => { setTimeout(() => { for (;;) {} }, 0); }")
    fails_within(lambda: painted(blank, timeout=1_000), 10, "drew no frame in 1 s")


def test_a_screen_that_never_stops_changing_fails_the_wait(blank: Any) -> None:
    blank.evaluate(
        "() => { const step = () => { document.body.dataset.frame = Date.now();"
        " requestAnimationFrame(step); }; step(); }"
    )
    fails_within(lambda: settled(blank, timeout=1_000), 10, "kept changing for 1 s")


# Draws on a canvas for `ms` milliseconds, as Flutter animates: a frame asked for after each,
# and nothing changed in the page's elements (Flutter changes its accessibility tree only
# when the animation is done, e.g. moving a text field's element after a name was added).
CANVAS_ANIMATION = """ms => {
    const canvas = document.body.appendChild(document.createElement("canvas"));
    const started = performance.now();
    window.animating = true;
    const step = (now) => {
        canvas.getContext("2d").fillRect(0, 0, (now - started) % 100, 10);
        if (now - started < ms) requestAnimationFrame(step);
        else window.animating = false;
    };
    requestAnimationFrame(step);
}"""


@pytest.fixture
def app_like(phone: Any) -> Iterator[Any]:
    """A blank page that watches its frames as the app's pages do (`WATCH_SERVER`)."""
    page = phone.new_page()
    page.add_init_script(browser.WATCH_SERVER)
    page.goto(BLANK)
    yield page
    page.close()


def test_the_screen_is_settled_only_once_an_animation_on_the_canvas_has_ended(
    app_like: Any,
) -> None:
    """Flutter draws its animations on a canvas: the page's elements stay as they are while a
    new player's chip and row animate in, so a screen was taken as still and the name field
    tapped just before Flutter moved it, which lost the name typed (a full run failed so,
    typing "New player")."""
    app_like.evaluate(CANVAS_ANIMATION, 600)
    settled(app_like, timeout=5_000)
    assert app_like.evaluate("window.animating") is False


def test_an_animation_that_never_ends_fails_the_wait(app_like: Any) -> None:
    app_like.evaluate(CANVAS_ANIMATION, 60_000)
    fails_within(lambda: settled(app_like, timeout=1_000), 10, "kept changing for 1 s")


def test_paced_frames_draw_at_the_rate_asked_and_cancel_as_asked(phone: Any) -> None:
    """DEBRIEF_TEST_FPS slows the app's frames (tools/browser.PACED_FRAMES): at 10 a second,
    eleven frames asked for one after another take more than a second from the first ask, not
    the 0.18 s of the display's 60, and a cancelled frame callback does not run.

    Each paced frame runs at or after a tick of a 100 ms clock, each at a later tick than the
    one before, so the eleventh runs ten ticks after the first tick that follows the first
    ask: load can only make it later. The test waits for the frames, not for a timer (a
    one-second timer fired late under load and counted 13 frames), and times from the ask,
    not from the first frame (which load can delay past its tick, bringing the next one
    closer: 713 ms from the first frame to the eleventh in a CI run)."""
    page = phone.new_page()
    try:
        page.add_init_script(f"{browser.PACED_FRAMES}(10)")
        page.goto(BLANK)
        span_ms, cancelled_ran = page.evaluate(
            """() => new Promise(done => {
                let cancelledRan = false, frames = 0;
                const id = requestAnimationFrame(() => { cancelledRan = true; });
                cancelAnimationFrame(id);
                const asked = performance.now();
                const count = () => {
                    frames += 1;
                    if (frames < 11) requestAnimationFrame(count);
                    else done([performance.now() - asked, cancelledRan]);
                };
                requestAnimationFrame(count);
            })"""
        )
    finally:
        page.close()
    assert span_ms >= 990, span_ms  # eleven ticks; a little less for a timer's rounding
    assert not cancelled_ran


def test_animations_run_as_much_faster_as_asked_and_their_clock_only_goes_forward(
    phone: Any,
) -> None:
    """The browser tests run Flutter's animations faster (tools/browser.TIME_LAPSE); at ten times:
    an animation timed at one second by its frames' clock is over in a tenth of it, drawn in
    a few frames instead of sixty; the clock it is given never goes back."""
    page = phone.new_page()
    try:
        page.add_init_script(f"{browser.TIME_LAPSE}(10)")
        page.goto(BLANK)
        frames, forward = page.evaluate(
            """() => new Promise(done => {
                let first = null, last = -Infinity, frames = 0, forward = true;
                const step = (time) => {
                    frames += 1;
                    forward = forward && time >= last;
                    last = time;
                    if (first === null) first = time;
                    if (time - first < 1000) return requestAnimationFrame(step);
                    done([frames, forward]);
                };
                requestAnimationFrame(step);
            })"""
        )
    finally:
        page.close()
    assert frames <= 15, frames  # at 60 a second: about 7, not 60 (a loaded page draws fewer)
    assert forward


def test_a_page_whose_main_thread_never_returns_is_ended_by_the_watchdog(
    browser: Browser,
) -> None:
    """A page busy in a loop that never returns takes Playwright's timeouts with it (their
    clean-up waits on the page): the watchdog of every browser test ends its renderers, and
    the test fails instead of holding its worker for ever (seen once: a Save whose page
    stayed busy for minutes)."""
    page = browser.new_page()
    page.goto("about:blank")
    watchdog = threading.Timer(0.5, end_busy_renderers, args=(os.getpid(),))
    watchdog.start()
    try:
        with pytest.raises(PlaywrightError, match=r"crash|closed"):
            page.evaluate("() => { while (true) {} }")
    finally:
        watchdog.cancel()


def test_a_failed_test_whose_page_never_draws_again_leaves_the_next_test_a_page_that_does(
    phone: Any,
) -> None:
    """A failed test's page whose main thread stays busy (a fresh-clone run: a Spywhere Save
    froze its page for minutes) is ended with that failure: its screenshot is given up, and
    the next test's page of the same site (the same renderer process, when it is left
    running) loads. Before, that next test waited for the worker's hang guard, six minutes."""
    from conftest import SHOT_TIMEOUT_MS, put_away

    page = phone.new_page()
    page.goto(BLANK)
    page.evaluate("() => { setTimeout(() => { for (;;) {} }, 0); }")
    failed = type("Node", (), {"failed_call": True, "name": "a_frozen_page"})()
    started = time.monotonic()
    put_away(page, type("Request", (), {"node": failed})())
    assert time.monotonic() - started < SHOT_TIMEOUT_MS / 1000 + 10
    assert page.is_closed()
    after = phone.new_page()
    after.goto(BLANK)
    assert after.evaluate("() => 1 + 1") == 2
    after.close()
