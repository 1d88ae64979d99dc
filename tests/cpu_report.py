"""What each test costs the machine: `--cpu-report FILE` appends one JSON line per test to
FILE: the machine's busy CPU seconds while it ran (all processes: the app's server, Chromium,
Playwright's driver, this one), its wall seconds, and what a browser test did that costs most:
the app's page loads, taps and texts typed (`tools.browser.accessible`, `click_answered` and
`tap_unchanged`, `type_text`).

    python3 tools/dev.py test -p no:xdist --cpu-report /tmp/cpu.jsonl -m e2e

The busy CPU is the whole machine's (read from /proc/stat, Linux only), so run the tests one at a
time (`-p no:xdist`) on an otherwise idle machine: then each line is that test's own cost.
docs/testing.md gives what the browser tests' lines said on 2026-11-27.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# What a browser test did, by the tools.browser function each thing goes through.
COUNTED = {
    "accessible": "loads",
    "click_answered": "taps",
    "tap_unchanged": "taps",
    "type_text": "texts",
}


def busy_cpu_seconds() -> float:
    """The CPU seconds the machine's cores have been busy since it started (not idle, not
    waiting for the disk)."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, *rest = map(int, stat.readline().split()[1:])
    return (user + nice + system + sum(rest)) / os.sysconf("SC_CLK_TCK")  # its unit, USER_HZ


def add_option(parser: pytest.Parser) -> None:
    """`pytest_addoption` (tests/conftest.py)."""
    parser.addoption(
        "--cpu-report",
        metavar="FILE",
        help="append each test's busy CPU, wall time, page loads, taps and texts to FILE as a "
        "JSON line (tests/cpu_report.py; run with -p no:xdist)",
    )


def configure(config: pytest.Config) -> None:
    """`pytest_configure` (tests/conftest.py): the report, if asked for, before the tests'
    modules import tools.browser's functions."""
    report = config.getoption("--cpu-report")
    if report:
        config.pluginmanager.register(CpuReport(Path(report)), "cpu-report")


class CpuReport:
    """The pytest plugin `--cpu-report` registers: counts what `COUNTED` names and writes a
    line after each test."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: Counter[str] = Counter()
        from tools import browser

        for name, kind in COUNTED.items():
            setattr(browser, name, self.counting(getattr(browser, name), kind))

    def counting(self, function: Callable[..., Any], kind: str) -> Callable[..., Any]:
        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.done[kind] += 1
            return function(*args, **kwargs)

        return counted

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        self.done.clear()
        cpu, wall = busy_cpu_seconds(), time.monotonic()
        yield
        line = {
            "test": item.nodeid,
            "cpu_s": round(busy_cpu_seconds() - cpu, 2),
            "wall_s": round(time.monotonic() - wall, 2),
            **{kind: self.done[kind] for kind in sorted(set(COUNTED.values()))},
        }
        with self.path.open("a", encoding="utf-8") as report:
            report.write(json.dumps(line) + "\n")
