"""Counts, inside an app's server process, the control properties its code sets: every call of
Flet's `Prop.__set__` (flet/controls/value_types.py), the descriptor through which each
property of a control is set, when a control is built (a component drawn again builds all of
its controls anew) and when one is changed. For bench/latency.py --floor, whose figure of how
much a tap re-renders this is; never loaded by the app.

A child Python loads it at start-up (`tests/startup.python_path("render_count", …)`) with
DEBRIEF_BENCH_SETS naming a file: at each SIGUSR1 the process writes the count so far there
(`read`). Counting costs a Python call per set: the servers that are timed do not load it.
"""

from __future__ import annotations

import itertools
import os
import signal
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any


def install() -> None:
    """Called by the child's start-up; importing this module does nothing."""
    target = os.environ.get("DEBRIEF_BENCH_SETS")
    if not target:
        return
    from startup import after_import  # type: ignore[import-not-found]

    sets = itertools.count()  # next() is one step of C: no set is lost between threads

    def counting(module: ModuleType) -> None:
        original = module.Prop.__set__

        def counted(self: Any, obj: Any, value: Any) -> None:
            next(sets)
            original(self, obj, value)

        module.Prop.__set__ = counted

    def report(signum: int, frame: FrameType | None) -> None:
        written = Path(f"{target}.new")
        written.write_text(str(next(sets)))  # the report's own step is taken off in `read`
        os.replace(written, target)

    after_import("flet.controls.value_types", counting)
    signal.signal(signal.SIGUSR1, report)


def read(pid: int, target: Path) -> int:
    """The properties the process `pid` (started with DEBRIEF_BENCH_SETS=`target`) has set so
    far, counting one for each read before this one."""
    from startup import reported  # type: ignore[import-not-found]

    return int(reported(pid, target))
