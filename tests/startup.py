"""Code that a test's child process (an app server, a CLI) runs at start-up.

Python's start-up imports a module named `sitecustomize` from its path. The tests' own start-up
code has names of its own (tests/faults/debrief_faults.py, tests/dummy_game/at_start.py): a
file named sitecustomize.py in the project would clash with the one a system Python brings
(Debian's /etc/python3.11/sitecustomize.py) when pytest imports every module. So the
`sitecustomize` a child needs is written here, in a folder of its own, and calls their
`install()`. Importing them does nothing, so pytest's doctest collection can import them safely.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent


@functools.cache
def _shim(module: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="debrief-startup-"))
    (folder / "sitecustomize.py").write_text(
        f"import {module}  # written by tests/startup.py\n{module}.install()\n"
    )
    return folder


def python_path(module: str, *folders: Path) -> str:
    """A PYTHONPATH with which a child Python runs `module.install()` at start-up; `module` is
    found in `folders`."""
    return os.pathsep.join(str(folder) for folder in (_shim(module), *folders))


def faults() -> str:
    """PYTHONPATH for the fault injection (tests/faults/debrief_faults.py)."""
    return python_path("debrief_faults", TESTS / "faults")
