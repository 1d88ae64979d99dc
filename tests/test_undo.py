"""Undo and redo keep what a change did, not a copy of the game: a step holds the
round it puts back (or none), and the game is made anew from the game as it is plus the step.
Saves, corrections and deletes undo and redo right, also after the data was closed and opened
again; a history stored by an older version (a whole game per step) is read as before."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import generators
import pytest
from builders import FOUR

from storage import Store
from views.app import round_name_of
from views.state import UNDO_LIMIT, AppState

OPTIONS = {"first_dealer": "Anna", "variants": [], "end_value": 1_000_000}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(folder: Path) -> Iterator[Store]:
    opened = Store.open(folder)
    yield opened
    opened.close()


def a_game(store: Store) -> str:
    record = store.create_game("black-spy", [{"name": name} for name in FOUR], OPTIONS)
    return str(record["meta"]["id"])


def tab(store: Store, game_id: str) -> AppState:
    """This device's tab, the game drawn (as the table screen does before each change)."""
    state = AppState.load(store, "/", device="phone", tab="tab", round_name_of=round_name_of)
    state.game_at(game_id)
    return state


def deals(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [generators.black_spy_deal(rng, FOUR, False, 0.05) for _ in range(count)]


def offered(state: AppState, game_id: str) -> tuple[tuple[str, int] | None, ...]:
    """What the bar's Undo and Redo would name: (what, round index) each, or None."""
    return tuple(None if s is None else (s.what, s.index) for s in state.steps(game_id))


CHANGES = ["save", "change", "delete"]


def make(state: AppState, game_id: str, what: str, deal: dict[str, Any]) -> None:
    """Save a new deal, correct deal 2 or delete deal 1, as the table screen does."""
    state.game_at(game_id)
    if what == "save":
        state.save_round(game_id, None, deal)
    elif what == "change":
        state.save_round(game_id, 1, deal)
    else:
        state.delete_round(game_id, 0)


def three_deals_then(
    store: Store, what: str, seed: int
) -> tuple[str, dict[str, Any], dict[str, Any], int]:
    """A game of three deals saved by a tab, then `what` (save, change, delete) done by it:
    the game's id, the game before and after that change, and the round it changed."""
    first, second, third, other = deals(seed, 4)
    game_id = a_game(store)
    state = tab(store, game_id)
    for deal in (first, second, third):
        make(state, game_id, "save", deal)
    before = store.load_game(game_id)
    make(state, game_id, what, other)
    after = store.load_game(game_id)
    return game_id, before, after, {"save": 3, "change": 1, "delete": 0}[what]


@pytest.mark.parametrize("what", CHANGES)
def test_undo_and_redo_put_the_game_back_also_after_a_restart(folder: Path, what: str) -> None:
    """Each undo and redo with the data closed and opened again before it (a restart: the
    step is read back from undo.json)."""
    store = Store.open(folder)
    game_id, before, after, index = three_deals_then(store, what, 1)
    assert after != before
    for _ in range(2):
        for undoing in (True, False):
            store.close()
            store = Store.open(folder)
            state = tab(store, game_id)
            undo, redo = offered(state, game_id)
            assert (undo if undoing else redo) == (what, index)
            # before an undo nothing to redo; before a redo, the save before it to undo
            assert (redo if undoing else undo) == (None if undoing else ("save", 2))
            step = state.undo(game_id) if undoing else state.redo(game_id)
            assert step is not None and (step.what, step.index) == (what, index)
            shown = store.load_game(game_id)
            assert shown == (before if undoing else after)
    store.close()


def test_undo_goes_back_step_by_step_and_redo_comes_forward_again(store: Store) -> None:
    """Found by a new player: after one Undo the bar offered only Redo; the saves before it
    could not be undone. Each Undo offers the change before it, each Redo the one after."""
    game_id = a_game(store)
    state = tab(store, game_id)
    saved = [store.load_game(game_id)["rounds"]]
    for deal in deals(7, 3):
        make(state, game_id, "save", deal)
        saved.append(store.load_game(game_id)["rounds"])
    for index in (2, 1, 0):
        assert offered(state, game_id)[0] == ("save", index)
        assert state.undo(game_id) is not None
        assert store.load_game(game_id)["rounds"] == saved[index]
    assert offered(state, game_id) == (None, ("save", 0))
    for index in (0, 1, 2):
        assert offered(state, game_id)[1] == ("save", index)
        assert state.redo(game_id) is not None
        assert store.load_game(game_id)["rounds"] == saved[index + 1]
    assert offered(state, game_id) == (("save", 2), None)


def test_undo_stops_where_another_device_changed_the_game_in_between(store: Store) -> None:
    """This tab saves deal 1, another device deal 2, this tab deal 3: Undo takes deal 3 back
    and stops there. Taking deal 1 out from under the other device's deal 2 would change a deal
    this tab never made (its dealer, its passing)."""
    first, second, third = deals(5, 3)
    game_id = a_game(store)
    state = tab(store, game_id)
    make(state, game_id, "save", first)
    store.append_round(game_id, second)  # another device
    make(state, game_id, "save", third)
    assert offered(state, game_id) == (("save", 2), None)
    assert state.undo(game_id) is not None
    assert offered(state, game_id) == (None, ("save", 2))
    assert store.load_game(game_id)["rounds"] == [first, second]


def test_a_step_no_longer_applies_once_another_device_changed_the_game(store: Store) -> None:
    first, second = deals(4, 2)
    game_id = a_game(store)
    state = tab(store, game_id)
    make(state, game_id, "save", first)
    store.append_round(game_id, second)  # another device, after it
    assert offered(state, game_id) == (None, None)
    assert state.undo(game_id) is None
    assert store.load_game(game_id)["rounds"] == [first, second]


def test_a_step_holds_what_it_changed_never_the_game(store: Store) -> None:
    game_id = a_game(store)
    state = tab(store, game_id)
    played = deals(2, 41)
    for deal in played[:40]:
        state.save_round(game_id, None, deal)
        state.game_at(game_id)
    state.save_round(game_id, 5, played[40])
    state.game_at(game_id)
    state.delete_round(game_id, 7)
    state.game_at(game_id)
    state.undo(game_id)
    stored = store.history("phone", game_id)
    steps = [*stored["undo"], *stored["redo"]]
    assert len(stored["undo"]) == UNDO_LIMIT - 1 and len(stored["redo"]) == 1
    rounds = store.load_game(game_id)["rounds"]
    for step in steps:
        assert set(step) == {"what", "index", "round", "rev", "tab"}, step
        assert step["round"] is None or step["round"] in [*rounds, played[5], played[7]]
    by_what = {(step["what"], step["round"] is None) for step in steps}
    assert by_what == {("save", True), ("change", False), ("delete", True)}
    # The whole history of a 40-deal game is smaller than one copy of the game.
    game = json.dumps(store.load_game(game_id))
    assert len(json.dumps(stored)) < len(game) / 4


def old_step(what: str, index: int, record: dict[str, Any], rev: int) -> dict[str, Any]:
    """A step as an older Debrief stored it: the whole game as the step puts it back."""
    return {"what": what, "index": index, "record": record, "rev": rev, "tab": "tab"}


@pytest.mark.parametrize("what", CHANGES)
@pytest.mark.parametrize("undone", [False, True])
def test_a_step_stored_by_an_older_version_is_taken_as_before(
    store: Store, what: str, undone: bool
) -> None:
    """A step of an older version held the whole game as the step puts it back: the
    game before the change (an undo step) or after it (a redo step, once undone). Such a step
    undoes and redoes as it did, and is kept in the new form from then on."""
    game_id, before, after, index = three_deals_then(store, what, 5)
    state = tab(store, game_id)
    if undone:  # as the older version left it after its undo: the redo step holds `after`
        store.set_record(game_id, before)
        stored = {"undo": [], "redo": [old_step(what, index, after, store.revision(game_id))]}
    else:
        stored = {"undo": [old_step(what, index, before, store.revision(game_id))], "redo": []}
    store.set_history("phone", game_id, stored)
    state.game_at(game_id)
    for undoing in [False, True, False] if undone else [True, False, True]:
        step = state.undo(game_id) if undoing else state.redo(game_id)
        assert step is not None and (step.what, step.index) == (what, index)
        assert store.load_game(game_id) == (before if undoing else after)
        kept = store.history("phone", game_id)
        assert all("record" not in step for step in [*kept["undo"], *kept["redo"]])


def test_a_stored_step_that_cannot_be_read_is_no_history(store: Store) -> None:
    """Nothing to undo, and nothing shown wrong: a step whose game has no round where it
    says (a hand edit, a disk fault) ends the history."""
    game_id = a_game(store)
    state = tab(store, game_id)
    record = store.load_game(game_id)
    broken = old_step("change", 3, record, store.revision(game_id))
    store.set_history("phone", game_id, {"undo": [broken], "redo": []})
    assert offered(state, game_id) == (None, None)
    assert state.undo(game_id) is None
    assert store.load_game(game_id)["rounds"] == []
