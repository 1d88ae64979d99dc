"""The scorers' PIN of a shared table: wrong PINs lock a device and an address out for a minute,
twenty in all make a new PIN."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from views.sharing import LOCKED_SECONDS, Sharing


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    """In a thread of its own: after the browser tests, Playwright holds this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


class Door:
    """The guests' door without a network: what was opened and closed (web/serve.py's real
    door is tested in tests/test_guard.py and tests/test_e2e_share.py)."""

    def __init__(self) -> None:
        self.opened: list[str] = []  # the PIN each opening was told
        self.closed: list[set[str]] = []  # the guest sessions each closing ended

    async def open(self, pin: str) -> str:
        self.opened.append(pin)
        return f"http://192.0.2.2:8551/?share=secret{len(self.opened)}"

    async def close(self, guest_sessions: set[str]) -> None:
        self.closed.append(guest_sessions)


def table(pin: str = "123456") -> tuple[Sharing, Clock]:
    clock = Clock()
    sharing = Sharing(Door(), clock=clock)
    run(sharing.start())
    sharing.pin = pin
    return sharing, clock


def test_each_start_gives_a_new_link_and_pin_and_stopping_ends_every_guest() -> None:
    door = Door()
    sharing = Sharing(door)
    assert not sharing.active and sharing.try_pin(sharing.pin, "phone-a", "192.0.2.7") == "wrong"
    run(sharing.start())
    first_link, first_pin = sharing.link, sharing.pin
    assert sharing.active and door.opened == [first_pin]
    sharing.joined("session-1")
    sharing.joined("session-2")
    run(sharing.stop())
    assert not sharing.active and door.closed == [{"session-1", "session-2"}]
    assert sharing.try_pin(first_pin, "phone-a", "192.0.2.7") == "wrong"  # no table shared
    run(sharing.start())
    assert sharing.link != first_link and door.opened[-1] == sharing.pin
    run(sharing.stop())
    assert door.closed[-1] == set()  # the first guests were ended once, not again


def test_the_right_pin_opens_and_a_wrong_one_does_not() -> None:
    sharing, _ = table()
    assert sharing.try_pin("000000", "phone-a", "192.0.2.7") == "wrong"
    assert sharing.try_pin("123456", "phone-a", "192.0.2.7") == "ok"


def test_five_wrong_pins_lock_the_device_for_a_minute_even_from_another_address() -> None:
    sharing, clock = table()
    results = [sharing.try_pin("000000", "phone-a", f"192.0.2.{n}") for n in range(5)]
    assert results == ["wrong"] * 4 + ["locked"]
    assert sharing.try_pin("123456", "phone-a", "192.0.2.99") == "locked"
    clock.now += LOCKED_SECONDS - 1
    assert sharing.try_pin("123456", "phone-a", "192.0.2.99") == "locked"
    clock.now += 2
    assert sharing.try_pin("123456", "phone-a", "192.0.2.99") == "ok"


def test_a_new_device_id_from_the_same_address_is_locked_too() -> None:
    """Device ids are the client's choice: clearing storage makes a new one, the address stays."""
    sharing, _ = table()
    for n in range(5):
        sharing.try_pin("000000", f"fresh-{n}", "192.0.2.7")
    assert sharing.try_pin("123456", "fresh-new", "192.0.2.7") == "locked"
    assert sharing.try_pin("123456", "phone-b", "192.0.2.8") == "ok"  # others are not


def test_twenty_wrong_pins_in_all_make_a_new_pin_and_the_host_is_told() -> None:
    sharing, _ = table()
    told: list[str] = []
    sharing.on_new_pin = told.append
    for n in range(19):
        sharing.try_pin("000000", f"device-{n}", f"192.0.2.{n}")
    assert sharing.pin == "123456"
    sharing.try_pin("000000", "device-19", "192.0.2.19")
    assert sharing.pin != "123456" and len(sharing.pin) == 6 and sharing.pin.isdigit()
    assert told == [sharing.pin]
    assert sharing.try_pin("123456", "device-20", "192.0.2.20") == "wrong"
    assert sharing.try_pin(sharing.pin, "device-21", "192.0.2.21") == "ok"


def test_the_guests_see_the_game_the_host_opened_last() -> None:
    sharing, _ = table()
    assert sharing.show("game-1") and not sharing.show("game-1")
    assert sharing.show("game-2") and sharing.game_id == "game-2"
