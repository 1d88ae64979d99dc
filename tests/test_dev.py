"""tools/dev.py, the README's two commands: the test command sets up Chromium itself where it
can, and otherwise stops at once with the one command to run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
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


def recorded_test_run(monkeypatch: pytest.MonkeyPatch, arguments: list[str]) -> list[list[str]]:
    """Run `dev.test` with every command recorded instead of run."""
    ran: list[list[str]] = []
    # Whatever the run sets for its tests goes with this test (set, then unset: restored).
    monkeypatch.setenv(dev.SITE_VARIABLE, "")
    monkeypatch.delenv(dev.SITE_VARIABLE)
    monkeypatch.setattr(dev, "ensure_environment", lambda extras: None)
    monkeypatch.setattr(
        dev, "ensure_chromium", lambda arguments: ran.append(["chromium?", *arguments])
    )
    monkeypatch.setattr(dev, "run", lambda command: ran.append(command) or 0)
    monkeypatch.setattr(
        dev,
        "start_compressing",
        lambda site: ran.append(["compress", *([str(site)] if site else [])]),
    )
    monkeypatch.setattr(dev, "finish", lambda compressing: ran.append(["compressed"]))
    dev.test(arguments)
    return ran


def test_fast_runs_everything_but_the_browser_tests_and_says_how_long_it_took(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = recorded_test_run(monkeypatch, ["--fast", "-k", "kompromat"])
    pytest_command = ran[-1]
    assert pytest_command[1:3] == ["-m", "pytest"]
    assert pytest_command[-4:] == ["-m", "not e2e", "-k", "kompromat"]
    assert "--fast" not in pytest_command
    assert ["chromium?", "-m", "not e2e", "-k", "kompromat"] in ran  # no browser needed
    assert ran.index(["compressed"]) == len(ran) - 2  # the web client is ready for the tests
    assert capsys.readouterr().out.splitlines()[-1].startswith("== took 0 min ")


def test_the_whole_suite_has_its_static_site_published_beside_mypy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The site's browser test takes the site the command published while mypy ran (on the
    other core); a run of chosen tests publishes none."""
    ran = recorded_test_run(monkeypatch, [])
    started = next(command for command in ran if command[0] == "compress")
    assert len(started) == 2 and dev.os.environ[dev.SITE_VARIABLE] == started[1]
    assert ran.index(started) < ran.index(["compressed"]) < len(ran) - 1  # before pytest
    assert ["compress"] in recorded_test_run(monkeypatch, ["-k", "kompromat"])
    assert dev.SITE_VARIABLE not in dev.os.environ


def test_the_background_steps_run_in_turn_and_say_how_each_ended(tmp_path: Path) -> None:
    """`finish` returns once the first step (the web client compressed) has ended well, while
    the second (the site published) may still run; how that one ended is written to its file,
    which is there only once it has ended. A run stopped early ends the step still running."""
    ready = tmp_path / "site.ready"
    python = sys.executable
    waiting = tmp_path / "go"
    second = f"import pathlib, sys, time\nwhile not pathlib.Path({str(waiting)!r}).exists(): "
    second += "time.sleep(0.01)\nsys.exit(3)"
    steps = [[python, "-c", "print('compressed')"], [python, "-c", second]]
    running = dev.in_turn(steps, ready)
    try:
        dev.finish(running)  # the first step's end, not the second's
        assert running.poll() is None and not ready.exists()
        waiting.touch()
        assert running.wait(timeout=30) == 3
        assert ready.read_text() == "3"
    finally:
        dev.stopped(running)
    failing = dev.in_turn([[python, "-c", "import sys; sys.exit(5)"]], None)
    with pytest.raises(SystemExit) as stopped:
        dev.finish(failing)
    assert stopped.value.code == 5
    dev.stopped(failing)
    forever = f"import os, time\nopen({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n"
    forever += "while True: time.sleep(0.01)"
    hung = dev.in_turn([[python, "-c", forever]], None)
    step = int(waited_for(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text()))
    dev.stopped(hung)
    waited_for(lambda: not alive(step))  # the step itself, not only the one running it


