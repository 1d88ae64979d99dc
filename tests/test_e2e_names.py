"""Names with emoji, in Chromium: a flag of tag characters typed into New game's
name field is a player, kept through an export and an import into another data folder; a
variation selector typed after a letter is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from ui import exported_everything, shown, start_game

from storage import Store
from tools.browser import AppServer, open_app, see, tap, type_text

pytestmark = pytest.mark.e2e

SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
AILSA = f"{SCOTLAND} Ailsa"
HEART_MO = "\u2764\ufe0f Mo"  # ❤️: the heart keeps its selector


def test_a_flag_typed_as_a_name_is_saved_exported_imported_and_shown(
    browser: Browser, app: AppServer, page: Page, tmp_path: Path
) -> None:
    # Typed as a keyboard's emoji picker puts it into the field: one flag, seven code points;
    # "Kim" with a stray selector (after a letter) is seated as Kim.
    start_game(page, "SPY", [AILSA, HEART_MO])
    type_text(page, "New player", "Kim\ufe0f", submit=True)
    page.get_by_role("button", name="Move Kim up").wait_for(timeout=15_000)
    tap(page, "Start SPY")
    shown(page, "Bases")
    tap(page, "Back")
    see(page, f"SPY · {AILSA}, {HEART_MO}, Kim")  # saved: the game is at the table
    tap(page, "Settings")
    backup_file, exported = exported_everything(page, tmp_path)
    [game] = exported["games"]
    assert [p["name"] for p in game["players"]] == [AILSA, HEART_MO, "Kim"]
    assert sorted(p["name"] for p in exported["players"]) == sorted([AILSA, HEART_MO, "Kim"])

    fresh_app = AppServer(tmp_path / "fresh").start()
    try:
        fresh = open_app(browser, fresh_app.url)
        tap(fresh, "Settings")
        with fresh.expect_file_chooser(timeout=30_000) as chooser:
            tap(fresh, "Import a file")
        chooser.value.set_files(str(backup_file))
        tap(fresh, "Import")
        see(fresh, "Imported 1 games")
        tap(fresh, "Back")
        tap(fresh, "Players")
        shown(fresh, AILSA)
        shown(fresh, HEART_MO)
        shown(fresh, "Kim")
        fresh.close()
    finally:
        fresh_app.stop()
    store = Store.open(tmp_path / "fresh")
    try:
        assert {p["name"] for p in store.players()} == {AILSA, HEART_MO, "Kim"}
        [record] = store.all_records()
        assert [p["name"] for p in record["players"]] == [AILSA, HEART_MO, "Kim"]
    finally:
        store.close()
