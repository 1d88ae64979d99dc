"""The data folder in a browser (the static site: Python runs in the page, under Pyodide).

There is no disk there: Pyodide's files live in the page's memory and are gone with it. The data
folder is mounted on Emscripten's IDBFS, whose `FS.syncfs` copies the folder's changes into the
browser's IndexedDB in one transaction (all of them or none) and reads them back at the next
start (`mount`).

The guarantee the app gives on a disk holds here too: what the screen says is saved survives
closing the tab right after. Every write of the data ends in `files.sync_folder`, which here
asks for a sync (`changed`), and every message to the page waits until the writes made before
it are in IndexedDB (`sent_when_kept`): a screen that shows a saved round is sent only once the
round is kept. The page keeps its order; a sync of a few changed files takes milliseconds.

Threads cannot be started in Pyodide: `THREADS` tells the writers that would use one (drafts,
the app's conveniences) to write at once instead.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import errors as err

logger = logging.getLogger(__name__)

IN_BROWSER = sys.platform == "emscripten"
THREADS = not IN_BROWSER


@dataclass
class Syncs:
    """How many changes were asked to be kept, and how many are."""

    written: int = 0
    kept: int = 0
    running: asyncio.Task[None] | None = None
    waiting: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)


_Syncs = Syncs()


class Tab:
    """Whether this tab holds the data (`mount`): a second tab of the same site must not
    open it, as a second process may not on a disk (`Store` says so then)."""

    holds_the_data = True


async def mount(folder: Path) -> None:
    """The data folder on IndexedDB, with what it held at the last start (before the data is
    opened), if no other tab of this browser holds it (else `Tab.holds_the_data` is False:
    `mount_when_free`)."""
    Tab.holds_the_data = await _tab_lock(if_free=True)
    if Tab.holds_the_data:
        await _mounted(folder)


async def mount_when_free(folder: Path) -> None:
    """`mount`, once the tab that holds the data lets it go (closed: at once when it was
    closing as this one started)."""
    await _tab_lock(if_free=False)
    Tab.holds_the_data = True
    await _mounted(folder)


async def _mounted(folder: Path) -> None:
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    fs = pyodide_js.FS
    fs.mkdirTree(str(folder))
    fs.mount(fs.filesystems.IDBFS, to_js({}), str(folder))
    await _entries_readable(folder)
    await _syncfs(populate=True)


# Each entry of IDBFS's store as its `syncfs` can read it back: a file's entry with its bytes
# (`contents`, a typed array: Int8Array as MEMFS keeps them, or Uint8Array), a mode and a time
# (a Date: `syncfs` compares them with getTime). One without (an entry emptied, its bytes gone
# or of another type) made `FS.writeFile` throw inside `syncfs`, and the site never started:
# such a file comes back as an empty file (or its text, when the bytes are text), which the
# store then reads as damaged and keeps aside, as on a disk.
READABLE_ENTRIES = """async (name) => {
    const db = await new Promise((done) => {
        const asked = indexedDB.open(name);
        asked.onupgradeneeded = () => asked.transaction.abort();  // none yet: nothing to read
        asked.onsuccess = () => done(asked.result);
        asked.onerror = () => done(null);
    });
    if (db === null) return 0;
    if (!db.objectStoreNames.contains("FILE_DATA")) { db.close(); return 0; }
    const store = db.transaction("FILE_DATA", "readwrite").objectStore("FILE_DATA");
    const FILE = 0o100000, KIND = 0o170000, DIR = 0o040000;
    let mended = 0;
    await new Promise((done) => {
        const walking = store.openCursor();
        walking.onsuccess = () => {
            const cursor = walking.result;
            if (!cursor) return done();
            const entry = cursor.value;
            let good = entry !== null && typeof entry === "object"
                && typeof entry.mode === "number" && entry.timestamp instanceof Date;
            const kind = good ? entry.mode & KIND : 0;
            if (good && kind === FILE && !ArrayBuffer.isView(entry.contents)) good = false;
            if (good && kind !== FILE && kind !== DIR) good = false;
            if (!good) {
                const old = entry !== null && typeof entry === "object" ? entry.contents : null;
                const contents = typeof old === "string" ? new TextEncoder().encode(old)
                    : old instanceof ArrayBuffer ? new Uint8Array(old) : new Uint8Array(0);
                cursor.update({ timestamp: new Date(), mode: FILE | 0o644, contents });
                mended += 1;
            }
            cursor.continue();
        };
        walking.onerror = () => done();
    });
    db.close();
    return mended;
}"""


async def _entries_readable(folder: Path) -> None:
    """Mend what `syncfs` could not read back (`READABLE_ENTRIES`) before it reads."""
    from pyodide.code import run_js  # type: ignore[import-not-found]

    mended = await run_js(READABLE_ENTRIES)(str(folder))
    if mended:
        logger.warning("%s entries of the browser's storage could not be read back", mended)


def languages() -> list[str]:
    """The browser's languages, most preferred first."""
    import js  # type: ignore[import-not-found]

    return [str(language) for language in js.navigator.languages]


