"""What a page says when its connection to the app ends: "The host stopped sharing", or "Lost
the connection", over the last screen, instead of Flet's endless "Working..." spinner.

`ConnectionNote` puts a script (connection_note.js) at the top of every page Flet serves,
with the note's texts in the caller's language: it keeps a closed connection from Flet's client
and shows the note, and hands the closing on (Flet's client then connects again) once the
server answers again. The guests' door closes each guest's connection with `SHARING_STOPPED`
when the host stops sharing (web/guard.py), so that phones know the difference.

The same pass links the page's manifest with the page's cookies (`MANIFEST_LINK`), which the
guard asks of every request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from .guard import HOST, ASGIApp, Message, Receive, Scope, Send, current_caller

SHARING_STOPPED = 4001  # a websocket close code for applications (4000–4999)
SCRIPT = (Path(__file__).parent / "connection_note.js").read_text(encoding="utf-8")
# Flet's page links its manifest without `crossorigin`, so the browser asks for it without
# cookies, and the guard refuses a request without the secret's cookie (403 at every load).
MANIFEST_LINK = b'<link rel="manifest" href="manifest.json">'
WITH_COOKIES = b'<link rel="manifest" href="manifest.json" crossorigin="use-credentials">'
# The note's texts for a role ("host" or "guest") and the caller's languages, best first:
# lost_title, lost_body, stopped_title, stopped_body.
NoteTexts = Callable[[str, tuple[str, ...]], dict[str, str]]
DROPPED_HEADERS = {b"content-length", b"etag", b"last-modified", b"cache-control"}


def script_for(texts: dict[str, str]) -> bytes:
    """The script with its texts, safe inside a <script> element."""
    data = json.dumps(texts, ensure_ascii=False).replace("<", "\\u003c")
    return f"<script>{SCRIPT.strip()}({data});</script>".encode()


class ConnectionNote:
    """ASGI middleware: every HTML page gets the connection note's script, first in its head,
    in the language of whoever asks (so the page is not cached as it is: it is 4 KB), and
    `config` (a script that changes Flet's settings, web/precompressed.py) last in its head."""

    def __init__(self, app: ASGIApp, texts: NoteTexts, config: bytes = b"") -> None:
        self.app = app
        self.texts = texts
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        caller = current_caller()
        role = caller.role if caller else HOST
        languages = caller.languages if caller else ()

        def texts() -> dict[str, str]:
            return self.texts(role, languages)

        await self.app(scope, receive, _with_scripts(send, texts, self.config))


def _with_scripts(send: Send, texts: Callable[[], dict[str, str]], config: bytes) -> Send:
    """`send` with the scripts put into an HTML answer (the others pass as they are)."""
    started: Message | None = None
    body: list[bytes] = []

    async def sending(message: Message) -> None:
        nonlocal started
        if message["type"] == "http.response.start":
            kinds = {name.lower(): value for name, value in message.get("headers", [])}
            html = kinds.get(b"content-type", b"").startswith(b"text/html")
            if message.get("status") == 200 and html and b"content-encoding" not in kinds:
                started = message  # held until the whole page is there
                return
        elif message["type"] == "http.response.body" and started is not None:
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = _inserted(b"".join(body), script_for(texts()), config)
            page = page.replace(MANIFEST_LINK, WITH_COOKIES)
            headers = [
                (name, value)
                for name, value in started.get("headers", [])
                if name.lower() not in DROPPED_HEADERS
            ]
            headers += [
                (b"content-length", str(len(page)).encode()),
                (b"cache-control", b"no-cache"),
            ]
            await send({**started, "headers": headers})
            await send({"type": "http.response.body", "body": page})
            return
        await send(message)

    return sending


def _inserted(page: bytes, first: bytes, last: bytes) -> bytes:
    """`page` with `first` first in its head (before Flet's scripts open the connection) and
    `last` last (after Flet's settings, before its client reads them)."""
    end = page.find(b"</head>")
    if end >= 0:
        page = page[:end] + last + page[end:]
    head = page.find(b"<head>")
    if head < 0:
        return first + page
    at = head + len(b"<head>")
    return page[:at] + first + page[at:]
