"""A round being entered is kept on every key: in memory at once, on disk just after the screen
has answered (storage.drafts). Every tab reads the newest draft at once; Save,
Discard and closing never race with a write under way; a Save makes three fsyncs.

The kill test (a SIGKILL right after a key loses that key at most) is test_draft_kills.py.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from builders import FOUR, deal, pile

from storage import Store
from storage import errors as err
from views.app import round_name_of
from views.state import AppState

OPTIONS = {"first_dealer": "Anna", "variants": []}
FIRST_DEAL = deal(
    FOUR, Anna=pile(spies=6, colored=4), Ben=pile(low=6), Carla=pile(high=[8, 9, 10, 11])
)
ENTRY = {"piles": {"Anna": 20}}


def at_table(store: Store, tab: str = "tab") -> tuple[AppState, str]:
    """The host's state on a new Black Spy game, drawn (as the table screen does)."""
    record = store.create_game("black-spy", [{"name": name} for name in FOUR], OPTIONS)
    game_id = str(record["meta"]["id"])
    return tab_of(store, game_id, tab), game_id


def tab_of(store: Store, game_id: str, tab: str) -> AppState:
    state = AppState.load(store, "/", device="phone", tab=tab, round_name_of=round_name_of)
    state.game_at(game_id)
    return state


def on_disk(store: Store) -> dict[str, Any]:
    """The drafts in drafts.json, as a process opening the data would read them."""
    path = store.folder / "drafts.json"
    return dict(json.loads(path.read_text())["drafts"]) if path.exists() else {}


