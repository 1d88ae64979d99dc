"""Two scorers, one deal, played in-process (tests/screens.py): a host and a scorer's
phone on the share enter or correct the same deal; the one whose change comes second sees the
first one's deal by its device's name and in numbers, chooses, and gets the record the choice
says. No deal is ever stored twice, and no entry is renumbered behind anyone's back.

Each device is named on its first scoring action ("Whose phone is this?"). The table is shared
as `--share` shares it (`screens.shared_table`); the phone is a guest's screen the app admits
and that types the PIN. A lost connection is the server's side of it (the session kept, then
resumed); how the browser's client notices the cut and connects again by itself, on a
websocket of its own, is tests/test_e2e_share.py's (a guest that comes back by itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from screens import GUEST_PHONE, HOST_BROWSER, Screen, Table, record_of, shared_table
from ui import name_device, seat_table, see, tap, tap_starting, type_pile

from scoring import black_spy

NAMES = ["Anna", "Ben", "Carla"]  # three: two piles typed a deal (the third fills itself in)
EVEN = {"points": dict.fromkeys(NAMES, 20)}  # each deal saved before the app starts
HOST_DEAL = {"Anna": 18, "Ben": 20, "Carla": 22}
PHONE_DEAL = {"Anna": 22, "Ben": 18, "Carla": 20}
HOST, PHONE = "Host's laptop", "Ben's phone"


@pytest.fixture
def table(screen_tables: Callable[..., Table], tmp_path: Path) -> tuple[Table, str, Screen]:
    """Black Spy at deal 4, shared from the start: the app, the game and the host's tab."""
    game_id = seat_table(tmp_path / "data", "black-spy", NAMES, rounds=[EVEN] * 3)
    served = shared_table(screen_tables, tmp_path / "data")
    return served, game_id, served.screen(caller=HOST_BROWSER)


def stored_deals(served: Table, game_id: str) -> list[dict[str, Any]]:
    """The deals stored, read once the app has stopped (it holds the data folder)."""
    served.close()
    return list(record_of(served.folder, game_id)["rounds"])


def scorer(served: Table) -> Screen:
    """A phone on the share link that types the scorers' PIN."""
    phone = served.screen(caller=GUEST_PHONE)
    tap(phone, "Score")
    for digit in served.sharing.pin:
        tap(phone, digit)
    see(phone, "You can enter this game's rounds now.")
    return phone


def begin(screen: Screen, button: str, device: str | None = None) -> None:
    """Open an entry (a deal on the sheet: its row, named "Edit deal 3" and its numbers); on
    the device's first scoring action, name it."""
    if button.startswith("Edit"):
        tap_starting(screen, button)
    else:
        tap(screen, button)
    if device is not None:
        name_device(screen, device)


def type_points(screen: Screen, points: dict[str, int]) -> None:
    """Each pile but the last on the number pad (the last fills itself in); not saved."""
    options = black_spy.Options(NAMES[0], frozenset(), 150)
    low, high = black_spy.pile_limits(options, moon=False)
    for name in NAMES[:-1]:
        type_pile(screen, points[name], low, high)


def said(device: str, what: str, number: int, points: dict[str, int]) -> str:
    listed = ", ".join(f"{name} {value}" for name, value in points.items())
    return f"{device} {what} deal {number}: {listed}"


def test_two_scorers_at_one_table_see_each_others_deals_and_choose(
    table: tuple[Table, str, Screen],
) -> None:
    """A host and a scorer's phone, one after the other on one game: deal 4 saved in turn,
    deal 5 at the same moment, deal 3 corrected while deleted, deal 7 saved while the phone's
    connection was lost; then the host ends the phone's access. Every deal once, as chosen."""
    served, game_id, host = table
    phone = scorer(served)
    in_turn(host, phone)
    at_the_same_moment(served, host, phone)
    deleted_and_put_back(host, phone)
    back_from_a_lost_connection(host, phone)
    host_ends_the_phones_access(host, phone)
    deals = [deal["points"] for deal in stored_deals(served, game_id)]
    fifth, sixth = (HOST_DEAL, PHONE_DEAL) if deals[4] == HOST_DEAL else (PHONE_DEAL, HOST_DEAL)
    assert deals == [EVEN["points"]] * 2 + [HOST_DEAL, HOST_DEAL, fifth, sixth, PHONE_DEAL]


