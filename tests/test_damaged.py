"""One bad record, file or lock stops nothing (issue 9.5): Debrief opens every damaged folder of
tests/damaged.py, keeps aside what is bad, says so once in words, and keeps everything else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from builders import ROOT
from damaged import DAMAGES, damaged_folder

from storage import Store

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
        ids = {s["id"] for s in store.summaries()}
        assert {"finished-1", "active-1"} - KEPT_ASIDE.get(damage, set()) <= ids
        assert [s["id"] for s in store.active_games()] == ["active-1"]
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
        assert [s["id"] for s in store.active_games()] == ["active-1"]
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
