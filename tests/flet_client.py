"""A raw client of a shared table's door, as any guest could write one: plain HTTP for the share
link's cookie, then Flet's websocket protocol spoken directly (msgpack frames), with no browser
and no Flutter. It sends whatever it likes: a page update that rewrites its own page's fields,
events for any control, huge messages.

Used by the tests that attack the door (tests/test_door_attacks.py); the app must treat every
message as hostile.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

# flet.messaging.protocol.MessageAction
REGISTER_CLIENT, PATCH_CONTROL, CONTROL_EVENT, UPDATE_CONTROL_PROPS, INVOKE_METHOD = 1, 2, 3, 4, 5
PAGE_ID = 1  # the page is the session's first control
BROWSER_PAGE = {
    "route": "/",
    "platform": "android",
    "width": 400.0,
    "height": 800.0,
    "web": True,
    "pwa": False,
    "debug": False,
    "wasm": False,
    "test": False,
    "multi_view": False,
    "platform_brightness": "light",
    "media": {},
    "window": {},
}


def share_cookie(link: str, host: str | None = None) -> str:
    """The cookie a share link sets (a Cookie header value): what a guest's browser keeps."""
    address = link.removeprefix("http://").split("/")[0]
    port = address.rpartition(":")[2]
    path = link.split(address, 1)[1]
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host or address})
        response = connection.getresponse()
        response.read()
        cookie = response.getheader("set-cookie") or ""
    finally:
        connection.close()
    assert response.status == 303 and cookie, (response.status, cookie)
    return cookie.split(";")[0]


