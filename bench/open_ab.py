"""Opening a game, this tree against another version of it, in one run: two servers side by
side, tapped in turn, so that both meet the same machine (its spread between runs is larger
than most single changes).

    .venv/bin/python bench/open_ab.py --before 33d1cc1 [--taps 10] [--blocks 6]
    .venv/bin/python bench/open_ab.py --patch my_change [--taps 10] [--blocks 6]

`--before COMMIT`: that commit, checked out in a temporary git worktree, is A; this tree is B.
`--patch MODULE`: this tree is A, and B is this tree with MODULE (found on `PYTHONPATH` or in
the current folder) imported when its Python starts, before the app: a change tried without
being made.

Both serve the games bench/latency.py plays; each block opens Black Spy at deal 40 and at
deal 8 `--taps` times on each server (the order of the servers switched every block), timed as
bench/latency.py times a tap (`tapped`: from the click's release to the painting of the answer),
Back untimed, then the screen left to settle. Prints one JSON line: per deal, the median
milliseconds of A and B and B's ratio (`open_game`), and the same of the browser's work for a
visit, the opening and the Back until the screen is still (`browser_work`: Chromium's own count
of its page's main thread, `TaskDuration`; what a phone's processor spends, whether or not the
player waits for it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEALS = (40, 8)


@contextmanager
def servers(folder: Path, before: str | None, patch: str | None) -> Iterator[list[Any]]:
    """Server A and server B, each on its own copy of the bench's games."""
    import latency

    from tools.browser import AppServer

    for side in ("a", "b"):
        latency.seed(folder / side)
    with ExitStack() as stack:
        if before is not None:
            worktree = stack.enter_context(latency.checked_out(before, folder / "before"))
            a = AppServer(folder / "a", root=worktree)
            b = AppServer(folder / "b", env={"DEBRIEF_SIDE": "b"})
        else:
            (folder / "shim").mkdir()
            (folder / "shim" / "sitecustomize.py").write_text(f"import {patch}\n")
            path = os.pathsep.join(
                [str(folder / "shim"), os.getcwd(), os.environ.get("PYTHONPATH", "")]
            )
            # Both in a Python of their own (B needs one to load the patch first).
            a = AppServer(folder / "a", env={"DEBRIEF_SIDE": "a"})
            b = AppServer(folder / "b", env={"PYTHONPATH": path})
        started = []
        for server in (a, b):
            stack.callback(server.stop)
            started.append(server.start())
        yield started


def compare(before: str | None, patch: str | None, taps: int, blocks: int) -> dict[str, Any]:
    import latency

    from tools.browser import chromium

    with (
        tempfile.TemporaryDirectory() as temporary,
        chromium() as browser,
        servers(Path(temporary), before, patch) as (a, b),
        latency.opened(browser, [a.url, b.url], counting=False) as pages,
    ):
        found = opened_in_turn(dict(zip("AB", pages, strict=True)), taps, blocks)
    return {
        "open_game": medians(found["opening"]),
        "browser_work": medians(found["work"]),
        "taps": taps * blocks,
    }


def medians(found: dict[str, dict[int, list[float]]]) -> dict[str, dict[str, float]]:
    """Per deal: the median milliseconds of A and B, and B's ratio to A."""
    result = {}
    for deal in sorted(DEALS):
        a_ms, b_ms = (statistics.median(found[side][deal]) for side in "AB")
        ratio = round(b_ms / a_ms, 3)
        result[str(deal)] = {"a_ms": round(a_ms, 1), "b_ms": round(b_ms, 1), "ratio": ratio}
    return result


def opened_in_turn(
    pages: dict[str, Any], taps: int, blocks: int
) -> dict[str, dict[str, dict[int, list[float]]]]:
    """Milliseconds of each opening and of the browser's work for each visit, by side and deal:
    `blocks` blocks of `taps` openings of each game on each side, the sides' order switched
    every block."""
    import re

    import latency

    from tools.browser import settled, tap

    found: dict[str, dict[str, dict[int, list[float]]]] = {
        measure: {side: {} for side in pages} for measure in ("opening", "work")
    }
    work = {side: browser_work(page) for side, page in pages.items()}
    for page in pages.values():
        latency.control(page, "New game").wait_for()
        settled(page)
    for block in range(blocks):
        for deal in DEALS:
            names = ", ".join(latency.BLACK_SPY[deal])
            row = re.compile(rf"^{re.escape('Black Spy · ' + names)}\b")
            for side in sorted(pages, reverse=block % 2 == 1):
                page = pages[side]
                for _ in range(taps):
                    before = work[side]()
                    took = latency.tapped(page, latency.control(page, row), f"Enter deal {deal}")
                    tap(page, "Back")
                    settled(page)
                    found["opening"][side].setdefault(deal, []).append(took)
                    found["work"][side].setdefault(deal, []).append(work[side]() - before)
    return found


def browser_work(page: Any) -> Callable[[], float]:
    """Milliseconds of work the page's main thread has done so far (Chromium's `TaskDuration`:
    scripts, layout, painting), read through a DevTools session of its own."""
    session = page.context.new_cdp_session(page)
    session.send("Performance.enable")

    def so_far() -> float:
        metrics = session.send("Performance.getMetrics")["metrics"]
        return 1000 * next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    return so_far


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--before", help="the commit served as A (this tree is B)")
    which.add_argument("--patch", help="a module B imports at its start (this tree is A)")
    parser.add_argument("--taps", type=int, default=10, help="openings of each game a block")
    parser.add_argument("--blocks", type=int, default=6)
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]
    print(json.dumps(compare(args.before, args.patch, args.taps, args.blocks)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
