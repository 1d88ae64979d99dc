"""Fault injection for the tests' app servers and CLI children (never loaded by the app).

Tests put this folder on PYTHONPATH and set DEBRIEF_FAULT to "disk-full" or "read-only"; the
fault is on while the file named by DEBRIEF_FAULT_SWITCH exists (so a test can fill the disk
and free it again while the app runs). Then every rename onto a file (how every write of the
data lands) fails as the real fault does, and with "read-only" so does creating the lock.
"""

from __future__ import annotations

import errno
import os

FAULTS = {"disk-full": errno.ENOSPC, "read-only": errno.EROFS}


def _install() -> None:
    fault = os.environ.get("DEBRIEF_FAULT")
    switch = os.environ.get("DEBRIEF_FAULT_SWITCH")
    if fault not in FAULTS or not switch:
        return
    code = FAULTS[fault]
    real_replace, real_open = os.replace, os.open

    def on() -> bool:
        return os.path.exists(switch)

    def replace(source, target, *args, **kwargs):  # type: ignore[no-untyped-def]
        if on():
            raise OSError(code, os.strerror(code), str(target))
        return real_replace(source, target, *args, **kwargs)

    def open_(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if on() and fault == "read-only" and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    os.replace = replace
    os.open = open_


_install()
