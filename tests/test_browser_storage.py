"""The data in a browser (storage/browser.py), as far as it runs outside one: messages to the
page wait, in order, for the writes before them to be kept; without threads, drafts and the
app's conveniences are written at once. (The site itself: tests/test_e2e_site.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from storage import Store, browser
from storage.errors import NotKeptInBrowser, OpenInAnotherTab


class SlowIndexedDB:
    """Stands in for `FS.syncfs`: each sync finishes only when the test lets it."""

    def __init__(self) -> None:
        self.started = 0
        self.gates: list[asyncio.Event] = []

    async def syncfs(self, populate: bool) -> None:
        self.started += 1
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()


@pytest.fixture
def indexeddb(monkeypatch: pytest.MonkeyPatch) -> SlowIndexedDB:
    fake = SlowIndexedDB()
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    monkeypatch.setattr(browser, "_syncfs", fake.syncfs)
    monkeypatch.setattr(browser, "_Syncs", browser.Syncs())
    return fake


def run(scenario: Coroutine[None, None, None]) -> None:
    """The scenario on an event loop of its own thread (a browser test's Playwright may be
    running one in this thread)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, scenario).result()


async def turns() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_message_after_a_write_waits_until_the_write_is_kept(indexeddb: SlowIndexedDB) -> None:
    async def scenario() -> None:
        sent: list[str] = []
        send = browser.sent_when_kept(sent.append)
        send("before any write")
        assert sent == ["before any write"]
        browser.changed()  # a round saved
        send("the round saved")
        send("and the screen after it")
        await turns()
        assert sent == ["before any write"]  # IndexedDB has not answered
        browser.changed()  # written while the first sync runs
        send("after the second write")
        indexeddb.gates[0].set()
        await turns()
        assert sent == ["before any write", "the round saved", "and the screen after it"]
        assert indexeddb.started == 2  # the second write gets a sync of its own
        indexeddb.gates[1].set()
        await turns()
        assert sent[-1] == "after the second write"
        send("nothing pending")
        assert sent[-1] == "nothing pending"

    run(scenario())


def test_a_failed_sync_does_not_stop_the_page_and_is_told_at_once(
    indexeddb: SlowIndexedDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser refuses to keep a change (its quota, its storage cleared): the page hears
    of it as soon as the sync fails, after what was held for it (the screen of the round
    saved), not at the next change (the site said "Deal 2 saved" and no more until then)."""

    async def failing(populate: bool) -> None:
        raise OSError("QuotaExceededError")

    monkeypatch.setattr(browser, "_syncfs", failing)
    told: list[NotKeptInBrowser] = []

    class Listener:
        def refused(self, error: NotKeptInBrowser) -> None:
            told.append(error)

    listener = Listener()
    browser.listen_refusals(listener.refused)

    async def scenario() -> None:
        sent: list[str] = []
        send = browser.sent_when_kept(sent.append)
        browser.changed()
        send("after the write")
        await turns()
        assert sent == ["after the write"]
        assert [error.params["reason"] for error in told] == ["QuotaExceededError"]
        monkeypatch.setattr(browser, "_syncfs", indexeddb.syncfs)
        browser.changed()  # told already: the next write is not refused, and is tried again
        await turns()
        assert indexeddb.started == 1
        assert len(told) == 1

    run(scenario())


def test_without_threads_a_draft_is_written_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser, "THREADS", False)
    store = Store.open(tmp_path)
    try:
        store.keep_draft("phone", "game-1", {"round": None, "entry": {}, "id": "draft-1"})
        assert '"draft-1"' in (tmp_path / "drafts.json").read_text()  # before any settle
        assert store._keeper._thread is None  # no writer thread was started
    finally:
        store.close()


def test_in_a_browser_the_tabs_lock_is_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each tab of the site has its files in its own memory: a lock file there would keep no
    other tab off (one tab holds the data by the browser's Web Locks, `Tab.holds_the_data`).
    The store makes none, and a tab that does not hold the data is refused; on a disk the lock
    file keeps a second app off the folder."""
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    store = Store.open(tmp_path / "tab")
    try:
        assert not (tmp_path / "tab" / "debrief.lock").exists()
    finally:
        store.close()
    monkeypatch.setattr(browser.Tab, "holds_the_data", False)
    with pytest.raises(OpenInAnotherTab):
        Store.open(tmp_path / "another tab")
    monkeypatch.setattr(browser, "IN_BROWSER", False)
    monkeypatch.setattr(browser.Tab, "holds_the_data", True)
    store = Store.open(tmp_path / "disk")
    try:
        assert (tmp_path / "disk" / "debrief.lock").exists()
    finally:
        store.close()


def test_the_app_says_at_once_that_the_browser_did_not_keep_a_change(
    screen_tables: Any, tmp_path: Path
) -> None:
    """The screen the player is on says it, in a note (in the site, the one tab's app)."""
    table = screen_tables(tmp_path / "data")
    screen = table.screen()
    table.call(browser.tell_refused, NotKeptInBrowser(reason="QuotaExceededError"))
    table.settle()
    assert screen.says_somewhere("the browser did not keep the last change"), screen.texts()
