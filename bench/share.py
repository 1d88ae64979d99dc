"""Shared-table benchmark: how long after the host's save a viewer's phone shows it.

    python bench/share.py [--samples 50]

Serves the app with --share, opens the host and a viewer (the share link) in Chromium at
400 x 800, and times, from the host's tap to the viewer's accessibility tree showing the new
total: a deal saved, then undone (each a sample). Prints one JSON line; it asserts nothing.
  save_to_viewer_ms.median / .max   over every sample
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ui import chip, open_cards_entry, shown, start_game  # noqa: E402

from tools.browser import AppServer, chromium, open_app, tap  # noqa: E402

NAMES = ["Anna", "Ben", "Carla"]
SHOWS = """label => [...document.querySelectorAll('flt-semantics')]
    .some(e => e.getAttribute('aria-label') === label
        || e.textContent === label)"""


def timed(viewer, action, label: str) -> float:  # type: ignore[no-untyped-def]
    """Milliseconds from `action` (a tap on the host) until the viewer shows `label`."""
    start = time.perf_counter()
    action()
    viewer.wait_for_function(SHOWS, arg=label, polling="raf", timeout=30_000)
    return (time.perf_counter() - start) * 1000


def gone(viewer, action, label: str) -> float:  # type: ignore[no-untyped-def]
    """Milliseconds from `action` until the viewer no longer shows `label`."""
    start = time.perf_counter()
    action()
    viewer.wait_for_function(f"label => !({SHOWS})(label)", arg=label, polling="raf")
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        server = AppServer(Path(folder) / "data", args=["--share"]).start()
        try:
            host = open_app(browser, server.url)
            start_game(host, "Black Spy", NAMES)
            tap(host, "Start Black Spy")
            viewer = open_app(browser, server.printed("Guests open:"))
            shown(viewer, "Scoresheet")
            while len(samples) < args.samples:
                open_cards_entry(host, "Enter deal 1")
                chip(host, "Anna: black Spies: 1")  # 10 for Anna; Carla's pile takes the rest
                save = host.get_by_role("button", name="Save deal", exact=True)
                samples.append(timed(viewer, save.click, "Anna: total 10"))
                undo = host.get_by_role("button", name="Undo: save deal 1", exact=True)
                undo.wait_for()
                samples.append(gone(viewer, undo.click, "Anna: total 10"))
                host.get_by_role("button", name="Enter deal 1", exact=True).wait_for()
        finally:
            server.stop()
    figures = {
        "samples": len(samples),
        "save_to_viewer_ms": {
            "median": round(statistics.median(samples), 1),
            "max": round(max(samples), 1),
        },
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
