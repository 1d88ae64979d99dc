"""A shared table's door, attacked by a guest who holds the link and writes its own client.

Each test plays a link holder on the Wi-Fi with `flet_client.FletClient`, which speaks Flet's
websocket protocol directly, and then checks the host: it keeps its role to itself, answers
within a second, and its data is as it was. Traffic goes to 127.0.0.1 only; "phones" with
addresses of their own are loopback addresses (127.0.0.0/8).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
from builders import SCENARIOS
from flet_client import CONTROL_EVENT, FletClient, share_cookie
from websockets.exceptions import ConnectionClosed, InvalidStatus

from storage import Store
from tools.browser import AppServer
from web.limits import MESSAGES_IN_A_BURST
from web.sharing import GUEST_SESSIONS_IN_ALL

PLAYERS = ["Anna", "Ben", "Carla", "Dirk"]
HOST_ONLY = ("New game", "Share this table", "Finish and save to history", "Export everything")
# What "the host still answers" means: within a second, or, on a machine loaded by more than
# this test, within three times what the same answer took just before the attack (a speed is a
# ratio to an anchor on the same machine: a loaded run once failed at 1.35 s for a flood the
# host had held off, and six busy loops beside the tests failed it at 1.62 s).
ANSWER_SECONDS = 1.0
SLOWDOWN = 3
# Under connections that stay open, each answer is the quickest of this many tries: such an
# attack slows every try, while the machine's other work slows some (in a full run, with
# Chromium starting beside it, one save took 2.2 s where it takes 0.07 to 0.12 s alone, with
# four busy loops beside it, or with another process writing and syncing 64 MB at a time).
TRIES = 3


@dataclass
class Table:
    """A host sharing a Black Spy game that is open on the host's screen."""

    server: AppServer
    game_id: str
    link: str
    door: str  # host:port as the link names it
    door_port: int
    cookie: str  # what the share link sets
    pin: str
    host_cookie: str
    calm: float = 0.0  # seconds the host's first screen took before any attack

    @property
    def answer_limit(self) -> float:
        """How soon the host must answer during or after an attack."""
        return max(ANSWER_SECONDS, SLOWDOWN * self.calm)

    def guest(self, source: str = "127.0.0.1", device: str = "phone") -> FletClient:
        client = FletClient.open(self.door_port, self.cookie, self.door, source=source)
        client.device = device
        return client

    def host(self, route: str = "/") -> FletClient:
        address = f"127.0.0.1:{self.server.port}"
        client = FletClient.open(self.server.port, self.host_cookie, address)
        client.device = "host-browser"
        client.register(route=route)
        return client

    def host_answer_time(self, route: str = "/") -> float:
        """Open the host's app (a new session of the host's browser) and time its first screen."""
        started = time.monotonic()
        client = self.host(route)
        try:
            expected = b"New game" if route == "/" else b"Scoresheet"
            assert client.pump(30, expected), "the host's screen was never drawn"
            return time.monotonic() - started
        finally:
            client.close()

    def host_saves_a_setting(self, theme: str = "Dark") -> float:
        """The host picks `theme` in Settings; the time until it is on disk."""
        started = time.monotonic()
        client = self.host("/settings")
        try:
            assert client.pump(30, theme.encode()), "the host's settings were never drawn"
            client.choose(theme)
            while self.settings().get("theme") != theme.lower():
                assert time.monotonic() - started < 30, "the setting was never saved"
                client.pump(0.05)
            return time.monotonic() - started
        finally:
            client.close()

    def printed(self, label: str) -> list[str]:
        return [
            line.removeprefix(label).strip()
            for line in self.server.log.read_text().splitlines()
            if line.startswith(label)
        ]

    def settings(self) -> dict[str, object]:
        """The host's settings as written on disk (the roster's file holds them by key)."""
        data = json.loads((self.server.data_dir / "debrief.json").read_text())
        return {key: row.get("value") for key, row in data.get("settings", {}).items()}


