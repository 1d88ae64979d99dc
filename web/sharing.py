"""A table shared on the local network: whether it is shared, which game the guests see, the
scorers' PIN, and the guests' sessions.

One `Sharing` per process where a network can be served (the app in a browser or in its own
desktop window). The host starts it from a game's screen (or with ``--share`` at launch) and
stops it there: each start opens the guests' door with a new secret and a new PIN; stopping
closes the door, every guest's connection and session, and so voids every link and PIN given
out. Guests (the share link) see the game the host has open; a guest who types the PIN becomes
a scorer of that game.

Every address here is the socket's peer as the guard saw it (web/guard.py `Caller`), never
something the client wrote. A table never needs more than a few PIN tries a minute, so:

- five wrong PINs from one address lock it out for a minute, each further lockout for twice as
  long (at most an hour);
- ten wrong PINs in a minute from anywhere make every PIN wait until that minute is over (a
  guesser with many addresses gets ten tries a minute: a six-digit PIN holds for weeks);
- guessing never changes the scorers' PIN (it would only lock out the real scorers), and the
  host's screen is told of each wrong try and where it came from, with one tap to stop sharing.

Guests' sessions are few: at most `GUEST_SESSIONS_PER_ADDRESS` per address and
`GUEST_SESSIONS_IN_ALL` in all, counting those Flet keeps for a phone to come back to; a new
one first ends the oldest such leftover, and is refused when every one is in use.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

PIN_DIGITS = 6
TRIES_BEFORE_LOCK = 5  # wrong PINs from one address
LOCKED_SECONDS = 60.0  # the first lockout of an address; each next one twice as long
LONGEST_LOCK_SECONDS = 3600.0
TABLE_WRONG_PER_MINUTE = 10  # wrong PINs from anywhere before every PIN waits
GUEST_SESSIONS_PER_ADDRESS = 4  # a phone, its reloads and a second tab
GUEST_SESSIONS_IN_ALL = 24  # six players, four each


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


class GuestSession(Protocol):
    """What sharing reads of a guest's Flet session."""

    @property
    def connection(self) -> object | None:
        """None while the phone is away (Flet keeps the session for it to come back)."""

    @property
    def expires_at(self) -> dt.datetime | None:
        """When Flet drops a session that is away."""


class GuestDoor(Protocol):
    """What lets guests in (web/serve.py serves it on the network)."""

    async def open(self, pin: str) -> str:
        """Serve guests with a new secret; the share link. Raises OSError if it cannot."""

    async def end(self, session: GuestSession) -> None:
        """End one guest's session (a leftover that makes room for a new one)."""

    async def close(self, guest_sessions: list[GuestSession]) -> None:
        """Stop serving guests: every connection closed, those sessions ended."""


@dataclass(frozen=True)
class PinAttempt:
    """A PIN that did not open: where it came from, when (the sharing's clock), and whether it
    was "wrong" or refused unchecked ("locked": that address or the whole table had to wait)."""

    address: str
    at: float
    result: str


@dataclass
class _Guest:
    session: weakref.ReferenceType[GuestSession]
    address: str
    device: str = ""  # as its session read it from the phone ("" not yet)
    name: str = ""  # the phone's name, as its player gave it (or as suggested)
    role: str = "viewer"  # "viewer" or "scorer"


@dataclass(frozen=True)
class Connected:
    """A phone connected to the shared table, for the host's list: its device, name and role
    (a device with several sessions, say a reload and a second tab, is one phone)."""

    device: str
    name: str
    role: str


