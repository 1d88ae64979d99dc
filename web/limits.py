"""What the guests' door holds on to, and for how long: limits that keep link holders on the
Wi-Fi from tying up the host (docs/manual.md, "Sharing a table", lists them).

A table has at most six players; the limits leave room for their phones, reloads and a second
tab, and nothing more:

- **connections** (TCP): `CONNECTIONS_PER_ADDRESS` per peer address and `CONNECTIONS_IN_ALL`
  in all; one more is closed as soon as it is accepted;
- **headers**: a request's headers must be in within `HEADER_SECONDS` of the connection opening
  (or of the previous answer on it), and be at most `HEADER_BYTES`, else the connection is
  closed — a client that sends nothing, trickles its headers or never ends them holds nothing
  for long;
- **websockets**: `WEBSOCKETS_PER_ADDRESS_PER_MINUTE` new ones per address and
  `WEBSOCKETS_PER_MINUTE` in all; the client's first message must come within
  `FIRST_MESSAGE_SECONDS` and be Flet's registration, or the websocket is closed before Flet
  sees it, and a second registration closes it (each would make Flet a session); a message may
  be at most `GUEST_MESSAGE_BYTES` (a guest sends taps, not backups);
- **messages**: a guest's messages are let through at the pace of fingers, `MESSAGES_PER_SECOND`
  per address and `ALL_MESSAGES_PER_SECOND` from all guests (with room for a burst); the rest
  wait their turn on their own connection, so a flood costs the host nothing; a tap on a
  control the session does not have is dropped before Flet searches the screen for it
  (`drop_events_for_unknown_controls`);
- **sessions** a guest left behind are dropped `GUEST_SESSION_SECONDS` after it went (the
  number of guests' sessions is kept small by web/sharing.py);
- **open files**: the process raises its own limit where the system allows (`raise_open_files`),
  and the limits above keep the door far below it, so the host's own port and its data writes
  always have files left.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, MutableMapping
from typing import Any

CONNECTIONS_PER_ADDRESS = 16  # a browser opens up to six at a time, per tab
CONNECTIONS_IN_ALL = 64
HEADER_SECONDS = 5.0
# A request's headers, in bytes, at most: a browser's are a few kilobytes (its cookies too).
HEADER_BYTES = 64 * 1024
WEBSOCKETS_PER_ADDRESS_PER_MINUTE = 20
WEBSOCKETS_PER_MINUTE = 120
MESSAGES_PER_SECOND = 10  # a finger taps far less; Flutter adds a message now and then
MESSAGES_IN_A_BURST = 30
ALL_MESSAGES_PER_SECOND = 30
ALL_MESSAGES_IN_A_BURST = 60
FIRST_MESSAGE_SECONDS = 10.0
GUEST_MESSAGE_BYTES = 256 * 1024
GUEST_SESSION_SECONDS = 60  # Flet looks for such sessions every 10 s
WANTED_OPEN_FILES = 8192
REGISTER_CLIENT = 1  # flet.messaging.protocol.MessageAction.REGISTER_CLIENT
REGISTRATION_FIELDS = {"session_id", "page_name", "page"}


def raise_open_files(wanted: int = WANTED_OPEN_FILES) -> int | None:
    """Raise this process's limit of open files towards `wanted`, as far as the system's hard
    limit allows; the limit now (None where the system has no such limit: Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # the system says no: the door's limits still keep files in reserve
    return int(soft)


class Connections:
    """The door's open connections by peer address; admits one more while both limits allow."""

    def __init__(
        self, per_address: int = CONNECTIONS_PER_ADDRESS, in_all: int = CONNECTIONS_IN_ALL
    ) -> None:
        self.per_address = per_address
        self.in_all = in_all
        self._open: dict[str, list[asyncio.BaseTransport]] = {}

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        # A websocket keeps the transport it was upgraded on: a transport counts until closed.
        self._open = {
            peer: kept
            for peer, transports in self._open.items()
            if (kept := [t for t in transports if not t.is_closing()])
        }
        mine = self._open.setdefault(address, [])
        if len(mine) >= self.per_address or self.count() >= self.in_all:
            return False
        mine.append(transport)
        return True

    def count(self) -> int:
        return sum(len(transports) for transports in self._open.values())


class Rate:
    """At most `per_address` events per minute from one address and `in_all` from anywhere."""

    def __init__(
        self,
        per_address: int = WEBSOCKETS_PER_ADDRESS_PER_MINUTE,
        in_all: int = WEBSOCKETS_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.in_all = in_all
        self.clock = clock
        self._all: deque[tuple[float, str]] = deque()
        self._by_address: dict[str, int] = {}

    def allow(self, address: str) -> bool:
        now = self.clock()
        while self._all and self._all[0][0] <= now - 60:
            _, gone = self._all.popleft()
            self._by_address[gone] -= 1
            if not self._by_address[gone]:
                del self._by_address[gone]
        if len(self._all) >= self.in_all or self._by_address.get(address, 0) >= self.per_address:
            return False
        self._all.append((now, address))
        self._by_address[address] = self._by_address.get(address, 0) + 1
        return True


class Bucket:
    """A token bucket: `rate` tokens a second, at most `burst` kept."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, now

    def wait_for_one(self, now: float) -> float:
        """Take a token; how long to wait before using it (0: at once)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


class Throttle:
    """Guests' messages at the pace of fingers: each waits its turn by its address's bucket and
    by the bucket of all guests (waiting delays only that guest's own connection)."""

    def __init__(
        self,
        per_address: tuple[float, float] = (MESSAGES_PER_SECOND, MESSAGES_IN_A_BURST),
        in_all: tuple[float, float] = (ALL_MESSAGES_PER_SECOND, ALL_MESSAGES_IN_A_BURST),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.clock = clock
        self._all = Bucket(*in_all, clock())
        self._by_address: dict[str, Bucket] = {}

    def delay(self, address: str) -> float:
        """Seconds the next message from `address` is to wait."""
        now = self.clock()
        if len(self._by_address) > 1024:  # addresses long quiet are full again: forget them
            self._by_address = {a: b for a, b in self._by_address.items() if now - b.at < 60}
        bucket = self._by_address.get(address)
        if bucket is None:
            bucket = self._by_address[address] = Bucket(*self.per_address, now)
        return max(bucket.wait_for_one(now), self._all.wait_for_one(now))

    async def wait(self, address: str) -> None:
        delay = self.delay(address)
        if delay > 0:
            await asyncio.sleep(delay)


def door_protocol(connections: Connections) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol for the guests' door: connections counted by `connections`,
    headers on a deadline."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # comes with flet-web

    base: Any = AutoHTTPProtocol  # httptools' protocol where it is installed, else h11's

    class DoorProtocol(base):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _header_bytes = 0  # of the request whose headers are still coming

        def data_received(self, data: bytes) -> None:
            """Headers past `HEADER_BYTES` close the connection: the parser keeps them all
            until they end, and a client may send them without end."""
            cycle: Any = self.cycle
            if cycle is None or cycle.response_complete:  # waiting for a request's headers
                self._header_bytes += len(data)
                if self._header_bytes > HEADER_BYTES:
                    self.transport.close()
                    return
            else:
                self._header_bytes = 0
            super().data_received(data)

        def on_response_complete(self) -> None:
            self._header_bytes = 0
            super().on_response_complete()
            self._await_headers()  # the next request on this connection, if any

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            if not connections.admit(str(peer[0]) if peer else "", transport):
                transport.abort()
                return
            super().connection_made(transport)
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            if self.transport is not None:  # None: refused before uvicorn ever saw it
                super().connection_lost(exc)

        def _await_headers(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(HEADER_SECONDS, self._headers_due)

        def _headers_due(self) -> None:
            """No request's headers since the connection opened (or the last answer): close
            it — unless it became a websocket or a request is being answered."""
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            cycle: Any = self.cycle
            if cycle is None or cycle.response_complete:
                self.transport.close()
            else:
                self._await_headers()  # a long answer (a big file): look again later

    return DoorProtocol


def registers(message: MutableMapping[str, Any]) -> bool:
    """Whether a websocket message asks Flet to register a client (read from its head only)."""
    import msgpack  # type: ignore[import-untyped]  # comes with flet

    data = message.get("bytes")
    if not isinstance(data, bytes) or data[:1] != b"\x00":
        return False
    head = msgpack.Unpacker()
    head.feed(data[1:32])
    try:
        head.read_array_header()
        return bool(head.unpack() == REGISTER_CLIENT)
    except Exception:  # not Flet's frame: Flet itself ends such a connection
        return False


def is_registration(message: MutableMapping[str, Any]) -> bool:
    """Whether a websocket's first message is Flet's registration of a client (anything else
    first would leave Flet's connection waiting for ever)."""
    import msgpack  # comes with flet

    data = message.get("bytes")
    if message.get("type") != "websocket.receive" or not isinstance(data, bytes):
        return False
    if data[:1] != b"\x00":
        return False
    try:
        decoded = msgpack.unpackb(
            data[1:], strict_map_key=False, ext_hook=lambda _code, _data: None
        )
    except Exception:  # anything at all that is not msgpack
        return False
    if not (isinstance(decoded, list) and len(decoded) == 2 and decoded[0] == REGISTER_CLIENT):
        return False
    body = decoded[1]
    return (
        isinstance(body, dict)
        and set(body) == REGISTRATION_FIELDS
        and isinstance(body["session_id"], str | None)
        and isinstance(body["page_name"], str)
        and isinstance(body["page"], dict)
    )


_DROPS_UNKNOWN = "_debrief_drops_unknown"


def drop_events_for_unknown_controls() -> None:
    """Drop an event for a control the session does not have before Flet looks for it.

    Flet 1.0.5 looks for an event's control in the whole of the session's screen when its index
    lacks it (`Session.__resolve_event_control`, there to recover a control it drew anew):
    5 ms a tap on a guest's scoreboard, and a guest may send such taps as fast as the door
    lets it, each holding up the host. The index holds every control the session has drawn
    (Flet files each one there as it sends it), so an event for an id it lacks can only be
    for nothing: a control long gone, or one a client made up. Installed once per process;
    events for controls the index holds go to Flet as before."""
    from flet.messaging.session import Session

    dispatch = Session.dispatch_event
    if getattr(dispatch, _DROPS_UNKNOWN, False):
        return

    async def dispatch_known(
        session: Session, control_id: int, event_name: str, event_data: Any
    ) -> None:
        if control_id in session.index:
            await dispatch(session, control_id, event_name, event_data)

    setattr(dispatch_known, _DROPS_UNKNOWN, True)
    Session.dispatch_event = dispatch_known  # type: ignore[method-assign, assignment]
