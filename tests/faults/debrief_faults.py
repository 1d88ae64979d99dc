"""Fault injection for the tests' app servers and CLI children (never loaded by the app).

Tests have a child import this at start (tests/startup.py `faults`) and set DEBRIEF_FAULT to
"disk-full", "read-only" or "render-once"; the fault is on while the file named by
DEBRIEF_FAULT_SWITCH exists (so a test can fill the disk and free it again while the app runs).

- disk-full, read-only: every rename onto a file (how every write of the data lands) fails as
  the real fault does, and with read-only so does creating the lock;
- render-once: the component named by DEBRIEF_FAULT_TARGET ("module:name") raises the next
  time it is drawn while the switch exists, once (the switch is removed).
"""

from __future__ import annotations

import errno
import os

FAULTS = {"disk-full": errno.ENOSPC, "read-only": errno.EROFS}


def install() -> None:
    """Called by the child's start-up (tests/startup.py); importing this module does nothing."""
    fault = os.environ.get("DEBRIEF_FAULT")
    switch = os.environ.get("DEBRIEF_FAULT_SWITCH")
    if fault == "render-once" and switch:
        _fail_once_after_import(os.environ["DEBRIEF_FAULT_TARGET"], switch)
        return
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


def _fail_once_after_import(target: str, switch: str) -> None:
    """Wrap `target` ("module:name") once its module is imported: it raises once while the
    switch exists."""
    from startup import after_import

    module_name, name = target.split(":")

    def sabotage(module: object) -> None:
        original = getattr(module, name)

        def once(*args, **kwargs):  # type: ignore[no-untyped-def]
            if os.path.exists(switch):
                os.remove(switch)
                raise RuntimeError("a drawing fault injected by the test")
            return original(*args, **kwargs)

        setattr(module, name, once)

    after_import(module_name, sabotage)
