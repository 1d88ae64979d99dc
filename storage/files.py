"""Crash-safe JSON files: every write is atomic and durable, and a damaged file is kept aside.

TinyDB's own JSONStorage rewrites its file in place, so a crash mid-write can leave a broken
file (msiemens/tinydb #301, #461). `AtomicStorage` writes a temporary file in the same folder,
flushes and fsyncs it, renames it over the old one with `os.replace` (atomic on POSIX and
Windows), then fsyncs the folder so the rename itself survives a power cut. A process killed
at any instant leaves either the old or the new file. Several files written as one change
(`folder_syncs_deferred`: a round and its undo step) each get their own fsync before their
rename, and their folder one fsync at the end, before the change is reported done.

It also keeps the last written data in memory (write-through, never write-behind): TinyDB reads
the whole file for every query, and this process is the only writer (storage holds a lock).

A data file may be a link (the user keeps it somewhere else): it is followed, so the write lands
atomically on the ordinary file the link leads to (the temporary file beside that file) and the
link stays a link. Only a link that led to an ordinary file when the data was opened, and still
leads to the same one, is written through: never a link to nothing, to a folder or to a special
file (`file_problem`), nor one changed while the data is open (`LinkChanged`).

In a read-only folder nothing is moved aside or written: what cannot be read stays where it is
and is left out in memory, and the data is not written until it is opened again (`Access`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import glob
import json
import logging
import math
import os
import stat
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from scoring.errors import N_, Term

from . import browser
from . import errors as err

logger = logging.getLogger(__name__)
TEMP_MARK = ".tmp-"
Tables = dict[str, dict[str, Any]]


DISK_FULL = {errno.ENOSPC, errno.EDQUOT}
READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text` (or bytes) so that a crash leaves the old or the new content.

    A link at `path` is never written through (`LinkChanged`): a data file that is a link is
    written where it leads (`AtomicStorage.write`). A failed write leaves the old content and
    raises a `StorageError` that says what to do (`DiskFull`, `DataReadOnly`, `WriteFailed`).
    """
    if path.is_symlink():
        raise err.LinkChanged(file=str(path), target=_link_text(path))
    temp = path.with_name(f"{path.name}{TEMP_MARK}{os.getpid()}")
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(error, OSError):
            raise write_failure(error, path.parent) from error
        raise
    deferred: set[Path] | None = getattr(_deferred, "folders", None)
    if deferred is None:
        sync_folder(path.parent)
    else:
        deferred.add(path.parent)


# The folders whose renames this thread has not made durable yet (`folder_syncs_deferred`).
_deferred = threading.local()


@contextlib.contextmanager
def folder_syncs_deferred() -> Iterator[None]:
    """Writes in this thread (one change of several files) sync their folders once, at the
    end (or at `sync_deferred_folders`), not after each rename: each file is still written
    whole and fsynced before its rename, so a power cut leaves each file old or new; which
    of them are new is settled by the one fsync of their folder, before the change is told
    done. A rename another write depends on (a journal) is synced at once with
    `sync_deferred_folders`. Nested: the outermost one syncs."""
    if getattr(_deferred, "folders", None) is not None:
        yield
        return
    _deferred.folders = set()
    try:
        yield
    finally:
        try:
            sync_deferred_folders()
        finally:
            _deferred.folders = None


def sync_deferred_folders() -> None:
    """Make the renames this thread deferred durable now (a no-op outside
    `folder_syncs_deferred`)."""
    folders: set[Path] | None = getattr(_deferred, "folders", None)
    while folders:
        folder = folders.pop()
        try:
            sync_folder(folder)
        except OSError as error:
            raise write_failure(error, folder) from error


def landing(path: Path) -> Path:
    """Where the data of `path` is: `path` itself, or the ordinary file the link at `path`
    leads to. Raises `LinkBroken` for a link that leads to nothing or to something else."""
    if not path.is_symlink():
        return path
    try:
        if file_problem(path) is None:
            return path.resolve(strict=True)
    except (OSError, RuntimeError):  # changed meanwhile, or a loop
        pass
    raise err.LinkBroken(file=str(path), target=_link_text(path))


def _link_text(path: Path) -> str:
    try:
        return str(path.readlink())
    except OSError:
        return "?"


def file_problem(path: Path) -> str | None:
    """Why `path` cannot be a data file, found without opening it (None: it is an ordinary file,
    a link to one, or nothing yet). A folder or a special file is never opened: reading a FIFO
    would wait for ever."""
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(mode):
        try:
            mode = path.stat().st_mode
        except OSError:  # leads to nothing (or to itself)
            return N_("it is a link to something that does not exist")
        if stat.S_ISDIR(mode):
            return N_("it is a link to a folder, not to a file")
        if not stat.S_ISREG(mode):
            return N_("it is a link to something that is not an ordinary file")
        return None
    if stat.S_ISDIR(mode):
        return N_("it is a folder, not a file")
    if not stat.S_ISREG(mode):
        return N_("it is not an ordinary file")
    return None