@dataclass
class Sharing:
    """The shared table (thread-safe: every session of the process asks it)."""

    door: GuestDoor
    link: str | None = None  # the share link for guests (with its secret); None: not shared
    pin: str = field(default_factory=new_pin)
    game_id: str | None = None  # the game the host has open: what guests see
    clock: Callable[[], float] = time.monotonic
    _guests: list[_Guest] = field(default_factory=list)  # oldest first
    _scorers: set[tuple[str, str]] = field(default_factory=set)  # (device, address)
    _wrong: dict[str, int] = field(default_factory=dict)  # per address, since its last lockout
    _lockouts: dict[str, int] = field(default_factory=dict)  # how often each address was locked
    _locked_until: dict[str, float] = field(default_factory=dict)
    _recent_wrong: deque[float] = field(default_factory=deque)  # the table's, last minute
    _attempts: list[PinAttempt] = field(default_factory=list)
    _ended: set[str] = field(default_factory=set)  # devices whose access the host ended
    _guest_listeners: list[weakref.WeakMethod[Callable[[], None]]] = field(default_factory=list)
    _listeners: list[weakref.WeakMethod[Callable[[PinAttempt], None]]] = field(default_factory=list)
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
            self._forget_guesses()
            self._scorers.clear()
            self._ended.clear()
        self.link = await self.door.open(self.pin)

    async def stop(self) -> None:
        """Stop sharing: every guest is out, every link and PIN void."""
        if self.link is None:
            return
        self.link = None
        with self._lock:
            ended = [s for s in (g.session() for g in self._guests) if s is not None]
            self._guests.clear()
            self._scorers.clear()
        await self.door.close(ended)

    def show(self, game_id: str) -> bool:
        """The host opened `game_id`: guests now see it. Whether that changed anything."""
        with self._lock:
            changed = self.game_id != game_id
            self.game_id = game_id
            return changed

    # --- guests' sessions ----------------------------------------------------------------------

    async def admit(self, session: GuestSession, address: str) -> bool:
        """A guest's new session from `address`: whether it may stay. It may when its phone
        and the table are below their numbers of sessions, or once the oldest sessions left
        behind (phones away, kept by Flet) have been ended to make room."""
        with self._lock:
            if self.link is None:
                return False
            self._guests = [g for g in self._guests if _present(g.session())]
            ending = self._make_room(address)
            if ending is None:
                return False
            self._guests.append(_Guest(weakref.ref(session), address))
        for leftover in ending:
            await self.door.end(leftover)
        return True

    def _make_room(self, address: str) -> list[GuestSession] | None:
        """The leftovers to end so that one more session from `address` fits (oldest first,
        dropped from the count); None, and nothing dropped, when it cannot fit."""
        kept = list(self._guests)
        ending: list[GuestSession] = []
        for limit, counts in (
            (GUEST_SESSIONS_PER_ADDRESS, lambda guest: guest.address == address),
            (GUEST_SESSIONS_IN_ALL, lambda guest: True),
        ):
            counted = [g for g in kept if counts(g)]
            leftovers = [g for g in counted if _away(g.session())]
            while len(counted) >= limit:
                if not leftovers:
                    return None
                guest = leftovers.pop(0)
                counted.remove(guest)
                kept.remove(guest)
                session = guest.session()
                if session is not None:
                    ending.append(session)
        self._guests = kept
        return ending

    def guests(self) -> int:
        """How many guests' sessions count now (for tests and the host's panel)."""
        with self._lock:
            return sum(1 for g in self._guests if _present(g.session()))

    def describe(self, session: GuestSession, device: str, name: str, role: str) -> None:
        """What a guest's session knows of itself (its device, the device's name, its role),
        for the host's list of who is connected."""
        with self._lock:
            for guest in self._guests:
                if guest.session() is session:
                    guest.device, guest.name, guest.role = device, name, role
        self._guests_changed()

    def connected(self) -> list[Connected]:
        """The phones connected now, in the order they first came; a scorer is listed as one
        if any of its sessions is."""
        with self._lock:
            guests = [
                g
                for g in self._guests
                if g.device and g.device not in self._ended and not _away(g.session())
            ]
        phones: dict[str, Connected] = {}
        for guest in guests:
            known = phones.get(guest.device)
            role = (
                "scorer"
                if guest.role == "scorer" or (known and known.role == "scorer")
                else guest.role
            )
            phones[guest.device] = Connected(
                guest.device, guest.name or (known.name if known else ""), role
            )
        return list(phones.values())

    async def end_access(self, device: str) -> None:
        """The host ends a phone's access: from now on every session of that device (this
        one, a reload, a new tab) may do nothing and is told so, while this table is shared
        (a new share lets it in). A device is what its browser keeps: a phone that forgets its
        storage comes back as a new one, and needs the PIN again to score; a phone that must
        not watch either needs a new share (a new link and PIN)."""
        with self._lock:
            self._ended.add(device)
            self._scorers = {(d, a) for d, a in self._scorers if d != device}
        self._guests_changed()

    def ended(self, device: str) -> bool:
        """Whether the host ended the access of `device` (in this share)."""
        with self._lock:
            return self.link is not None and device in self._ended

    def watch_guests(self, listener: Callable[[], None]) -> None:
        """Tell `listener` (a bound method, held weakly: the host's tab) when a phone comes,
        goes, is named or scores."""
        with self._lock:
            self._guest_listeners = [w for w in self._guest_listeners if w() is not None]
            self._guest_listeners.append(weakref.WeakMethod(listener))

    def _guests_changed(self) -> None:
        with self._lock:
            listeners = [listener() for listener in self._guest_listeners]
        for listener in listeners:
            if listener is not None:
                listener()

    # --- the PIN -------------------------------------------------------------------------------

    def try_pin(self, typed: str, address: str) -> str:
        """ "ok", "wrong" or "locked" (this address, or the whole table, must wait)."""
        with self._lock:
            now = self.clock()
            if self.link is None:
                return "wrong"  # no table is shared (any more)
            while self._recent_wrong and self._recent_wrong[0] <= now - 60:
                self._recent_wrong.popleft()
            if (
                self._locked_until.get(address, 0.0) > now
                or len(self._recent_wrong) >= TABLE_WRONG_PER_MINUTE
            ):
                result = "locked"
            elif secrets.compare_digest(typed.encode(), self.pin.encode()):
                self._wrong.pop(address, None)
                return "ok"
            else:
                result = self._wrong_pin(address, now)
            attempt = PinAttempt(address, now, result)
            self._attempts.append(attempt)
            listeners = [listener() for listener in self._listeners]
        for listener in listeners:
            if listener is not None:
                listener(attempt)
        return result

    def _wrong_pin(self, address: str, now: float) -> str:
        self._recent_wrong.append(now)
        self._wrong[address] = self._wrong.get(address, 0) + 1
        if self._wrong[address] < TRIES_BEFORE_LOCK:
            return "wrong"
        lockouts = self._lockouts.get(address, 0)
        seconds = min(LOCKED_SECONDS * 2**lockouts, LONGEST_LOCK_SECONDS)
        self._locked_until[address] = now + seconds
        self._lockouts[address] = lockouts + 1
        self._wrong[address] = 0
        return "locked"

    def _forget_guesses(self) -> None:
        self._wrong.clear()
        self._lockouts.clear()
        self._locked_until.clear()
        self._recent_wrong.clear()
        self._attempts.clear()

    def wrong_pins(self) -> list[PinAttempt]:
        """Every PIN that did not open since sharing started, oldest first."""
        with self._lock:
            return list(self._attempts)

    def watch(self, listener: Callable[[PinAttempt], None]) -> None:
        """Tell `listener` (a bound method, held weakly: the host's tab) of each PIN that did
        not open."""
        with self._lock:
            self._listeners = [w for w in self._listeners if w() is not None]
            self._listeners.append(weakref.WeakMethod(listener))

    def remember_scorer(self, device: str, address: str) -> None:
        """The device at `address` typed the PIN: it stays a scorer in its next sessions (a
        phone whose screen locked comes back in a new one) while the table is shared."""
        with self._lock:
            self._scorers.add((device, address))

    def is_scorer(self, device: str, address: str) -> bool:
        with self._lock:
            return self.link is not None and (device, address) in self._scorers


def _away(session: GuestSession | None) -> bool:
    """A session kept for a phone that has gone (it may come back), or one that is gone."""
    return session is None or session.connection is None


def _present(session: GuestSession | None) -> bool:
    """Whether a session still counts: it exists, and Flet has not let its time run out."""
    if session is None:
        return False
    expires = session.expires_at
    return session.connection is not None or expires is None or expires > dt.datetime.now(dt.UTC)
