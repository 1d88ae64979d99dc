"""Serve the app to a browser on this computer only (or, with ``--share``, also to the phones
on the local network), behind the guard.

Flet's own web server accepts any Origin and Host, and reads environment variables that change
where and what it serves. So the app is built as Flet's ASGI app (`ft.run(...,
export_asgi_app=True)`), wrapped in `Guard`, and served by our own uvicorn on 127.0.0.1 with
the settings Flet uses. Environment variables that would widen what is exposed are removed
before Flet can read them (`sanitize_environment`).
"""

from __future__ import annotations

import os
import secrets
import socket
import webbrowser
from collections.abc import Callable
from typing import Any

import flet as ft

from views.sharing import Sharing

from .guard import Addresses, Guard

LOOPBACK = "127.0.0.1"
EVERY_ADDRESS = "0.0.0.0"
# Flet reads these at start: each could move the server to another address or port, serve a
# folder of the user's choosing, add an upload route or rename the routes the guard knows.
WIDENING_VARIABLES = (
    "FLET_SERVER_IP",
    "FLET_SERVER_PORT",
    "FLET_SERVER_UDS_PATH",
    "FLET_FORCE_WEB_SERVER",
    "FLET_ASSETS_DIR",
    "FLET_UPLOAD_DIR",
    "FLET_MAX_UPLOAD_SIZE",
    "FLET_SECRET_KEY",
    "FLET_WEB_APP_PATH",
    "FLET_WEB_PATH",
    "FLET_WEBSOCKET_HANDLER_ENDPOINT",
    "FLET_UPLOAD_HANDLER_ENDPOINT",
    "FLET_OAUTH_CALLBACK_HANDLER_ENDPOINT",
    "FLET_DISPLAY_URL_PREFIX",
)
# A backup of 10,000 games is about 35 MB and travels as one websocket message when imported
# in the browser; uvicorn's default limit (16 MiB) would drop it without a word.
WEBSOCKET_MAX_BYTES = 128 * 1024 * 1024


def sanitize_environment(keep: tuple[str, ...] = ()) -> list[str]:
    """Remove the variables that would widen what Flet serves, but those in `keep`; returns
    the names removed."""
    dropped = [name for name in WIDENING_VARIABLES if name not in keep]
    removed = [name for name in dropped if os.environ.get(name)]
    for name in dropped:
        os.environ.pop(name, None)
    return removed


def launch_secret() -> str:
    """A new secret per launch, or $DEBRIEF_SECRET (for scripts and tests)."""
    return os.environ.get("DEBRIEF_SECRET") or secrets.token_urlsafe(32)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (not the loopback), best guess first:
    the one a packet to the local network would leave from, then every one the name has."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: it only picks a route
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [str(info[4][0]) for info in infos]
    return [a for a in dict.fromkeys(found) if not a.startswith("127.") and a != EVERY_ADDRESS]


def told(pin: str) -> None:
    """A new PIN after too many wrong ones: the host reads it here (and in the app)."""
    print(f"New scorers' PIN (too many wrong tries): {pin}", flush=True)


def serve(
    make_main: Callable[[Sharing | None], Callable[[ft.Page], Any]],
    port: int,
    assets_dir: str,
    open_browser: bool = True,
    share: bool = False,
) -> None:
    """Serve the app on 127.0.0.1:`port` until stopped; prints (and opens) the link. With
    `share`, also on every network address, with a share link and a PIN for the table."""
    import uvicorn  # comes with flet-web, which a phone build does not carry

    secret = launch_secret()
    addresses = Addresses.local(port)
    host = LOOPBACK
    sharing = None
    guest_secret = None
    if share:
        lan = network_addresses()
        addresses = Addresses.local(port, ("127.0.0.1", "localhost", *lan))
        host = EVERY_ADDRESS
        guest_secret = secrets.token_urlsafe(8)  # 64 bits: short to type, not to guess
        where = lan[0] if lan else LOOPBACK
        sharing = Sharing(link=f"http://{where}:{port}/?share={guest_secret}", on_new_pin=told)
    flet_app = ft.run(make_main(sharing), export_asgi_app=True, assets_dir=assets_dir, no_cdn=True)
    guarded = Guard(
        flet_app, secret, addresses, cookie=f"debrief-key-{port}", guest_secret=guest_secret
    )
    config = uvicorn.Config(
        guarded,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WEBSOCKET_MAX_BYTES,
        log_level="warning",
    )
    link = f"http://{LOOPBACK}:{port}/?key={secret}"
    if sharing is None:
        print(f"Debrief is served at {link} (on this computer only)", flush=True)
    else:
        print(f"Debrief is served at {link} (the host: open this one yourself)", flush=True)
        print(f"Sharing the table on the local network ({host}:{port}, plain HTTP):", flush=True)
        for address in sorted(addresses.hosts):
            print(f"  answering to http://{address}", flush=True)
        print(f"Guests open: {sharing.link}", flush=True)
        print(f"Scorers' PIN: {sharing.pin}", flush=True)
    if open_browser:
        webbrowser.open(link)
    uvicorn.Server(config).run()
