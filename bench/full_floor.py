"""How much of a tap's time is a full screen: Flet's floor app (bench/floor.py), and the same app
with a phone's screen full of static chips under its button (four cards of 21 chips, as a Black
Spy entry fills a phone), the same button tapped and timed the same way (`latency.tapped`), in
blocks of eight taps, in turn. Prints the medians and their ratio:

    .venv/bin/python bench/full_floor.py

The floor's screen is nearly empty; every frame of an app's screen composites all of it, so an
app whose tap changes one text as the floor's does is slower than the floor by this ratio.
"""

from __future__ import annotations

import statistics
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

import floor  # noqa: E402
import latency  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tools.browser import PHONE, launch, open_app  # noqa: E402

# The floor app (bench/floor.py) with four cards of chips under its button; chips read A to G,
# so that no chip says the count the tap's answer is recognised by.
FULL_APP = textwrap.dedent(
    """
    import sys
    import flet as ft
    import uvicorn

    def chips():
        return ft.Row(
            [
                ft.Chip(label=ft.Text(chr(65 + value)), selected=value == 0, on_select=print)
                for value in range(7)
            ],
            wrap=True,
        )

    def card(number):
        heading = ft.Text(f"Player {number}", weight=ft.FontWeight.BOLD)
        return ft.Card(ft.Container(ft.Column([heading, chips(), chips(), chips()]), padding=10))

    def main(page: ft.Page) -> None:
        count = ft.Text("0")

        def add(event):
            count.value = str(int(count.value) + 1)

        page.scroll = ft.ScrollMode.AUTO
        page.add(ft.Row([count, ft.Button("Add", on_click=add)]), *[card(n) for n in range(4)])

    app = ft.run(main, export_asgi_app=True, no_cdn=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
    """
)
BLOCKS, TAPS = 6, 8


def main() -> None:
    plain_app = floor.FLOOR_APP
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            with floor.floor_app() as plain:
                floor.FLOOR_APP = FULL_APP  # floor_app serves what this names
                with floor.floor_app() as full:
                    print(compared(browser, plain.url, full.url))
        finally:
            floor.FLOOR_APP = plain_app
            browser.close()


def compared(browser: Any, plain_url: str, full_url: str) -> dict[str, float]:
    """The medians of the two apps' taps (ms), and their ratio."""
    pages = {}
    for name, url in (("plain", plain_url), ("full", full_url)):
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(latency.TIMING)
        pages[name] = open_app(context, url)
    taps: dict[str, list[float]] = {"plain": [], "full": []}
    for block in range(BLOCKS):
        for name in ("plain", "full") if block % 2 == 0 else ("full", "plain"):
            page = pages[name]
            for _ in range(TAPS):
                count = str(len(taps[name]) + 1)  # the text beside the button counts the taps
                taps[name].append(latency.tapped(page, latency.control(page, floor.BUTTON), count))
    medians = {name: round(statistics.median(times), 1) for name, times in taps.items()}
    return {**medians, "ratio": round(medians["full"] / medians["plain"], 2)}


if __name__ == "__main__":
    main()