@dataclass
class FletClient:
    """One websocket session at a door. `received` holds every frame the server sent, decoded
    to text as far as it is text, so a test can ask what the app showed this client."""

    websocket: ClientConnection
    received: list[bytes] = field(default_factory=list)
    session_id: str = ""
    device: str = "attacker-device"

    @classmethod
    def open(
        cls,
        port: int,
        cookie: str,
        host: str,
        source: str = "127.0.0.1",
        user_agent: str = "Mozilla/5.0 (attacker)",
    ) -> FletClient:
        """A websocket to the server on 127.0.0.1:`port`, from the loopback address `source`
        (any of 127.0.0.0/8: as many "phones" as a test needs, each with an address of its
        own). Raises websockets' InvalidStatus when the server refuses the handshake."""
        tcp = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        try:
            websocket = connect(
                f"ws://127.0.0.1:{port}/ws",
                sock=tcp,
                additional_headers={"Host": host, "Cookie": cookie, "User-Agent": user_agent},
                open_timeout=10,
                max_size=None,
            )
        except BaseException:
            tcp.close()
            raise
        return cls(websocket)

    def send(self, action: int, body: dict[str, Any]) -> None:
        self.websocket.send(b"\x00" + msgpack.packb([action, body]))

    def register(self, route: str = "/", session_id: str | None = None, **page: Any) -> None:
        """Flet's first message (or a reconnection, with the session id the server gave)."""
        self.send(
            REGISTER_CLIENT,
            {
                "session_id": self.session_id if session_id is None else session_id,
                "page_name": "",
                "page": {**BROWSER_PAGE, **page, "route": route},
            },
        )

    def rewrite_page(self, **props: Any) -> None:
        """Change the page's own fields on the server (Flet applies a client's page updates)."""
        self.send(UPDATE_CONTROL_PROPS, {"id": PAGE_ID, "props": props})

    def event(self, target: int, name: str, data: Any = None) -> None:
        self.send(CONTROL_EVENT, {"target": target, "name": name, "data": data})

    def pump(self, seconds: float, until: bytes | tuple[bytes, ...] | None = None) -> bool:
        """Read (and answer the app's calls to the device) for up to `seconds`, or until a frame
        holding `until` (or one of them) arrived; whether it did. A closed connection ends the
        reading."""
        wanted = (until,) if isinstance(until, bytes) else until or ()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                raw = self.websocket.recv(timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            except ConnectionClosed:
                return False
            if not isinstance(raw, bytes) or raw[:1] != b"\x00":
                continue
            self.received.append(raw)
            action, body = decode(raw)
            if action == REGISTER_CLIENT and isinstance(body, dict):
                self.session_id = str(body.get("session_id") or self.session_id)
            if action == INVOKE_METHOD and isinstance(body, dict):
                self.answer(body)
            if any(text in raw for text in wanted):
                return True
        return False

    def answer(self, call: dict[str, Any]) -> None:
        """The device's side of a call: its shared preferences hold this client's device id."""
        result = self.device if call.get("name") == "get" else None
        self.send(
            INVOKE_METHOD,
            {
                "control_id": call["control_id"],
                "call_id": call["call_id"],
                "result": result,
                "error": None,
            },
        )

    def control(self, label: str, handler: str = "on_click", kind: str | None = None) -> int:
        """The id of the newest control the app drew with `handler` (it answers taps) and
        `label` inside (a button with that text), as found in the frames: what a hand-written
        client would do. `kind`: only a control of that class (Flet's ``_c``: a number pad's
        key "1" is a "FilledTonalButton", not the sheet's row of deal 1)."""
        for raw in reversed(self.received):
            _action, body = decode(raw)
            found = _tappable(body, label, handler, kind)
            if found is not None:
                return found
        raise LookupError(f"no tappable {label!r} was drawn for this client")

    def tap(self, label: str) -> None:
        self.event(self.control(label), "click")

    def drawn(self, label: str, seconds: float, kind: str | None = None) -> bool:
        """Read until the app has drawn a tappable `label` (of class `kind`), for up to
        `seconds`; whether it has: a busy host may answer a tap in more than one frame."""
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(LookupError):
                self.control(label, kind=kind)
                return True
            if time.monotonic() >= deadline:
                return False
            self.pump(min(0.05, max(0.0, deadline - time.monotonic())))

    def choose(self, label: str) -> None:
        """Select the segment `label` of a segmented button, as Flutter reports it: the new
        selection first, then the change event."""
        target = self.control(label, "on_change")
        for raw in reversed(self.received):
            value = _segment_value(decode(raw)[1], target, label)
            if value is not None:
                break
        else:
            raise LookupError(f"no segment {label!r}")
        self.send(UPDATE_CONTROL_PROPS, {"id": target, "props": {"selected": [value]}})
        self.event(target, "change", [value])

    def saw(self, text: str) -> bool:
        return any(text.encode() in frame for frame in self.received)

    def close(self) -> None:
        self.websocket.close()


def _tappable(value: Any, label: str, handler: str, kind: str | None = None) -> int | None:
    """The innermost control in `value` (a decoded frame) with `handler` and `label` inside
    (of class `kind`, if given)."""
    found: int | None = None
    if isinstance(value, dict):
        if (
            value.get(handler)
            and isinstance(value.get("_i"), int)
            and kind in (None, value.get("_c"))
            and _holds(value, label)
        ):
            found = int(value["_i"])
        for item in value.values():
            found = _tappable(item, label, handler, kind) or found
    elif isinstance(value, list):
        for item in value:
            found = _tappable(item, label, handler, kind) or found
    return found


def _holds(value: Any, label: str) -> bool:
    if isinstance(value, str):
        return value == label
    if isinstance(value, dict):
        return any(_holds(item, label) for item in value.values())
    if isinstance(value, list):
        return any(_holds(item, label) for item in value)
    return False


def decode(raw: bytes) -> tuple[int, Any]:
    """A frame's (action, body)."""
    action, body = msgpack.unpackb(raw[1:], ext_hook=lambda _code, data: data, strict_map_key=False)
    return int(action), body


def _segment_value(value: Any, target: int, label: str) -> str | None:
    """The value of the segment showing `label` in the segmented button `target`."""
    if isinstance(value, dict):
        if value.get("_i") == target:
            for segment in value.get("segments", []):
                if _holds(segment, label):
                    return str(segment.get("value"))
        for item in value.values():
            found = _segment_value(item, target, label)
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _segment_value(item, target, label)
            if found is not None:
                return found
    return None
