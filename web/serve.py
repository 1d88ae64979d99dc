"""Serve the app to a browser on this computer only, behind the guard; while the host shares a
table, also to the phones on the local network, through a door of their own.

Flet's own web server accepts any Origin and Host, and reads environment variables that change
where and what it serves. So the app is built as Flet's ASGI app (`ft.run(...,
export_asgi_app=True)`), wrapped in `Guard`, and served by our own uvicorn on 127.0.0.1 with
the settings Flet uses. Environment variables that would widen what is exposed are removed
before Flet can read them (`sanitize_environment`).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import secrets
import socket
import webbrowser
from collections.abc import Callable
from typing import Any

import flet as ft

from storage.compressed import CompressedCopies

from .connection_note import SHARING_STOPPED, ConnectionNote, NoteTexts
from .guard import Addresses, Guard
from .limits import (
    GUEST_MESSAGE_BYTES,
    GUEST_SESSION_SECONDS,
    Connections,
    Rate,
    Throttle,
    door_protocol,
    drop_events_for_unknown_controls,
    raise_open_files,
)
from .precompressed import Precompressed, client_files, prepare_in_background
from .sharing import GuestSession, Sharing

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


def server_config(app: Any, host: str, port: int, **options: Any) -> Any:
    """uvicorn's settings for serving Flet's app (the websocket implementation Flet uses, room
    for a big import), the host's and the guests' alike; `options` add to them."""
    import uvicorn  # comes with flet-web, which a phone build does not carry

    settings: dict[str, Any] = {
        "ws": "websockets-sansio",
        "ws_max_size": WEBSOCKET_MAX_BYTES,
        "log_level": "warning",
        "proxy_headers": False,  # a peer's address is its socket's, never a header's
        **options,
    }
    return uvicorn.Config(app, host=host, port=port, **settings)


def guest_socket(preferred_port: int) -> socket.socket:
    """A listening socket on every address for the guests' door: `preferred_port` if it is
    free, else one the system picks (the link and QR code carry it either way)."""
    for port in (preferred_port, 0):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((EVERY_ADDRESS, port))
            return sock
        except OSError:
            sock.close()
            if port == 0:
                raise
    raise AssertionError("unreachable")


class NetworkDoor:
    """The guests' way in while a table is shared: a second server, on every address and a port
    of its own, guarded by a guest secret only (the host's key opens nothing there). The host's
    server stays on 127.0.0.1. Both run in the same event loop and share the store, so guests'
    sessions and the host's follow each other's changes; the guests' Flet app is one of its
    own, whose sessions Flet drops soon after their phone has gone.

    Each `open` makes a new secret; `close` stops the server (every guest connection closes)
    and ends the guests' sessions. What a link holder may open, send and keep is limited
    (web/limits.py)."""

    def __init__(self, preferred_port: int) -> None:
        self.preferred_port = preferred_port
        self.app: Any = None  # the guests' Flet app, set once it is built
        self._guard: Guard | None = None
        self._server: Any = None
        self._serving: asyncio.Task[None] | None = None

    async def open(self, pin: str) -> str:
        import uvicorn
        from flet_web.fastapi import app_manager  # type: ignore[import-untyped]

        await app_manager.start()  # drops sessions whose time is up (the window has no server)
        secret = secrets.token_urlsafe(8)  # 64 bits: short to type, not to guess
        sock = guest_socket(self.preferred_port)
        port = int(sock.getsockname()[1])
        lan = network_addresses()
        addresses = Addresses.local(port, ("127.0.0.1", "localhost", *lan))
        guarded = Guard(
            self.app,
            None,
            addresses,
            cookie=f"debrief-share-{port}",
            guest_secret=secret,
            websockets=Rate(),
            messages=Throttle(),
        )
        config = server_config(
            guarded,
            EVERY_ADDRESS,
            port,
            lifespan="off",  # Flet's sessions are started and stopped by the host's server
            timeout_graceful_shutdown=5,
            ws_max_size=GUEST_MESSAGE_BYTES,
            # No compressed messages from guests: uvicorn inflates every message of a chunk
            # it reads before it pauses reading, and a few hundred bytes each inflated to the
            # limit above, hundreds of them from one chunk, queued for the app's turn. (What
            # the door sends a guest, a screen's changes, is small on a local network.)
            ws_per_message_deflate=False,
            http=door_protocol(Connections()),
            backlog=64,
        )
        config.load()
        self._guard = guarded
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        await server.startup(sockets=[sock])
        self._server = server
        self._serving = asyncio.create_task(self._serve(server, sock))
        link = f"http://{lan[0] if lan else LOOPBACK}:{port}/?share={secret}"
        print(f"Sharing the table on the local network ({EVERY_ADDRESS}:{port}, plain HTTP):")
        for address in sorted(addresses.hosts):
            print(f"  answering to http://{address}")
        print(f"Guests open: {link}")
        print(f"Scorers' PIN: {pin}", flush=True)
        return link

    @staticmethod
    async def _serve(server: Any, sock: socket.socket) -> None:
        await server.main_loop()
        await server.shutdown(sockets=[sock])

    async def end(self, session: GuestSession) -> None:
        await end_session(session)

    async def close(self, guest_sessions: list[GuestSession]) -> None:
        if self._server is None or self._serving is None:
            return
        try:
            if self._guard is not None:  # each phone is told, before its connection just ends
                await self._guard.close_websockets(SHARING_STOPPED)
        finally:
            self._server.should_exit = True
        await self._serving
        self._server = self._serving = None
        for session in guest_sessions:
            await end_session(session)
        print("Sharing stopped: every guest link and PIN has ended.", flush=True)


async def end_session(session: GuestSession) -> None:
    """Have Flet drop a session now (and close it). Flet 1.0.5 keeps its web sessions by a key
    of its own (page, session id and a hash of the client), so the session is found by itself."""
    from flet_web.fastapi import app_manager

    kept: dict[str, Any] = app_manager._FletAppManager__sessions
    for key, value in list(kept.items()):
        if value is session:
            await app_manager.delete_session(key)


def guests_flet_app(
    main: Callable[[ft.Page], Any], assets_dir: str, copies: CompressedCopies, texts: NoteTexts
) -> Any:
    """The Flet web app the guests' door serves: as `ft.run(..., export_asgi_app=True)` makes
    it, with sessions dropped `GUEST_SESSION_SECONDS` after their phone went (Flet's own
    default is an hour), its web client compressed (`copies`) and its pages saying when their
    connection ends (`texts`)."""
    import flet_web.fastapi as flet_fastapi  # type: ignore[import-untyped]

    app = flet_fastapi.FastAPI()
    app.mount(
        "/",
        flet_fastapi.app(
            main,
            assets_dir=os.path.abspath(assets_dir),
            no_cdn=True,
            session_timeout_seconds=GUEST_SESSION_SECONDS,
        ),
    )
    compressed = Precompressed(app, copies)
    return ConnectionNote(compressed, texts, compressed.page_config())


def compressed_client(assets_dir: str) -> CompressedCopies:
    """The web client's compressed copies, being made in the background if they are not yet
    (once per machine and version of Flet)."""
    copies = CompressedCopies(client_files(assets_dir))
    prepare_in_background(copies)
    return copies


MakeMain = Callable[[Sharing | None], Callable[[ft.Page], Any]]


def brief_message_text() -> None:
    """Flet 1.0.5's web transport formats every message it sends into a debug line, even with
    debug logging off (`send_message`: ``transport_log.debug(f"send_message: {message}")``):
    a message's text walks every control of the patch it carries, a fifth of a Save's time at
    deal 40. A message's text names its action only; the patch itself is sent unchanged."""
    from flet.messaging.protocol import Message

    def text(message: Message) -> str:
        return f"Message({message.action!r})"

    Message.__repr__ = text  # type: ignore[method-assign,assignment]


def closed_clients_dropped() -> None:
    """flet_web 1.0.5's `FletApp` drops its send queue when its client's socket closes (the end
    of `__send_loop`), a moment before the session lets go of the connection. A drawing or a
    note sent in that moment raised AttributeError into whatever drew it, on the host's side.
    A message for a closed client is dropped instead, as `FletApp.send_data_channel_frame`
    already drops a frame then."""
    from flet_web.fastapi.flet_app import FletApp  # type: ignore[import-untyped]

    send = FletApp.send_message
    if getattr(send, "_debrief_drops_closed", False):
        return

    def send_message(connection: Any, message: Any) -> None:
        if getattr(connection, "_FletApp__send_queue", None) is None:
            return  # the socket has closed (or never opened): nobody to tell
        send(connection, message)

    send_message._debrief_drops_closed = True  # type: ignore[attr-defined]
    FletApp.send_message = send_message


class ClientsMessageInOneLine(logging.Filter):
    """Flet's receive loop logs a message it cannot read with its traceback ("Receive loop
    error": a client that sent what is not Flet's protocol). That is the client's doing, and
    handled there (its connection ends): one line in the log, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Receive loop error"):
            record.exc_info = None
            record.exc_text = None
        return True


def clients_messages_in_one_line() -> None:
    """`ClientsMessageInOneLine` on Flet's web transport's log (once)."""
    flet_web = logging.getLogger("flet_web.fastapi")
    if not any(isinstance(f, ClientsMessageInOneLine) for f in flet_web.filters):
        flet_web.addFilter(ClientsMessageInOneLine())


def shared_table(
    make_main: MakeMain, port: int, assets_dir: str, copies: CompressedCopies, texts: NoteTexts
) -> Sharing:
    """The table's sharing: its door on port + 1 when free, serving the guests a Flet web app
    that `make_main` builds knowing the sharing."""
    raise_open_files()
    drop_events_for_unknown_controls()
    brief_message_text()
    clients_messages_in_one_line()
    closed_clients_dropped()
    door = NetworkDoor(port + 1)
    sharing = Sharing(door)
    door.app = guests_flet_app(make_main(sharing), assets_dir, copies, texts)
    return sharing


def window_sharing(
    make_main: MakeMain, port: int, assets_dir: str, texts: NoteTexts
) -> Sharing | None:
    """Sharing for the app in its own window. The window talks to Flet over its own socket,
    not the web, so the guests' door serves a Flet web app of its own; it runs in the window's
    event loop and its sessions share the host's store, so each side sees the other's saves.
    None where the web server is not installed (flet would install it at run time)."""
    if importlib.util.find_spec("flet_web") is None or importlib.util.find_spec("uvicorn") is None:
        return None
    return shared_table(make_main, port, assets_dir, compressed_client(assets_dir), texts)


def serve(
    make_main: MakeMain,
    port: int,
    assets_dir: str,
    texts: NoteTexts,
    open_browser: bool = True,
    share: bool = False,
) -> None:
    """Serve the app on 127.0.0.1:`port` until stopped; prints (and opens) the link. The host
    can share the table from a game's screen; with `share` it is shared from the start.
    `texts`: what a page says when its connection ends, in its caller's language."""
    import uvicorn  # comes with flet-web, which a phone build does not carry

    secret = launch_secret()
    copies = compressed_client(assets_dir)
    sharing = shared_table(make_main, port, assets_dir, copies, texts)
    flet_app = ft.run(make_main(sharing), export_asgi_app=True, assets_dir=assets_dir, no_cdn=True)
    compressed = Precompressed(flet_app, copies)
    served = ConnectionNote(compressed, texts, compressed.page_config())
    guarded = Guard(served, secret, Addresses.local(port), cookie=f"debrief-key-{port}")
    config = server_config(guarded, LOOPBACK, port)
    link = f"http://{LOOPBACK}:{port}/?key={secret}"

    async def run() -> None:
        if share:
            await sharing.start()
            print(f"Debrief is served at {link} (the host: open this one yourself)", flush=True)
        else:
            print(f"Debrief is served at {link} (on this computer only)", flush=True)
        if open_browser:
            webbrowser.open(link)
        await uvicorn.Server(config).serve()

    # uvicorn's own loop (uvloop where installed), as `uvicorn.Server.run` would choose it.
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(run())
