"""A Save tapped twice stores its round once: a phone registers double taps easily, and a table
would find a doubled deal only in the totals. Each Save names the draft it saves; a Save of a
draft already saved is answered "already saved", never stored again, whatever arrives: a
second click event on the same button, one on the entry kept under the sheet after it closed,
or one sent by a client that writes its own messages. The entry that opens after a Save is
blank.

The browser's own double click is in tests/test_e2e_entry.py; a raw client's at the shared
table's door is here too (`test_a_scorers_client_that_sends_save_twice_stores_one_deal`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from screens import Screen, Seated
from ui import see, shown, tap

from storage import Store
from storage import errors as err

NAMES = ["Anna", "Ben", "Carla", "Dirk"]
DEAL = ["1", "8", "2", "0", "Next pile", "2", "0", "Next pile"]  # 18, 20, 20 and 2 filled in


def rounds_stored(folder: Path) -> list[Any]:
    """The rounds on disk (a round is written before its Save is answered)."""
    active = json.loads((folder / "active.json").read_text())
    (game,) = active["games"].values()
    return list(game["record"]["rounds"])


def type_deal(screen: Screen, number: int) -> None:
    tap(screen, f"Enter deal {number}")
    for key in DEAL:
        tap(screen, key)


def click(screen: Screen, control: Any) -> None:
    """A click event for `control`, as a client sends it, whether or not the screen shows
    it now (the answer is waited for)."""
    screen._send(control, "click", None)


def test_a_second_click_on_the_same_save_stores_nothing(seated: Seated, tmp_path: Path) -> None:
    table, screen = seated("black-spy", NAMES)
    type_deal(screen, 1)
    save = screen._one("Save deal", "button").control
    click(screen, save)
    shown(screen, "Enter deal 2")
    click(screen, save)  # the same button again: its entry is kept, unseen, under the sheet
    table.settle()
    assert len(rounds_stored(tmp_path / "data")) == 1
    see(screen, "Deal 1 is already saved")
    shown(screen, "Enter deal 2")


def test_both_clicks_of_a_double_tap_before_the_answer_store_one_deal(
    seated: Seated, tmp_path: Path
) -> None:
    """Both clicks arrive before the app has answered the first."""
    _, screen = seated("black-spy", NAMES)
    type_deal(screen, 1)
    double_click(screen, screen._one("Save deal", "button").control)
    assert len(rounds_stored(tmp_path / "data")) == 1
    shown(screen, "Enter deal 2")


def test_the_entry_that_opens_after_a_save_is_blank_and_saves_nothing_old(
    seated: Seated, tmp_path: Path
) -> None:
    """The next deal's entry is the one kept from the last, set afresh: a Save on it before
    anything is typed, even one sent before the entry was drawn again, stores nothing."""
    table, screen = seated("black-spy", NAMES)
    type_deal(screen, 1)
    save = screen._one("Save deal", "button").control
    click(screen, save)
    screen.press("Enter deal 2")
    click(screen, save)  # sent before the opening's answer came
    table.settle()
    shown(screen, "Anna's pile: nothing yet")
    tap(screen, "Save deal")
    assert len(rounds_stored(tmp_path / "data")) == 1
    see(screen, "Not saved")


def double_click(screen: Screen, control: Any) -> None:
    """Two click events for `control` that both arrive before the app answers the first (the
    server reads both before it draws), then the answer."""
    session = screen.session
    assert session is not None

    async def both() -> None:
        await session.dispatch_event(control._i, "click", None)
        await session.dispatch_event(control._i, "click", None)

    screen.table.run(both())
    screen.table.settle()


def test_a_double_tap_on_a_spy_event_logs_it_once(seated: Seated, tmp_path: Path) -> None:
    """SPY's events are saved by their own buttons, from an entry that never closes."""
    _, screen = seated("spy", ["Anna", "Ben", "Carla"])
    screen.chip("Who spied?: Anna")
    screen.chip("On whose base?: Carla")
    double_click(screen, screen._one("Found Safe 1", "button").control)
    assert len(rounds_stored(tmp_path / "data")) == 1
    shown(screen, "Anna found Carla's Safe 1")
    # The next event is saved as before: a new draft after each save.
    screen.chip("Who spied?: Ben")
    screen.chip("On whose base?: Anna")
    tap(screen, "Found Safe 1")
    assert len(rounds_stored(tmp_path / "data")) == 2


def test_a_double_tap_on_delete_deletes_one_deal(seated: Seated, tmp_path: Path) -> None:
    table, screen = seated("black-spy", NAMES)
    for number in (1, 2, 3):
        type_deal(screen, number)
        tap(screen, "Save deal")
    screen.tap_starting("Edit deal 1")
    delete = screen._one("Delete deal", "button").control
    click(screen, delete)
    click(screen, delete)
    table.settle()
    assert len(rounds_stored(tmp_path / "data")) == 2


def test_the_store_refuses_a_draft_saved_already(tmp_path: Path) -> None:
    from storage.store import SavesDraft

    store = Store.open(tmp_path / "data")
    try:
        game = store.create_game(
            "black-spy", [{"name": n} for n in NAMES], {"first_dealer": "Anna", "variants": []}
        )
        game_id = game["meta"]["id"]
        deal = {"points": {"Anna": 18, "Ben": 20, "Carla": 20, "Dirk": 2}}
        saved = {"what": "save", "index": 0}  # as the app describes a save
        store.append_round(game_id, deal, None, saved, SavesDraft("phone", "draft-1"))
        with pytest.raises(err.DraftAlreadySaved) as refused:
            store.append_round(game_id, deal, saves_draft=SavesDraft("phone", "draft-1"))
        assert refused.value.params["number"] == 1
        with pytest.raises(err.DraftAlreadySaved):  # from another device too: one draft
            store.append_round(game_id, deal, saves_draft=SavesDraft("tablet", "draft-1"))
        store.append_round(game_id, deal, saves_draft=SavesDraft("phone", "draft-2"))
        assert len(store.load_game(game_id)["rounds"]) == 2
    finally:
        store.close()
    again = Store.open(tmp_path / "data")  # it is known after a restart too
    try:
        with pytest.raises(err.DraftAlreadySaved):
            again.append_round(game_id, deal, saves_draft=SavesDraft("phone", "draft-2"))
    finally:
        again.close()


def test_a_scroll_asked_for_by_an_entry_that_has_closed_since_does_nothing() -> None:
    """The pad scrolls its rows after the drawing that moved it on; a tap that closed the entry
    before that task ran left a column that is on no page, which Flet refuses to scroll (the
    full run's failure: "Column(3345) Control must be added to the page first")."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import flet as ft

    from views.safe import scrolled

    with ThreadPoolExecutor(max_workers=1) as thread:  # a loop of its own (Playwright's runs)
        thread.submit(asyncio.run, scrolled(ft.Column(), offset=0, duration=150)).result()
