"""A table shared on the local network: which game the guests see, and the scorers' PIN.

One `Sharing` per process, made when the app starts with ``--share``; it ends with the process
(every secret and PIN is new at each start). Guests (the share link) see the game the host has
open; a guest who types the PIN becomes a scorer of that game.

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

PIN_DIGITS = 6
TRIES_BEFORE_LOCK = 5
LOCKED_SECONDS = 60.0
TRIES_BEFORE_NEW_PIN = 20


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


@dataclass
class Sharing:
    """The shared table (thread-safe: every session of the process asks it)."""

    link: str  # the share link for guests (with its secret)
    pin: str = field(default_factory=new_pin)
    game_id: str | None = None  # the game the host has open: what guests see
    on_new_pin: Callable[[str], None] | None = None  # tells the host (the terminal)
    clock: Callable[[], float] = time.monotonic
    _wrong: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _locked_until: dict[str, float] = field(default_factory=dict)
    _wrong_in_all: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

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
