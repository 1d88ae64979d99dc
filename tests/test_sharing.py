"""A shared table: the scorers' PIN (locked out per real address, slowed for the whole table,
never changed by guessing, every wrong try shown to the host) and the guests' sessions (a few
per phone, a few dozen in all, leftovers ended first)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from web.sharing import (
    GUEST_SESSIONS_IN_ALL,
    GUEST_SESSIONS_PER_ADDRESS,
    LOCKED_SECONDS,
    TABLE_WRONG_PER_MINUTE,
    Connected,
    PinAttempt,
    Sharing,
)

T = TypeVar("T")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """In a thread of its own: after the browser tests, Playwright holds this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@dataclass(eq=False)
class FakeSession:
    """What sharing reads of a Flet session: connected or not, and until when it is kept."""

    name: str
    connection: object | None = "connected"
    expires_at: dt.datetime | None = None

    def leave(self, kept_for: float = 60) -> None:
        self.connection = None
        self.expires_at = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=kept_for)


class Door:
    """The guests' door without a network: what was opened, ended and closed (web/serve.py's
    real door is attacked in tests/test_door_attacks.py)."""

    def __init__(self) -> None:
        self.opened: list[str] = []  # the PIN each opening was told
        self.ended: list[str] = []  # sessions ended one by one
        self.closed: list[set[str]] = []  # the guest sessions each closing ended

    async def open(self, pin: str) -> str:
        self.opened.append(pin)
        return f"http://192.0.2.2:8551/?share=secret{len(self.opened)}"

    async def end(self, session: Any) -> None:
        self.ended.append(session.name)

    async def close(self, guest_sessions: list[Any]) -> None:
        self.closed.append({session.name for session in guest_sessions})


def table(pin: str = "123456") -> tuple[Sharing, Clock]:
    clock = Clock()
    sharing = Sharing(Door(), clock=clock)
    run(sharing.start())
    sharing.pin = pin
    return sharing, clock


def test_each_start_gives_a_new_link_and_pin_and_stopping_ends_every_guest() -> None:
    door = Door()
    sharing = Sharing(door)
    assert not sharing.active and sharing.try_pin(sharing.pin, "192.0.2.7") == "wrong"
    run(sharing.start())
    first_link, first_pin = sharing.link, sharing.pin
    assert sharing.active and door.opened == [first_pin]
    guests = [FakeSession("session-1"), FakeSession("session-2")]  # Flet holds them
    assert run(sharing.admit(guests[0], "192.0.2.7"))
    assert run(sharing.admit(guests[1], "192.0.2.8"))
    run(sharing.stop())
    assert not sharing.active and door.closed == [{"session-1", "session-2"}]
    assert sharing.try_pin(first_pin, "192.0.2.7") == "wrong"  # no table shared
    run(sharing.start())
    assert sharing.link != first_link and door.opened[-1] == sharing.pin
    run(sharing.stop())
    assert door.closed[-1] == set()  # the first guests were ended once, not again


def test_the_right_pin_opens_and_a_wrong_one_does_not() -> None:
    sharing, _ = table()
    assert sharing.try_pin("000000", "192.0.2.7") == "wrong"
    assert sharing.try_pin("123456", "192.0.2.7") == "ok"


def test_five_wrong_pins_lock_the_address_for_a_minute_then_for_longer() -> None:
    sharing, clock = table()
    results = [sharing.try_pin("000000", "192.0.2.7") for _ in range(5)]
    assert results == ["wrong"] * 4 + ["locked"]
    assert sharing.try_pin("123456", "192.0.2.7") == "locked"
    assert sharing.try_pin("123456", "192.0.2.8") == "ok"  # other phones are not locked out
    clock.now += LOCKED_SECONDS - 1
    assert sharing.try_pin("123456", "192.0.2.7") == "locked"
    clock.now += 2
    assert sharing.try_pin("000000", "192.0.2.7") == "wrong"
    results = [sharing.try_pin("000000", "192.0.2.7") for _ in range(4)]
    assert results[-1] == "locked"
    clock.now += LOCKED_SECONDS + 1  # a second lockout lasts twice as long
    assert sharing.try_pin("123456", "192.0.2.7") == "locked"
    clock.now += LOCKED_SECONDS
    assert sharing.try_pin("123456", "192.0.2.7") == "ok"


def test_wrong_pins_from_many_addresses_slow_the_whole_table_and_never_change_the_pin() -> None:
    sharing, clock = table()
    results = [sharing.try_pin("000000", f"192.0.2.{n}") for n in range(TABLE_WRONG_PER_MINUTE)]
    assert results == ["wrong"] * TABLE_WRONG_PER_MINUTE
    assert sharing.try_pin("123456", "192.0.2.200") == "locked"  # everyone waits, honest or not
    for n in range(30):
        sharing.try_pin("000000", f"198.51.100.{n}")
    assert sharing.pin == "123456"  # guessing never changes the scorers' PIN
    clock.now += 61
    assert sharing.try_pin("123456", "192.0.2.201") == "ok"


def test_the_host_is_told_of_every_wrong_pin_and_where_it_came_from() -> None:
    sharing, clock = table()
    told: list[PinAttempt] = []

    class Host:
        def heard(self, attempt: PinAttempt) -> None:
            told.append(attempt)

    host = Host()
    sharing.watch(host.heard)
    sharing.try_pin("000000", "192.0.2.7")
    clock.now += 5
    sharing.try_pin("123456", "192.0.2.8")
    for _ in range(TABLE_WRONG_PER_MINUTE):
        sharing.try_pin("000000", "192.0.2.9")
    assert told[0] == PinAttempt("192.0.2.7", 1000.0, "wrong")
    assert [a.address for a in told].count("192.0.2.8") == 0  # the right PIN is no alarm
    assert told[-1].address == "192.0.2.9" and told[-1].result == "locked"
    assert sharing.wrong_pins() == told
    del host  # a host's tab that has closed is not told any more
    sharing.try_pin("000000", "192.0.2.10")
    assert len(told) == 1 + TABLE_WRONG_PER_MINUTE


