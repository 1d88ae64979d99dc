"""What each archive file was like when Debrief last wrote it or found it sound (``seals.json``).

Archive files (``games/NN.json``) are read when one of their games is first needed, so a file
damaged while Debrief was closed would be found only then, and said only then. A seal is the
file's size and modification time as Debrief last left it: at start every archive file is
looked at (a `stat` each), and one that is not as sealed, or has no seal, is read and checked
at once (`Store._check_archive`), so what was damaged is said at start. Debrief seals each
file after writing it and after checking it.

Seals are derived data: a file whose seal is lost is only read once more. They are written
when the data is opened and closed, not with every change: a change after the last write of
the seals (a kill) costs a check of that file at the next start, nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

from .files import AtomicStorage

TABLE, DOCUMENT = "seals", "all"
Seal = tuple[int, int]  # (size in bytes, modification time in nanoseconds)


def seal_of(path: Path) -> Seal | None:
    """The seal of the file at `path` as it is now (None: not an ordinary file, or none)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns


class Seals:
    """The seal of each archive file, by its name ("07")."""

    def __init__(self, file: AtomicStorage) -> None:
        self.file = file
        document = (file.read() or {}).get(TABLE, {}).get(DOCUMENT, {})
        self._seals: dict[str, Seal] = {
            name: (value[0], value[1])
            for name, value in document.items()
            if isinstance(value, list)
            and len(value) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
        }
        self._changed = False

    def matches(self, name: str, path: Path) -> bool:
        """Whether the file is as Debrief last left it."""
        now = seal_of(path)
        return now is not None and self._seals.get(name) == now

    def seal(self, name: str, path: Path) -> None:
        """The file is as Debrief wrote or checked it (a file that is gone: no seal)."""
        now = seal_of(path)
        if now is None:
            self.forget(name)
        elif self._seals.get(name) != now:
            self._seals[name] = now
            self._changed = True

    def names(self) -> set[str]:
        return set(self._seals)

    def forget(self, name: str) -> None:
        if self._seals.pop(name, None) is not None:
            self._changed = True

    def save(self) -> None:
        """Write the seals, if any changed (a failure only costs a check at the next start)."""
        if self._changed:
            document = {name: list(seal) for name, seal in sorted(self._seals.items())}
            self.file.write({TABLE: {DOCUMENT: document}})
            self._changed = False
