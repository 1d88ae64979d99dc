"""`--cpu-report` (tests/cpu_report.py): a line per test with its CPU and what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

SPENDING = """
import time

from tools import browser


def test_spends_cpu():
    until = time.process_time() + 0.4
    while time.process_time() < until:
        pass


def test_loads_and_types():
    for load in (browser.accessible, browser.accessible, browser.type_text):
        try:
            load(None)  # no page: counted as it is called, then it fails
        except Exception:
            pass
"""
CONFTEST = "from cpu_report import add_option as pytest_addoption, configure as pytest_configure\n"


def test_each_test_gets_a_line_with_its_cpu_and_what_it_did(tmp_path: Path) -> None:
    (tmp_path / "test_spending.py").write_text(SPENDING)
    (tmp_path / "conftest.py").write_text(CONFTEST)
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)])}
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q"]
    done = subprocess.run(
        [*command, f"--rootdir={tmp_path}", "--cpu-report", str(report), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    spent, loaded = lines
    assert spent["test"].endswith("test_spends_cpu")
    assert spent["cpu_s"] >= 0.3, spent  # the machine's busy CPU holds the test's own
    assert spent["wall_s"] >= 0.3, spent
    assert (spent["loads"], spent["taps"], spent["texts"]) == (0, 0, 0)
    assert (loaded["loads"], loaded["taps"], loaded["texts"]) == (2, 0, 1), loaded