def folder_problem(path: Path) -> str | None:
    """Why `path` cannot be one of the data's folders (None: it is a folder, a link to one, or
    nothing yet)."""
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(mode):
        try:
            mode = path.stat().st_mode
        except OSError:
            return N_("it is a link to something that does not exist")
        if stat.S_ISDIR(mode):
            return None
        if stat.S_ISREG(mode):
            return N_("it is a link to a file, not to a folder")
        return N_("it is a link to something that is not a folder")
    if stat.S_ISDIR(mode):
        return None
    if stat.S_ISREG(mode):
        return N_("it is a file, not a folder")
    return N_("it is not a folder")


class Access:
    """Whether a store's data may be written; shared by the store and each of its files.

    Once the folder is found read-only while its data is opened or set right (the lock cannot
    be made, a damaged file cannot be renamed aside, a repair cannot be written), it stays so
    for as long as the data is open: what setting right changes (a damaged file or parts of
    one left out, the list of finished games made again) is then done in memory only, and
    every change is refused (`OpenedReadOnly`), even once the folder is writable again. A
    change saved then would write over a damaged file left where it is, drop the parts of a
    file that were left out, or keep half of what was set right in memory.
    """

    def __init__(self, folder: Path, on_read_only: Callable[[], None] = lambda: None) -> None:
        self.folder = folder
        self.read_only = False
        self._on_read_only = on_read_only
        self._repairing = 0

    def found_read_only(self) -> None:
        """Nothing can be written in the folder: from now on, until the data is opened again."""
        if not self.read_only:
            self.read_only = True
            self._on_read_only()

    @contextlib.contextmanager
    def repairing(self) -> Iterator[None]:
        """What the data is set right with (opening it, reading an archive file the first time,
        a check): written in memory only where the folder is read-only."""
        self._repairing += 1
        try:
            yield
        finally:
            self._repairing -= 1

    @property
    def repairing_now(self) -> bool:
        """Whether the data is being set right (a write then goes to memory where the folder
        is read-only)."""
        return self._repairing > 0

    def refusal(self) -> err.OpenedReadOnly:
        return err.OpenedReadOnly(folder=str(self.folder))

    def check(self) -> None:
        """Refuse a change (`OpenedReadOnly`) once the folder was found read-only."""
        if self.read_only:
            raise self.refusal()


def write_failure(error: OSError, folder: Path) -> err.StorageError:
    """The problem to tell the user for an operating system error while writing."""
    if error.errno in DISK_FULL:
        return err.DiskFull(folder=str(folder))
    if error.errno in READ_ONLY:
        return err.DataReadOnly(folder=str(folder))
    return err.WriteFailed(folder=str(folder), reason=error.strerror or str(error))


def sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened; in a
    browser, kept in its storage before the page hears of it: storage/browser.py)."""
    if browser.IN_BROWSER:
        browser.changed()
        return
    if os.name == "nt":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def remove_stale_temp_files(folder: Path) -> list[Path]:
    """Temporary files left by a write that was cut off (a killed process, a power cut) before
    its rename: what they hold was never saved (the rename saves), so they go. Only safe while
    holding the data lock. Those removed."""
    removed: list[Path] = []
    for temp in folder.glob(f"*{TEMP_MARK}*"):
        with contextlib.suppress(OSError):
            temp.unlink()
            removed.append(temp)
    return removed


@dataclass(frozen=True)
class Damaged:
    """Something that could not be read at start-up, and where it was kept.

    `whole` is True when the whole file was moved aside (the storage then starts empty),
    False when only its unreadable parts were copied out and the rest kept in place.
    `kept_as` is None when nothing could be written in the folder (read-only): the file, or
    its parts, stay where they are, untouched, and are left out in memory only.
    """

    path: Path
    kept_as: Path | None
    reason: str
    whole: bool = True


def aside_name(path: Path) -> Path:
    """``NAME.damaged-YYYYMMDD-HHMMSS.EXT`` next to `path`, not taken yet."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    counter = 1
    while os.path.lexists(kept):  # a link to nothing kept aside before is there too
        counter += 1
        kept = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
    return kept


