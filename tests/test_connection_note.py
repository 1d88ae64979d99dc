"""The connection note (web/connection_note.py): every page Flet serves carries it, in its
caller's language and role, and the guests' door closes each phone's connection with the code
that says "the host stopped sharing". The note itself, in Chromium: tests/test_e2e_share.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import re
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from tools.browser import AppServer
from views.connection_note import note_texts
from web.connection_note import SHARING_STOPPED, ConnectionNote, script_for
from web.guard import GUEST, HOST, Addresses, Guard, Message


def test_no_text_can_end_the_script_early() -> None:
    texts = dict.fromkeys(note_texts(GUEST, ()), "</script><script>alert(1)</script>")
    script = script_for(texts).decode()
    assert script.startswith("<script>") and script.count("</script>") == 1


def test_the_texts_follow_the_role_and_the_first_language_the_app_speaks() -> None:
    guest = note_texts(GUEST, ("fr", "de", "en"))
    assert guest["stopped_title"] == "Der Gastgeber teilt den Tisch nicht mehr."
    assert "neuen Code" in guest["stopped_body"]
    host = note_texts(HOST, ("fr",))
    assert host["lost_title"] == "Lost the connection to Debrief on this computer."
    assert set(guest) == set(host) == {"lost_title", "lost_body", "stopped_title", "stopped_body"}


def run_apart(story: Any) -> None:
    """Run a coroutine to its end in a thread of its own: the browser tests' driver keeps an
    event loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, story).result()


def run(app: Any, scope: dict[str, Any]) -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        sent.append(message)

    run_apart(app(scope, receive, send))
    return sent


def page_app(kind: bytes, chunks: list[bytes]) -> Any:
    """An ASGI app answering with `chunks` as a `kind` response, with Flet's validators."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [
            (b"content-type", kind),
            (b"content-length", str(sum(map(len, chunks))).encode()),
            (b"etag", b'"flet"'),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for number, chunk in enumerate(chunks):
            last = number == len(chunks) - 1
            await send({"type": "http.response.body", "body": chunk, "more_body": not last})

    return app


def test_a_page_gets_the_script_first_in_its_head_and_is_not_kept_as_it_was() -> None:
    page = [b"<html><head><script src=python.js>", b"</script></head><body></body></html>"]
    note = ConnectionNote(page_app(b"text/html; charset=utf-8", page), note_texts)
    start, body = run(note, {"type": "http", "method": "GET", "path": "/"})
    headers = dict(start["headers"])
    html = body["body"]
    assert html.startswith(b"<html><head><script>") and b"python.js" in html
    assert html.index(b"debrief-connection-note") < html.index(b"python.js")
    assert b"Lost the connection to Debrief on this computer." in html  # no caller: the host
    assert int(headers[b"content-length"]) == len(html)
    assert b"etag" not in headers and headers[b"cache-control"] == b"no-cache"
    wasm = run(
        ConnectionNote(page_app(b"application/wasm", [b"\0asm"]), note_texts),
        {"type": "http", "method": "GET", "path": "/main.dart.wasm"},
    )
    assert wasm[1]["body"] == b"\0asm" and dict(wasm[0]["headers"])[b"etag"] == b'"flet"'


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("note") / "data", args=["--share"]).start()
    yield server
    server.stop()


def test_the_guests_door_serves_the_note_in_the_phones_language(shared: AppServer) -> None:
    link = shared.printed("Guests open:")
    host_port = re.search(r":(\d+)/", link)
    assert host_port is not None
    secret = link.split("share=")[1]
    port = int(host_port.group(1))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    cookie = f"debrief-share-{port}-guest={secret}"
    connection.request("GET", "/", headers={"Cookie": cookie, "Accept-Language": "de-DE,de;q=0.9"})
    page = connection.getresponse().read().decode()
    connection.close()
    assert "Der Gastgeber teilt den Tisch nicht mehr." in page
    assert "Die Verbindung zum Gastgeber ist weg." in page


def test_closing_the_door_tells_each_phone_why() -> None:
    """`close_websockets` (the host stops sharing) closes every websocket open through the
    guard with SHARING_STOPPED; whatever Flet sends after that is dropped."""
    registration = b"\x00" + msgpack.packb([1, {"session_id": None, "page_name": "", "page": {}}])
    sent: list[Message] = []
    flet_sends_later = asyncio.Event()

    async def flet(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # the connect
        await receive()  # the registration
        await flet_sends_later.wait()
        await send({"type": "websocket.send", "bytes": b"too late"})

    guard = Guard(flet, None, Addresses.local(9), cookie="c", guest_secret="s")
    incoming = [
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "bytes": registration},
    ]

    async def receive() -> Message:
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)
        return {"type": "websocket.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    async def story() -> None:
        scope = {
            "type": "websocket",
            "path": "/ws",
            "headers": [(b"host", b"127.0.0.1:9"), (b"cookie", b"c-guest=s")],
            "client": ("192.0.2.7", 5000),
        }
        connection = asyncio.create_task(guard(scope, receive, send))
        while not guard._open:
            await asyncio.sleep(0.01)
        await guard.close_websockets(SHARING_STOPPED)
        flet_sends_later.set()
        await asyncio.wait_for(connection, 5)

    run_apart(story())
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.close"]
    assert sent[1]["code"] == SHARING_STOPPED
    assert not guard._open
