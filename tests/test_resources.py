"""Resources run out: a full disk, a read-only folder, big imports, big notes.

Each says clearly what went wrong and what to do, keeps what was saved, and stays linear.
Faults are injected the way tests/faults/debrief_faults.py does for the app: every rename onto
a data file (how each write lands) fails with ENOSPC or EROFS while a switch file exists.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import ROOT, SCENARIOS
from startup import faults

import scoring
from storage import Store, backup, files
from storage import errors as err

SPY = [{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}]


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


@pytest.fixture
def failing_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int | None]]:
    """Set fault["code"] to an errno to make every write of the data fail with it."""
    fault: dict[str, int | None] = {"code": None}
    real = os.replace

    def replace(source: Any, target: Any) -> None:
        if fault["code"] is not None:
            raise OSError(fault["code"], os.strerror(fault["code"]), str(target))
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    yield fault


def test_a_full_disk_refuses_a_change_in_words_and_keeps_what_was_saved(
    tmp_path: Path, failing_writes: dict[str, int | None]
) -> None:
    store = Store.open(tmp_path / "data")
    try:
        game_id = store.create_game("spy", SPY, {})["meta"]["id"]
        saved = store.load_game(game_id)
        failing_writes["code"] = errno.ENOSPC
        with pytest.raises(err.DiskFull) as refused:
            store.append_round(game_id, {"event": "target", "by": "Anna", "base": "Ben"})
        assert "full" in refused.value.message and str(tmp_path) in refused.value.message
        assert store.load_game(game_id) == saved  # the table still shows what is on disk
        failing_writes["code"] = None
        store.append_round(game_id, {"event": "target", "by": "Anna", "base": "Ben"})
        assert len(store.load_game(game_id)["rounds"]) == 1
    finally:
        store.close()


def test_an_import_that_does_not_fit_adds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    store = Store.open(tmp_path / "data")
    try:
        before = {p.name: p.read_bytes() for p in (tmp_path / "data").glob("*.json")}
        records = [{**scenario("spy-three-players"), "meta": {"id": f"s{n}"}} for n in range(50)]
        usage = shutil.disk_usage(tmp_path)
        monkeypatch.setattr(shutil, "disk_usage", lambda path: usage._replace(free=10_000))
        with pytest.raises(err.DiskFull):
            store.add_games(records)
        assert {p.name: p.read_bytes() for p in (tmp_path / "data").glob("*.json")} == before
        assert not (tmp_path / "data" / "journal.json").exists()
    finally:
        store.close()


def test_a_disk_that_fills_during_an_import_finishes_it_later_and_opens_meanwhile(
    tmp_path: Path, failing_writes: dict[str, int | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal is written, then the disk fills: the next start cannot finish the import
    yet but opens (the folder is read-only until space is freed); then it finishes it."""
    folder = tmp_path / "data"
    records = [{**scenario("spy-three-players"), "meta": {"id": f"s{n}"}} for n in range(50)]
    store = Store.open(folder)
    real_journal = store._journal_path
    writes: list[str] = []
    original = files.write_atomically

    def after_the_journal(path: Path, text: str) -> None:
        original(path, text)
        writes.append(path.name)
        if path == real_journal:
            failing_writes["code"] = errno.ENOSPC

    monkeypatch.setattr("storage.store.write_atomically", after_the_journal)
    with pytest.raises(err.DiskFull):
        store.add_games(records)
    store.close()
    assert (folder / "journal.json").exists()
    opened = Store.open(folder)  # the disk is still full
    try:
        assert "ImportWaitsForSpace" in [n.code for n in opened.notices]
        assert {s.id for s in opened.summaries()} <= {r["meta"]["id"] for r in records}
        with pytest.raises(err.DiskFull):
            opened.create_game("spy", SPY, {})
    finally:
        opened.close()
    failing_writes["code"] = None
    opened = Store.open(folder)  # space was freed
    try:
        assert "InterruptedImportCompleted" in [n.code for n in opened.notices]
        assert len(opened.summaries()) == len(records)
    finally:
        opened.close()


