"""Code that a test's child process (an app server, a CLI) runs at start-up.

Python's start-up imports a module named `sitecustomize` from its path. The tests' own start-up
code has names of its own (tests/faults/debrief_faults.py): a
file named sitecustomize.py in the project would clash with the one a system Python brings
(Debian's /etc/python3.11/sitecustomize.py) when pytest imports every module. So the
`sitecustomize` a child needs is written here, in a folder of its own, and calls their
`install()`. Importing them does nothing, so pytest's doctest collection can import them safely.
"""

from __future__ import annotations

import atexit
import functools
import importlib.abc
import importlib.machinery
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

TESTS = Path(__file__).resolve().parent


@functools.cache
def _shim(module: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="debrief-startup-"))
    (folder / "sitecustomize.py").write_text(
        f"import {module}  # written by tests/startup.py\n{module}.install()\n"
    )
    atexit.register(_removed, folder, os.getpid())  # each run left its folders in /tmp
    return folder


def _removed(folder: Path, maker: int) -> None:
    """`folder` removed by the process that made it (not by a fork of it that ends first)."""
    if os.getpid() == maker:
        shutil.rmtree(folder, ignore_errors=True)


def python_path(module: str, *folders: Path) -> str:
    """A PYTHONPATH with which a child Python runs `module.install()` at start-up; `module` is
    found in `folders`."""
    return os.pathsep.join(str(folder) for folder in (_shim(module), *folders))


def faults() -> str:
    """PYTHONPATH for the fault injection (tests/faults/debrief_faults.py)."""
    return python_path("debrief_faults", TESTS / "faults", TESTS)


def reported(pid: int, target: Path, seconds: float = 30) -> str:
    """What the child `pid` writes to `target` when asked with SIGUSR1 (a count it keeps: see
    bench/render_count.py), written whole (a rename) before it is read."""
    target.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + seconds
    while not target.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"process {pid} did not report")
        time.sleep(0.005)
    return target.read_text()


def after_import(module_name: str, then: Callable[[ModuleType], None]) -> None:
    """Run `then` on the module named `module_name` right after it is first imported (how a
    child's start-up code changes the app without the app knowing)."""

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
            if fullname != module_name:
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module):  # type: ignore[no-untyped-def]
                run(module)
                then(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())
