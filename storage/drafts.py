"""The rounds being entered (drafts): kept in memory at once, written to drafts.json just after.

A draft changes on every tap. Written with its fsyncs before the tap's handler returned, it
made every key wait for the disk before Flet could send the screen's answer (the answer of an
effect goes out once the event loop is free again). So `keep` only remembers the draft (every
session of this process reads the newest one from then on: `get`) and hands it to one writer
thread, which writes it after the answer is on its way. What this guarantees:

- A process killed right after a key loses at most that key: before a key's draft is taken,
  the one before it (same device and game) is on disk. `keep` waits for that write only when
  keys come faster than the disk; a player's keys are far slower.
- Only the newest draft per device and game is written; drafts of several games that come
  while a write is under way are written together, in one write.
- Going back, a reload, another tab or a closed session see the newest draft (from memory);
  `close` (and the end of the process) writes what is pending.
- A draft ended by saving its round (`end`) is not removed from the file by a write of its
  own: the round's write names the draft as ended (the game's ``drafts_ended``), so a draft
  written after it (a write that was under way), or left in the file by a kill, is known as
  ended when the data is opened again (`Store` drops it then) and is never shown. It leaves
  the file with the next write.

A write that fails (a full disk) keeps the draft in memory, says so at the next `keep`, and
is tried again with the next write.
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from collections.abc import Iterable
from typing import Any

from . import browser
from . import errors as err
from .documents import Documents
from .files import Access
from .trees import copied

logger = logging.getLogger(__name__)
Doc = dict[str, Any]


class DraftKeeper:
    """The drafts of one data folder: `get`, `keep`, `discard`, `end`; `settle` waits until
    the file holds what memory holds, `close` settles and stops the writer."""

    def __init__(self, table: Documents, access: Access, drafts: Iterable[tuple[str, Doc]]):
        self._table = table
        self._access = access
        self._cond = threading.Condition()
        self._view: dict[str, Doc] = dict(drafts)  # the newest draft of each key
        self._pending: dict[str, Doc | None] = {}  # to write (None: to remove)
        self._unwritten: dict[str, Doc | None] = {}  # a failed write's: with the next one
        self._writing: set[str] = set()  # the keys of the write under way
        self._leave: set[str] = set()  # ended drafts still in the file: out with the next write
        self._failure: err.StorageError | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._at_exit = False

    # --- what the app calls --------------------------------------------------------------

    def get(self, key: str) -> Doc | None:
        """The newest draft of `key`, written or not (a copy)."""
        with self._cond:
            found = self._view.get(key)
            return copied(found) if found is not None else None

    def keep(self, key: str, draft: Doc) -> None:
        """Remember `draft` as `key`'s newest and write it soon. Refused at once where nothing
        may be written (`OpenedReadOnly`: nothing kept); raises the failure of an earlier write
        (a full disk), once, after taking this draft."""
        self._access.check()
        kept = copied(draft)
        with self._cond:
            self._wait_written(key)
            failure, self._failure = self._failure, None
            self._view[key] = kept
            self._pending[key] = kept
            self._leave.discard(key)
            self._start()
            self._cond.notify_all()
        if failure is not None:
            raise failure

    def discard(self, key: str) -> None:
        """The player gave the draft up: gone from memory at once, from the file soon."""
        self._access.check()
        with self._cond:
            if key not in self._view:
                return
            self._wait_written(key)
            del self._view[key]
            self._pending[key] = None
            self._start()
            self._cond.notify_all()

    def end(self, key: str, draft_id: object) -> None:
        """The draft `draft_id` of `key` was saved (its round's write says it has ended):
        gone from memory, never written again; it leaves the file with the next write. A
        newer draft (another id) is left as it is."""
        with self._cond:
            found = self._view.get(key)
            if found is None or found.get("id") != draft_id:
                return
            del self._view[key]
            self._pending.pop(key, None)
            self._unwritten.pop(key, None)
            self._leave.add(key)
            self._cond.notify_all()

    def leave(self, keys: Iterable[str]) -> None:
        """Drafts found ended when the data was opened: not shown, out with the next write."""
        with self._cond:
            for key in keys:
                self._view.pop(key, None)
                self._leave.add(key)

    def settle(self) -> None:
        """Wait until every draft taken so far is written (or its write failed)."""
        with self._cond:
            while self._pending or self._writing:
                self._cond.wait()

    def close(self) -> None:
        """Write what is pending and stop the writer."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    # --- the writer ------------------------------------------------------------------------

    def _wait_written(self, key: str) -> None:
        """(Holding the lock.) Until the draft before this change of `key` is on disk."""
        while key in self._pending or key in self._writing:
            self._cond.wait()

    def _start(self) -> None:
        """(Holding the lock.) The writer, started on the first draft: never at import or
        when the data is opened (the tests' forks copy only the thread that forks)."""
        if not browser.THREADS:  # in a browser: written now (into memory; storage/browser.py)
            self._write_pending()
            return
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="drafts", daemon=True)
            self._thread.start()
            if not self._at_exit:
                self._at_exit = True
                atexit.register(_settle_at_exit, weakref.ref(self))

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return  # closed, and everything is written
            self._write_pending()

    def _write_pending(self) -> None:
        """One write of what is pending (the writer thread's, or the caller's in a browser)."""
        with self._cond:
            batch = {**self._unwritten, **self._pending}
            leave = self._leave - set(batch)
            self._pending, self._unwritten, self._leave = {}, {}, set()
            self._writing = set(batch)
        failure = self._write(batch, leave)
        with self._cond:
            self._writing = set()
            if failure is not None:
                self._failure = failure
                self._unwritten = {**batch, **self._unwritten}
                self._leave |= leave
            self._cond.notify_all()

    def _write(self, batch: dict[str, Doc | None], leave: set[str]) -> err.StorageError | None:
        """One write of the file: the drafts of `batch`, without those it removes and those
        ended. The failure, if it failed."""
        puts = {key: draft for key, draft in batch.items() if draft is not None}
        removed = [key for key, draft in batch.items() if draft is None] + sorted(leave)
        try:
            self._table.change_many(puts, removed)
        except err.StorageError as failure:
            return failure
        except Exception as error:  # never let the writer die: the keys would wait for ever
            logger.exception("a draft could not be written")
            return err.WriteFailed(folder=str(self._table.file.path.parent), reason=str(error))
        return None


def _settle_at_exit(keeper: weakref.ref[DraftKeeper]) -> None:
    """At the end of the process: the drafts taken are written (a kill loses the last key)."""
    found = keeper()
    if found is not None:
        found.close()