def test_a_read_only_folder_opens_for_reading_and_says_why_nothing_can_be_saved(
    tmp_path: Path, failing_writes: dict[str, int | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    game_id = store.create_game("spy", SPY, {})["meta"]["id"]
    store.close()
    failing_writes["code"] = errno.EROFS
    real_open = os.open

    def no_lock(path: Any, flags: int, *args: Any) -> int:
        if str(path).endswith("debrief.lock") and flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", no_lock)
    store = Store.open(folder)
    try:
        assert "ReadOnlyData" in [n.code for n in store.notices]
        assert [s.id for s in store.active_games()] == [game_id]
        assert store.check()[1] == []
        with pytest.raises(err.DataReadOnly) as refused:
            store.append_round(game_id, {"event": "target", "by": "Anna", "base": "Ben"})
        assert "read-only" in refused.value.message
    finally:
        store.close()


def cli_with_fault(fault: str, folder: Path, *args: str, on: bool = True) -> Any:
    switch = folder.parent / "fault-on"
    if on:
        switch.write_text("on")
    env = {
        **os.environ,
        "PYTHONPATH": faults(),
        "DEBRIEF_FAULT": fault,
        "DEBRIEF_FAULT_SWITCH": str(switch),
    }
    try:
        return subprocess.run(
            [sys.executable, "-m", "storage", "--data-dir", str(folder), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
    finally:
        switch.unlink(missing_ok=True)


@pytest.mark.parametrize("fault", ["disk-full", "read-only"])
def test_the_commands_say_what_went_wrong_without_a_traceback(tmp_path: Path, fault: str) -> None:
    folder = tmp_path / "data"
    source = tmp_path / "game.json"
    source.write_text((SCENARIOS / "spy-three-players.json").read_text())
    Store.open(folder).close()
    done = cli_with_fault(fault, folder, "import", str(source))
    assert "Traceback" not in done.stderr and done.returncode != 0, done.stderr
    assert ("full" if fault == "disk-full" else "read-only") in done.stderr
    for command in ("check", "export"):
        done = cli_with_fault(fault, folder, command)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 0, done.stderr
    assert cli_with_fault(fault, folder, "import", str(source), on=False).returncode == 0


def test_importing_many_new_players_writes_the_roster_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,000 new players took 3.7 s and 4,000 46 s: one write of the roster per player."""
    store = Store.open(tmp_path / "data")
    try:
        players = [
            {"name": f"Player {n}", "born": None, "archived": False, "former_names": []}
            for n in range(1000)
        ]
        document = {"format": "debrief-backup/1", "players": players, "games": []}
        plan = backup.plan_import(store, document, "file")
        writes: list[str] = []
        original = files.write_atomically

        def counted(path: Path, text: str) -> None:
            writes.append(path.name)
            original(path, text)

        monkeypatch.setattr("storage.files.write_atomically", counted)
        monkeypatch.setattr("storage.store.write_atomically", counted)
        backup.apply_import(store, plan)
        assert writes.count("debrief.json") == 1, writes.count("debrief.json")
        assert len(store.players()) == 1000
    finally:
        store.close()


def test_the_limits_of_a_record_are_enforced() -> None:
    """FORMAT.md: notes at most 10,000 characters, names 1 to 40, at most 1,000 rounds."""
    record = {**scenario("spy-three-players"), "meta": {"notes": "x" * 10_001}}
    assert [(e.code, e.path) for e in scoring.problems(record)] == [("TextTooLong", "meta.notes")]
    record["meta"]["notes"] = "x" * 10_000
    assert scoring.problems(record) == []
    names = ["Anna", "Ben", "Carla"]
    deal = {
        "cards": {
            n: {"black_spies": 2, "black_low": 2, "black_high": [], "colored_spies": 0}
            for n in names
        }
    }
    deal["cards"]["Anna"]["black_high"] = [8, 9, 10, 11]
    deal["cards"]["Anna"]["colored_spies"] = 4
    long_game = {
        "format": "game-record/1",
        "game": "black-spy",
        "players": [{"name": n} for n in names],
        "options": {"first_dealer": "Anna", "variants": ["no-good-spies"], "end_value": 10**9},
        "rounds": [deal] * 1001,
    }
    assert [(e.code, e.path) for e in scoring.problems(long_game)] == [("TooManyRounds", "rounds")]


def test_a_store_refuses_notes_beyond_the_limit(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    try:
        game_id = store.create_game("spy", SPY, {})["meta"]["id"]
        with pytest.raises(scoring.InvalidRecord):
            store.set_notes(game_id, "x" * 200_000)
        assert store.load_game(game_id)["meta"]["notes"] == ""
    finally:
        store.close()


@pytest.mark.parametrize("fails", ["games", "index.json", "active.json"])
def test_a_finish_the_disk_refuses_leaves_no_journal_and_loses_no_later_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: str
) -> None:
    """The disk fills in the middle of Finish (the archive file, the list of finished games or
    the games in progress cannot be written): Finish is refused, the game stays at the table,
    and a round saved after it is there after a restart (the journal left behind put the old
    copy of the game into the history at the next start, and the round was gone)."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    game_id = store.create_game("spy", SPY, {})["meta"]["id"]
    store.append_round(game_id, {"event": "target", "by": "Anna", "base": "Ben"})
    real = os.replace

    def replace(source: Any, target: Any) -> None:
        name = Path(target).name if fails != "games" else Path(target).parent.name
        if name == fails:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(err.DiskFull):
        store.finish_game(game_id)
    monkeypatch.setattr(files.os, "replace", real)
    assert not (folder / "journal.json").exists(), "a refused change leaves no journal"
    store.append_round(game_id, {"event": "target", "by": "Ben", "base": "Carla"})
    store.close()
    again = Store.open(folder)
    try:
        assert [s.id for s in again.active_games()] == [game_id]
        assert len(again.load_game(game_id)["rounds"]) == 2
        assert again.check()[1] == []
        assert [n.code for n in again.notices] == []
    finally:
        again.close()


def test_a_refused_finish_that_cannot_be_undone_keeps_the_game_played_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills after Finish wrote the archive file and the list of finished games, and
    stays full while they are undone: the journal stays, and the next start keeps the copy at
    the table that was played on after the refusal (one revision as new as the finish's)."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    game_id = store.create_game("spy", SPY, {})["meta"]["id"]
    store.append_round(game_id, {"event": "target", "by": "Anna", "base": "Ben"})
    real = os.replace
    landed: list[str] = []

    def replace(source: Any, target: Any) -> None:
        if len(landed) >= 3:  # the journal, the archive file, the list; then nothing
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        landed.append(Path(target).name)
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(err.DiskFull):
        store.finish_game(game_id)
    monkeypatch.setattr(files.os, "replace", real)
    assert landed[0] == "journal.json" and (folder / "journal.json").exists()
    store.append_round(game_id, {"event": "target", "by": "Ben", "base": "Carla"})
    store.close()
    again = Store.open(folder)
    try:
        assert [s.id for s in again.active_games()] == [game_id]
        assert len(again.load_game(game_id)["rounds"]) == 2
        assert game_id not in [s.id for s in again.summaries() if not s.active]
        assert again.check()[1] == []
    finally:
        again.close()