def test_a_phone_that_typed_the_pin_stays_a_scorer_when_it_comes_back() -> None:
    """A phone whose screen locked comes back in a new session: the device that typed the PIN
    at that address is still a scorer; the same device id from another address is not."""
    sharing, _ = table()
    assert not sharing.is_scorer("phone-a", "192.0.2.7")
    assert sharing.try_pin("123456", "192.0.2.7") == "ok"
    sharing.remember_scorer("phone-a", "192.0.2.7")
    assert sharing.is_scorer("phone-a", "192.0.2.7")
    assert not sharing.is_scorer("phone-a", "192.0.2.99")
    run(sharing.stop())
    run(sharing.start())
    assert not sharing.is_scorer("phone-a", "192.0.2.7")  # a new sharing, a new PIN


def test_a_few_sessions_per_phone_and_a_few_dozen_in_all_leftovers_ended_first() -> None:
    sharing, _ = table()
    door = sharing.door
    assert isinstance(door, Door)
    phone = [FakeSession(f"a{n}") for n in range(GUEST_SESSIONS_PER_ADDRESS + 1)]
    for session in phone[:-1]:
        assert run(sharing.admit(session, "192.0.2.7"))
    assert not run(sharing.admit(phone[-1], "192.0.2.7"))  # all still connected: refused
    phone[1].leave()
    phone[0].leave()
    assert run(sharing.admit(phone[-1], "192.0.2.7"))
    assert door.ended == ["a0"]  # the oldest leftover made room
    others = [FakeSession(f"b{n}") for n in range(GUEST_SESSIONS_IN_ALL)]
    admitted = [
        run(sharing.admit(session, f"198.51.100.{n // GUEST_SESSIONS_PER_ADDRESS}"))
        for n, session in enumerate(others)
    ]
    assert admitted.count(True) == GUEST_SESSIONS_IN_ALL - GUEST_SESSIONS_PER_ADDRESS + 1
    assert door.ended == ["a0", "a1"]  # the last leftover went before anyone was refused
    assert sharing.guests() == GUEST_SESSIONS_IN_ALL


def test_a_session_flet_has_dropped_no_longer_counts() -> None:
    sharing, _ = table()
    sessions = [FakeSession(f"s{n}") for n in range(GUEST_SESSIONS_PER_ADDRESS)]
    for session in sessions:
        assert run(sharing.admit(session, "192.0.2.7"))
    sessions[0].leave(kept_for=-1)  # its time is up: Flet deletes it at its next sweep
    newcomer = FakeSession("new")
    assert run(sharing.admit(newcomer, "192.0.2.7"))
    assert sharing.door.ended == []  # type: ignore[attr-defined]


def test_the_guests_see_the_game_the_host_opened_last() -> None:
    sharing, _ = table()
    assert sharing.show("game-1") and not sharing.show("game-1")
    assert sharing.show("game-2") and sharing.game_id == "game-2"


def test_the_host_lists_each_phone_once_by_name_and_role_and_ends_one_phones_access() -> None:
    sharing, _ = table()
    door = sharing.door
    assert isinstance(door, Door)
    heard: list[int] = []

    class HostTab:  # held weakly by the sharing, as the host's state is
        def changed(self) -> None:
            heard.append(1)

    host = HostTab()
    sharing.watch_guests(host.changed)
    ben, ben_reload, ida = (FakeSession(name) for name in ("ben-1", "ben-2", "ida"))
    for session, address in ((ben, "192.0.2.7"), (ben_reload, "192.0.2.7"), (ida, "192.0.2.9")):
        assert run(sharing.admit(session, address))
    sharing.describe(ben, "ben-device", "Ben's phone", "viewer")
    sharing.describe(ben_reload, "ben-device", "Ben's phone", "scorer")
    sharing.describe(ida, "ida-device", "Android phone", "viewer")
    assert heard  # the host's list is drawn again
    assert [(p.name, p.role) for p in sharing.connected()] == [
        ("Ben's phone", "scorer"),  # two sessions of one phone: one line, a scorer
        ("Android phone", "viewer"),
    ]
    sharing.remember_scorer("ben-device", "192.0.2.7")
    run(sharing.end_access("ben-device"))
    assert [p.name for p in sharing.connected()] == ["Android phone"]
    assert not sharing.is_scorer("ben-device", "192.0.2.7")
    assert sharing.ended("ben-device") and not sharing.ended("ida-device")
    # Its sessions stay, told of the end; another phone at its address is not touched.
    assert run(sharing.admit(FakeSession("carla"), "192.0.2.7"))
    run(sharing.stop())
    run(sharing.start())  # a new share lets every phone in again
    assert not sharing.ended("ben-device")


def test_phones_of_the_same_name_are_told_apart_in_the_hosts_list() -> None:
    from views.guest import told_apart
    from views.i18n import Translator

    phones = [
        Connected("a", "Android phone", "viewer"),
        Connected("b", "Ben's phone", "scorer"),
        Connected("c", "Android phone", "scorer"),
    ]
    assert [p.name for p in told_apart(Translator("en"), phones)] == [
        "Android phone (1)",
        "Ben's phone",
        "Android phone (2)",
    ]