def shared_table(
    tmp_path: Path, open_files: int | None = None, finished: dict[str, object] | None = None
) -> Iterator[Table]:
    """The host sharing a new Black Spy game (or the `finished` game, at its result)."""
    store = Store.open(tmp_path / "data")
    if finished is None:
        record = store.create_game(
            "black-spy",
            [{"name": name} for name in PLAYERS],
            {"first_dealer": "Anna", "variants": []},
        )
    else:
        store.add_games([finished])
        record = store.load_game(str(finished["meta"]["id"]))  # type: ignore[index]
    store.close()
    server = AppServer(tmp_path / "data", args=["--share"], open_files=open_files).start()
    try:
        link = server.printed("Guests open:")
        door = link.removeprefix("http://").split("/")[0]
        table = Table(
            server,
            str(record["meta"]["id"]),
            link,
            door,
            int(door.split(":")[1]),
            share_cookie(link),
            server.printed("Scorers' PIN:"),
            host_login(server),
        )
        host = table.host(f"/game/{table.game_id}")  # guests see the game the host has open
        assert host.pump(30, b"Scoresheet" if finished is None else b"Share as picture")
        host.close()
        table.calm = table.host_answer_time()  # the anchor, before any attack
        yield table
    finally:
        server.stop()
    # Every attack is a case the door handles, a line each in the host's log, never a
    # traceback (they filled it: 120 while 30 sessions were held against the limit).
    logged = server.log.read_text(errors="replace")
    assert "Traceback" not in logged, logged[logged.index("Traceback") - 2000 :][:6000]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from shared_table(tmp_path)


def host_login(server: AppServer) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", f"/?key={server.secret}")
        response = connection.getresponse()
        response.read()
        return (response.getheader("set-cookie") or "").split(";")[0]
    finally:
        connection.close()


def joined(table: Table, source: str = "127.0.0.1", device: str = "phone") -> FletClient:
    """A guest whose phone shows the shared game."""
    guest = table.guest(source, device)
    guest.register()
    guest.pump(30, (b"Scoresheet", b"too many phones"))
    assert guest.saw("Scoresheet"), "the guest never saw the shared game"
    return guest


def type_pin(guest: FletClient, pin: str) -> str:
    """Tap Score, then the six digits, each once its answer came; what the phone then says."""
    if not guest.saw("The host's PIN"):
        guest.tap("Score")
        assert guest.pump(10, b"The host's PIN")
    for typed, digit in enumerate(pin[:-1], start=1):
        guest.tap(digit)
        assert guest.pump(10, f"{typed} of 6 digits typed".encode())
    before = len(guest.received)
    guest.tap(pin[-1])
    for _ in range(50):
        guest.pump(0.2)
        said = b"".join(guest.received[before:])
        for answer in ("That is not the PIN", "Too many wrong PINs", "enter this game's rounds"):
            if answer.encode() in said:
                return answer
    raise AssertionError("the PIN got no answer")


# --- 1. a viewer never becomes the host ----------------------------------------------------------


def test_a_guest_that_rewrites_its_page_fields_is_still_a_guest(table: Table) -> None:
    """The reported escalation: while the app waits for the phone's device id, the client
    rewrites its page's user agent to the host's role tag (and its address and route). The
    session stays a viewer of the shared game: no home, no share panel, no backups."""
    guest = table.guest()
    guest.register(route="/settings")
    guest.received.append(guest.websocket.recv(timeout=10))  # registered: the app asks for the id
    guest.rewrite_page(
        client_user_agent="DebriefRole/host Mozilla/5.0",
        client_ip="127.0.0.1",
        route="/settings",
    )
    shown = guest.pump(20, b"Scoresheet")
    guest.rewrite_page(client_user_agent="DebriefRole/host", route="/history")
    guest.pump(2)
    for host_only in HOST_ONLY:
        assert not guest.saw(host_only), f"the guest became the host: it was shown {host_only!r}"
    assert shown and guest.saw("Score")  # the shared game, and a viewer's way to ask for the PIN
    guest.close()


# --- 2. the PIN ----------------------------------------------------------------------------------


def test_wrong_pins_lock_the_real_address_whatever_the_client_claims(table: Table) -> None:
    """Five wrong PINs from one address lock it out, even when each try comes from a "new
    device" that rewrites its page's address; then the right PIN is refused too."""
    answers = []
    for attempt in range(6):
        guest = joined(table, device=f"new-device-{attempt}")
        guest.rewrite_page(client_ip=f"198.51.100.{attempt}")
        answers.append(type_pin(guest, "000000" if table.pin != "000000" else "111111"))
        guest.close()
    assert answers[:4] == ["That is not the PIN"] * 4
    assert answers[4:] == ["Too many wrong PINs"] * 2
    guest = joined(table, device="yet-another-device")
    assert type_pin(guest, table.pin) == "Too many wrong PINs"


