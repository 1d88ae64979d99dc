"""The static site (tools/publish.py): what a first visit downloads and how soon the app starts.

    python bench/site.py [--starts 5] [--dist DIST]

Publishes the site (or takes DIST as published), serves it on loopback as a static HTTPS host
would (tools/site_server.py: brotli copies), and opens it in Chromium at 400 x 800 as a new
phone: the first visit's bytes on the wire (the files' bodies, brotli; headers left out) and
its time to the home screen's "New game", then, with the network cut, `--starts` starts from
what the service worker kept (each a new tab), timed the same way. Prints one JSON line; it
asserts nothing (tests/test_e2e_site.py checks the bytes).
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
sys.path[:0] = [str(ROOT)]

from tools import site_server  # noqa: E402
from tools.browser import PHONE, chromium  # noqa: E402
from tools.publish import publish  # noqa: E402


def to_home_screen(context, url: str) -> float:  # type: ignore[no-untyped-def]
    """Seconds from opening `url` in a new tab to the home screen's New game."""
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    page.get_by_role("button", name="New game").wait_for(timeout=120_000)
    elapsed = time.perf_counter() - start
    page.close()
    return elapsed


def measure(dist: Path, starts: int) -> dict[str, object]:
    server = site_server.start(dist)
    url = f"http://localhost:{server.server_address[1]}/"
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE)
        first_visit_s = to_home_screen(context, url)
        first_visit_bytes = server.sent
        context.set_offline(True)
        offline = [to_home_screen(context, url) for _ in range(starts)]
    server.shutdown()
    return {
        "first_visit_bytes": first_visit_bytes,
        "first_visit_s": round(first_visit_s, 2),
        "offline_start_s": {
            "first": round(offline[0], 2),
            "median": round(statistics.median(offline), 2),
            "max": round(max(offline), 2),
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--dist", help="a site published already (default: publish one now)")
    args = parser.parse_args()
    if args.dist:
        figures = measure(Path(args.dist), args.starts)
    else:
        with tempfile.TemporaryDirectory() as scratch:
            dist = Path(scratch) / "dist"
            publish(dist)
            figures = measure(dist, args.starts)
    print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
