"""Damage nobody is told about: an archive file of the games folder damaged in any of nineteen
ways, NaN inside the drafts or undo files, the temporary file of a write that was cut off, and
the inconsistencies `storage check` must find (a game in two archive files, a game in the
history whose record is missing).

Debrief checks what it opens at start as `check` does: an archive file that is not as Debrief
last wrote it is read then, not only when one of its games is opened. What it finds is said at
once, on the screen the player is on: which games it takes out of the history, where the
damaged file was kept, and what to do (import a backup).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import ROOT
from damaged import edit_json, good_folder
from screens import Table

from storage import Store
from storage.store import shard_of

ARCHIVED = "finished-1"  # the finished SPY game of `good_folder`: Anna, Ben, Carla


@contextlib.contextmanager
def opened(folder: Path) -> Iterator[Store]:
    store = Store.open(folder)
    try:
        yield store
    finally:
        store.close()


def archive_file(folder: Path) -> Path:
    return folder / "games" / f"{shard_of(ARCHIVED)}.json"


def text_of(folder: Path) -> str:
    return archive_file(folder).read_text(encoding="utf-8")


def written(change: Callable[[str], str | bytes]) -> Callable[[Path], None]:
    def damage(folder: Path) -> None:
        path = archive_file(folder)
        new = change(text_of(folder))
        if isinstance(new, bytes):
            path.write_bytes(new)
        else:
            path.write_text(new, encoding="utf-8")

    return damage


def replaced_by(make: Callable[[Path, Path], None]) -> Callable[[Path], None]:
    """The archive file replaced by what `make(path, folder)` puts there."""

    def damage(folder: Path) -> None:
        path = archive_file(folder)
        path.unlink()
        make(path, folder)

    return damage


def with_nan(text: str) -> str:
    data = json.loads(text)
    data["games"][ARCHIVED]["record"]["rounds"][0]["nan"] = float("nan")
    return json.dumps(data)


def record_text(text: str) -> str:
    data = json.loads(text)
    data["games"][ARCHIVED]["record"] = "a record"
    return json.dumps(data)


def document_number(text: str) -> str:
    data = json.loads(text)
    data["games"][ARCHIVED] = 5
    return json.dumps(data)


ARCHIVE_DAMAGES: dict[str, Callable[[Path], None]] = {
    "empty": written(lambda text: ""),
    "garbage": written(lambda text: "\x8f#%\u00a7 not a database at all"),
    "truncated": written(lambda text: text[: len(text) // 2]),
    "bad UTF-8": written(lambda text: text.encode()[:40] + b"\xff\xfe" + text.encode()[40:]),
    "NUL bytes": written(lambda text: text.encode()[:30] + b"\x00" * 64 + text.encode()[94:]),
    "a JSON list": written(lambda text: "[1, 2, 3]"),
    "a JSON number": written(lambda text: "42"),
    "nested deeply": written(lambda text: '{"games": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    "NaN inside": written(with_nan),
    "a table that is a list": written(lambda text: '{"games": [1, 2]}'),
    "a document that is a number": written(document_number),
    "a record that is text": written(record_text),
    "a folder": replaced_by(lambda path, folder: path.mkdir()),
    "a FIFO": replaced_by(lambda path, folder: os.mkfifo(path)),
    "a link to nothing": replaced_by(lambda path, folder: path.symlink_to(folder / "gone.json")),
    "a link to a folder": replaced_by(lambda path, folder: path.symlink_to(folder)),
    "a link to itself": replaced_by(lambda path, folder: path.symlink_to(path)),
    "a link to another data file": replaced_by(
        lambda path, folder: path.symlink_to(folder / "active.json")
    ),
    "a link to a system file": replaced_by(lambda path, folder: path.symlink_to("/etc/hostname")),
}


def names_game(notice: Any, game_id: str) -> bool:
    """Whether a notice names the game (its summary, for the screen to show)."""
    return any(summary.id == game_id for summary in notice.params.get("games", ()))


@pytest.mark.parametrize("damage", sorted(ARCHIVE_DAMAGES))
def test_a_damaged_archive_file_is_found_at_start_and_its_games_are_named(
    tmp_path: Path, damage: str
) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    ARCHIVE_DAMAGES[damage](folder)
    store = Store.open(folder)  # no game opened, no check: as the app starts
    try:
        assert ARCHIVED not in {s.id for s in store.summaries()}, "the history still lists it"
        told = [n for n in store.notices if names_game(n, ARCHIVED)]
        assert told, [n.message for n in store.notices]
        assert "import" in told[0].message and "backup" in told[0].message
        assert [s.id for s in store.active_games()] == ["active-1"]  # the rest is there
        kept = list((folder / "games").glob("*.damaged-*"))
        assert kept, "what was damaged is kept aside"
    finally:
        store.close()
    again = Store.open(folder)
    try:
        assert again.notices == []  # said once
        assert again.check()[1] == []  # what is left is clean
    finally:
        again.close()


@pytest.mark.parametrize("damage", sorted(ARCHIVE_DAMAGES))
def test_the_app_says_which_games_a_damaged_archive_file_took_out(
    screen_tables: Callable[..., Table], tmp_path: Path, damage: str
) -> None:
    """The screen the app opens on says it (here the game at the table: the app reopens
    there), with the game's name, day and players."""
    folder = tmp_path / "data"
    good_folder(folder)
    with opened(folder) as store:
        store.set_setting("last_route", "/game/active-1")
    ARCHIVE_DAMAGES[damage](folder)
    screen = screen_tables(folder).screen()
    screen.see("Scoresheet")  # the game at the table
    screen.see("SPY · 1 Nov 2026 · Anna, Ben, Carla")
    assert any("backup" in text for text in screen.texts()), screen.texts()
    screen.tap("Understood")
    screen.see_not("SPY · 1 Nov 2026 · Anna, Ben, Carla")


