"""The writes of one change sync their folder once (`Store.one_change`), and still in
an order that a power cut cannot break: every file is fsynced before it replaces the old one,
a journal is durable before what it describes is written, and what it describes is durable
before the journal goes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from builders import FOUR, deal, pile

from storage import Store
from views.app import round_name_of
from views.state import AppState

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/fd")
OPTIONS = {"first_dealer": "Anna", "variants": []}
FIRST_DEAL = deal(
    FOUR, Anna=pile(spies=6, colored=4), Ben=pile(low=6), Carla=pile(high=[8, 9, 10, 11])
)


def traced(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[str]:
    """From now on, each fsync, rename and removal in the data folder, in order, as
    ``"fsync games/"``, ``"fsync active.json.tmp-…"``, ``"replace active.json"``, …"""
    seen: list[str] = []
    real_fsync, real_replace, real_unlink = os.fsync, os.replace, Path.unlink

    def name(path: str | Path) -> str:
        shown = str(Path(path).relative_to(folder))
        return "./" if shown == "." else shown + ("/" if Path(path).is_dir() else "")

    def fsync(descriptor: int) -> None:
        seen.append("fsync " + name(os.readlink(f"/proc/self/fd/{descriptor}")))
        real_fsync(descriptor)

    def replace(source: str | Path, target: str | Path) -> None:
        real_replace(source, target)
        seen.append("replace " + name(target))

    def unlink(path: Path, missing_ok: bool = False) -> None:
        real_unlink(path, missing_ok=missing_ok)
        seen.append("unlink " + name(path))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(Path, "unlink", unlink)
    return seen


def host(store: Store, game_id: str) -> AppState:
    state = AppState.load(store, "/", device="phone", tab="tab", round_name_of=round_name_of)
    state.game_at(game_id)
    return state


def without_temp_names(seen: list[str]) -> list[str]:
    return [step.split(".tmp-")[0] for step in seen]


def test_a_save_at_the_table_syncs_its_folder_once_after_both_files(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = store.create_game("black-spy", [{"name": n} for n in FOUR], OPTIONS)["meta"]["id"]
    state = host(store, game_id)
    seen = traced(monkeypatch, store.folder)
    state.save_round(game_id, None, FIRST_DEAL)
    assert without_temp_names(seen) == [
        "fsync active.json",
        "replace active.json",
        "fsync undo.json",
        "replace undo.json",
        "fsync ./",
    ]


def test_a_change_to_a_finished_game_keeps_its_journal_first_and_last(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = store.create_game("black-spy", [{"name": n} for n in FOUR], OPTIONS)
    game_id = record["meta"]["id"]
    store.append_round(game_id, FIRST_DEAL)
    store.finish_game(game_id)
    state = host(store, game_id)
    traced_steps = traced(monkeypatch, store.folder)
    state.save_round(game_id, 0, FIRST_DEAL)  # a correction: the archive and the index
    seen = without_temp_names(traced_steps)
    shard = next(step for step in seen if step.startswith("replace games/"))
    assert seen[:3] == ["fsync journal.json", "replace journal.json", "fsync ./"]
    journal_gone = seen.index("unlink journal.json")
    before_it = seen[seen.index(shard) : journal_gone]
    assert {"fsync games/", "fsync ./", "replace index.json"} <= set(before_it)
    assert seen.index("fsync ./", seen.index("replace index.json")) < journal_gone
    assert seen.index("fsync games/", seen.index(shard)) < journal_gone
    assert seen[-1] == "fsync ./" and "replace undo.json" in seen[journal_gone:]
