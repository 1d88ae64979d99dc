"""A table shared on the local network: whether it is shared, which game the guests see, and
the scorers' PIN.

One `Sharing` per process where a network can be served (the app in a browser or in its own
desktop window). The host starts it from a game's screen (or with ``--share`` at launch) and
stops it there: each start opens the guests' door with a new secret and a new PIN; stopping
closes the door, every guest's connection and session, and so voids every link and PIN given
out. Guests (the share link) see the game
the host has open; a guest who types the PIN becomes a scorer of that game.

Wrong PINs: five from one device, or from one network address, lock that device and that
address out for a minute; twenty in all make a new PIN (the host sees it). A device id is
chosen by the client, so a guest who clears the browser's storage is a new device; the address
lock still holds them — the README's threat model says what this does and does not stop.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

PIN_DIGITS = 6
TRIES_BEFORE_LOCK = 5
LOCKED_SECONDS = 60.0
TRIES_BEFORE_NEW_PIN = 20


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


class GuestDoor(Protocol):
    """What lets guests in (web/serve.py serves it on the network)."""

    async def open(self, pin: str) -> str:
        """Serve guests with a new secret; the share link. Raises OSError if it cannot."""

    async def close(self, guest_sessions: set[str]) -> None:
        """Stop serving guests: every connection closed, those sessions ended."""


@dataclass
class Sharing:
    """The shared table (thread-safe: every session of the process asks it)."""

    door: GuestDoor
    link: str | None = None  # the share link for guests (with its secret); None: not shared
    pin: str = field(default_factory=new_pin)
    game_id: str | None = None  # the game the host has open: what guests see
    guest_sessions: set[str] = field(default_factory=set)  # ended when sharing stops
    on_new_pin: Callable[[str], None] | None = None  # tells the host (the terminal)
    clock: Callable[[], float] = time.monotonic
    _wrong: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _locked_until: dict[str, float] = field(default_factory=dict)
    _wrong_in_all: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def active(self) -> bool:
        return self.link is not None

    async def start(self) -> None:
        """Share the table: a new PIN and a new link (raises OSError if no door opens)."""
        if self.link is not None:
            return
        with self._lock:
            self.pin = new_pin()
            self._wrong.clear()
            self._wrong_in_all = 0
        self.link = await self.door.open(self.pin)

    async def stop(self) -> None:
        """Stop sharing: every guest is out, every link and PIN void."""
        if self.link is None:
            return
        self.link = None
        with self._lock:
            ended, self.guest_sessions = self.guest_sessions, set()
        await self.door.close(ended)

    def joined(self, session_id: str) -> None:
        """A guest's session began: it ends when sharing stops."""
        with self._lock:
            self.guest_sessions.add(session_id)

    def show(self, game_id: str) -> bool:
        """The host opened `game_id`: guests now see it. Whether that changed anything."""
        with self._lock:
            changed = self.game_id != game_id
            self.game_id = game_id
            return changed

    def try_pin(self, typed: str, device: str, address: str) -> str:
        """ "ok", "wrong" or "locked" (this device or address typed too many wrong PINs)."""
        keys = (f"device:{device}", f"address:{address}")
        with self._lock:
            now = self.clock()
            if self.link is None:
                return "wrong"  # no table is shared (any more)
            if any(self._locked_until.get(key, 0.0) > now for key in keys):
                return "locked"
            if secrets.compare_digest(typed.encode(), self.pin.encode()):
                for key in keys:
                    self._wrong.pop(key, None)
                return "ok"
            self._wrong_in_all += 1
            if self._wrong_in_all >= TRIES_BEFORE_NEW_PIN:
                self.pin = new_pin()  # guessing has gone on too long: a new PIN to guess
                self._wrong_in_all = 0
                if self.on_new_pin is not None:
                    self.on_new_pin(self.pin)
            locked = False
            for key in keys:
                self._wrong[key] += 1
                if self._wrong[key] >= TRIES_BEFORE_LOCK:
                    self._locked_until[key] = now + LOCKED_SECONDS
                    self._wrong[key] = 0
                    locked = True
            return "locked" if locked else "wrong"
