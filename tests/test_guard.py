"""Nobody in: the web server answers only its own pages, at its own address, with the secret.

Tried from the attacker's side: a foreign Host (DNS rebinding), a foreign Origin, a client
without the launch secret, a page on another origin in real Chromium, and an environment set up
to widen what the server exposes.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import http.server
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import ROOT
from listening import listening
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tools.browser import AppServer, free_port, open_app
from web.guard import (
    GUEST_REFUSED_PAGE,
    REFUSED_PAGE,
    Addresses,
    Guard,
    current_caller,
    role_of,
)

SECRET = "guard-test-secret-7f3a9c"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    started = AppServer(tmp_path_factory.mktemp("guard") / "data", secret=SECRET).start()
    yield started
    started.stop()


def request(
    server: AppServer,
    path: str = "/",
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes | None = None,
    port: int | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request (to the server's port, or `port`), redirects not followed: (status,
    lower-cased headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port or server.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        found = {name.lower(): value for name, value in response.getheaders()}
        return response.status, found, response.read()
    finally:
        connection.close()


def login(server: AppServer) -> str:
    """The cookie the printed link sets, as a Cookie header value."""
    status, headers, _ = request(server, f"/?key={server.secret}")
    assert status in (302, 303), status
    return headers["set-cookie"].split(";")[0]


def test_the_printed_link_sets_a_strict_http_only_cookie(server: AppServer) -> None:
    status, headers, _ = request(server, f"/?key={SECRET}")
    assert status in (302, 303) and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert SECRET in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, headers, body = request(server, "/", {"Cookie": cookie.split(";")[0]})
    assert status == 200 and b"flutter" in body.lower()
    assert "access-control-allow-origin" not in headers  # no wildcard CORS


def test_the_page_may_load_nothing_from_another_host(server: AppServer) -> None:
    """The policy on every page keeps the browser from fetching or running anything from
    elsewhere (the served client would ask a CDN for a script) and out of other sites' frames."""
    cookie = login(server)
    for path in ("/", "/main.dart.js", "/assets/FontManifest.json"):
        status, headers, _ = request(server, path, {"Cookie": cookie})
        assert status == 200, path
        policy = dict(
            directive.strip().split(" ", 1)
            for directive in headers["content-security-policy"].split(";")
        )
        assert policy["default-src"] == "'self'", path
        assert policy["frame-ancestors"] == "'none'", path
        for directive, sources in policy.items():
            assert "http" not in sources and "*" not in sources, (path, directive)


def test_without_the_secret_an_http_client_gets_nothing(server: AppServer) -> None:
    for path in ("/", "/index.html", "/main.dart.js", "/docs", "/openapi.json", "/?key=wrong"):
        status, headers, body = request(server, path)
        assert status == 403, path
        assert b"flutter" not in body.lower() and "set-cookie" not in headers, path


def test_a_foreign_host_is_refused_even_with_the_cookie(server: AppServer) -> None:
    """DNS rebinding: a foreign name that resolves to 127.0.0.1 sends its own Host."""
    cookie = login(server)
    for host in (f"evil.example:{server.port}", "127.0.0.1", f"127.0.0.1:{server.port + 1}"):
        status, _, body = request(server, "/", {"Host": host, "Cookie": cookie})
        assert status == 403 and b"flutter" not in body.lower(), host


def test_the_websocket_needs_the_cookie_and_an_own_origin(server: AppServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    cookie = login(server)
    with pytest.raises(InvalidStatus):  # no cookie
        connect(url, origin=server.origin).close()  # type: ignore[arg-type]
    with pytest.raises(InvalidStatus):  # a foreign page, even one the browser sends it from
        connect(
            url,
            origin="http://evil.example",  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
        ).close()
    with pytest.raises(InvalidStatus):  # a wrong secret
        connect(
            url,
            origin=server.origin,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie.split("=")[0] + "=wrong"},
        ).close()
    with connect(url, origin=server.origin, additional_headers={"Cookie": cookie}):  # type: ignore[arg-type]
        pass  # its own page, with the cookie: accepted


EVIL_PAGE = """<!doctype html><title>waiting</title><script>
const app = "127.0.0.1:%d";
const ws = new WebSocket("ws://" + app + "/ws");
ws.onopen = () => { document.title = "socket opened"; };
ws.onclose = () => { if (document.title === "waiting") document.title = "socket refused"; };
fetch("http://" + app + "/").then(r => r.text())
    .then(() => { document.body.dataset.fetch = "read"; })
    .catch(() => { document.body.dataset.fetch = "blocked"; });
</script>"""


