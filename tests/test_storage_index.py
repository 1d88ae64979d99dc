"""The list of finished games (index.json) in rows, and summaries that cannot be changed:
what a row holds is what was summarised, a row of the wrong kind is never used (the index is
made again from the games), an index written before schema version 7 is read without
playing any game again, and the summaries of games in progress are worked out once per change.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import generators
import pytest
from builders import SCENARIOS
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from storage import Store
from storage import errors as err
from storage import store as store_module
from storage.files import AtomicStorage
from storage.index import Index
from storage.summaries import (
    FACTS,
    GAME,
    HEAD,
    PLAYERS,
    Summary,
    row_problem,
    summaries_of,
    summarize,
)


def scenario(name: str, game_id: str, day: int = 2, ended: bool = True) -> Any:
    record = json.loads((SCENARIOS / f"{name}.json").read_text())
    started, end = f"2026-11-{day:02d}T20:00:00+01:00", f"2026-11-{day:02d}T22:00:00+01:00"
    record["meta"] = {"id": game_id, "started": started, "ended": end if ended else None}
    return record


def finished(game_id: str = "f1") -> Any:
    return scenario("black-spy-basic", game_id)


def a_row() -> list[Any]:
    """A finished Black Spy game's row: four players, one fact (moons) each."""
    return list(summarize(finished()).row)


