"""Crash-safe JSON files: every write is atomic and durable, and a damaged file is kept aside.

TinyDB's own JSONStorage rewrites its file in place, so a crash mid-write can leave a broken
file (msiemens/tinydb #301, #461). `AtomicStorage` writes a temporary file in the same folder,
flushes and fsyncs it, renames it over the old one with `os.replace` (atomic on POSIX and
Windows), then fsyncs the folder so the rename itself survives a power cut. A process killed
at any instant leaves either the old or the new file.

It also keeps the last written data in memory (write-through, never write-behind): TinyDB reads
the whole file for every query, and this process is the only writer (storage holds a lock).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

TEMP_MARK = ".tmp-"
Tables = dict[str, dict[str, Any]]


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old or the new content."""
    temp = path.with_name(f"{path.name}{TEMP_MARK}{os.getpid()}")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened)."""
    if os.name == "nt":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def remove_stale_temp_files(folder: Path) -> None:
    """Temporary files left by a killed process; only safe while holding the data lock."""
    for temp in folder.glob(f"*{TEMP_MARK}*"):
        with contextlib.suppress(OSError):
            temp.unlink()


@dataclass(frozen=True)
class Damaged:
    """A file that could not be read at start-up, and where it was kept."""

    path: Path
    kept_as: Path
    reason: str


def keep_aside(path: Path, reason: str) -> Damaged:
    """Rename a damaged file to ``NAME.damaged-YYYYMMDD-HHMMSS.json`` so nothing is lost."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    counter = 1
    while kept.exists():
        counter += 1
        kept = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
    os.replace(path, kept)
    sync_folder(path.parent)
    return Damaged(path, kept, reason)


def read_tables(path: Path) -> Tables:
    """The TinyDB data in `path` ({} when missing); ValueError when it is not TinyDB JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as error:
        raise ValueError("not UTF-8 text") from error
    if not text.strip():
        raise ValueError("the file is empty")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise ValueError("not a TinyDB database")
    return data


class AtomicStorage(Storage):
    """A TinyDB storage on one JSON file: atomic durable writes, write-through cache.

    A file that cannot be read is moved aside (see `keep_aside`) and the storage starts empty;
    `damaged` then says what happened so the app can tell the user.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.damaged: Damaged | None = None
        self._cache: Tables | None = None
        self._load()

    def _load(self) -> None:
        try:
            self._cache = read_tables(self.path)
        except (ValueError, OSError) as error:
            self.damaged = keep_aside(self.path, str(error) or type(error).__name__)
            self._cache = {}

    def read(self) -> Tables | None:
        if self._cache is None:
            self._cache = read_tables(self.path)
        return self._cache

    def write(self, data: Tables) -> None:
        try:
            write_atomically(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        except BaseException:
            # TinyDB changed the cached tables in place before writing: forget them, so the next
            # read shows what is really on disk.
            self._cache = None
            raise
        self._cache = data

    def close(self) -> None:
        self._cache = None