@pytest.mark.e2e
def test_a_page_on_another_origin_cannot_reach_the_app(
    browser: Browser, server: AppServer, tmp_path: Path
) -> None:
    """The user has Debrief open (its cookie is in the browser) and visits a foreign page on
    another port of the same machine: same site, so the cookie would be sent; the Origin is
    what refuses it."""
    (tmp_path / "index.html").write_text(EVIL_PAGE % server.port)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Quiet)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        # The app's own page first, loaded to its first screen: while its 17 MB were still
        # coming, the foreign page's fetch waited behind them for a free connection to the
        # same address (a full run once found it still pending after 30 s).
        open_app(context, server.url)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        # On a timeout the assertion says which of the two never came back (seen once in a
        # full run).
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function("document.title !== 'waiting' && document.body.dataset.fetch")
        outcome = (page.title(), page.evaluate("document.body.dataset.fetch || 'pending'"))
        assert outcome == ("socket refused", "blocked")
    finally:
        context.close()
        evil.shutdown()


def test_the_environment_cannot_widen_what_is_served(tmp_path: Path) -> None:
    """FLET_SERVER_IP, FLET_SERVER_PORT, FLET_ASSETS_DIR, FLET_UPLOAD_DIR and
    FLET_FORCE_WEB_SERVER change nothing: 127.0.0.1 and the chosen port only, no foreign
    folder, no upload route; the app says where it listens."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "passwords.txt").write_text("hunter2")
    env: dict[str, str | None] = {
        "FLET_SERVER_IP": "0.0.0.0",
        "FLET_SERVER_PORT": str(free_port()),
        "FLET_ASSETS_DIR": str(private),
        "FLET_UPLOAD_DIR": str(tmp_path / "uploads"),
        "FLET_FORCE_WEB_SERVER": "1",
    }
    server = AppServer(tmp_path / "data", secret=SECRET, env=env).start()
    try:
        assert server.process is not None
        assert set(listening(server.process.pid)) == {("127.0.0.1", server.port)}
        cookie = login(server)
        _, _, body = request(server, "/passwords.txt", {"Cookie": cookie})
        assert b"hunter2" not in body
        status, _, _ = request(server, "/upload", {"Cookie": cookie}, method="PUT", body=b"x")
        assert status in (404, 405)
        assert f"http://127.0.0.1:{server.port}/?key=" in server.log.read_text()
    finally:
        server.stop()


def test_without_a_screen_a_plain_start_serves_the_guarded_app(tmp_path: Path) -> None:
    """No DISPLAY (Flet's test for a server) but WAYLAND_DISPLAY set, and FLET_FORCE_WEB_SERVER:
    `python main.py` must still serve the guarded app on 127.0.0.1 only, never Flet's own
    unguarded server on 0.0.0.0:8000."""
    env: dict[str, str | None] = {
        "DISPLAY": None,
        "WAYLAND_DISPLAY": "wayland-0",
        "FLET_FORCE_WEB_SERVER": "1",
    }
    server = AppServer(tmp_path / "data", secret=SECRET, env=env, web=False).start()
    try:
        assert server.process is not None
        assert set(listening(server.process.pid)) == {("127.0.0.1", server.port)}
        assert request(server, "/")[0] == 403
        assert f"http://127.0.0.1:{server.port}/?key=" in server.log.read_text()
    finally:
        server.stop()


# --- a shared table (--share) -------------------------------------------------------------------


def served_paths() -> list[str]:
    """Every path the app's server answers, taken from the server itself: Flet's routes (a
    `{name}` filled in) and every file its static mount serves (Flutter's client, our assets)."""
    import flet as ft
    import flet_web

    app = ft.run(lambda page: None, export_asgi_app=True, assets_dir="assets", no_cdn=True)
    paths: list[str] = []

    def walk(routes: list[Any], prefix: str = "") -> None:
        for route in routes:
            path = prefix + (getattr(route, "path", "") or "")
            sub = getattr(route, "app", None)
            if hasattr(sub, "routes") and sub is not app:
                walk(sub.routes, path)
            elif path:
                paths.append(re.sub(r"\{[^}]*\}", "x", path))

    walk(app.routes)
    for folder in (Path(flet_web.get_package_web_dir()), ROOT / "assets"):
        paths += [f"/{f.relative_to(folder)}" for f in folder.rglob("*") if f.is_file()]
    return sorted(set(paths))


def test_a_shared_table_gives_a_client_without_a_secret_nothing_on_any_route(
    tmp_path: Path,
) -> None:
    """Sharing opens a door for guests on every address (a port of its own; the host's stays on
    127.0.0.1): a phone on the Wi-Fi without the share link gets the refusal page on every
    route the server answers — files, Flet's routes, the websocket — and the host's key opens
    nothing there."""
    server = AppServer(tmp_path / "data", secret=SECRET, args=["--share"]).start()
    try:
        assert server.process is not None
        link = server.printed("Guests open:")
        lan_host = link.removeprefix("http://").split("/")[0]
        guest_port = int(lan_host.split(":")[1])
        assert set(listening(server.process.pid)) == {
            ("127.0.0.1", server.port),
            ("0.0.0.0", guest_port),
        }
        paths = served_paths()
        assert "/ws" in paths and "/main.dart.js" in paths and len(paths) > 20
        doors = [(guest_port, lan_host), (guest_port, f"127.0.0.1:{guest_port}")]
        for path in paths:
            for port, host in [*doors, (server.port, f"127.0.0.1:{server.port}")]:
                status, headers, body = request(server, path, {"Host": host}, port=port)
                assert status == 403, (path, host)
                # A phone at the guests' door is told as a guest (a new code to scan).
                refused = GUEST_REFUSED_PAGE if port == guest_port else REFUSED_PAGE
                assert body == refused and "set-cookie" not in headers, path
        with pytest.raises(InvalidStatus):
            connect(f"ws://127.0.0.1:{guest_port}/ws", additional_headers={"Host": lan_host})
        at_door = {"Host": lan_host}
        host_cookie = login(server)  # the host's key and cookie open nothing at the guests' door
        assert request(server, f"/?key={SECRET}", at_door, port=guest_port)[0] == 403
        assert request(server, "/", {**at_door, "Cookie": host_cookie}, port=guest_port)[0] == 403
        share_path = link.split(lan_host)[1]
        status, headers, _ = request(server, share_path, at_door, port=guest_port)
        assert status == 303 and "HttpOnly" in headers["set-cookie"]  # the link lets a guest in
        assert request(server, share_path)[0] == 403  # ... at its own door only
        wrong = share_path.split("share=")[0] + "share=guessed"
        status, _, body = request(server, wrong, at_door, port=guest_port)
        assert status == 403 and body == GUEST_REFUSED_PAGE
    finally:
        server.stop()


def through_guard(seen: Callable[[Any], None], headers: list[tuple[bytes, bytes]]) -> None:
    """One HTTP request with `headers` (from 192.0.2.7) through a guard of a shared table, in
    a thread of its own (the browser tests' Playwright may hold this thread's loop); `seen`
    is given the scope of each request the guard lets through to the app."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen(scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(app, "host-secret", Addresses.local(80), "c", guest_secret="guest-secret")
    scope = {
        "type": "http",
        "path": "/",
        "query_string": b"",
        "client": ("192.0.2.7", 5000),
        "headers": [(b"host", b"127.0.0.1:80"), *headers],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: Any) -> None:
        pass

    worker = threading.Thread(target=asyncio.run, args=(guard(scope, receive, send),))
    worker.start()
    worker.join()


def test_a_guest_cannot_claim_to_be_the_host() -> None:
    """The app learns a session's role from the guard's tag in front of the User-Agent; a tag
    the client wrote itself is dropped, and a guest's cookie never makes a host."""
    seen: list[str] = []
    for cookie, agent in (
        ("c-guest=guest-secret", "DebriefRole/host Mozilla/5.0"),
        ("c=host-secret", "Mozilla/5.0 DebriefRole/guest"),
        ("c-guest=host-secret", "DebriefRole/host"),  # the host's secret under the guest's name
    ):
        through_guard(
            lambda scope: seen.append(dict(scope["headers"])[b"user-agent"].decode()),
            [(b"cookie", cookie.encode()), (b"user-agent", agent.encode())],
        )
    assert [role_of(agent) for agent in seen] == ["guest", "host"]
    assert seen[0] == "DebriefRole/guest Mozilla/5.0"


def test_a_callers_languages_are_read_from_its_browser_best_first() -> None:
    """A guest's screens speak its browser's language (Accept-Language, sent with the page and
    its websocket); nothing else about the caller comes from such a header."""
    seen: list[Any] = []
    for accepted in ("de-DE,de;q=0.9,en;q=0.8", "en;q=0.5, de-AT;q=0.9", "*", "x" * 5000):
        through_guard(
            lambda scope: seen.append(current_caller()),
            [(b"cookie", b"c-guest=guest-secret"), (b"accept-language", accepted.encode())],
        )
    assert [caller.languages for caller in seen] == [("de", "en"), ("de", "en"), (), ()]
    assert {caller.role for caller in seen} == {"guest"}
