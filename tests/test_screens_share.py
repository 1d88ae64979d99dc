"""A table shared on the local network, played in-process (tests/screens.py): wrong PINs lock a
guest's phone out, and the host is told of each.

The app is served as `--share` serves it: its `Sharing`, started before any tab opens, with a
door (`screens.Door`) that lets a guest's screen in as the guests' door lets a phone in: a
session whose caller is a guest, admitted by the app. What only the door does (the share link
and its cookie, the door's own limits) is attacked with a raw client in
tests/test_door_attacks.py; what needs a browser (joining light, a dropped connection, the
picture of the result, a whole game on three phones, starting and stopping the door) stays in
tests/test_e2e_share.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from screens import GUEST_PHONE, HOST_BROWSER, Screen, Table, shared_table
from test_e2e_share import LAST_DEALS, NAMES, whole_game
from ui import seat_table, see, tap


@pytest.fixture
def shared(screen_tables: Callable[..., Table], tmp_path: Path) -> tuple[Table, Screen]:
    """The app shared from its start, with a Black Spy game at the table three deals before
    its end (`whole_game`), and the host's tab (which opens on the game at the table)."""
    seat_table(tmp_path / "data", "black-spy", NAMES, rounds=whole_game()[:-LAST_DEALS])
    table = shared_table(screen_tables, tmp_path / "data")
    return table, table.screen(caller=HOST_BROWSER)


def type_pin(screen: Screen, pin: str) -> None:
    for digit in pin:
        tap(screen, digit)


def test_five_wrong_pins_lock_the_phone_out_even_with_the_right_one(
    shared: tuple[Table, Screen],
) -> None:
    table, host = shared
    pin = table.sharing.pin
    wrong = "000000" if pin != "000000" else "111111"
    guest = table.screen(caller=GUEST_PHONE)  # a new phone on the share link
    tap(guest, "Score")
    type_pin(guest, wrong)
    see(guest, "That is not the PIN.")
    see(host, "A wrong PIN from ")  # each one is a note on the host's screen, with its address
    see(host, "(1 in all)")
    for _ in range(3):
        type_pin(guest, wrong)
        see(guest, "That is not the PIN.")
    type_pin(guest, wrong)
    see(guest, "Too many wrong PINs: wait a minute, then try again.")
    tap(host, "Sharing this table: 5 wrong PINs")  # the bar says it until sharing stops
    see(host, "5 wrong PINs, the last from ")
    before = len(host.sent)
    type_pin(guest, pin)  # locked: even the right PIN does not open it now
    see(guest, "Too many wrong PINs")
    guest.see_not("You can enter this game's rounds now.")
    assert len(host.sent) > before  # its note came while the host's panel was open
    tap(host, "Close")  # closes the panel, not the note that came after it
    host.see_not("PIN for scorers")
    see(host, "(6 in all)")
    see(host, "Sharing this table: 6 wrong PINs")
    type_pin(guest, wrong)
    see(host, "(7 in all)")  # each one is a note, with where it came from
    tap(host, "Stop sharing")  # on the note: one tap
    see(host, "Sharing stopped: every link and PIN has ended.")


def test_a_guest_sees_kompromats_points_once(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    """A watching phone's Kompromat showed each player's points twice: the big scoreboard over
    the tokens panel, which says them already (with the tokens)."""
    import json

    from builders import SCENARIOS

    record = json.loads((SCENARIOS / "kompromat-short-final-round-outcome.json").read_text())
    game_id = seat_table(
        tmp_path / "data", "kompromat", ["Anna", "Ben"], record["options"], record["rounds"][:1]
    )
    served = shared_table(screen_tables, tmp_path / "data")
    served.screen(caller=HOST_BROWSER, route=f"/game/{game_id}")
    guest = served.screen(caller=GUEST_PHONE)
    see(guest, "Ben: 15 VP")
    twice = [node.name for node in guest.nodes() if node.name.startswith("Ben: 15")]
    assert twice == ["Ben: 15 VP"], twice  # not also the scoreboard's "Ben: 15, leading"
