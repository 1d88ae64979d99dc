"""The app in its own window shares its table too: main.py's window path opens the guests'
door (a Flet web app of its own, in the window's event loop), a phone's browser follows the
host's saves live, and stopping closes the door. The window itself cannot open here (see
tests/window_host.py); everything behind it runs for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders import ROOT, SCENARIOS
from listening import listening
from playwright.sync_api import Browser
from test_e2e_share import scoreboard_shown
from ui import shown

from tools.browser import free_port, open_app

pytestmark = pytest.mark.e2e
SCENARIO = SCENARIOS / "black-spy-basic.json"
DEALS = json.loads(SCENARIO.read_text())["rounds"]
PLAYERS = [player["name"] for player in json.loads(SCENARIO.read_text())["players"]]


class WindowHost:
    """tests/window_host.py as a process: orders on its stdin, what it printed in a log."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.log = log
        command = ["tests/window_host.py", str(data_dir), str(free_port()), str(SCENARIO)]
        self.process = subprocess.Popen(
            [sys.executable, *command],
            cwd=ROOT,
            env={**os.environ, "LANG": "en_US.UTF-8"},
            stdin=subprocess.PIPE,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            text=True,
        )

    def order(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def printed(self, label: str, timeout: float = 60) -> str:
        """What the host printed after `label`, once it has (its state, not a time)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in reversed(self.log.read_text().splitlines()):
                if line.startswith(label):
                    return line.removeprefix(label).strip()
            assert self.process.poll() is None, f"the host ended:\n{self.log.read_text()}"
            time.sleep(0.1)
        raise AssertionError(f"the host never printed {label!r}:\n{self.log.read_text()}")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def window_host(tmp_path: Path) -> Iterator[WindowHost]:
    host = WindowHost(tmp_path / "data", tmp_path / "host.log")
    try:
        yield host
    finally:
        host.stop()


def test_a_window_shares_its_table_with_a_phone(browser: Browser, window_host: WindowHost) -> None:
    link = window_host.printed("Guests open:")
    assert window_host.printed("Scorers' PIN:").isdigit()
    door = int(link.removeprefix("http://").split("/")[0].split(":")[1])
    pid = window_host.process.pid
    assert set(listening(pid)) == {("0.0.0.0", door)}  # the window's own socket is not here
    viewer = open_app(browser, link)
    for player in PLAYERS:
        shown(viewer, f"{player}: 0")  # no deal yet: nobody leads
    for saved in range(1, 3):
        window_host.order("deal")
        window_host.printed(f"Host saved deal {saved}")
        scoreboard_shown(viewer, DEALS[:saved])  # live: no reload
    window_host.order("stop")
    window_host.printed("Host stopped sharing")
    assert set(listening(pid)) == set()
