"""Compressed copies of the files the app serves to browsers (Flet's web client), made once per
machine and kept in the user's cache folder.

A guest's phone joins over plain HTTP on the local network, where browsers accept gzip only
(Chromium offers brotli over HTTPS and to localhost alone), so each file is kept twice: gzip
at libdeflate's strongest level (close to zopfli, at a twentieth of its time) and brotli.
Making them takes about ten seconds of CPU once; `web/precompressed.py` serves them.

The copies of one set of files live in a folder named by a digest of their paths, sizes and
times (an upgrade of flet-web, or a changed file of the app's, makes a new folder). Several
processes may start at once (the tests, a second window): a lock lets one compress while the
others wait, every copy is written to a temporary name and renamed into place, and a marker
written last says that the folder is complete.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import platformdirs
from filelock import FileLock

from .files import write_atomically
from .paths import APP_NAME

logger = logging.getLogger(__name__)

GZIP, BROTLI = "gzip", "br"
ENCODINGS = (BROTLI, GZIP)  # the server's preference, when a browser accepts both
SUFFIXES = {GZIP: ".gz", BROTLI: ".br"}
GZIP_LEVEL = 12  # libdeflate's strongest: 5% smaller than zlib's 9, a second for 8 MB
BROTLI_QUALITY = 9  # 11 saves another 4% at twenty times the time
SMALLEST = 1024  # smaller files are sent as they are: the headers would outweigh the gain
WORTH_IT = 0.9  # a copy is kept only when it saves at least a tenth
SETTINGS_VERSION = "1"  # change when what is made here changes: a new folder is made
COMPLETE = "complete"


def cache_root() -> Path:
    """$DEBRIEF_CACHE_DIR, else the platform's user cache folder."""
    explicit = os.environ.get("DEBRIEF_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "web-client"


Compress = Callable[[bytes], bytes]


def compressors() -> dict[str, Compress] | None:
    """The compressing functions by encoding, or None where their libraries are missing (a
    build without the `web` extra: the files are then served as they are)."""
    try:
        import brotli
        import deflate
    except ImportError:
        return None

    def gzip(data: bytes) -> bytes:
        return bytes(deflate.gzip_compress(data, GZIP_LEVEL))

    def brotli_(data: bytes) -> bytes:
        return bytes(brotli.compress(data, quality=BROTLI_QUALITY))

    return {GZIP: gzip, BROTLI: brotli_}


class CompressedCopies:
    """The compressed copies of `files` (a served path, such as "main.dart.wasm", to the file
    it serves). `prepare` makes what is missing; `copy` finds one."""

    def __init__(self, files: Mapping[str, Path], root: Path | None = None) -> None:
        self.files = dict(files)
        self.folder = (root or cache_root()) / self._digest()
        self._complete = False

    def _digest(self) -> str:
        hashed = hashlib.sha256(SETTINGS_VERSION.encode())
        for path, source in sorted(self.files.items()):
            status = source.stat()
            hashed.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
        return hashed.hexdigest()[:20]

    @property
    def complete(self) -> bool:
        if not self._complete:
            self._complete = (self.folder / COMPLETE).exists()
        return self._complete

    def copy(self, path: str, encoding: str) -> Path | None:
        """The copy of `path` in `encoding`, if one was made (not for a file that does not
        shrink, nor before `prepare` has made it)."""
        if path not in self.files:
            return None
        copy = self.folder / (path + SUFFIXES[encoding])
        return copy if copy.is_file() else None

    def prepare(self) -> bool:
        """Make every missing copy (or wait for another process making them); whether the
        copies are there. Logs, never raises: without them the files are served as they are."""
        if self.complete:
            return True
        made = compressors()
        if made is None:
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with FileLock(str(self.folder / ".lock")):
                if not (self.folder / COMPLETE).exists():
                    began = time.monotonic()
                    for path, source in self.files.items():
                        self._compress(path, source, made)
                    write_atomically(self.folder / COMPLETE, f"{time.monotonic() - began:.1f} s\n")
        except Exception:  # a full disk, a compressor's own error: served as they are
            logger.warning("could not keep compressed copies in %s", self.folder, exc_info=True)
            return False
        return self.complete

    def _compress(self, path: str, source: Path, made: dict[str, Compress]) -> None:
        data = source.read_bytes()
        if len(data) < SMALLEST:
            return
        for encoding, compress in made.items():
            target = self.folder / (path + SUFFIXES[encoding])
            if target.exists():
                continue
            packed = compress(data)
            if len(packed) > len(data) * WORTH_IT:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, packed)