def test_an_archive_file_changed_outside_debrief_is_checked_once(tmp_path: Path) -> None:
    """An archive file as Debrief wrote it is not read at start; one changed since is read
    (and is then as Debrief checked it: not read at the next start)."""
    folder = tmp_path / "data"
    good_folder(folder)
    with opened(folder) as store:
        assert store._shards == {}  # nothing read that was as Debrief left it
    edit_json(archive_file(folder), lambda data: data)  # the same games, written by another
    with opened(folder) as store:
        assert store.notices == []
        assert ARCHIVED in {s.id for s in store.summaries()}
    with opened(folder) as store:
        assert store._shards == {}


def test_nan_in_the_drafts_or_undo_file_is_kept_aside_and_said(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    with opened(folder) as store:
        store.keep_draft("phone", "active-1", {"round": None, "entry": {"piles": {}}, "id": "d1"})
        store.set_history("phone", "active-1", {"undo": [{"what": "save"}], "redo": []})
    for name in ("drafts.json", "undo.json"):
        path = folder / name
        path.write_text(path.read_text().replace("{}", '{"pile": NaN}', 1).replace('"save"', "NaN"))
    with opened(folder) as store:
        files = {n.params.get("file") for n in store.notices}
        assert {"drafts.json", "undo.json"} <= files, [n.message for n in store.notices]
        assert store.draft("phone", "active-1") is None
        assert store.history("phone", "active-1") == {"undo": [], "redo": []}


def test_the_temporary_file_of_a_write_cut_off_is_removed_and_said(tmp_path: Path) -> None:
    """A write cut off before its rename leaves its temporary file; nothing Debrief said was
    saved is in it (the rename is what saves), and the player is told the save was cut off."""
    folder = tmp_path / "data"
    good_folder(folder)
    (folder / "active.json.tmp-4242").write_text('{"games": {}')
    with opened(folder) as store:
        assert not (folder / "active.json.tmp-4242").exists()
        assert [n.code for n in store.notices] == ["InterruptedWriteRemoved"]
        assert [s.id for s in store.active_games()] == ["active-1"]


def test_check_finds_a_game_in_two_archive_files(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    other = folder / "games" / f"{(int(shard_of(ARCHIVED)) + 1) % 64:02d}.json"
    other.write_text(text_of(folder))
    with opened(folder) as store:  # found at start, or by the check
        problems = [n.message for n in store.notices] + store.check()[1]
    assert any(ARCHIVED in p and "two" in p for p in problems), problems


def test_check_finds_a_game_in_the_history_whose_record_is_missing(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    with opened(folder) as store:
        summary = store.summary(ARCHIVED)
        moved = summary.row[1:]
    index = json.loads((folder / "index.json").read_text())
    index["summaries"]["all"]["rows"].append(["ghost-1", *moved])
    (folder / "index.json").write_text(json.dumps(index))
    with opened(folder) as store:  # found at start (the notice names it), or by the check
        told = [n for n in store.notices if names_game(n, "ghost-1")]
        problems = store.check()[1]
    assert told or any("ghost-1" in p for p in problems), problems


def test_damage_found_while_the_app_runs_is_said_on_the_screen_the_player_is_on(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    """An archive file damaged after the start is found when one of its games is opened: the
    page says which game it took out and what to do, not only "there is no game"."""
    folder = tmp_path / "data"
    good_folder(folder)
    screen = screen_tables(folder).screen()
    screen.tap("History")
    ARCHIVE_DAMAGES["truncated"](folder)
    screen.tap_starting("SPY · Anna, Ben, Carla")
    screen.see("SPY · 1 Nov 2026 · Anna, Ben, Carla")
    assert any("backup" in text for text in screen.texts()), screen.texts()
    screen.tap("Back")
    assert not screen.find(re.compile("^SPY · Anna"), "button")  # it left the history,
    # with the notice above it
    screen.see("SPY · 1 Nov 2026 · Anna, Ben, Carla")


def test_storage_check_names_the_games_a_damaged_archive_file_took_out(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good_folder(folder)
    ARCHIVE_DAMAGES["garbage"](folder)
    checked = subprocess.run(
        [sys.executable, "-m", "storage", "check", "--data-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert ARCHIVED in checked.stderr and "backup" in checked.stderr
    assert "Traceback" not in checked.stderr


def test_settings_list_the_files_kept_aside_at_an_earlier_start(
    screen_tables: Callable[..., Table], tmp_path: Path
) -> None:
    """A file kept aside stays in the data folder (never read, never removed): said once when
    it happened, and listed in Settings from then on."""
    folder = tmp_path / "data"
    good_folder(folder)
    ARCHIVE_DAMAGES["garbage"](folder)
    Store.open(folder).close()  # found and said: the notice was read at that start
    screen = screen_tables(folder).screen()
    screen.see_not("backup with them")
    screen.tap("Settings")
    screen.see("Kept aside after damage")
    assert any(text.startswith(f"games/{shard_of(ARCHIVED)}.damaged-") for text in screen.texts())
