"""One guard in front of everything the app serves over HTTP, the way Jupyter guards its server.

Every request and every websocket handshake passes three checks before Flet sees it:

- **Host** must be an address the app itself serves (also stops DNS rebinding: a foreign name
  resolving to 127.0.0.1 still sends its own Host);
- **Origin**, when the browser sends one, must be one of those addresses (a page on another
  origin, even another port of the same machine, is refused);
- the **launch secret**: the link the app prints carries it as ``?key=…``; that first visit
  sets it as an HttpOnly, SameSite=Strict cookie and redirects to the same path without it, so
  reloads and other paths work. Every request and every websocket handshake (Flet sessions
  reattach for up to an hour) must carry the cookie.

Sharing a table opens a second door, for guests: a server of its own on the network, guarded
by a guest secret only (the host's key opens nothing there). The share link carries it as
``?share=…`` and it becomes a cookie of its own.

Who is calling is decided here, on the server, once per connection: the role its secret proves
and the socket's peer address, handed to the app as a `Caller` in a context variable
(`current_caller`). A Flet session begins in that context (its main runs in a task started
from the connection's), so the app fixes the session's role and address from it — never from
the page's fields, which Flet lets the client rewrite at any time. The role is also tagged in
front of the User-Agent (``DebriefRole/host`` or ``DebriefRole/guest``; a tag the client sent
is dropped): Flet keys a session by its client's User-Agent, so a guest's connection can never
take over a host's session, even knowing its id.

Responses lose Flet's wildcard ``Access-Control-Allow-Origin`` and gain headers that keep them
out of other sites' frames and keep the page from loading anything from another host. What the
guard refuses gets a short page and no data.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hmac
import http
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

from .limits import FIRST_MESSAGE_SECONDS, Rate, Throttle, is_registration, registers

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KEY_PARAMETER = "key"
SHARE_PARAMETER = "share"
ROLE_TAG = "DebriefRole/"
HOST, GUEST = "host", "guest"
# Everything the page loads comes from this server: the served Flutter client asks
# cdn.jsdelivr.net for rive_native.js (an animation runtime Debrief never uses) by a URL built
# into main.dart.js/.wasm; 'self' stops that request in the browser, so the app stays offline
# and tells no other host it runs. Flutter needs inline configuration, WebAssembly, blob:
# workers and inline styles; 'self' covers the websocket back to this server.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' blob:",
        "worker-src 'self' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
).encode()
DROPPED_HEADERS = {b"access-control-allow-origin"}
ADDED_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY),
]
CLOSE_SECONDS = 1.0  # how long `close_websockets` waits for one phone's websocket to close
REFUSED_PAGE = (
    "<!doctype html><meta charset=utf-8><title>Debrief</title>"
    "<p>Debrief opens only from the link it printed when it started (it carries a key)."
    "</p><p>Debrief öffnet sich nur über den Link, den es beim Start ausgegeben hat.</p>"
).encode()
# The guests' door: its links end when sharing stops, and a phone never saw a printed link.
GUEST_REFUSED_PAGE = (
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
    "<title>Debrief</title>"
    "<p>This link does not open the table (any more): the host stopped sharing, or shares it "
    "anew. Scan the host's new code: each share has a new link.</p>"
    "<p>Dieser Link öffnet den Tisch nicht (mehr): Der Gastgeber teilt ihn nicht mehr oder "
    "neu. Scanne den neuen Code des Gastgebers: Jedes Teilen hat einen neuen Link.</p>"
).encode()


@dataclass(frozen=True)
class Addresses:
    """Where the app is served: the Host values it answers to and the Origins it trusts."""

    hosts: frozenset[str]

    @classmethod
    def local(cls, port: int, names: Iterable[str] = ("127.0.0.1", "localhost")) -> Addresses:
        return cls(frozenset(f"{name}:{port}" for name in names))

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{host}" for host in self.hosts)


@dataclass(frozen=True)
class Caller:
    """Who is on the other end of a connection, as the guard saw it: the role its secret
    proves and the address of the socket's peer (not a header or field the client wrote)."""

    role: str  # HOST or GUEST
    address: str
    # The languages its browser asks for, best first ("de", "en"): what its own screens speak
    # (a guest's; the host's follow its setting). Read from Accept-Language, decides nothing.
    languages: tuple[str, ...] = ()


_caller: contextvars.ContextVar[Caller | None] = contextvars.ContextVar("caller", default=None)


def current_caller() -> Caller | None:
    """The caller of the connection this code runs for; None where no guard stands in front
    (the app in its own window, or on a phone: the only one there is the host)."""
    return _caller.get()


def role_of(user_agent: str) -> str:
    """The role tag the guard put in front of a User-Agent ("host" without one). For Flet's
    keying of sessions and for tests: the app takes a session's role from `current_caller`."""
    for part in user_agent.split():
        if part.startswith(ROLE_TAG):
            return GUEST if part.removeprefix(ROLE_TAG) == GUEST else HOST
    return HOST