def in_turn(host: Screen, phone: Screen) -> None:
    """The host saves deal 4 first; the phone sees it at once, beside its own, keeps it."""
    begin(host, "Enter deal 4", HOST)
    begin(phone, "Enter deal 4", PHONE)
    type_points(host, HOST_DEAL)
    type_points(phone, PHONE_DEAL)
    tap(host, "Save deal")
    see(host, "Deal 4 saved")
    see(phone, said(HOST, "saved", 4, HOST_DEAL))  # at once, before the phone's Save
    # Never renumbered behind the player's back; nothing to type until the player chooses.
    assert phone.find("Deal 4"), phone.texts()
    assert not phone.find("Next pile", "button"), phone.texts()
    # No switch to the other form, whose own draft is not this.
    assert not phone.find("Cards", "button"), phone.texts()
    tap(phone, "Keep theirs")
    see(phone, "Edit deal 4")  # the entry closed on the sheet


def at_the_same_moment(served: Table, host: Screen, phone: Screen) -> None:
    """Both tap Save on deal 5 at once: one of them sees the other's and saves its own as
    deal 6."""
    begin(host, "Enter deal 5")  # named once: not asked again
    begin(phone, "Enter deal 5")
    type_points(host, HOST_DEAL)
    type_points(phone, PHONE_DEAL)
    for screen in (host, phone):
        screen.press("Save deal")  # both at once: neither waits for the app's answer
    served.settle()
    for screen in (host, phone):  # each either saved its deal 5 or sees the other's
        assert screen.says_somewhere("Deal 5 saved") or screen.says_somewhere("saved deal 5:")
    second, winner, points = (
        (phone, HOST, HOST_DEAL)
        if host.says_somewhere("Deal 5 saved")
        else (host, PHONE, PHONE_DEAL)
    )
    see(second, said(winner, "saved", 5, points))
    tap(second, "Save mine as deal 6")
    see(second, "Deal 6 saved")


def host_ends_the_phones_access(host: Screen, phone: Screen) -> None:
    """The share panel lists the phone by its name and role; End access (asked once more)
    shows the phone at once that its access ended."""
    tap_starting(host, "Sharing this table")
    see(host, f"{PHONE}, scorer")
    tap(host, "End access")
    see(host, f"End {PHONE}'s access until a new share?")
    tap(host, "End access")
    see(host, "No phone has joined yet.")
    see(phone, "The host ended this phone's access")
    assert not phone.find("Enter deal 8", "button"), phone.texts()


def deleted_and_put_back(host: Screen, phone: Screen) -> None:
    """The host corrects deal 3 while the phone deletes it: the host puts its correction
    back, in its place."""
    begin(host, "Edit deal 3")
    type_points(host, HOST_DEAL)
    begin(phone, "Edit deal 3")
    tap(phone, "Delete deal")
    see(phone, "Deal 3 deleted")
    see(host, f"{PHONE} deleted deal 3.")  # at once, beside the host's correction
    tap(host, "Put mine back")
    see(host, "Deal 3 saved")


def back_from_a_lost_connection(host: Screen, phone: Screen) -> None:
    """The phone loses its connection in the middle of deal 7, the host saves deal 7, the
    phone comes back, sees it, and replaces it with its own."""
    begin(phone, "Enter deal 7")
    type_points(phone, PHONE_DEAL)
    phone.lose_connection()
    begin(host, "Enter deal 7")
    type_points(host, HOST_DEAL)
    tap(host, "Save deal")
    see(host, "Deal 7 saved")
    phone.come_back()
    see(phone, said(HOST, "saved", 7, HOST_DEAL))  # back, and told at once
    tap(phone, "Replace theirs with mine")
    see(phone, "Deal 7 corrected: yours replaced theirs.")  # as its undo says it
    assert phone.find("Undo: correct deal 7"), phone.texts()


def test_whose_phone_asked_on_opening_an_entry_offers_not_now(
    table: tuple[Table, str, Screen],
) -> None:
    """Asked on a device's first scoring action (opening an entry), the question's way out
    said "Cancel", which read as if it cancelled the entry: it says "Not now", and the entry
    is open under it."""
    served, _, _ = table
    phone = scorer(served)
    tap(phone, "Enter deal 4")
    see(phone, "Whose phone is this?")
    assert not phone.find("Cancel", "button"), phone.texts()
    tap(phone, "Not now")
    see(phone, "Save deal")