def test_guessing_from_many_addresses_is_slowed_for_all_and_never_changes_the_pin(
    table: Table,
) -> None:
    """Wrong PINs from a dozen addresses: after ten in a minute every PIN waits, the right one
    included; the scorers' PIN stays the same, and the host is told where the tries came from."""
    watching = table.host(f"/game/{table.game_id}")
    assert watching.pump(30, b"Scoresheet")
    wrong = "000000" if table.pin != "000000" else "111111"
    answers = []
    for number in range(1, 13):
        guest = joined(table, source=f"127.0.2.{number}", device=f"d{number}")
        answers.append(type_pin(guest, wrong))
        guest.close()
    assert answers[:10] == ["That is not the PIN"] * 10
    assert answers[10:] == ["Too many wrong PINs"] * 2
    guest = joined(table, source="127.0.2.99", device="honest")
    assert type_pin(guest, table.pin) == "Too many wrong PINs"  # everyone waits a minute
    assert table.printed("Scorers' PIN:") == [table.pin]  # never a new PIN
    assert not table.printed("New scorers' PIN")
    watching.pump(2)
    assert watching.saw("127.0.2.12"), "the host was not told where wrong PINs came from"
    watching.close()


# --- 3. idle connections -------------------------------------------------------------------------


@pytest.fixture
def crowded_table(tmp_path: Path) -> Iterator[Table]:
    """A shared table whose host may open no more than 1024 files (a common system limit)."""
    own = resource.getrlimit(resource.RLIMIT_NOFILE)  # this test opens more than 1,100 itself
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(own[0], min(4096, own[1])), own[1]))
    try:
        yield from shared_table(tmp_path, open_files=1024)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, own)


def connections(
    table: Table, count: int, subnet: str, per_address: int = 10
) -> list[socket.socket]:
    """`count` connections to the door, `per_address` from each address of `subnet`."""
    made = []
    for number in range(count):
        source = (f"{subnet}.{number // per_address + 1}", 0)
        with contextlib.suppress(OSError):  # refused at once: as good as closed
            made.append(
                socket.create_connection(("127.0.0.1", table.door_port), 5, source_address=source)
            )
    return made


def trickle(table: Table, sockets: list[socket.socket], stop: threading.Event) -> None:
    """Send a request's headers a character every quarter of a second, on every socket."""
    request = f"GET / HTTP/1.1\r\nHost: {table.door}\r\nX-Slow: " + "a" * 100
    for character in request:
        if stop.wait(0.25):
            return
        for connection in sockets:
            with contextlib.suppress(OSError):
                connection.send(character.encode())


@pytest.mark.long
def test_idle_and_trickling_connections_neither_pile_up_nor_starve_the_host(
    crowded_table: Table,
) -> None:
    """Under the usual limit of 1024 open files, 1,100 connections to the door that send
    nothing and 20 that trickle their headers: the host's page, a new host session and a
    setting saved all answer within a second, files stay in reserve, and the door closes
    every such connection soon."""
    table = crowded_table
    idle = connections(table, 1100, "127.0.3")
    trickling = connections(table, 20, "127.0.4")
    stop = threading.Event()
    threading.Thread(target=trickle, args=(table, trickling, stop), daemon=True).start()
    try:
        page = min(timed_host_page(table) for _ in range(TRIES))
        in_time(table, page, "the host's page")
        session = min(table.host_answer_time(f"/game/{table.game_id}") for _ in range(TRIES))
        in_time(table, session, "a new host session")
        saved = min(table.host_saves_a_setting(theme) for theme in ("Dark", "Light", "Dark"))
        in_time(table, saved, "saving a setting")
        assert table.server.process is not None
        in_use = len(list(Path(f"/proc/{table.server.process.pid}/fd").iterdir()))
        assert in_use < 1024 - 128, f"{in_use} of 1024 files open: no reserve left"
        open_left = still_open_after(idle + trickling, seconds=12)
        assert not open_left, f"{len(open_left)} idle connections still open"
    finally:
        stop.set()
        for connection in idle + trickling:
            connection.close()
    log = table.server.log.read_text()
    assert "Too many open files" not in log, log[-3000:]


def in_time(table: Table, took: float, what: str) -> None:
    """`what` (the host's answer) came within the limit for the host under attack."""
    assert took < table.answer_limit, f"{what} took {took:.2f} s (limit {table.answer_limit:.2f} s)"


