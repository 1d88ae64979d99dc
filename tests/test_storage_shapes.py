"""Things of the wrong kind where Debrief keeps its data, and links.

A folder, a special file (a FIFO) or a link that leads nowhere usable where a data file should
be, and a file where the folder of finished games should be, are renamed aside like any damaged
file (nothing is deleted, nothing is written into them), said once in words, and Debrief starts
with everything else.

A data file that is a link is followed: the data is written where it points (atomically, beside
the file it points to) and the link stays a link. A link is never written through when it leads
to nothing, to something that is not a file, into the data folder itself, to a file another data
file already leads to, or somewhere else than when the data was opened.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from builders import ROOT
from damaged import good_folder, scenario

from storage import StorageError, Store
from storage.store import shard_of
from views.i18n import Translator

SHARD = f"games/{shard_of('finished-1')}.json"
DATA_FILES = [
    "debrief.json",
    "active.json",
    "index.json",
    "drafts.json",
    "undo.json",
    SHARD,
    "journal.json",
]
# How the player is told that each was set aside.
NOTICE = {
    "debrief.json": "DamagedFileKeptAside",
    "active.json": "DamagedFileKeptAside",
    "index.json": "DamagedFileKeptAside",
    "drafts.json": "DamagedFileKeptAside",
    "undo.json": "DamagedFileKeptAside",
    SHARD: "DamagedArchiveKeptAside",
    "journal.json": "JournalKeptAside",
}
# The games that leave the lists with it (kept aside, not lost: the notice says where).
LEAVES = {"active.json": {"active-1"}, SHARD: {"finished-1"}}
SPY = [{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}]


def a_folder(path: Path, elsewhere: Path) -> None:
    path.unlink(missing_ok=True)
    path.mkdir()
    (path / "something").write_text("x")


def a_link_to_nothing(path: Path, elsewhere: Path) -> None:
    """A link to a file that is not there (in a folder that is: a write through the link
    would make it)."""
    path.unlink(missing_ok=True)
    elsewhere.mkdir(exist_ok=True)
    path.symlink_to(elsewhere / path.name)


def a_link_to_a_folder(path: Path, elsewhere: Path) -> None:
    path.unlink(missing_ok=True)
    (elsewhere / path.name).mkdir(parents=True)
    path.symlink_to(elsewhere / path.name)


WRONG_KINDS: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "a folder": (a_folder, "it is a folder, not a file"),
    "a link to nothing": (a_link_to_nothing, "it is a link to something that does not exist"),
    "a link to a folder": (a_link_to_a_folder, "it is a link to a folder, not to a file"),
}


def kept_aside(path: Path) -> list[Path]:
    """What `path` was renamed to (``NAME.damaged-DATE.EXT``)."""
    return sorted(path.parent.glob(f"{Path(path.name).stem}.damaged-*{path.suffix}"))


def is_kind(path: Path, kind: str) -> bool:
    """Whether `path` itself (not what a link leads to) is still of this kind."""
    if kind == "a folder":
        return path.is_dir() and not path.is_symlink()
    if kind == "a file":
        return path.is_file() and not path.is_symlink()
    return path.is_symlink()


def storage_cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m storage` on `folder`; fails the test (no hang) if it waits for ever."""
    return subprocess.run(
        [sys.executable, "-m", "storage", "--data-dir", str(folder), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def good_folder_with_drafts(folder: Path) -> None:
    """`good_folder`, and a draft and an undo history (drafts.json and undo.json)."""
    good_folder(folder)
    store = Store.open(folder)
    try:
        store.keep_draft("tablet", "active-1", {"round": None, "entry": {"a": 1}})
        store.set_history("tablet", "active-1", {"undo": [{"y": 2}], "redo": []})
    finally:
        store.close()


def assert_clean_when_opened_again(folder: Path) -> None:
    again = Store.open(folder)
    try:
        assert [n.message for n in again.notices] == []  # said once
        assert again.check()[1] == []  # what is left is clean
    finally:
        again.close()


# --- a data file of the wrong kind ---------------------------------------------------------


@pytest.mark.parametrize("name", DATA_FILES)
@pytest.mark.parametrize("kind", sorted(WRONG_KINDS))
def test_a_data_file_of_the_wrong_kind_is_set_aside_said_once_and_never_written_into(
    tmp_path: Path, kind: str, name: str
) -> None:
    folder = tmp_path / "data"
    elsewhere = tmp_path / "elsewhere"
    good_folder_with_drafts(folder)
    path = folder / name
    make, words = WRONG_KINDS[kind]
    make(path, elsewhere)
    store = Store.open(folder)
    try:
        store.check()  # reads everything (archive files are otherwise read on first use)
        told = [n for n in store.notices if n.code == NOTICE[name]]
        assert len(told) == 1, [n.message for n in store.notices]
        assert words in told[0].message and Path(name).stem in told[0].message, told[0].message
        german = Translator("de").problem(told[0])
        assert words not in german and Path(name).stem in german, german
        ids = {s.id for s in store.summaries()}
        assert {"finished-1", "active-1"} - LEAVES.get(name, set()) <= ids
        store.add_player("Hanna")  # a change in every file Debrief keeps beside the games
        store.create_game("spy", SPY, {})
        store.keep_draft("phone", "active-1", {"round": None, "entry": {}})
        store.set_history("phone", "active-1", {"undo": [{"x": 1}], "redo": []})
        if name != SHARD:
            store.delete_game("finished-1")  # the archive, the index and a journal
        imported = scenario("spy-three-players", "imported-1", ended="2026-11-02T21:00:00+01:00")
        assert store.add_games([imported]) == 1  # weighs every data file, those kept aside too
    finally:
        store.close()
    kept = kept_aside(path)
    assert len(kept) == 1 and is_kind(kept[0], kind), kept
    assert not os.path.lexists(path) or is_kind(path, "a file")
    if kind == "a link to nothing":
        assert not (elsewhere / path.name).exists(), "never written through a link to nothing"
    if kind == "a link to a folder":
        assert [p.name for p in (elsewhere / path.name).iterdir()] == []
    assert_clean_when_opened_again(folder)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", DATA_FILES)
def test_a_special_file_where_a_data_file_should_be_is_set_aside_without_waiting_on_it(
    tmp_path: Path, name: str
) -> None:
    """Reading a FIFO waits until something writes to it: `check` hung for ever."""
    folder = tmp_path / "data"
    good_folder_with_drafts(folder)
    path = folder / name
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    done = storage_cli(folder, "check")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    assert "it is not an ordinary file" in done.stderr, done.stderr
    kept = kept_aside(path)
    assert len(kept) == 1 and stat.S_ISFIFO(kept[0].lstat().st_mode)
    assert storage_cli(folder, "check").returncode == 0


# --- the folder of finished games of the wrong kind ------------------------------------------


def a_file(path: Path, elsewhere: Path) -> None:
    path.write_text("not a folder")


def a_link_to_a_file(path: Path, elsewhere: Path) -> None:
    elsewhere.mkdir()
    (elsewhere / "games").write_text("not a folder")
    path.symlink_to(elsewhere / "games")


def a_folder_link_to_nothing(path: Path, elsewhere: Path) -> None:
    elsewhere.mkdir()
    path.symlink_to(elsewhere / "games")


GAMES_KINDS: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "a file": (a_file, "it is a file, not a folder"),
    "a link to nothing": (
        a_folder_link_to_nothing,
        "it is a link to something that does not exist",
    ),
    "a link to a file": (a_link_to_a_file, "it is a link to a file, not to a folder"),
}


@pytest.mark.parametrize("kind", sorted(GAMES_KINDS))
def test_a_games_folder_of_the_wrong_kind_is_set_aside_and_its_games_said_missing(
    tmp_path: Path, kind: str
) -> None:
    folder = tmp_path / "data"
    elsewhere = tmp_path / "elsewhere"
    good_folder(folder)
    games = folder / "games"
    for shard in games.iterdir():
        shard.unlink()
    games.rmdir()
    make, words = GAMES_KINDS[kind]
    make(games, elsewhere)
    store = Store.open(folder)
    try:
        told = [n for n in store.notices if n.code == "DamagedArchiveKeptAside"]
        assert len(told) == 1, [n.message for n in store.notices]
        assert words in told[0].message and "the games in it (1)" in told[0].message
        assert words not in Translator("de").problem(told[0])
        assert [s.id for s in store.summaries()] == ["active-1"]
        assert "Greta" in [p["name"] for p in store.players()]
        store.finish_game("active-1")  # lands in a new, empty folder of finished games
    finally:
        store.close()
    assert games.is_dir() and not games.is_symlink()
    assert (games / f"{shard_of('active-1')}.json").is_file()
    kept = sorted(folder.glob("games.damaged-*"))
    assert len(kept) == 1 and is_kind(kept[0], "a file" if kind == "a file" else "a link")
    if kind == "a link to nothing":
        assert not (elsewhere / "games").exists()
    assert_clean_when_opened_again(folder)


def test_a_games_folder_that_is_a_link_to_a_folder_keeps_working(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    moved = tmp_path / "elsewhere" / "games"
    moved.parent.mkdir()
    (folder / "games").rename(moved)
    (folder / "games").symlink_to(moved)
    store = Store.open(folder)
    try:
        assert [n.message for n in store.notices] == []
        store.finish_game("active-1")
    finally:
        store.close()
    assert (folder / "games").is_symlink()
    assert (moved / f"{shard_of('active-1')}.json").is_file()
    store = Store.open(folder)
    try:
        assert {s.id for s in store.summaries()} == {"finished-1", "active-1"}
    finally:
        store.close()


# --- links -------------------------------------------------------------------------------


def move_out(path: Path, elsewhere: Path, relative: bool = False) -> Path:
    """Move a data file to `elsewhere` and leave a link to it in its place."""
    elsewhere.mkdir(parents=True, exist_ok=True)
    target = elsewhere / path.name
    path.rename(target)
    path.symlink_to(os.path.relpath(target, path.parent) if relative else target)
    return target


LINKED = ["debrief.json", "active.json", "index.json", "drafts.json", SHARD]


@pytest.mark.parametrize("name", LINKED)
def test_a_data_file_that_is_a_link_stays_a_link_and_the_data_lands_where_it_points(
    tmp_path: Path, name: str
) -> None:
    folder = tmp_path / "data"
    good_folder_with_drafts(folder)
    path = folder / name
    elsewhere = tmp_path / "elsewhere"
    target = move_out(path, elsewhere, relative=name == SHARD)
    before = target.read_bytes()
    store = Store.open(folder)
    try:
        assert [n.message for n in store.notices] == []
        store.add_player("Hanna")
        new_id = store.create_game("spy", SPY, {})["meta"]["id"]
        store.keep_draft("phone", "active-1", {"round": None, "entry": {}})
        store.delete_game("finished-1")
    finally:
        store.close()
    assert path.is_symlink() and path.resolve() == target.resolve()
    assert target.read_bytes() != before, "the change was written where the link points"
    assert [p.name for p in elsewhere.iterdir()] == [target.name], "no temporary file left"
    store = Store.open(folder)
    try:
        assert [n.message for n in store.notices] == []
        assert "Hanna" in [p["name"] for p in store.players()]
        assert {s.id for s in store.active_games()} == {"active-1", new_id}
        assert [s.id for s in store.summaries(deleted=True)] == ["finished-1"]
        assert store.draft("phone", "active-1") == {"round": None, "entry": {}}
        assert store.check()[1] == []
    finally:
        store.close()


def test_a_link_into_the_data_folder_is_set_aside_not_followed(tmp_path: Path) -> None:
    """active.json leading to debrief.json: following it, two files would write over one."""
    folder = tmp_path / "data"
    good_folder(folder)
    active = folder / "active.json"
    active.unlink()
    active.symlink_to("debrief.json")
    store = Store.open(folder)
    try:
        told = [n for n in store.notices if n.code == "DamagedFileKeptAside"]
        assert len(told) == 1 and "another file in the data folder" in told[0].message
        store.create_game("spy", SPY, {})
    finally:
        store.close()
    assert active.is_file() and not active.is_symlink()
    assert "games" not in json.loads((folder / "debrief.json").read_text())  # not written over
    assert is_kind(kept_aside(active)[0], "a link")
    assert_clean_when_opened_again(folder)


def test_two_data_files_linked_to_one_file_the_second_is_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder_with_drafts(folder)
    shared = move_out(folder / "drafts.json", tmp_path / "elsewhere")
    (folder / "undo.json").unlink()
    (folder / "undo.json").symlink_to(shared)
    store = Store.open(folder)
    try:
        told = [n for n in store.notices if n.code == "DamagedFileKeptAside"]
        assert len(told) == 1 and "undo.json" in told[0].message, told
        assert "another data file already leads to" in told[0].message
        store.set_history("phone", "active-1", {"undo": [{"x": 1}], "redo": []})
        store.keep_draft("phone", "active-1", {"round": None, "entry": {}})
    finally:
        store.close()
    assert (folder / "drafts.json").is_symlink() and "histories" not in shared.read_text()
    assert_clean_when_opened_again(folder)


def test_a_link_changed_while_the_data_is_open_is_not_written_through(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    active = folder / "active.json"
    target = move_out(active, tmp_path / "elsewhere")
    before = target.read_bytes()
    victim = tmp_path / "notes.txt"
    victim.write_text("precious")
    store = Store.open(folder)
    try:
        active.unlink()
        active.symlink_to(victim)
        with pytest.raises(StorageError) as refused:
            store.create_game("spy", SPY, {})
        assert "active.json" in refused.value.message and "nothing was saved" in (
            refused.value.message
        )
        assert "Nichts wurde gespeichert" in Translator("de").problem(refused.value)
    finally:
        store.close()
    assert victim.read_text() == "precious" and active.is_symlink()
    assert target.read_bytes() == before


def test_a_link_put_where_the_journal_goes_is_not_written_through(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    victim = tmp_path / "notes.txt"
    victim.write_text("precious")
    store = Store.open(folder)
    try:
        (folder / "journal.json").symlink_to(victim)
        with pytest.raises(StorageError) as refused:
            store.delete_game("finished-1")  # a change to two files: written down first
        assert "journal.json" in refused.value.message
        assert "Nichts wurde gespeichert" in Translator("de").problem(refused.value)
    finally:
        store.close()
    assert victim.read_text() == "precious" and (folder / "journal.json").is_symlink()


def test_a_link_whose_file_went_missing_refuses_the_save(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    active = folder / "active.json"
    target = move_out(active, tmp_path / "elsewhere")
    store = Store.open(folder)
    try:
        target.unlink()  # a drive unplugged, a synced folder emptied
        with pytest.raises(StorageError) as refused:
            store.create_game("spy", SPY, {})
        assert "active.json" in refused.value.message and "nothing was saved" in (
            refused.value.message
        )
        assert "Nichts wurde gespeichert" in Translator("de").problem(refused.value)
    finally:
        store.close()
    assert active.is_symlink() and not target.exists()


def test_a_data_folder_that_is_a_link_keeps_working(tmp_path: Path) -> None:
    real = tmp_path / "real"
    good_folder(real)
    link = tmp_path / "link"
    link.symlink_to(real)
    store = Store.open(link)
    try:
        assert [n.message for n in store.notices] == []
        store.add_player("Hanna")
        store.finish_game("active-1")
    finally:
        store.close()
    assert link.is_symlink()
    store = Store.open(real)
    try:
        assert "Hanna" in [p["name"] for p in store.players()]
        assert {s.id for s in store.summaries()} == {"finished-1", "active-1"}
    finally:
        store.close()
    assert storage_cli(link, "check").returncode == 0


def test_a_data_folder_link_to_nothing_is_refused_and_nothing_is_made_there(
    tmp_path: Path,
) -> None:
    """A link to a drive that is not plugged in: making an empty data folder where it points
    would hide the real one."""
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "drive" / "Debrief")
    with pytest.raises(StorageError) as refused:
        Store.open(link)
    assert str(link) in refused.value.message and "does not exist" in refused.value.message
    assert "existiert nicht" in Translator("de").problem(refused.value)
    done = storage_cli(link, "check")
    assert "Traceback" not in done.stderr and done.returncode == 1, done.stderr
    assert "does not exist" in done.stderr
    assert not (tmp_path / "drive").exists()
