"""tools/dev.py, the README's two commands: the test command sets up Chromium itself where it
can, and otherwise stops at once with the one command to run (issue 10)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from builders import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import dev


def no_browser(monkeypatch: pytest.MonkeyPatch, apt: bool, root: bool) -> list[list[str]]:
    ran: list[list[str]] = []

    def which(name: str) -> str | None:
        return "/usr/bin/apt-get" if name == "apt-get" and apt else None

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        ran.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(dev.shutil, "which", which)
    monkeypatch.setattr(dev.subprocess, "run", run)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0 if root else 1000)
    return ran


def test_without_chromium_root_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = no_browser(monkeypatch, apt=True, root=True)
    dev.ensure_chromium([])
    assert ran[-1][:3] == ["apt-get", "install", "-y"] and "chromium" in ran[-1]


def test_without_chromium_and_a_way_to_install_it_stops_at_once_with_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    no_browser(monkeypatch, apt=False, root=False)
    with pytest.raises(SystemExit) as stopped:
        dev.ensure_chromium([])
    assert stopped.value.code == 1
    assert dev.INSTALL_HINT in capsys.readouterr().out


def test_without_browser_tests_no_chromium_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = no_browser(monkeypatch, apt=False, root=False)
    dev.ensure_chromium(["-m", "not e2e"])
    assert ran == []