def waited_for(condition: Callable[[], object], seconds: float = 10) -> object:
    """Another process's state, looked at until it holds (nothing here can wait on it)."""
    deadline = time.monotonic() + seconds
    while not (held := condition()):
        assert time.monotonic() < deadline, "not reached"
        time.sleep(0.01)
    return held


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_full_command_runs_two_workers_more_than_cores_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dev.os, "cpu_count", lambda: 2)
    assert recorded_test_run(monkeypatch, [])[-1][3:] == ["-n", "4", "--dist", "worksteal"]
    assert recorded_test_run(monkeypatch, ["-n", "0"])[-1][3:] == ["-n", "0"]
    assert recorded_test_run(monkeypatch, ["-p", "no:xdist"])[-1][3:] == ["-p", "no:xdist"]


def test_a_python_without_venv_support_names_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    monkeypatch.setattr(dev, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(dev, "PYTHON", tmp_path / ".venv" / "bin" / "python")
    real_find_spec = dev.importlib.util.find_spec
    monkeypatch.setattr(
        dev.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "ensurepip" else real_find_spec(name, *a),
    )
    with pytest.raises(SystemExit) as stopped:
        dev.ensure_environment("test")
    assert stopped.value.code == 1
    assert "sudo apt install python3-venv" in capsys.readouterr().out
    assert not (tmp_path / ".venv").exists()


def test_the_tests_run_on_two_workers_more_than_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dev.os, "cpu_count", lambda: 2)
    assert dev.parallel([]) == ["-n", "4", "--dist", "worksteal"]
    assert dev.parallel(["-m", "not e2e"]) == ["-n", "4", "--dist", "worksteal"]
    assert dev.parallel(["-n", "1"]) == []  # the caller's choice
    assert dev.parallel(["-p", "no:xdist"]) == []


def test_the_tests_keep_compiled_modules_where_the_environment_says_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    dev.keep_compiled_modules()
    assert "PYTHONDONTWRITEBYTECODE" not in dev.os.environ


@pytest.mark.parametrize(
    ("arguments", "display", "fetched"),
    [([], ":0", True), (["--web"], ":0", False), (["--share"], ":0", False), ([], None, False)],
)
def test_start_fetches_the_window_client_before_a_window_is_wanted(
    monkeypatch: pytest.MonkeyPatch, arguments: list[str], display: str | None, fetched: bool
) -> None:
    """While the machine is online, at setup, so that a start without internet later opens the
    window too; not where no window will open (a browser is asked for, no screen)."""
    ran: list[list[str]] = []
    # Whatever the run sets for its tests goes with this test (set, then unset: restored).
    monkeypatch.setenv(dev.SITE_VARIABLE, "")
    monkeypatch.delenv(dev.SITE_VARIABLE)
    monkeypatch.setattr(dev, "ensure_environment", lambda extras: None)
    monkeypatch.setattr(dev, "compress_web_client", lambda: None)
    monkeypatch.setattr(dev, "run", lambda command: ran.append(command[1:]))

    def fetch(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        ran.append(command[1:])
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(dev.subprocess, "run", fetch)
    monkeypatch.setattr(dev.sys, "platform", "linux")
    if display is None:
        monkeypatch.delenv("DISPLAY", raising=False)
    else:
        monkeypatch.setenv("DISPLAY", display)
    dev.start(arguments)
    window_client = [["main.py", "--window-client"]] if fetched else []
    assert ran == [*window_client, ["main.py", *arguments]]


def test_start_without_a_window_client_to_be_had_opens_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """main.py --window-client said it has none (exit 3, its one line printed): the app is
    started for the browser, not made to try the download a second time."""
    ran: list[list[str]] = []
    # Whatever the run sets for its tests goes with this test (set, then unset: restored).
    monkeypatch.setenv(dev.SITE_VARIABLE, "")
    monkeypatch.delenv(dev.SITE_VARIABLE)
    monkeypatch.setattr(dev, "ensure_environment", lambda extras: None)
    monkeypatch.setattr(dev, "compress_web_client", lambda: None)
    monkeypatch.setattr(dev, "run", lambda command: ran.append(command[1:]))
    none = subprocess.CompletedProcess(["main.py"], dev.NO_CLIENT_EXIT)
    monkeypatch.setattr(dev.subprocess, "run", lambda command, **kwargs: none)
    monkeypatch.setattr(dev, "can_show_a_window", lambda arguments: True)
    dev.start(["--port", "8551"])
    assert ran == [["main.py", "--web", "--port", "8551"]]
