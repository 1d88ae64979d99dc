"""Serve the app again and again without paying its start each time: this Python imports
Debrief once (Flet, its web server, the views: 0.6 s of CPU, more than a second under load),
then forks a copy of itself for every app a test serves (tools/browser.AppServer).

Each copy runs `main.main(argv)` as `python main.py argv` would, with the environment, log
file and working folder it is given: the same code from the same interpreter, started from
the point where the imports are done. Requests come on stdin, one JSON object per line
(`argv`, `env`, `log`); for each the copy's process id goes back on stdout, one per line.
The copies are not this process's to wait for: the system reaps them (SIGCHLD ignored), and
their starter watches them through a pidfd (`Forked`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def serve_copy(request: dict[str, Any]) -> int:
    """Fork a copy that serves the app as asked; return its process id (in this process)."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the app may wait for its own children
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(nothing)  # the app holds no files but its own and these three
        os.close(log)
        sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["main.py", *request["argv"]]
        import main

        code = main.main(request["argv"])
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def forge() -> None:
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import main  # noqa: F401  (everything `python main.py` imports, once)
    import web.serve  # noqa: F401

    every_flet_name_the_views_use()

    # A fork copies only the thread that forks: a thread started by an import would be
    # missing in every copy, holding whatever lock it had.
    assert threading.active_count() == 1, "an import started a thread; forking is not safe"
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    for line in sys.stdin:
        print(serve_copy(json.loads(line)), flush=True)


def every_flet_name_the_views_use() -> None:
    """Flet imports a control's module at the first use of its name: the app imports those of
    its first screen (views/app.FIRST_SCREEN), and every copy would import those of the other
    screens again (some 50 ms of CPU each). Imported here once, for all copies."""
    import flet

    lazy = getattr(flet, "_LAZY", {})  # Flet's own table of them; without it, nothing to do
    for source in sorted((ROOT / "views").rglob("*.py")):
        for name in re.findall(r"\bft\.(\w+)", source.read_text(encoding="utf-8")):
            if name in lazy:
                getattr(flet, name)


class Forked:
    """A copy served by the forge, as much of `subprocess.Popen` as AppServer uses. Its exit
    code is the forge's to know; `poll` says 0 once it has ended. `handle`: a pidfd of it
    opened already (by a forge that opens it before the copy can be reaped)."""

    def __init__(self, pid: int, handle: int | None = None) -> None:
        self.pid = pid
        self.handle = os.pidfd_open(pid) if handle is None else handle

    def poll(self) -> int | None:
        return 0 if self._ended(0) else None

    def wait(self, timeout: float | None = None) -> int:
        """Until it has ended (`timeout` None: however long that takes)."""
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired(f"process {self.pid}", timeout or 0)
        os.close(self.handle)
        return 0

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _ended(self, timeout: float | None) -> bool:
        return bool(select.select([self.handle], [], [], timeout)[0])

    def _signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):  # it has ended already
            signal.pidfd_send_signal(self.handle, number)


class Forge:
    """The forge process, started at the first request."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def spawn(self, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        process = self._started()
        assert process.stdin is not None and process.stdout is not None
        request = {"argv": argv, "env": env, "log": str(log)}
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        answer = process.stdout.readline()
        if not answer.strip().isdigit():
            raise RuntimeError(f"the app forge ended: {answer!r}")
        return Forked(int(answer))

    def _started(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve())],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert self.process.stdout is not None
            ready = self.process.stdout.readline()
            if ready.strip() != "ready":
                raise RuntimeError(f"the app forge did not start: {ready!r}")
        return self.process

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # the forge ends at the end of its input
            self.process.wait(timeout=10)
            self.process = None


if __name__ == "__main__":
    forge()
