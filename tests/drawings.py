"""Counts, inside an app server's process, how often each component is drawn (its function
run by Flet's renderer), by the component's name. For the tests that hold what a tap draws
again (tests/test_e2e_drawings.py); never loaded by the app.

A child Python loads it at start-up (`startup.python_path("drawings", TESTS)`) with
DEBRIEF_DRAWINGS naming a file: at each SIGUSR1 the process writes its counts so far there, as
JSON (`read`).
"""

from __future__ import annotations

import collections
import json
import os
import signal
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any


def install() -> None:
    """Called by the child's start-up; importing this module does nothing."""
    target = os.environ.get("DEBRIEF_DRAWINGS")
    if not target:
        return
    from startup import after_import

    drawn: collections.Counter[str] = collections.Counter()

    def counting(module: ModuleType) -> None:
        original = module.Renderer.render

        def render(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            drawn[getattr(fn, "__name__", repr(fn))] += 1
            return original(self, fn, *args, **kwargs)

        module.Renderer.render = render

    def report(signum: int, frame: FrameType | None) -> None:
        written = Path(f"{target}.new")
        written.write_text(json.dumps(dict(drawn)))
        os.replace(written, target)

    after_import("flet.components.component", counting)
    signal.signal(signal.SIGUSR1, report)


def read(pid: int, target: Path) -> collections.Counter[str]:
    """How often the process `pid` (started with DEBRIEF_DRAWINGS=`target`) has drawn each
    component so far."""
    from startup import reported

    return collections.Counter(json.loads(reported(pid, target)))