def keep_aside(path: Path, reason: str, access: Access | None = None) -> Damaged:
    """Rename a damaged file (or folder) aside so nothing is lost.

    Where the folder is read-only (`access` says so, or the rename fails so) it stays where it
    is (`kept_as` None) and `access` is read-only from now on. Any other failure is a
    `StorageError` that says what went wrong."""
    if access is not None and access.read_only:
        return Damaged(path, None, reason)
    kept = aside_name(path)
    try:
        os.replace(path, kept)
    except OSError as error:
        problem = write_failure(error, path.parent)
        if access is None or not isinstance(problem, err.DataReadOnly):
            raise problem from error
        access.found_read_only()
        return Damaged(path, None, reason)
    sync_folder(path.parent)
    return Damaged(path, kept, reason)


def keep_parts_aside(
    path: Path, parts: object, reason: str, access: Access | None = None
) -> Damaged:
    """Copy the unreadable parts of `path` into a file of their own (`path` is then rewritten
    without them by the caller). A `StorageError` when they cannot be written (`access`
    read-only from now on when that is why)."""
    kept = aside_name(path)
    try:
        if access is not None:
            access.check()
        write_atomically(kept, json.dumps(parts, ensure_ascii=False, indent=1))
    except err.DataReadOnly:
        if access is not None:
            access.found_read_only()
        raise
    return Damaged(path, kept, reason, whole=False)


def read_tables(path: Path) -> Tables:
    """The TinyDB data in `path` ({} when missing); ValueError when it is not TinyDB JSON.

    Tables and documents that are not JSON objects are not TinyDB data either; use
    `split_tables` to keep the rest.
    """
    data, not_finite = read_json_object(path)
    clean, bad = split_tables(data, not_finite)
    if bad:
        raise ValueError("not a TinyDB database")
    return clean


def read_json_object(path: Path) -> tuple[dict[str, Any], bool]:
    """The JSON object in `path` ({} when missing), and whether it holds NaN or Infinity
    somewhere (which JSON has not, and Debrief never writes: Python's parser takes them);
    ValueError for anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # its folder is not one (left in place)
        return {}, False
    except UnicodeDecodeError as error:
        raise Unreadable(N_("it is not text")) from error
    if not text.strip():
        raise Unreadable(N_("it is empty"))
    constants: list[str] = []

    def constant(name: str) -> float:
        constants.append(name)
        return float(name)

    try:
        data = json.loads(text, parse_constant=constant)
    except RecursionError as error:
        raise Unreadable(N_("it is nested too deeply")) from error
    except ValueError as error:  # the parser's own words say where, for a computer
        logger.info("%s: %s", path, error)
        raise Unreadable(N_("it is damaged or cut short")) from error
    if not isinstance(data, dict):
        raise Unreadable(N_("it does not hold Debrief's data"))
    return data, bool(constants)


class Unreadable(ValueError):
    """Why a data file cannot be read, in a player's words (`reason`: translated)."""

    def __init__(self, reason: Term) -> None:
        super().__init__(str(reason))
        self.reason = reason


def split_tables(data: dict[str, Any], not_finite: bool = False) -> tuple[Tables, dict[str, Any]]:
    """(the TinyDB tables and documents in `data`, the parts that are not: tables that are not
    objects, documents that are not objects, and, where the file holds NaN or Infinity
    (`not_finite`), the documents that hold them)."""
    clean: Tables = {}
    bad: dict[str, Any] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            bad[name] = table
            continue

        def usable(doc: object) -> bool:
            return isinstance(doc, dict) and (not not_finite or _finite(doc))

        clean[name] = {doc_id: doc for doc_id, doc in table.items() if usable(doc)}
        wrong = {doc_id: doc for doc_id, doc in table.items() if not usable(doc)}
        if wrong:
            bad[name] = wrong
    return clean, bad


