"""The app as the browser tests serve it: forked from a Python that imported Debrief once
(tools/app_forge.py) and still the app `python main.py --web` is, one process per app, each
with its own data folder, secret and port, ended by `stop`; a port another program holds is
reported as with a Python of its own."""

from __future__ import annotations

import http.client
import os
import socket
from pathlib import Path

import pytest
from listening import listening

from tools.app_forge import Forked
from tools.browser import FORKS, AppServer, PortTaken, free_port


def status(server: AppServer, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.skipif(not FORKS, reason="the forge needs fork and pidfds (Linux)")
def test_two_forked_apps_serve_their_own_folders_behind_their_own_secrets(tmp_path: Path) -> None:
    first = AppServer(tmp_path / "first").start()
    second = AppServer(tmp_path / "second").start()
    try:
        assert isinstance(first.process, Forked) and isinstance(second.process, Forked)
        assert first.process.pid != second.process.pid != os.getpid()
        assert set(listening(first.process.pid)) == {("127.0.0.1", first.port)}
        assert status(first, f"/?key={first.secret}") == 303  # to the page, with its cookie
        assert status(first, f"/?key={second.secret}") == 403  # the guard is there
    finally:
        first.stop()
        second.stop()
    assert first.process is None and second.process is None
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", first.port), timeout=2)


def test_a_taken_port_is_reported_as_taken(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", free_port()))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(PortTaken):
            AppServer(tmp_path / "data", port=port).start()


def test_an_app_with_its_own_environment_gets_a_python_of_its_own(tmp_path: Path) -> None:
    server = AppServer(tmp_path / "data", env={"DEBRIEF_UNUSED": "1"}).start()
    try:
        assert server.process is not None and not isinstance(server.process, Forked)
        assert status(server, f"/?key={server.secret}") == 303
    finally:
        server.stop()
