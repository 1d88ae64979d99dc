"""Children for the kill tests without paying Python's start for each: a Python runs a child
script's imports once, then forks a copy of itself for every child a test starts.

    python tests/child_forge.py SCRIPT SOCKET_FD

A kill test starts dozens of children (tests/crash_child.py, tests/import_child.py) and kills
each at a random moment; a fresh `python SCRIPT` spent up to half a second importing Debrief
before the moment the test is about (the two kill tests took 27 s, forked 21 s). Each copy runs the
script's `main()` with its own arguments and its own stdout and stderr, as `python SCRIPT ARGS`
would, from the point where the imports are done; SIGKILL ends it as it would end that Python.

Requests come over a Unix socket: the arguments (JSON) with the write ends of the copy's two
pipes; the answer is a pidfd of the copy, which says when it has ended and signals exactly it.
Where there is no fork or no pidfd (not Linux), `ChildForge` starts `python SCRIPT` instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [] if str(ROOT) in sys.path else [str(ROOT)]  # also when run as the forge

from tools.app_forge import Forked  # noqa: E402

FORKS = hasattr(os, "fork") and hasattr(os, "pidfd_open")


def run_copy(main: Callable[[], object], script: str, argv: list[str], out: int, err: int) -> None:
    """In the forked copy: `main()` with its arguments, printing into the test's pipes."""
    code = 0
    try:
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        sys.argv = [script, *argv]
        main()
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def forge(script: str, connection: socket.socket) -> None:
    main = runpy.run_path(script, run_name="forged")["main"]
    # A fork copies only the thread that forks: a thread started by an import would be missing
    # in every copy, holding whatever lock it had.
    assert threading.active_count() == 1, "an import started a thread; forking is not safe"
    connection.send(b"ready")
    while True:
        request, pipes, _, _ = socket.recv_fds(connection, 65536, 2)
        if not request:
            return  # the test closed its end
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:  # the copies that ended since the last one
                pass
        pid = os.fork()
        if pid == 0:
            connection.close()
            run_copy(main, script, json.loads(request), *pipes)
        for pipe in pipes:
            os.close(pipe)
        # Opened before the copy is reaped (it waits as a zombie until then): the pidfd is
        # that copy's, even if it has ended already and its number is given to another.
        handle = os.pidfd_open(pid)
        socket.send_fds(connection, [str(pid).encode()], [handle])
        os.close(handle)


class ForkedChild(Forked):
    """A forked copy with its pipes, as much of `subprocess.Popen[str]` as the kill tests use
    (signals and waiting as for the app forge's copies)."""

    def __init__(self, pid: int, handle: int, stdout: int, stderr: int) -> None:
        super().__init__(pid, handle)
        self.stdout: IO[str] = open(stdout, encoding="utf-8")  # noqa: SIM115 (closed in wait)
        self.stderr: IO[str] = open(stderr, encoding="utf-8")  # noqa: SIM115

    def wait(self, timeout: float | None = None) -> int:
        code = super().wait(timeout)
        self.stdout.close()
        self.stderr.close()
        return code


Child = subprocess.Popen[str] | ForkedChild


class ChildForge:
    """Starts children that run `script` (a file with a `main()`), forked from one Python that
    imported it; a context manager that ends that Python."""

    def __init__(self, script: Path, cwd: Path) -> None:
        self.script = script
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None
        self.connection: socket.socket | None = None

    def start(self, *argv: str) -> Child:
        if not FORKS:
            return subprocess.Popen(
                [sys.executable, str(self.script), *argv],
                cwd=self.cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        connection = self._connected()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        socket.send_fds(connection, [json.dumps(argv).encode()], [out_write, err_write])
        os.close(out_write)  # the copy holds the only write ends: its death ends the reading
        os.close(err_write)
        answer, handles, _, _ = socket.recv_fds(connection, 64, 1)
        if not handles:
            raise RuntimeError(f"the child forge ended: {answer!r}")
        return ForkedChild(int(answer), handles[0], out_read, err_read)

    def _connected(self) -> socket.socket:
        if self.connection is None:
            mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self.process = subprocess.Popen(
                [sys.executable, __file__, str(self.script), str(theirs.fileno())],
                cwd=self.cwd,
                pass_fds=[theirs.fileno()],
            )
            theirs.close()
            if mine.recv(16) != b"ready":
                raise RuntimeError("the child forge did not start")
            self.connection = mine
        return self.connection

    def __enter__(self) -> ChildForge:
        return self

    def __exit__(self, *_: object) -> None:
        if self.connection is not None and self.process is not None:
            self.connection.close()  # the forge ends at the end of its requests
            self.process.wait(timeout=30)
            self.connection = None


if __name__ == "__main__":
    sys.path[:0] = [str(Path(sys.argv[1]).resolve().parent)]
    forge(sys.argv[1], socket.socket(fileno=int(sys.argv[2])))