class Guard:
    """ASGI middleware: refuses what does not come from the app's own pages with its secret."""

    def __init__(
        self,
        app: ASGIApp,
        secret: str | None,
        addresses: Addresses,
        cookie: str,
        guest_secret: str | None = None,
        websockets: Rate | None = None,
        messages: Throttle | None = None,
    ) -> None:
        """`secret` is the host's (None: a door for guests only, where no host key works);
        `guest_secret` a shared table's; `websockets`, how many websockets each address may
        open, and `messages`, at what pace their messages go through (the guests' door)."""
        if secret == "" or guest_secret == "" or not (secret or guest_secret):
            raise ValueError("the guard needs a secret")
        self.app = app
        self.secret = secret
        self.addresses = addresses
        self.cookie = cookie
        self.guest_secret = guest_secret
        self.guest_cookie = f"{cookie}-guest"
        self.websockets = websockets
        self.messages = messages
        self._open: set[Callable[[int], Awaitable[None]]] = set()  # closes each open websocket
        # What a refused browser is told: the guests' door (no host key) speaks to a phone.
        self.refused_page = REFUSED_PAGE if secret else GUEST_REFUSED_PAGE

    async def close_websockets(self, code: int) -> None:
        """Close every websocket open through this guard with `code` (the guests' door, when
        the host stops sharing: web/connection_note.py), before the server goes. All at once,
        each given `CLOSE_SECONDS`: a phone gone from the Wi-Fi must not hold the door open."""
        closing = [asyncio.wait_for(close(code), CLOSE_SECONDS) for close in list(self._open)]
        await asyncio.gather(*closing, return_exceptions=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)  # lifespan: start and stop Flet's sessions
            return
        headers = _headers(scope)
        if not self._from_own_page(headers):
            await self._refuse(scope, receive, send)
            return
        if scope["type"] == "http" and self._secret_in_query(scope) is not None:
            await self._exchange_key(scope, send)
            return
        role = self._role(headers)
        if role is None:
            await self._refuse(scope, receive, send)
            return
        caller = Caller(
            role, _peer(scope), accepted_languages(headers.get(b"accept-language", b""))
        )
        _caller.set(caller)  # in this connection's task, and in every task it starts
        if scope["type"] == "websocket":
            await self._websocket(_tagged(scope, role), receive, send, caller)
            return
        await self.app(_tagged(scope, role), receive, _with_safe_headers(send))

    async def _websocket(self, scope: Scope, receive: Receive, send: Send, caller: Caller) -> None:
        """Hand Flet a websocket only once the client has registered: a websocket that says
        nothing, says something else first, or goes before registering would leave Flet's
        connection waiting for ever (its send loop ends only with a session). A second
        registration closes it (Flet would make a session of each), and a guest's messages go
        through at the pace of fingers."""
        if self.websockets is not None and not self.websockets.allow(caller.address):
            await self._refuse(scope, receive, send)
            return
        connect = await receive()
        if connect.get("type") != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        try:
            first = await asyncio.wait_for(receive(), FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            await send({"type": "websocket.close", "code": 1008})
            return
        if first.get("type") != "websocket.receive":
            return  # gone
        if not is_registration(first):
            await send({"type": "websocket.close", "code": 1008})
            return
        waiting = [connect, first]
        closed = False  # by `close`: what Flet sends after that is dropped

        async def close(code: int) -> None:
            nonlocal closed
            if not closed:
                closed = True
                with contextlib.suppress(OSError, RuntimeError):
                    await send({"type": "websocket.close", "code": code})

        async def replayed() -> Message:
            if waiting:
                return waiting.pop(0)
            if self.messages is not None:
                await self.messages.wait(caller.address)
            message = await receive()
            if registers(message):  # closed as `close` closes it: Flet still sends after it
                await close(1008)
                return {"type": "websocket.disconnect", "code": 1008}
            return message

        async def accepted_once(message: Message) -> None:
            if message.get("type") == "websocket.accept" or closed:  # it was accepted above
                return
            # When the client has gone, what Flet sends is dropped: Flet's send loop would end
            # on the error before its connection tells the session it is away, and the session
            # would count as connected for ever; the receive loop ends the connection properly.
            # A send that was on its way when `close` closed the websocket is dropped too.
            try:
                await send(message)
            except OSError:
                pass
            except RuntimeError:
                if not closed:
                    raise

        self._open.add(close)
        try:
            await self.app(scope, replayed, accepted_once)
        finally:
            self._open.discard(close)

    # --- the checks ------------------------------------------------------------------------

    def _from_own_page(self, headers: dict[bytes, bytes]) -> bool:
        host = headers.get(b"host", b"").decode("latin-1")
        origin = headers.get(b"origin")
        if host not in self.addresses.hosts:
            return False
        return origin is None or origin.decode("latin-1") in self.addresses.origins

    def _role(self, headers: dict[bytes, bytes]) -> str | None:
        """The role the request's cookies prove (the host's wins), or None."""
        cookies = _cookies(headers.get(b"cookie", b"").decode("latin-1"))
        if self.secret and _same(cookies.get(self.cookie, ""), self.secret):
            return HOST
        if self.guest_secret and _same(cookies.get(self.guest_cookie, ""), self.guest_secret):
            return GUEST
        return None

    def _secret_in_query(self, scope: Scope) -> tuple[str, str] | None:
        """(parameter, value) of a secret in the address: the host's key or a share link's."""
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        for parameter in (KEY_PARAMETER, SHARE_PARAMETER):
            if parameter in query:
                return parameter, query[parameter]
        return None

    # --- answers ---------------------------------------------------------------------------

    async def _exchange_key(self, scope: Scope, send: Send) -> None:
        """The printed link (or a share link): a right secret becomes its cookie; the address
        bar loses it."""
        parameter, value = self._secret_in_query(scope) or ("", "")
        if parameter == KEY_PARAMETER:
            name, secret = self.cookie, self.secret or ""
        else:
            name, secret = self.guest_cookie, self.guest_secret or ""
        if not secret or not _same(value, secret):
            await _respond(send, http.HTTPStatus.FORBIDDEN, self.refused_page)
            return
        rest = [
            (k, v)
            for k, v in parse_qsl(scope["query_string"].decode("latin-1"))
            if k not in (KEY_PARAMETER, SHARE_PARAMETER)
        ]
        location = scope.get("path", "/") + (f"?{urlencode(rest)}" if rest else "")
        cookie = f"{name}={secret}; Path=/; HttpOnly; SameSite=Strict"
        await _respond(
            send,
            http.HTTPStatus.SEE_OTHER,
            b"",
            [(b"location", location.encode()), (b"set-cookie", cookie.encode())],
        )

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await receive()  # the handshake request
            await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
            return
        # The connection ends with the refusal: kept open, it would hold one of the door's
        # connections that a guest with the link needs.
        page = self.refused_page
        await _respond(send, http.HTTPStatus.FORBIDDEN, page, [(b"connection", b"close")])


def _peer(scope: Scope) -> str:
    """The address of the socket's peer (the server trusts no forwarding header)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _same(value: str, secret: str) -> bool:
    return hmac.compare_digest(value.encode(), secret.encode())


def _tagged(scope: Scope, role: str) -> Scope:
    """The request as the app sees it: its User-Agent starts with the role the guard proved
    (a role tag the client wrote itself is dropped)."""
    headers = []
    agent = ""
    for name, value in scope.get("headers", []):
        if name.lower() == b"user-agent":
            agent = value.decode("latin-1")
        else:
            headers.append((name, value))
    own = " ".join(part for part in agent.split() if not part.startswith(ROLE_TAG))
    headers.append((b"user-agent", f"{ROLE_TAG}{role} {own}".strip().encode("latin-1")))
    return {**scope, "headers": headers}


LANGUAGE_HEADER_LONGEST = 512  # a longer Accept-Language header is not read at all


def weighted_values(header: bytes) -> list[tuple[str, float]]:
    """The values of a header with quality weights (Accept-Language, Accept-Encoding), in
    their order, lower-case, each with its weight (1 when none is given); a value whose
    weight cannot be read is left out."""
    values: list[tuple[str, float]] = []
    for part in header.decode("latin-1").split(","):
        value, _, quality = part.strip().partition(";")
        try:
            weight = float(quality.strip().removeprefix("q=")) if quality else 1.0
        except ValueError:
            continue
        values.append((value.strip().lower(), weight))
    return values


def accepted_languages(header: bytes) -> tuple[str, ...]:
    """The languages of an Accept-Language header, best first, each once, as their primary
    subtag ("de-AT;q=0.9" is "de"); none for a header that is too long or unreadable."""
    if len(header) > LANGUAGE_HEADER_LONGEST:
        return ()
    weighted: list[tuple[float, int, str]] = []
    for position, (tag, weight) in enumerate(weighted_values(header)):
        language = tag.split("-")[0]
        if language.isascii() and language.isalpha() and 2 <= len(language) <= 8:
            weighted.append((-weight, position, language))
    ordered = [language for _, _, language in sorted(weighted)]
    return tuple(dict.fromkeys(ordered))


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


def _cookies(header: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            found.setdefault(name, value)
    return found


def _with_safe_headers(send: Send) -> Send:
    """`send` with Flet's wildcard CORS header removed and our own added to every response."""

    async def safe_send(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [
                (k, v) for k, v in message.get("headers", []) if k.lower() not in DROPPED_HEADERS
            ]
            message = {**message, "headers": kept + ADDED_HEADERS}
        await send(message)

    return safe_send


async def _respond(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": int(status),
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
                *ADDED_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