def timed_host_page(table: Table) -> float:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", table.server.port, timeout=10)
    try:
        connection.request("GET", "/", headers={"Cookie": table.host_cookie})
        response = connection.getresponse()
        assert response.status == 200
        response.read()
    finally:
        connection.close()
    return time.monotonic() - started


def still_open_after(connections: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The connections the server has not closed within `seconds`: all are watched at once,
    and each is looked at as soon as something comes on it (an end, an answer, an error)."""
    deadline = time.monotonic() + seconds
    open_left = set(connections)
    with selectors.DefaultSelector() as watching:  # epoll: more than 1024 sockets
        for connection in connections:
            connection.setblocking(False)
            watching.register(connection, selectors.EVENT_READ)
        while open_left and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in watching.select(remaining):
                connection = key.fileobj
                assert isinstance(connection, socket.socket)
                if closed_by_server(connection):
                    watching.unregister(connection)
                    open_left.discard(connection)
    return list(open_left)


def closed_by_server(connection: socket.socket) -> bool:
    """Whether the server has closed this (non-blocking) connection: what it sent read, then
    its end, or an error."""
    try:
        while data := connection.recv(4096):
            del data  # an answer before the end (a refusal): read on
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


# --- 4. leftover sessions ----------------------------------------------------------------------


@pytest.mark.long
def test_a_thousand_sessions_from_link_holders_leave_the_host_answering(table: Table) -> None:
    """1,000 sessions opened (and dropped) by link holders from fifty addresses: few are let
    in, none stays for long, and the host's next change, which every guest session follows,
    still answers within a second."""
    admitted = refused = 0
    lock = threading.Lock()

    def attempt(number: int) -> None:
        nonlocal admitted, refused
        try:
            guest = table.guest(source=f"127.0.5.{number % 50 + 1}", device=f"s{number}")
        except (InvalidStatus, OSError):
            with lock:
                refused += 1
            return
        try:
            guest.register()
            guest.pump(20, (b"Scoresheet", b"too many phones"))
            shown = guest.saw("Scoresheet")
        except ConnectionClosed:
            shown = False
        finally:
            guest.close()
        with lock:
            if shown:
                admitted += 1
            else:
                refused += 1

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(attempt, range(1000)))
    assert admitted + refused == 1000
    assert admitted <= 200, f"{admitted} sessions let in"
    took = table.host_answer_time(f"/game/{table.game_id}")
    in_time(table, took, "the host")
    again = table.host_answer_time()
    in_time(table, again, "the host's next screen")


def test_phones_that_have_gone_make_room_for_new_ones(table: Table) -> None:
    """More guests than the table has sessions for, one after the other, each leaving at once
    (while the app may still be sending it the game): each one gone is a leftover, so the next
    phone is let in."""
    for number in range(1, GUEST_SESSIONS_IN_ALL + 7):
        joined(table, source=f"127.0.6.{number}", device=f"phone-{number}").close()
    joined(table, source="127.0.6.200").close()


def test_a_websocket_registers_once(table: Table) -> None:
    """Each registration makes Flet a session: a guest that registers again and again on one
    websocket (new session ids each time) is cut off at the second, and the host answers."""
    guest = joined(table)
    with pytest.raises(ConnectionClosed):
        for number in range(1000):
            guest.register(session_id=f"forged-{number}")
        guest.pump(5)
        guest.websocket.send(b"\x00")
    took = table.host_answer_time()
    in_time(table, took, "the host")


def test_taps_on_controls_a_guest_was_never_shown_cost_the_host_nothing(table: Table) -> None:
    """A guest's taps on controls that do not exist, a burst as big as the door lets through:
    the host spends on them no more CPU than on five of its own first screens. (Flet looked
    for each such control in the whole of the guest's screen, 5 ms a tap; under load a burst
    of them held up the host's answer past its limit.) Measured as the host's CPU time, which
    other programs on the machine do not inflate as they do the time on the clock."""
    assert table.server.process is not None
    pid = table.server.process.pid
    before = cpu_seconds(pid)
    for _ in range(5):
        table.host_answer_time()
    five_screens = cpu_seconds(pid) - before
    guest = joined(table)
    before = cpu_seconds(pid)
    for _ in range(MESSAGES_IN_A_BURST):
        guest.event(999_999, "click")
    table.host_answer_time()  # answered after the burst: the taps have been handled
    spent = cpu_seconds(pid) - before
    guest.close()
    assert spent <= five_screens, (
        f"{MESSAGES_IN_A_BURST} taps on unknown controls and one first screen cost the host "
        f"{spent:.2f} s of CPU; five first screens cost {five_screens:.2f} s"
    )


def test_a_flood_of_events_from_a_guest_waits_its_turn(table: Table) -> None:
    """Two thousand taps on controls the guest was never shown, as fast as they can be sent:
    the host still answers within a second (a guest's messages are let through only at the
    pace of fingers, and each such tap is dropped without a search for its control)."""
    guest = joined(table)
    for _ in range(2000):
        guest.event(999_999, "click")
    took = table.host_answer_time()
    in_time(table, took, "the host")
    guest.close()


def test_connections_without_the_link_do_not_keep_guests_out(table: Table) -> None:
    """Someone on the Wi-Fi without the link keeps 64 connections alive with requests the door
    refuses; a phone with the link still loads the page."""
    stop = threading.Event()
    holders = connections(table, 64, "127.0.7", per_address=16)

    def knock() -> None:
        request = f"GET / HTTP/1.1\r\nHost: {table.door}\r\n\r\n".encode()
        while not stop.wait(0.5):
            for connection in holders:
                with contextlib.suppress(OSError):
                    connection.send(request)

    threading.Thread(target=knock, daemon=True).start()
    try:
        time.sleep(1)  # every holder has been refused at least once
        status = guest_page(table, source="127.0.8.1")
        assert status == 200, f"a guest with the link got {status}"
    finally:
        stop.set()
        for connection in holders:
            connection.close()


def guest_page(table: Table, source: str) -> int | str:
    """The status of the page for a guest with the share link's cookie (or why it failed)."""
    sock = socket.create_connection(("127.0.0.1", table.door_port), 5, source_address=(source, 0))
    request = (
        f"GET / HTTP/1.1\r\nHost: {table.door}\r\nCookie: {table.cookie}\r\n"
        "Connection: close\r\n\r\n"
    )
    try:
        sock.sendall(request.encode())
        answer = sock.recv(64)
    except OSError as error:
        return repr(error)
    finally:
        sock.close()
    return int(answer.split()[1]) if answer.startswith(b"HTTP/1.1") else repr(answer)


# --- 5. big messages -----------------------------------------------------------------------------


def test_big_messages_from_a_guest_are_refused_before_they_are_read(table: Table) -> None:
    """Eight messages of 132 MB from a viewer: each connection is closed at the message's
    header, the host's memory hardly grows, and the host answers within a second."""
    assert table.server.process is not None
    before = peak_memory(table.server.process.pid)
    for _ in range(8):
        guest = joined(table)
        with pytest.raises((ConnectionClosed, OSError)):
            guest.websocket.send(b"\x00" + b"x" * (132 * 1024 * 1024))
            guest.pump(5)
            guest.websocket.send(b"\x00")
        guest.websocket.close()
    grown = peak_memory(table.server.process.pid) - before
    assert grown < 64 * 1024 * 1024, f"the host's memory grew by {grown / 2**20:.0f} MB"
    took = table.host_answer_time()
    in_time(table, took, "the host")


def test_compressed_messages_from_a_viewer_do_not_fill_the_hosts_memory(table: Table) -> None:
    """A viewer with only the link sends messages that compress to a few hundred bytes and
    inflate to the door's limit each (256 KiB of zeros): the door does not take compressed
    messages, so what arrives is what was sent, at the pace of the network, and the host's
    memory hardly grows (it grew by 1.4 GB from one address, and the host's page hung)."""
    assert table.server.process is not None
    before = peak_memory(table.server.process.pid)
    guest = joined(table)
    tap = {"target": 999_999, "name": "click", "data": "0" * (250 * 1024)}  # a Flet message
    inflating = b"\x00" + msgpack.packb([CONTROL_EVENT, tap])
    stop = threading.Event()

    def flood() -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            for _ in range(20_000):
                if stop.is_set():
                    return
                guest.websocket.send(inflating)

    sender = threading.Thread(target=flood, daemon=True)
    sender.start()
    sender.join(timeout=3)
    stop.set()
    with contextlib.suppress(OSError):
        guest.websocket.socket.shutdown(socket.SHUT_RDWR)  # a send held by the network ends
    sender.join(timeout=10)
    grown = peak_memory(table.server.process.pid) - before
    # (Compressed, three seconds of it grew the host by tens of megabytes.)
    assert grown < 16 * 1024 * 1024, f"the host's memory grew by {grown / 2**20:.0f} MB"
    took = table.host_answer_time()
    in_time(table, took, "the host")


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used so far, user and system (Linux)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rfind(")") + 2 :].split()  # after the name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory(pid: int) -> int:
    """The process's peak resident memory in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


# --- 6. a Save sent twice ------------------------------------------------------------------------

DEAL_KEYS = ["1", "8", "2", "0", "2", "0"]  # 18, 20, 20 (each moves on by itself), 2 filled in
PAD_KEY = "FilledTonalButton"  # a number pad's key (the sheet's row of deal 1 also says "1")


def rounds_on_disk(table: Table) -> int:
    active = json.loads((table.server.data_dir / "active.json").read_text())
    return len(active["games"][table.game_id]["record"]["rounds"])


def tap_answered(client: FletClient, target: int) -> None:
    """Tap the control `target` and read until the app's answer to it came (a frame)."""
    before = len(client.received)
    client.event(target, "click")
    for _ in range(100):
        client.pump(0.05)
        if len(client.received) > before:
            return
    raise AssertionError(f"the tap on {target} got no answer")


def type_a_deal(client: FletClient, enter: int) -> int:
    """Open the next deal's entry with the sheet's button `enter` (drawn as "Enter deal 1";
    its text changes by a patch that does not name the button) and type its piles; the id
    of its Save. (The client's device has a name: it answers every read of its preferences
    with its id.)"""
    tap_answered(client, enter)
    assert client.drawn("1", 30, kind=PAD_KEY), "the entry's number pad was never drawn"
    for key in DEAL_KEYS:
        tap_answered(client, client.control(key, kind=PAD_KEY))
    return client.control("Save deal")


def test_a_scorers_client_that_sends_save_twice_stores_one_deal(table: Table) -> None:
    """A scorer's client sends its Save deal tap again 0.0, 0.3 and 1.0 s after the first
    (a phone's double tap, a message sent twice): each deal is stored once, and the second
    tap is answered "already saved"."""
    scorer = joined(table)
    assert type_pin(scorer, table.pin) == "enter this game's rounds"
    enter = scorer.control("Enter deal 1")
    for number, pause in enumerate((0.0, 0.3, 1.0), start=1):
        save = type_a_deal(scorer, enter)
        scorer.event(save, "click")
        if pause:
            scorer.pump(pause)
        scorer.event(save, "click")
        answered = scorer.pump(10, f"Deal {number} is already saved".encode())
        assert rounds_on_disk(table) == number, (number, pause)
        assert answered, f"the second Save of deal {number} was not answered"
    scorer.close()


def test_the_hosts_page_that_sends_save_twice_stores_one_deal(table: Table) -> None:
    """The host's own page, its Save deal sent again 3 s later (the entry closed meanwhile,
    its Save kept unseen under the sheet)."""
    host = table.host(f"/game/{table.game_id}")
    assert host.pump(30, b"Scoresheet")
    save = type_a_deal(host, host.control("Enter deal 1"))
    host.event(save, "click")
    assert host.pump(10, b"Deal 1 saved")
    host.pump(3.0)
    host.event(save, "click")
    answered = host.pump(10, b"Deal 1 is already saved")
    assert rounds_on_disk(table) == 1
    assert answered, "the second Save was not answered"
    host.close()


def test_a_message_for_a_client_whose_socket_just_closed_is_dropped() -> None:
    """flet_web's `FletApp` drops its send queue when a client's socket closes (the end of its
    send loop: ``self.__send_queue = None``), a moment before the session lets go of it. A
    drawing or a note sent in that moment raised into whatever drew it (a guest's wrong PIN
    told to a host whose tab had just closed: a traceback in the host's log, found under
    load). With `closed_clients_dropped` such a message is dropped, as Flet drops a data
    channel's frame then; an open client still gets every message."""
    import asyncio
    import inspect

    from flet.messaging.protocol import Message, MessageAction
    from flet_web.fastapi.flet_app import FletApp

    from web.serve import closed_clients_dropped

    assert "self.__send_queue = None" in inspect.getsource(FletApp)  # what is guarded against
    closed_clients_dropped()
    loop = asyncio.new_event_loop()
    try:
        client = FletApp(loop, ThreadPoolExecutor(1), main=lambda page: None, before_main=None)
        message = Message(MessageAction.PYTHON_OUTPUT, {"text": ""})
        client._FletApp__send_queue = None  # type: ignore[attr-defined]
        client.send_message(message)  # dropped: no AttributeError
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        client._FletApp__send_queue = queue  # type: ignore[attr-defined]
        client.send_message(message)
        assert queue.qsize() == 1
    finally:
        loop.close()


# --- 7. a device that answers nothing ------------------------------------------------------------


def test_a_viewer_whose_page_answers_a_picture_with_nothing_is_one_line_in_the_log(
    tmp_path: Path,
) -> None:
    """A viewer taps Share as picture at the result and its client answers the app's capture
    with nothing (a page that sends what it likes): the host logs it as a handled case (the
    fixture: no traceback in the log) and goes on answering."""
    record = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    record["meta"] = {"id": "finished-spywhere", "started": "2026-11-01T20:00:00+01:00"}
    for table in shared_table(tmp_path, finished=record):
        guest = joined_at_result(table)
        for _ in range(2):
            guest.tap("Share as picture")
            guest.pump(2)
        guest.close()
        in_time(table, table.host_answer_time(), "the host")


def joined_at_result(table: Table) -> FletClient:
    guest = table.guest()
    guest.register()
    assert guest.pump(30, b"Share as picture"), "the guest never saw the result"
    return guest


def test_a_message_that_is_not_flets_protocol_is_one_line_in_the_log(table: Table) -> None:
    """A guest whose client sends what Flet cannot unpack: its connection ends, the host logs
    one line (the fixture: no traceback) and goes on answering."""
    guest = joined(table)
    guest.websocket.send(b"\x00" + bytes(64))
    guest.pump(2)  # what the host answers, until it closes the connection
    guest.close()
    in_time(table, table.host_answer_time(), "the host")
    deadline = time.monotonic() + 10  # the host's log is the other process's, written by it
    while "Receive loop error" not in table.server.log.read_text():
        assert time.monotonic() < deadline, "the host never logged the message it refused"
        time.sleep(0.05)


def test_a_device_id_the_client_makes_up_is_not_stored(table: Table) -> None:
    """A scorer's client says its device id is 200 KB of text: the app gives it an id of its
    own shape instead, so what the device keeps (its drafts, its undo) is stored under a short
    key (20 made-up ids grew the games in progress 3 kB to 8.2 MB, and undo 4 MB)."""
    scorer = table.guest(device="d" * 200_000)
    scorer.register()
    assert scorer.pump(30, b"Scoresheet")
    assert type_pin(scorer, table.pin) == "enter this game's rounds"
    save = type_a_deal(scorer, scorer.control("Enter deal 1"))
    scorer.event(save, "click")
    assert scorer.pump(10, b"Deal 1 saved")
    scorer.close()
    for name in ("active.json", "drafts.json", "undo.json", "debrief.json"):
        path = table.server.data_dir / name
        assert not path.exists() or path.stat().st_size < 100_000, (name, path.stat().st_size)
    for name, kind in (("drafts.json", "drafts"), ("undo.json", "histories")):
        path = table.server.data_dir / name
        keys = json.loads(path.read_text()).get(kind, {}) if path.exists() else {}
        assert all(len(key.split("/")[0]) == 32 for key in keys), (name, list(keys))
    assert rounds_on_disk(table) == 1


def test_50_mb_of_headers_from_someone_without_the_link_are_cut_short(table: Table) -> None:
    """Someone on the Wi-Fi sends one request whose headers never end (50 MB of them): the
    door closes the connection once they pass what a browser sends, the host's memory hardly
    grows and a new session of the host answers in time (0.1 s became 3.3 s, +130 MB)."""
    assert table.server.process is not None
    before = peak_memory(table.server.process.pid)
    sock = socket.create_connection(("127.0.0.1", table.door_port), timeout=10)
    line = b"X-Filler: " + b"a" * 8000 + b"\r\n"
    sent = 0
    try:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: {table.door}\r\n".encode())
        while sent < 50 * 1024 * 1024:
            sock.sendall(line)
            sent += len(line)
    except OSError:  # closed by the door
        pass
    finally:
        sock.close()
    assert sent < 50 * 1024 * 1024, "the door read 50 MB of headers"
    grown = peak_memory(table.server.process.pid) - before
    assert grown < 32 * 1024 * 1024, f"the host's memory grew by {grown / 2**20:.0f} MB"
    in_time(table, table.host_answer_time(), "the host")
