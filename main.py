"""Debrief: the scorepad for spy card games.

    python main.py                      # the app in a window (it can share its table too)
    python main.py --web --port 8550    # in a browser, served on localhost only, offline
    python main.py --share              # also to the phones on the local network (a link, a PIN)

Both use $DEBRIEF_DATA_DIR (or --data-dir) for the data folder. In a browser the app is behind
a guard (web/guard.py): it prints a link with a per-launch key, and answers nothing else.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

import flet as ft

from storage import browser
from storage.errors import OpenInAnotherTab
from storage.paths import data_directory
from views.app import make_main
from views.connection_note import note_texts
from views.i18n import system_language, translator

# A built app's Flutter host tells its Python where to connect (on this device only).
BUILT_APP_CONNECTION = ("FLET_SERVER_UDS_PATH", "FLET_SERVER_PORT")

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")


def no_display() -> bool:
    """A Linux machine without an X display cannot open the app's window (Flet itself checks
    only DISPLAY and would then start its own, unguarded, web server)."""
    return sys.platform.startswith("linux") and not os.environ.get("DISPLAY")


# The window is Flet's desktop client, which flet-desktop downloads from Flet's releases at its
# first start (not in its wheel) and keeps in ~/.flet/client/.
NO_WINDOW_CLIENT = (
    "The window needs Flet's desktop client, which is downloaded once; no internet now: "
    "opening Debrief in your browser instead."
)
NO_DESKTOP_PACKAGE = (
    "The window needs Flet's desktop package (flet-desktop), which is not installed here: "
    "opening Debrief in your browser instead."
)
WINDOW_CLIENT_WAIT = 20  # seconds without a byte from the download: the network is not there
NO_CLIENT_EXIT = 3  # `--window-client` found none


def window_client() -> Path | None:
    """Flet's desktop client, from its cache or downloaded into it now; None when it is
    neither there nor downloadable (no internet, its host unreachable, a broken download)."""
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(WINDOW_CLIENT_WAIT)  # a silent network fails in seconds
    try:
        import flet_desktop

        return Path(flet_desktop.ensure_client_cached())
    except Exception as error:  # any failure means the same: no window, the browser instead
        logging.getLogger(__name__).info("no window client: %r", error)
        return None
    finally:
        socket.setdefaulttimeout(previous)


def why_no_window() -> str | None:
    """The line that says why the window cannot open (its client neither kept nor
    downloadable, or no desktop package at all), or None when it can."""
    if importlib.util.find_spec("flet_desktop") is None:
        return NO_DESKTOP_PACKAGE
    return None if window_client() else NO_WINDOW_CLIENT


def run_in_browser(folder: Path) -> None:
    """The static site's app (tools/publish.py): its data kept in the browser
    (storage/browser.py), opened by one tab at a time."""
    app = make_main(str(folder))

    async def with_the_data_kept(page: ft.Page) -> None:
        await browser.mount(folder)
        connection: Any = page.session.connection
        connection.send_callback = browser.sent_when_kept(connection.send_callback)

    async def once_this_tab_holds_the_data(page: ft.Page) -> None:
        if not browser.Tab.holds_the_data:
            told = translator(system_language(browser.languages())).problem(OpenInAnotherTab())
            page.add(ft.SafeArea(ft.Text(told, semantics_label=told)))
            await browser.mount_when_free(folder)
            page.clean()
        await app(page)

    ft.run(once_this_tab_holds_the_data, before_main=with_the_data_kept, assets_dir=ASSETS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="debrief", description="Debrief: the spy games scorepad")
    parser.add_argument("--web", action="store_true", help="serve the app to a browser")
    parser.add_argument(
        "--port", type=int, default=8550, help="port for --web (default 8550; sharing: the next)"
    )
    parser.add_argument("--data-dir", help="data folder (default: $DEBRIEF_DATA_DIR)")
    parser.add_argument(
        "--no-browser", action="store_true", help="with --web: do not open a browser"
    )
    parser.add_argument(
        "--share",
        action="store_true",
        help="share the table on the local network (plain HTTP; guests need the printed link)",
    )
    parser.add_argument(
        "--window-client",
        action="store_true",
        help="download the window's client now (once, while online) and exit (3: none)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    if browser.IN_BROWSER:  # the static site (tools/publish.py): Python in the page
        run_in_browser(data_directory(args.data_dir))
        return 0
    # Not imported with this module: the static site's start in a phone's browser does without
    # the web server's modules (its guard, limits and compressed copies, and their imports).
    from web.serve import sanitize_environment

    if os.environ.get("FLET_PLATFORM"):  # Flet's own test of a built app (is_embedded)
        # A `flet build` app (a phone): Flet's own Flutter host starts this and connects
        # through the settings it gives; nothing is served to a network, and neither the web
        # server nor the desktop runtime is installed.
        sanitize_environment(keep=BUILT_APP_CONNECTION)
        ft.run(make_main(args.data_dir), assets_dir=ASSETS)
        return 0
    from web.serve import serve, window_sharing  # the web server: desktops only

    for name in sanitize_environment():
        print(f"Ignoring {name}: Debrief decides itself where and what it serves.", flush=True)
    if args.window_client:  # tools/dev.py start, at setup: exit 3 for "the browser, then"
        missing = why_no_window()
        print(missing or "The window's client is ready.", flush=True)
        return NO_CLIENT_EXIT if missing else 0
    if not args.web and no_display():
        print("No screen here: serving Debrief to a browser instead.", flush=True)
        args.web = True
    if args.share:
        args.web = True
    if not args.web:
        missing = why_no_window()
        if missing:
            print(missing, flush=True)
            args.web = True
    if args.web:
        serve(
            lambda sharing: make_main(args.data_dir, sharing),
            args.port,
            ASSETS,
            note_texts,
            open_browser=not args.no_browser,
            share=args.share,
        )
    else:
        sharing = window_sharing(
            lambda shared: make_main(args.data_dir, shared), args.port, ASSETS, note_texts
        )
        ft.run(make_main(args.data_dir, sharing), assets_dir=ASSETS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