def _finite(value: object) -> bool:
    """Whether every number in a JSON value is finite (no NaN, no Infinity)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    return True


class AtomicStorage(Storage):
    """A TinyDB storage on one JSON file: atomic durable writes, write-through cache.

    A file that cannot be read is moved aside (see `keep_aside`) and the storage starts empty;
    so is anything that is not an ordinary file (`file_problem`), and a link that `refuse_link`
    gives a reason not to follow (called with where it leads). Tables or documents that are not
    JSON objects are copied aside and the file keeps the rest. `damaged` then says what
    happened so the app can tell the user. `lands_on` is where writes land (the file a link
    leads to).

    `access` says whether anything may be written (`Access`): where nothing can, what cannot
    be read stays in the file, untouched, and is left out in memory only (`_held`).
    """

    def __init__(
        self,
        path: str | Path,
        refuse_link: Callable[[Path], str | None] | None = None,
        access: Access | None = None,
        on_written: Callable[[], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self._on_written = on_written  # after each write that landed on disk
        self.lands_on = self.path
        self.damaged: list[Damaged] = []
        self._cache: Tables | None = None
        # The data as it is in memory where it is not so in the file (JSON; None: as in the
        # file): what a failed write falls back to, never to the damage on disk.
        self._held: str | None = None
        self._refuse_link = refuse_link
        self._access = access
        self._load()

    def _load(self) -> None:
        try:
            reason = self._kind_problem()
            data, not_finite = read_json_object(self.path) if reason is None else ({}, False)
        except Unreadable as error:
            reason = error.reason
        except (ValueError, OSError) as error:
            reason = str(error) or type(error).__name__
        if reason is not None:
            self.lands_on = self.path
            damaged = keep_aside(self.path, reason, self._access)
            self.damaged.append(damaged)
            if damaged.kept_as is None:  # read-only: stays there, and is never read again
                self._hold({})
            else:
                self._cache = {}
            return
        clean, bad = split_tables(data, not_finite)
        self._cache = clean
        if bad:
            reason = (
                N_("parts of it hold numbers that are not numbers")
                if not_finite
                else N_("parts of it do not hold Debrief's data")
            )
            try:
                kept = keep_parts_aside(self.path, bad, reason, self._access)
            except err.StorageError:  # read-only, disk full: left in the file, not used
                self.damaged.append(Damaged(self.path, None, reason, whole=False))
                self._hold(clean)
                return
            self.damaged.append(kept)
            try:
                self.write(clean)
            except err.StorageError:
                self._hold(clean)

    def _hold(self, data: Tables) -> None:
        """Use `data`, which is not what the file holds (it is not written)."""
        self._held = json.dumps(data, ensure_ascii=False)
        self._cache = data

    def _kind_problem(self) -> str | None:
        """Why the file is not read at all (see `file_problem`); a link is followed unless
        `refuse_link` says why not."""
        reason = file_problem(self.path)
        if reason is not None or not self.path.is_symlink():
            return reason
        self.lands_on = self.path.resolve(strict=True)
        reason = self._refuse_link(self.lands_on) if self._refuse_link else None
        writable = self._access is None or not self._access.read_only  # else: not locked
        if reason is None and writable:  # temporary files of writes that were killed, beside it
            pattern = f"{glob.escape(self.lands_on.name)}{TEMP_MARK}*"
            for temp in self.lands_on.parent.glob(pattern):
                with contextlib.suppress(OSError):
                    temp.unlink()
        return reason

    def keep_documents_aside(self, table: str, doc_ids: list[str], reason: str) -> Damaged | None:
        """Move documents that cannot be used out of this file into a kept-aside one; where
        nothing can be written (read-only, disk full) they are only left unused (None)."""
        data = self.read() or {}
        documents = data.get(table, {})
        parts = {table: {doc_id: documents[doc_id] for doc_id in doc_ids if doc_id in documents}}
        kept = {**data, table: {k: v for k, v in documents.items() if k not in set(doc_ids)}}
        try:
            damaged = keep_parts_aside(self.path, parts, reason, self._access)
            self.write(kept)
        except err.StorageError:
            self._hold(kept)
            return None
        self.damaged.append(damaged)
        return damaged

    def read(self) -> Tables | None:
        if self._cache is None:
            self._cache = (
                json.loads(self._held) if self._held is not None else read_tables(self.path)
            )
        return self._cache

    def write(self, data: Tables) -> None:
        """Write where the data was when it was opened (`lands_on`), or nowhere: through a link
        only while it still leads there (`LinkBroken`, `LinkChanged`). Where the folder is
        read-only (`Access`) setting the data right writes in memory only, and a change is
        refused (`OpenedReadOnly`)."""
        access = self._access
        if access is not None and access.read_only:
            if access.repairing_now:
                self._hold(data)
                return
            self._cache = None  # TinyDB changed the cached tables in place (see below)
            raise access.refusal()
        try:
            target = landing(self.path)
            if target != self.lands_on:
                raise err.LinkChanged(file=str(self.path), target=str(target))
            write_atomically(target, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        except BaseException as error:
            # TinyDB changed the cached tables in place before writing: forget them, so the next
            # read shows what is really on disk (or what is held in memory in its place).
            self._cache = None
            if access is None or not access.repairing_now:
                raise
            if not isinstance(error, err.DataReadOnly):
                raise
            access.found_read_only()  # found out now: set right in memory from here on
            self._hold(data)
            return
        self._cache = data
        self._held = None
        if self._on_written is not None:
            self._on_written()

    def close(self) -> None:
        self._cache = None
