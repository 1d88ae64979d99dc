"""Data folders damaged in the ways a real disk, a crash or a hand edit leaves them.

Each builder takes a folder holding a good store (made by `good_folder`) and damages it. The
storage tests, the CLI tests and a browser test open every one of them: Debrief must start,
keep aside what is bad, say so once in words, and keep everything else.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from builders import SCENARIOS

from storage import Store
from storage.store import shard_of

GOOD_GAMES = ["spy-three-players", "black-spy-basic"]  # one finished, one in progress


def scenario(name: str, game_id: str, ended: str | None = None) -> dict[str, Any]:
    record = json.loads((SCENARIOS / f"{name}.json").read_text())
    record["meta"] = {"id": game_id, "started": "2026-11-01T20:00:00+01:00", "ended": ended}
    return record


def good_folder(folder: Path) -> None:
    """Two games (one archived, one active) and a player."""
    store = Store.open(folder)
    try:
        store.add_games(
            [
                scenario("spy-three-players", "finished-1", ended="2026-11-01T21:00:00+01:00"),
                scenario("black-spy-basic", "active-1"),
            ]
        )
        store.add_player("Greta", "1990")
    finally:
        store.close()


def games_in_progress(folder: Path, language: str = "en") -> None:
    """One game of each kind at the table (Spywhere's wizard open), in this language."""
    store = Store.open(folder)
    try:
        black_spy = scenario("black-spy-basic", "black-spy-1")
        black_spy["options"]["variants"] = ["going-back", "mole"]
        spywhere = scenario("spywhere-four-players", "spywhere-1")
        spywhere["rounds"] = []
        store.add_games(
            [
                black_spy,
                scenario("kompromat-first-round", "kompromat-1"),
                scenario("spy-three-players", "spy-1"),
                spywhere,
            ]
        )
        store.set_setting("language", language)
    finally:
        store.close()


def edit_json(path: Path, change: Callable[[Any], Any]) -> None:
    path.write_text(json.dumps(change(json.loads(path.read_text()))))


def bad_active_documents(folder: Path) -> None:
    """Documents in active.json that are not games any more: a game Debrief does not know,
    a record that is text, a document that is a number, one with no record."""

    def damage(data: dict[str, Any]) -> dict[str, Any]:
        chess = scenario("black-spy-basic", "chess-1")
        chess["game"] = "chess"
        data["games"]["chess-1"] = {"record": chess, "deleted_at": None}
        data["games"]["text-1"] = {"record": "a record", "deleted_at": None}
        data["games"]["number-1"] = 5
        data["games"]["empty-1"] = {}
        return data

    edit_json(folder / "active.json", damage)


def bad_archived_document(folder: Path) -> None:
    """A finished game whose record no longer validates outside its rounds (no players)."""
    shard = folder / "games" / f"{shard_of('finished-1')}.json"

    def damage(data: dict[str, Any]) -> dict[str, Any]:
        data["games"]["finished-1"]["record"]["players"] = []
        return data

    edit_json(shard, damage)
    (folder / "index.json").unlink()  # rebuilt at start: from the damaged record too


def journal_not_an_object(folder: Path) -> None:
    (folder / "journal.json").write_text("[]")


def journal_of_an_unknown_shape(folder: Path) -> None:
    (folder / "journal.json").write_text(json.dumps({"operation": "import", "archived": 5}))


def schema_version_text(folder: Path) -> None:
    def damage(data: dict[str, Any]) -> dict[str, Any]:
        data["meta"]["schema"]["version"] = "two"
        return data

    edit_json(folder / "debrief.json", damage)


def schema_version_zero(folder: Path) -> None:
    def damage(data: dict[str, Any]) -> dict[str, Any]:
        data["meta"]["schema"]["version"] = 0
        return data

    edit_json(folder / "debrief.json", damage)


def lock_is_a_folder(folder: Path) -> None:
    lock = folder / "debrief.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()
    (lock / "something").write_text("x")


def journal_is_a_folder(folder: Path) -> None:
    """A folder where the journal of an interrupted change should be."""
    journal = folder / "journal.json"
    journal.unlink(missing_ok=True)
    journal.mkdir()
    (journal / "something").write_text("x")


def games_is_a_file(folder: Path) -> None:
    """A plain file where the folder of finished games should be."""
    shutil.rmtree(folder / "games")
    (folder / "games").write_text("not a folder")


def index_is_a_folder(folder: Path) -> None:
    index = folder / "index.json"
    index.unlink(missing_ok=True)  # every damage at once: "bad archived document" removed it
    index.mkdir()


def lock_is_a_link(folder: Path) -> None:
    """A lock that is a link (to a file outside the data folder) is not Debrief's lock file."""
    outside = folder.parent / "somewhere-else.txt"
    outside.write_text("not Debrief's")
    lock = folder / "debrief.lock"
    if lock.is_dir():  # every damage at once: "lock is a folder" came first
        shutil.rmtree(lock)
    lock.unlink(missing_ok=True)
    lock.symlink_to(outside)


def damaged_archive_file(folder: Path) -> None:
    (folder / "games" / f"{shard_of('finished-1')}.json").write_text("{ not json")


def damaged_drafts_file(folder: Path) -> None:
    """A whole data file that is not JSON any more (the drafts: written on every tap)."""
    (folder / "drafts.json").write_text("{ not json")


def roster_entry_not_an_object(folder: Path) -> None:
    def damage(data: dict[str, Any]) -> dict[str, Any]:
        data["players"]["broken"] = ["Greta"]
        return data

    edit_json(folder / "debrief.json", damage)


DAMAGES: dict[str, Callable[[Path], None]] = {
    "bad active documents": bad_active_documents,
    "bad archived document": bad_archived_document,
    "journal not an object": journal_not_an_object,
    "journal of an unknown shape": journal_of_an_unknown_shape,
    "schema version text": schema_version_text,
    "schema version zero": schema_version_zero,
    "lock is a folder": lock_is_a_folder,
    "damaged archive file": damaged_archive_file,
    "roster entry not an object": roster_entry_not_an_object,
    "damaged drafts file": damaged_drafts_file,
    "journal is a folder": journal_is_a_folder,
    "index is a folder": index_is_a_folder,
    "lock is a link": lock_is_a_link,
    "games is a file": games_is_a_file,  # last: the damages inside games/ are made before it
}


def damaged_folder(folder: Path, *damages: str) -> Path:
    good_folder(folder)
    for name in damages or DAMAGES:
        DAMAGES[name](folder)
    return folder
