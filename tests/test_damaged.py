"""One bad record, file or lock stops nothing: Debrief opens every damaged folder of
tests/damaged.py, keeps aside what is bad, says so once in words, and keeps everything else."""

from __future__ import annotations

import builtins
import errno
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import ROOT
from damaged import DAMAGES, damaged_folder, good_folder
from startup import faults

from storage import Store, backup
from storage import errors as err
from views.i18n import Translator

# The games a damage takes out of the lists (kept aside, not lost: the user is told where).
KEPT_ASIDE = {
    "bad archived document": {"finished-1"},
    "damaged archive file": {"finished-1"},
    "games is a file": {"finished-1"},
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_folder_opens_keeps_aside_what_is_bad_and_says_so_once(
    tmp_path: Path, damage: str
) -> None:
    folder = damaged_folder(tmp_path / "data", damage)
    store = Store.open(folder)
    try:
        store.check()  # reads everything (archive files are otherwise read on first use)
        assert store.notices, "the damage is reported"
        assert all(notice.message for notice in store.notices)
        ids = {s.id for s in store.summaries()}
        assert {"finished-1", "active-1"} - KEPT_ASIDE.get(damage, set()) <= ids
        assert [s.id for s in store.active_games()] == ["active-1"]
        assert "Greta" in [p["name"] for p in store.players()]
        store.load_game("active-1")
    finally:
        store.close()
    again = Store.open(folder)
    try:
        assert again.check()[1] == []  # what is left is clean
        assert [n.message for n in again.notices] == []  # said once
    finally:
        again.close()


def test_every_damage_at_once(tmp_path: Path) -> None:
    folder = damaged_folder(tmp_path / "data")
    store = Store.open(folder)
    try:
        assert len(store.notices) >= 5
        assert [s.id for s in store.active_games()] == ["active-1"]
    finally:
        store.close()


@pytest.mark.parametrize("damage", [*sorted(DAMAGES), None])
def test_storage_check_never_prints_a_traceback(tmp_path: Path, damage: str | None) -> None:
    folder = damaged_folder(tmp_path / "data", *([damage] if damage else []))
    for command in ("check", "export"):
        done = subprocess.run(
            [sys.executable, "-m", "storage", "--data-dir", str(folder), command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode in (0, 1), done.stderr


# --- a damaged folder that is read-only (a mounted backup, a locked phone folder) ------------

SPY = [{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}]
ALL_AT_ONCE, NONE = "every damage at once", "no damage"
READ_ONLY_CASES = [*sorted(DAMAGES), ALL_AT_ONCE, NONE]


def folder_with(folder: Path, case: str) -> Path:
    if case == NONE:
        good_folder(folder)
        return folder
    return damaged_folder(folder, *([] if case == ALL_AT_ONCE else [case]))


def games_left_out(case: str) -> set[str]:
    if case == ALL_AT_ONCE:
        return set().union(*KEPT_ASIDE.values())
    return KEPT_ASIDE.get(case, set())


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, bool]]:
    """While fault["on"], the file system refuses every change as a read-only one does
    (EROFS): renames, removals, new folders (an existing one: EEXIST) and opening to write."""
    fault = {"on": False}
    real = {name: getattr(os, name) for name in ("replace", "rename", "open", "mkdir")}
    real |= {name: getattr(os, name) for name in ("unlink", "remove", "rmdir")}
    real_open_file = builtins.open

    def refused(path: Any) -> OSError:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    def moving(name: str) -> Callable[..., Any]:
        def move(source: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
            if fault["on"]:
                raise refused(target)
            return real[name](source, target, *args, **kwargs)

        return move

    def removing(name: str) -> Callable[..., Any]:
        def remove(path: Any, *args: Any, **kwargs: Any) -> Any:
            if fault["on"]:
                raise refused(path)
            return real[name](path, *args, **kwargs)

        return remove

    def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
        if fault["on"] and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise refused(path)
        return real["open"](path, flags, *args, **kwargs)

    def open_file(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if fault["on"] and set(mode) & set("wax+") and not isinstance(file, int):
            raise refused(file)
        return real_open_file(file, mode, *args, **kwargs)

    def mkdir(path: Any, *args: Any, **kwargs: Any) -> Any:
        if fault["on"]:
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
            raise refused(path)
        return real["mkdir"](path, *args, **kwargs)

    for name in ("replace", "rename"):
        monkeypatch.setattr(os, name, moving(name))
    for name in ("unlink", "remove", "rmdir"):
        monkeypatch.setattr(os, name, removing(name))
    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "mkdir", mkdir)
    monkeypatch.setattr(builtins, "open", open_file)
    monkeypatch.setattr(io, "open", open_file)
    yield fault


def everything_in(folder: Path) -> dict[str, object]:
    """What is in `folder`, as it is on disk: each path with its kind and content (a link's
    target, a file's bytes), links not followed."""
    found: dict[str, object] = {}
    for entry in os.scandir(folder):
        path = Path(entry.path)
        name = str(path.relative_to(folder))
        if entry.is_symlink():
            found[name] = ("link", os.readlink(path))
        elif entry.is_dir():
            found[name] = "folder"
            found |= {f"{name}/{k}": v for k, v in everything_in(path).items()}
        else:
            found[name] = path.read_bytes()
    return found


@pytest.mark.parametrize("damage", READ_ONLY_CASES)
def test_a_damaged_read_only_folder_opens_with_everything_else_and_nothing_is_written(
    tmp_path: Path, damage: str, read_only: dict[str, bool]
) -> None:
    """The damage cannot be kept aside: it stays as it is, is said in words, and everything
    else opens to look at and export. Nothing is written, not even once the folder is writable
    again while Debrief still has it open (the damaged file would be written over, or the
    parts left out of a file dropped from it): saving says the folder is read-only."""
    folder = folder_with(tmp_path / "data", damage)
    before = everything_in(tmp_path)
    read_only["on"] = True
    store = Store.open(folder)
    try:
        store.check()  # reads everything (archive files are otherwise read on first use)
        codes = [notice.code for notice in store.notices]
        assert "ReadOnlyData" in codes
        if damage != NONE:
            assert len(codes) >= 2, "the damage is reported too"
        for notice in store.notices:
            assert notice.message and Translator("de").problem(notice) != notice.message
        ids = {s.id for s in store.summaries()}
        assert {"finished-1", "active-1"} - games_left_out(damage) <= ids
        assert [s.id for s in store.active_games()] == ["active-1"]
        assert "Greta" in [p["name"] for p in store.players()]
        store.load_game("active-1")
        exported = backup.export_backup(store)
        assert "active-1" in [record["meta"]["id"] for record in exported["games"]]
        assert everything_in(tmp_path) == before
        read_only["on"] = False  # writable again, while the data is still open
        saves: list[Callable[[], object]] = [
            lambda: store.add_player("Hanna"),
            lambda: store.create_game("spy", SPY, {}),
            lambda: store.keep_draft("phone", "active-1", {"round": None, "entry": {}}),
            lambda: store.set_history("phone", "active-1", {"undo": [{"x": 1}], "redo": []}),
            lambda: store.set_setting("language", "de"),
            lambda: store.finish_game("active-1"),
        ]
        for save in saves:
            with pytest.raises(err.DataReadOnly) as refused:
                save()
            assert "read-only" in refused.value.message
        assert everything_in(tmp_path) == before
    finally:
        store.close()
    writable = Store.open(folder)  # kept aside now, as in a writable folder
    try:
        writable.check()
        assert bool(writable.notices) == (damage != NONE)
        assert "ReadOnlyData" not in [notice.code for notice in writable.notices]
        assert "Greta" in [p["name"] for p in writable.players()]
    finally:
        writable.close()
    again = Store.open(folder)
    try:
        assert again.check()[1] == []  # what is left is clean
        assert [n.message for n in again.notices] == []  # said once
    finally:
        again.close()


@pytest.mark.parametrize("damage", READ_ONLY_CASES)
def test_storage_check_on_a_read_only_damaged_folder_opens_it_without_a_traceback(
    tmp_path: Path, damage: str
) -> None:
    """With the fault injection the app's tests use (tests/faults): `check` and `export` open
    the data, say what is wrong and that the folder is read-only, and print no traceback."""
    folder = folder_with(tmp_path / "data", damage)
    switch = tmp_path / "read-only"
    switch.write_text("on")
    env = {
        **os.environ,
        "PYTHONPATH": faults(),
        "DEBRIEF_FAULT": "read-only",
        "DEBRIEF_FAULT_SWITCH": str(switch),
    }
    for command in ("check", "export"):
        done = subprocess.run(
            [sys.executable, "-m", "storage", "--data-dir", str(folder), command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode in (0, 1), done.stderr
        assert "note: the data folder" in done.stderr and "read-only" in done.stderr
        if command == "check":
            assert " games, 1 players: " in done.stdout, done.stderr  # it opened
        else:
            assert '"active-1"' in done.stdout, done.stderr