class Gate:
    """Holds the writer of drafts.json at its next write until `release` (the write then
    goes on as it would have)."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = threading.Event()
        self.reached = threading.Event()
        table = store._drafts
        write = table.change_many

        def held(documents: Mapping[str, Mapping[str, Any]], removed: Any) -> None:
            self.reached.set()
            assert self.open.wait(10)
            write(documents, removed)

        monkeypatch.setattr(table, "change_many", held)

    def wait_reached(self) -> None:
        assert self.reached.wait(10), "the writer did not start writing"

    def release(self) -> None:
        self.open.set()


def fsyncs_by_thread(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every fsync from now on, by the name of the thread that made it."""
    made: list[str] = []
    real = os.fsync

    def counted(descriptor: int) -> None:
        made.append(threading.current_thread().name)
        real(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    return made


def test_a_key_is_kept_before_it_is_written_and_every_tab_reads_it_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, game_id = at_table(store)
    gate = Gate(store, monkeypatch)
    made = fsyncs_by_thread(monkeypatch)
    state.keep_draft(game_id, None, ENTRY)  # returns while its write is held
    gate.wait_reached()
    assert made == [] and on_disk(store) == {}
    other_tab = tab_of(store, game_id, "another tab")  # a reload, a new tab of this device
    assert other_tab.draft(game_id) == state.draft(game_id)
    kept = other_tab.draft(game_id)
    assert kept is not None and kept["entry"] == ENTRY and kept["round"] is None
    gate.release()
    store.settle()
    assert on_disk(store) == {f"phone/{game_id}": kept}
    assert "MainThread" not in made and made  # written (with its fsyncs) by the writer


def test_the_next_key_waits_until_the_draft_before_it_is_on_disk(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill right after a key loses that key at most: when the next key comes, the one before
    it is written first (here it is held, so the next key waits for it)."""
    state, game_id = at_table(store)
    gate = Gate(store, monkeypatch)
    state.keep_draft(game_id, None, {"piles": {"Anna": 2}})
    gate.wait_reached()
    second = threading.Thread(
        target=lambda: state.keep_draft(game_id, None, {"piles": {"Anna": 20}})
    )
    second.start()
    second.join(0.2)
    assert second.is_alive(), "the second key did not wait for the first one's write"
    gate.release()
    second.join(10)
    store.settle()
    [kept] = on_disk(store).values()
    assert kept["entry"] == {"piles": {"Anna": 20}}


def test_a_save_while_its_draft_is_being_written_never_brings_the_draft_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write of the draft lands after the round's: the round's write says the draft is
    over, so it is not shown, now or when the data is opened again."""
    state, game_id = at_table(store)
    gate = Gate(store, monkeypatch)
    state.keep_draft(game_id, None, ENTRY)
    gate.wait_reached()
    saved = state.draft(game_id)
    assert saved is not None
    state.save_round(game_id, None, FIRST_DEAL)
    assert state.draft(game_id) is None
    gate.release()
    store.settle()
    assert list(on_disk(store)) == [f"phone/{game_id}"]  # written after the save ...
    store.close()
    reopened = Store.open(store.folder)
    try:
        assert reopened.draft("phone", game_id) is None  # ... and over all the same
        assert [notice.message for notice in reopened.notices] == []
        again = tab_of(reopened, game_id, "tab")
        again.keep_draft(game_id, None, ENTRY)  # the next round's draft
        reopened.settle()
        [kept] = on_disk(reopened).values()  # the old one has left the file with it
        assert kept["id"] != saved["id"] and kept == reopened.draft("phone", game_id)
    finally:
        reopened.close()


def test_a_correction_and_a_delete_end_their_draft_in_the_same_write(store: Store) -> None:
    state, game_id = at_table(store)
    state.save_round(game_id, None, FIRST_DEAL)
    for change in (
        lambda: state.save_round(game_id, 0, FIRST_DEAL),
        lambda: state.delete_round(game_id, 0),
    ):
        state.game_at(game_id)  # the screen draws the game anew after each change
        state.keep_draft(game_id, 0, ENTRY)
        store.settle()
        kept = state.draft(game_id)
        assert kept is not None and list(on_disk(store)) == [f"phone/{game_id}"]
        change()
        assert state.draft(game_id) is None
        assert store._active.get_doc(game_id)["drafts_ended"] == {"phone": kept["id"]}  # type: ignore[index]


def test_a_discard_while_the_draft_is_being_written_is_written_after_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, game_id = at_table(store)
    gate = Gate(store, monkeypatch)
    state.keep_draft(game_id, None, ENTRY)
    gate.wait_reached()
    discard = threading.Thread(target=lambda: state.discard_draft(game_id))
    discard.start()
    gate.release()
    discard.join(10)
    assert state.draft(game_id) is None
    store.settle()
    assert on_disk(store) == {}
    store.close()
    reopened = Store.open(store.folder)
    try:
        assert reopened.draft("phone", game_id) is None
    finally:
        reopened.close()


def test_closing_writes_the_newest_draft(store: Store) -> None:
    state, game_id = at_table(store)
    for pile_ in (2, 20):
        state.keep_draft(game_id, None, {"piles": {"Anna": pile_}})
    store.close()
    reopened = Store.open(store.folder)
    try:
        kept = reopened.draft("phone", game_id)
        assert kept is not None and kept["entry"] == {"piles": {"Anna": 20}}
    finally:
        reopened.close()


def test_a_draft_that_cannot_be_written_is_kept_in_memory_and_said_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, game_id = at_table(store)
    said: list[str] = []
    monkeypatch.setattr(AppState, "say", lambda self, message: said.append(message))
    table = store._drafts
    write = table.change_many
    full = {"on": True}

    def failing(documents: Mapping[str, Mapping[str, Any]], removed: Any) -> None:
        if full["on"]:
            raise err.DiskFull(folder=str(store.folder))
        write(documents, removed)

    monkeypatch.setattr(table, "change_many", failing)
    state.keep_draft(game_id, None, {"piles": {"Anna": 2}})  # fails just after
    store.settle()
    assert said == []
    state.keep_draft(game_id, None, {"piles": {"Anna": 20}})  # says so
    assert len(said) == 1 and "could not be kept as a draft" in said[0]
    kept = state.draft(game_id)
    assert kept is not None and kept["entry"] == {"piles": {"Anna": 20}}
    full["on"] = False
    state.keep_draft(game_id, None, {"piles": {"Anna": 20, "Ben": 5}})
    store.settle()
    [written] = on_disk(store).values()
    assert written["entry"] == {"piles": {"Anna": 20, "Ben": 5}}


def test_a_draft_of_an_older_version_without_an_id_ends_with_its_save(store: Store) -> None:
    state, game_id = at_table(store)
    store.keep_draft("phone", game_id, {"round": None, "entry": ENTRY, "base": 0})
    store.settle()
    state.save_round(game_id, None, FIRST_DEAL)
    assert state.draft(game_id) is None
    store.settle()
    assert on_disk(store) == {}


def saved_with_fsyncs(
    store: Store, monkeypatch: pytest.MonkeyPatch, change: Callable[[], object]
) -> int:
    """The fsyncs of `change` (with the drafts' writes it leads to)."""
    store.settle()
    with monkeypatch.context() as counting:
        made = fsyncs_by_thread(counting)
        change()
        store.settle()
    return len(made)


def drawn(state: AppState, game_id: str, keep: int | None = -1) -> None:
    """The screen draws the game anew after a change, and (unless `keep` is -1) the player
    starts entering round `keep` (None: a new one)."""
    state.game_at(game_id)
    if keep != -1:
        state.keep_draft(game_id, keep, ENTRY)


def test_a_save_at_the_table_makes_three_fsyncs(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round (active.json) and its undo step (undo.json) each fsynced before they replace
    the old file, and the folder once; the draft ends in the round's write."""
    state, game_id = at_table(store)
    for _ in range(3):
        drawn(state, game_id, keep=None)
        assert saved_with_fsyncs(store, monkeypatch, lambda: save(state, game_id, None)) == 3
    drawn(state, game_id, keep=1)
    assert saved_with_fsyncs(store, monkeypatch, lambda: save(state, game_id, 1)) == 3
    drawn(state, game_id)
    assert saved_with_fsyncs(store, monkeypatch, lambda: state.delete_round(game_id, 2)) == 3
    drawn(state, game_id)
    assert saved_with_fsyncs(store, monkeypatch, lambda: state.undo(game_id)) == 3
    drawn(state, game_id)
    assert saved_with_fsyncs(store, monkeypatch, lambda: state.redo(game_id)) == 3


def save(state: AppState, game_id: str, index: int | None) -> None:
    state.save_round(game_id, index, FIRST_DEAL)
