"""The CPU a tap costs in the browser tests, by process, against Flet's floor: a minimal Flet
app whose one button updates one text, served and tapped the same way in the same run.

    .venv/bin/python bench/tap_cost.py [--taps 30]

Each tap is the tests' own (`tools.browser.click_answered`, then `settled`), in Chromium at
400×800 with the tests' flags and animation speed. Prints one JSON line per kind of tap: CPU
milliseconds per tap for Chromium's renderer, its GPU process, the rest of Chromium,
Playwright's driver, this client and the app's server, in all, and the animation frames the
page asked for per tap. The browser tests are bound by this CPU (docs/testing.md). Linux only:
the CPU is read from /proc.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from floor import BUTTON, floor_app  # noqa: E402

from tools import browser  # noqa: E402


def kind(pid: int) -> str | None:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    line = b" ".join(argv).decode(errors="replace")
    if pid == os.getpid():
        return "client"
    if "chrom" in line:
        for process in ("renderer", "gpu-process"):
            if f"--type={process}" in line:
                return process.removesuffix("-process")
        return "chromium, other"
    if "node" in Path(argv[0].decode(errors="replace")).name:
        return "driver"
    return "server" if "python" in line else None


def cpu_by_kind() -> Counter[str]:
    """CPU seconds used so far by this process and those below it, by kind."""
    spent: Counter[str] = Counter()
    running = browser.processes()
    for pid in [os.getpid(), *browser.descendants(os.getpid(), running)]:
        name = kind(pid)
        if name is not None:
            spent[name] += running[pid][1]
    return spent


def measure(page: Any, taps: list[Any], count: int) -> dict[str, Any]:
    """Tap the targets in turn, `count` taps, as the tests tap; CPU and frames per tap."""
    browser.settled(page)
    frames = int(page.evaluate("window.__debrief.framesAsked"))
    before = cpu_by_kind()
    for index in range(count):
        browser.click_answered(page, taps[index % len(taps)], "bench")
        browser.settled(page)
    after = cpu_by_kind()
    asked = int(page.evaluate("window.__debrief.framesAsked")) - frames
    per_tap = {name: round((after[name] - before[name]) * 1000 / count) for name in after}
    return {
        "cpu_ms_per_tap": dict(sorted(per_tap.items())),
        "in_all_ms": sum(per_tap.values()),
        "frames_per_tap": round(asked / count, 1),
    }


def button(page: Any, name: str, role: str = "button") -> Any:
    return page.get_by_role(role, name=name, exact=True).first


def kinds_of_tap(context: Any, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    from ui import start_game  # type: ignore[import-not-found]

    with floor_app() as floor:
        page = browser.open_app(context, floor.url)
        add = button(page, BUTTON)
        add.wait_for()
        yield "floor: Flet's one button", measure(page, [add], count)
        page.close()
    with tempfile.TemporaryDirectory() as folder:
        server = browser.AppServer(Path(folder) / "data").start()
        try:
            page = browser.open_app(context, server.url)
            start_game(page, "Black Spy", ["Anna", "Ben", "Carla", "Dirk"])
            browser.tap(page, "Start Black Spy")
            browser.tap(page, "Enter deal 1")  # the quick entry: a number pad
            pad = [button(page, "7"), button(page, "Delete a digit")]
            yield "Debrief: a number pad key", measure(page, pad, count)
            browser.tap(page, "Cards")
            chips = [button(page, f"Anna: black Spies: {n}", "checkbox") for n in (1, 0)]
            yield "Debrief: a count chip", measure(page, chips, count)
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=30, help="taps of each kind (default 30)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    browser.animation_speed = float(os.environ.get("DEBRIEF_TEST_ANIMATION_SPEED") or 100)
    browser.optimizing_compiler = os.environ.get("DEBRIEF_TEST_OPTIMIZE") == "1"  # as the tests
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = browser.launch_phone(driver, Path(profile))
        try:
            for name, figures in kinds_of_tap(context, args.taps):
                print(json.dumps({"tap": name, **figures}), flush=True)
        finally:
            context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