def records_played(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each record `scoring.replay_until_broken` plays through from now on."""
    played: list[object] = []
    replay_until_broken = scoring.replay_until_broken

    def counted(record: object, **kwargs: Any) -> Any:
        played.append(record)
        return replay_until_broken(record, **kwargs)

    monkeypatch.setattr(scoring, "replay_until_broken", counted)
    return played


# --- a summary keeps what it was made of -----------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_summary_keeps_what_the_game_says(rng: random.Random) -> None:
    record = generators.any_record(rng)
    result, correction = scoring.replay_until_broken(record)
    summary = summarize(record, deleted_at="2026-11-21T20:00:00+00:00")
    names = list(result.table.names)
    assert summary.players == tuple(names) and summary.game == record["game"]
    assert summary.winners == tuple(result.winners) and summary.leaders == tuple(result.leaders)
    assert dict(summary.totals) == {n: scoring.numbers.to_json(result.totals[n]) for n in names}
    assert dict(summary.places) == result.places
    assert {p: dict(f) for p, f in summary.facts.items()} == result.player_facts
    assert summary.rounds == len(record["rounds"]) and summary.finished == result.finished
    assert summary.needs_correction == (correction and correction.round)
    assert summary.deleted_at == "2026-11-21T20:00:00+00:00" and not summary.active
    # Kept as a row (through JSON, as the index file keeps it) or as a JSON object (as a
    # journal keeps it): the same summary comes back.
    assert row_problem(summary.row) is None
    assert Summary.from_row(json.loads(json.dumps(summary.row))) == summary
    assert Summary.from_dict(json.loads(json.dumps(summary.to_dict()))) == summary


def test_a_summary_as_a_json_object_has_the_keys_it_always_had() -> None:
    summary = summarize(finished()).to_dict()
    assert list(summary) == [
        "id",
        "game",
        "players",
        "started",
        "ended",
        "rounds",
        "finished",
        "winners",
        "leaders",
        "totals",
        "places",
        "facts",
        "needs_correction",
        "active",
        "deleted_at",
    ]
    assert summary["facts"]["Carla"] == {"moons": 1}  # she shot the moon once


# --- rows of the wrong kind ------------------------------------------------------------------


def changed(index: int, value: Any) -> list[Any]:
    row = a_row()
    row[index] = value
    return row


BAD_ROWS: dict[str, Any] = {
    "not a list": {"id": "f1"},
    "too short": a_row()[: HEAD - 1],
    "an id that is a number": changed(0, 5),
    "a game Debrief does not know": changed(GAME, "chess"),
    "a start that is a number": changed(2, 20261102),
    "rounds that are true": changed(4, True),
    "finished that is 1": changed(5, 1),
    "a correction that is text": changed(6, "3"),
    "winners that are a list": changed(9, [0]),
    "a negative count of players": changed(PLAYERS, -1),
    "one player more than there are": changed(PLAYERS, 5),
    "one figure more than there are": changed(FACTS, 2),
    "a name that is a number": changed(HEAD, 7),
    "a total that is text": changed(HEAD + 4, "63"),
    "a total that is true": changed(HEAD + 4, True),
    "a total that is not a number": changed(HEAD + 4, math.nan),
    "a total that is infinite": changed(HEAD + 4, math.inf),
    "a place that is a fraction": changed(HEAD + 8, 1.5),
    "a figure's name that is a number": changed(HEAD + 12, 1),
    "a figure that is a list": changed(HEAD + 13, [1]),
    "a figure missing": a_row()[:-1],
    "a row nested in it": changed(HEAD, a_row()),
}


@pytest.mark.parametrize("name", list(BAD_ROWS))
def test_a_row_of_the_wrong_kind_is_no_summary(name: str) -> None:
    row = BAD_ROWS[name]
    assert row_problem(row) is not None
    assert Summary.from_row(row) is None
    found, valid = summaries_of([a_row(), row])
    assert not valid and list(found) == ["f1"]


@pytest.mark.parametrize(
    "change",
    [
        lambda row: row.__setitem__(PLAYERS, 3),  # counts that do not fit its length
        lambda row: row.__setitem__(FACTS, 0),
        lambda row: row.__setitem__(GAME, "chess"),
        lambda row: row.__setitem__(HEAD + 4, math.inf),
    ],
)
def test_rows_of_one_shape_are_each_checked(change: Any) -> None:
    """`summaries_of` checks a row whose fields are of the same kinds as one checked before
    for what the kinds cannot tell: its counts, its game, its totals being numbers."""
    good = a_row()
    good[HEAD + 4] = 12.5  # a float total (Going Back halves), so the shape has one
    bad = list(good)
    bad[0] = "f2"
    change(bad)
    assert [type(v) for v in bad] == [type(v) for v in good]
    assert row_problem(good) is None and row_problem(bad) is not None
    found, valid = summaries_of([good, bad])
    assert not valid and list(found) == ["f1"]


def test_two_rows_of_one_game_are_no_index() -> None:
    assert summaries_of([a_row(), a_row()]) == ({"f1": Summary(a_row())}, False)


# --- the index file --------------------------------------------------------------------------


def good_store(folder: Path) -> list[Summary]:
    store = Store.open(folder)
    try:
        store.add_games([finished("f1"), scenario("spy-three-players", "f2", day=3)])
        store.add_games([scenario("black-spy-basic", "a1", day=4, ended=False)])
        return store.summaries()
    finally:
        store.close()


def index_text(*rows: list[Any]) -> str:
    return json.dumps({"summaries": {"all": {"rows": list(rows)}}})


SENTINEL = 4242  # a total, written otherwise below


HOSTILE_INDEXES: dict[str, str] = {
    "a row of the wrong kind": index_text(changed(PLAYERS, 5)),
    "rows that are not a list": json.dumps({"summaries": {"all": {"rows": {"f1": a_row()}}}}),
    "no rows": json.dumps({"summaries": {"all": {}}}),
    "a total too big for a number": index_text(changed(HEAD + 1, SENTINEL)).replace(
        str(SENTINEL), "1e999"
    ),
    "a total that is NaN": index_text(changed(HEAD + 1, SENTINEL)).replace(str(SENTINEL), "NaN"),
    "a number of 5,000 digits": index_text(changed(HEAD + 1, SENTINEL)).replace(
        str(SENTINEL), "9" * 5000
    ),
    "nested 100,000 deep": '{"summaries": {"all": {"rows": '
    + "[" * 100_000
    + "]" * 100_000
    + "}}}",
    "a table that is not an index": json.dumps({"players": {}}),
    "the old layout, a summary without its facts": json.dumps(
        {"games": {"f1": {**summarize(finished()).to_dict(), "facts": None}}}
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE_INDEXES))
def test_an_index_that_is_not_one_is_made_again_from_the_games(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "data"
    before = good_store(folder)
    (folder / "index.json").write_text(HOSTILE_INDEXES[name], encoding="utf-8")
    store = Store.open(folder)
    try:
        assert "IndexRebuilt" in [n.code for n in store.notices]
        assert store.summaries() == before
    finally:
        store.close()
    store = Store.open(folder)  # written anew, in rows: not made again
    try:
        assert store.notices == [] and store.summaries() == before
    finally:
        store.close()


def test_an_index_written_before_version_7_is_read_without_playing_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Version 6 kept one TinyDB document per summary: the summaries are read as they are
    (checked, none made again) and written in rows."""
    folder = tmp_path / "data"
    before = good_store(folder)
    index = json.loads((folder / "index.json").read_text())
    old = {game_id: summary.to_dict() for game_id, summary in rows_of(index).items()}
    (folder / "index.json").write_text(json.dumps({"games": old}), encoding="utf-8")
    debrief = json.loads((folder / "debrief.json").read_text())
    debrief["meta"]["schema"]["version"] = 6
    (folder / "debrief.json").write_text(json.dumps(debrief), encoding="utf-8")
    played = records_played(monkeypatch)
    store = Store.open(folder)
    try:
        assert store.schema_version == store_module.SCHEMA_VERSION == 8
        assert store.notices == [] and store.summaries() == before
        # Only the game in progress is played through (checked at start-up, as always).
        assert [record["meta"]["id"] for record in played] == ["a1"]  # type: ignore[index]
    finally:
        store.close()
    written = json.loads((folder / "index.json").read_text())
    assert list(written) == ["summaries"]
    assert sorted(row[0] for row in written["summaries"]["all"]["rows"]) == ["f1", "f2"]


def rows_of(data: dict[str, Any]) -> dict[str, Summary]:
    found, valid = summaries_of(data["summaries"]["all"]["rows"])
    assert valid
    return found


def test_a_failed_write_changes_nothing_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = Index(AtomicStorage(tmp_path / "index.json"))
    index.put("f1", summarize(finished()))

    def full(self: AtomicStorage, data: object) -> None:
        raise err.DiskFull(folder=str(tmp_path))

    monkeypatch.setattr(AtomicStorage, "write", full)
    with pytest.raises(err.DiskFull):
        index.put("f2", summarize(finished("f2")))
    with pytest.raises(err.DiskFull):
        index.remove_ids(["f1"])
    assert index.ids() == ["f1"] and [s.id for s in index.newest_first()] == ["f1"]
    monkeypatch.undo()
    assert Index(AtomicStorage(tmp_path / "index.json")).ids() == ["f1"]


def test_a_summary_is_listed_under_the_id_its_game_is_stored_under(tmp_path: Path) -> None:
    index = Index(AtomicStorage(tmp_path / "index.json"))
    index.put("stored-id", summarize(finished("another-id")))
    assert index.get("stored-id").id == "stored-id"  # type: ignore[union-attr]
    assert Index(AtomicStorage(tmp_path / "index.json")).ids() == ["stored-id"]


# --- games in progress -----------------------------------------------------------------------


def test_games_in_progress_are_summarised_once_per_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data"
    good_store(folder)
    played = records_played(monkeypatch)
    store = Store.open(folder)
    try:
        assert len(played) == 1  # the game in progress, checked at start-up
        store.game_at("a1")  # opened at the table: the start-up's replay, kept
        assert len(played) == 1
        first = store.summaries()
        assert store.active_games() == [s for s in first if s.active]
        assert store.summaries() == first and store.summary("a1") in first
        assert len(played) == 1  # its summary made from that replay, once
        store.set_notes("a1", "Friday")
        assert len(played) == 1  # not looked at yet
        assert [s.id for s in store.active_games()] == ["a1"]
        assert len(played) == 1  # summarised again from the change's own replay, kept
        store.delete_game("a1")
        assert [s.id for s in store.summaries(deleted=True)] == ["a1"]
        assert store.summaries(deleted=True)[0].deleted_at is not None
        assert store.active_games() == []
        store.restore_game("a1")
        assert store.summary("a1").deleted_at is None
    finally:
        store.close()


def test_the_replays_kept_are_the_games_at_the_table_and_the_last_finished_ones_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A history browsed game by game keeps the replays of the last finished games opened, not
    all 20 (it kept every one, for the life of the app); a game at the table stays kept
    however many finished games were opened after it."""
    store = Store.open(tmp_path / "data")
    try:
        names = [{"name": "Anna"}, {"name": "Ben"}]
        options = {"first_player": "Anna"}
        table = store.create_game("kompromat", names, options)["meta"]["id"]
        finished = []
        for _ in range(20):
            game_id = store.create_game("kompromat", names, options)["meta"]["id"]
            store.finish_game(game_id)
            finished.append(game_id)
        store.game_at(table)
        played = records_played(monkeypatch)
        for game_id in finished:
            store.game_at(game_id)
        assert len(played) == len(finished)
        store.game_at(table)
        store.game_at(finished[-1])  # the last ones opened are kept
        assert len(played) == len(finished)
        store.game_at(finished[0])  # the first one was let go
        assert len(played) == len(finished) + 1
    finally:
        store.close()
