"""A game's end is when its last round was saved: the time spent looking at the result, or
before the host taps Finish, is not the game's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import SCENARIOS

import storage.store
from storage import Store
from views.app import round_name_of
from views.state import HOST, AppState


def test_a_game_finished_later_ends_at_its_last_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((SCENARIOS / "kompromat-short-final-round-cards.json").read_text())
    store = Store.open(tmp_path / "data")
    try:
        # A clock that moves on ten minutes at each reading.
        times = (f"2026-11-27T{20 + m // 60}:{m % 60:02d}:00+01:00" for m in range(0, 600, 10))
        monkeypatch.setattr(storage.store, "now", lambda: next(times))
        game = store.create_game("kompromat", record["players"], record["options"])
        game_id = str(game["meta"]["id"])
        for played in record["rounds"]:
            store.append_round(game_id, played)
        last_round = store.changed_at(game_id)  # the game's end: its last round saved
        state = AppState.load(
            store, "/", device="host", tab="tab", role=HOST, round_name_of=round_name_of
        )
        state.game_at(game_id)  # the screen that shows it, as it is now
        state.finish(game_id)  # later, after looking at the result a while
        assert last_round is not None
        assert state.ended_at(game_id) == last_round
    finally:
        store.close()
