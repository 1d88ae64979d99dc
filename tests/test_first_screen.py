"""The first screen a phone opens waits for no import: Flet imports the module of a control at
the first use of its name, and the first screen used some thirty of them (170 ms of CPU on a
computer, three times that in the static site's Python), while the page waited. The app
imports them with itself instead, before anyone asks."""

from __future__ import annotations

from pathlib import Path

from flet_client import FletClient, share_cookie
from imported import read
from startup import TESTS, python_path

from tools.browser import AppServer


def test_the_first_screen_imports_nothing_more(tmp_path: Path) -> None:
    report = tmp_path / "imported.json"
    env = {"PYTHONPATH": python_path("imported", TESTS), "DEBRIEF_IMPORTED": str(report)}
    server = AppServer(tmp_path / "data", env=env).start()
    assert server.process is not None
    try:
        before = read(server.process.pid, report)
        address = f"127.0.0.1:{server.port}"
        phone = FletClient.open(server.port, share_cookie(server.url), address)
        try:
            phone.register()
            assert phone.pump(30, until=b"New game"), "the home screen never came"
        finally:
            phone.close()
        first_screen = read(server.process.pid, report) - before
    finally:
        server.stop()
    assert sorted(name for name in first_screen if name.startswith("flet")) == []