async def _tab_lock(if_free: bool) -> bool:
    """The browser's lock on the data (Web Locks), held for as long as this tab's Python
    runs: at once or not at all (`if_free`), or once the tab holding it lets it go. False
    when it is not free. Without Web Locks (plain HTTP): True."""
    import js
    from pyodide.ffi import create_once_callable, create_proxy, to_js

    locks = getattr(js.navigator, "locks", None)
    if locks is None:
        return True
    granted: asyncio.Future[bool] = asyncio.get_event_loop().create_future()

    def holding(lock: Any) -> Any:
        granted.set_result(bool(lock))  # a lock, or JavaScript's null (Pyodide's jsnull)
        return js.Promise.new(create_once_callable(lambda resolve, reject: None))  # never ends

    options = to_js({"ifAvailable": if_free}, dict_converter=js.Object.fromEntries)
    locks.request("debrief-data", options, create_proxy(holding))
    return await granted


def changed() -> None:
    """A write finished in the data folder: keep it in IndexedDB soon (before the next
    message to the page). When the browser refuses it (its quota, its storage cleared), the
    player hears of it at once (`tell_refused`), and the write is tried again with the next
    sync."""
    if not IN_BROWSER:
        return
    _Syncs.written += 1
    if _Syncs.running is None or _Syncs.running.done():
        _Syncs.running = asyncio.get_event_loop().create_task(_keep_all())


# Who says a refused change to the player (the app's state of each tab's session, held weakly:
# a closed session just goes).
_refusal_listeners: list[weakref.WeakMethod[Callable[[err.NotKeptInBrowser], None]]] = []


def listen_refusals(listener: Callable[[err.NotKeptInBrowser], None]) -> None:
    """Call `listener` (a bound method) whenever the browser refuses to keep a change."""
    _refusal_listeners[:] = [ref for ref in _refusal_listeners if ref() is not None]
    _refusal_listeners.append(weakref.WeakMethod(listener))


def tell_refused(error: err.NotKeptInBrowser) -> None:
    """The browser did not keep a change: every listener says so now."""
    for ref in list(_refusal_listeners):
        listener = ref()
        if listener is not None:
            try:
                listener(error)
            except Exception:  # one closed session must not keep the others from hearing
                logger.exception("a tab could not be told of a refused change")


async def kept() -> None:
    """Until every write so far is in IndexedDB."""
    target = _Syncs.written
    if _Syncs.kept >= target:
        return
    waiter: asyncio.Future[None] = asyncio.get_event_loop().create_future()
    _Syncs.waiting.append((target, waiter))
    await waiter


async def _keep_all() -> None:
    while _Syncs.kept < _Syncs.written:
        target = _Syncs.written
        try:
            await _syncfs(populate=False)
        except Exception as error:  # the quota, storage taken away: told at once
            logger.exception("the data could not be kept in the browser's storage")
            _release(target)  # the page goes on (what was held first); the next change tries
            tell_refused(err.NotKeptInBrowser(reason=str(error) or type(error).__name__))
            return
        _Syncs.kept = target
        _release(target)


def _release(target: int) -> None:
    still = []
    for wanted, waiter in _Syncs.waiting:
        if wanted <= target and not waiter.done():
            waiter.set_result(None)
        elif not waiter.done():
            still.append((wanted, waiter))
    _Syncs.waiting = still


async def _syncfs(populate: bool) -> None:
    import pyodide_js
    from pyodide.ffi import create_once_callable

    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()

    def finished(error: Any = None) -> None:
        if done.done():
            return
        if error:
            done.set_exception(OSError(str(error)))
        else:
            done.set_result(None)

    pyodide_js.FS.syncfs(populate, create_once_callable(finished))
    await done


def sent_when_kept(send: Callable[[Any], None]) -> Callable[[Any], None]:
    """`send` (a message to the page) held, in order, until the writes made before it are
    kept in IndexedDB."""
    queue: list[tuple[int, Any]] = []
    sender: list[asyncio.Task[None]] = []

    async def drain() -> None:
        while queue:
            wanted = queue[0][0]
            while _Syncs.kept < wanted and (_Syncs.running and not _Syncs.running.done()):
                await kept()
            while queue and queue[0][0] <= max(wanted, _Syncs.kept):
                send(queue.pop(0)[1])

    def held(message: Any) -> None:
        if not queue and _Syncs.kept >= _Syncs.written:
            send(message)
            return
        queue.append((_Syncs.written, message))
        if not sender or sender[0].done():
            sender[:] = [asyncio.get_event_loop().create_task(drain())]

    return held
