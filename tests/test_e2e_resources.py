"""Resources in the browser: a backup bigger than 16 MiB imports; a full disk
refuses a save in words and keeps what was typed, and the save works once space is free."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from builders import SCENARIOS
from playwright.sync_api import Page
from startup import faults
from ui import OnPhone, chip, open_cards_entry, seat_table, shown

from tools.browser import see, tap

pytestmark = pytest.mark.e2e


def test_a_backup_bigger_than_16_mib_imports_in_the_browser(page: Page, tmp_path: Path) -> None:
    """uvicorn's default websocket limit (16 MiB) dropped such a file without a word, though
    the app's own export of 10,000 games is 35 MB."""
    spy = json.loads((SCENARIOS / "spy-three-players.json").read_text())
    notes = "A long evening. " * 600  # 9,600 characters, under the 10,000 limit
    games = [{**spy, "meta": {"id": f"big-{n}", "notes": notes}} for n in range(2000)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": "debrief-backup/1", "players": [], "games": games}))
    assert path.stat().st_size > 16 * 1024 * 1024
    tap(page, "Settings")
    with page.expect_file_chooser(timeout=30_000) as chooser:
        tap(page, "Import a file")
    chooser.value.set_files(str(path))
    shown(
        page,
        "big.json: adds 2000 games and 3 players; 0 games are already here and are skipped.",
        timeout=120_000,
    )


def test_a_full_disk_refuses_a_save_in_words_and_keeps_the_entry(
    on_phone: OnPhone, tmp_path: Path
) -> None:
    switch = tmp_path / "disk-full"
    env: dict[str, str | None] = {
        "PYTHONPATH": faults(),
        "DEBRIEF_FAULT": "disk-full",
        "DEBRIEF_FAULT_SWITCH": str(switch),
    }
    seat_table(tmp_path / "data", "black-spy", ["Anna", "Ben", "Carla"])
    _, page = on_phone(tmp_path / "data", env=env)  # it opens on the game at the table
    open_cards_entry(page, "Enter deal 1")
    chip(page, "Anna: black Spies: 6")
    switch.write_text("full")
    tap(page, "Save deal")
    see(page, "The disk is full")
    # What was entered is still there (six black Spies) and the entry is still open, as
    # nothing was stored.
    six = page.get_by_role("checkbox", name="Anna: black Spies: 6", exact=True)
    assert six.get_attribute("aria-checked") == "true"
    os.remove(switch)
    tap(page, "Save deal")
    see(page, "Deal 1 saved")
