"""Flet's floor: a minimal Flet app whose one button updates one text, served the way Debrief
is (Flet's ASGI app under uvicorn, the web client from the wheel, no CDN), for the benches that
measure Debrief against it in the same run (bench/tap_cost.py, bench/latency.py --floor).

The caller has the repository's root on `sys.path` (for `tools.browser`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from tools.browser import free_port

FLOOR_APP = textwrap.dedent(
    """
    import sys
    import flet as ft
    import uvicorn

    def main(page: ft.Page) -> None:
        count = ft.Text("0")

        def add(event):
            count.value = str(int(count.value) + 1)

        page.add(count, ft.Button("Add", on_click=add))

    app = ft.run(main, export_asgi_app=True, no_cdn=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
    """
)
BUTTON = "Add"  # the floor app's one button; its text above it counts the clicks from "0"


def listening(port: int, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Wait until the floor app's server accepts connections on `port`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"the floor app did not start on port {port}")


class Served(NamedTuple):
    url: str
    pid: int  # the server's process


@contextmanager
def floor_app(env: dict[str, str] | None = None) -> Iterator[Served]:
    """The floor app served on a free port of 127.0.0.1 by this Python (`env` added to its
    environment)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "floor.py"
        script.write_text(FLOOR_APP)
        server = subprocess.Popen(
            [sys.executable, str(script), str(port)], cwd=folder, env={**os.environ, **(env or {})}
        )
        try:
            listening(port, server)
            yield Served(f"http://127.0.0.1:{port}/", server.pid)
        finally:
            server.terminate()
            server.wait(10)
