"""Says, inside an app server's process, which modules it has imported so far. For the test
that holds that the first screen imports nothing more (tests/test_first_screen.py); never loaded
by the app.

A child Python loads it at start-up (`startup.python_path("imported", TESTS)`) with
DEBRIEF_IMPORTED naming a file: at each SIGUSR1 the process writes the names of its modules
there, as JSON (`read`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from types import FrameType


def install() -> None:
    """Called by the child's start-up; importing this module does nothing."""
    target = os.environ.get("DEBRIEF_IMPORTED")
    if not target:
        return

    def report(signum: int, frame: FrameType | None) -> None:
        written = Path(f"{target}.new")
        written.write_text(json.dumps(sorted(sys.modules)))
        os.replace(written, target)

    signal.signal(signal.SIGUSR1, report)


def read(pid: int, target: Path) -> set[str]:
    """The modules the process `pid` (started with DEBRIEF_IMPORTED=`target`) has imported."""
    from startup import reported

    return set(json.loads(reported(pid, target)))
