"""storage.Store: the repository API, validation before every write, damage and recovery."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import generators
import pytest
from builders import ROOT, SCENARIOS
from tinydb.table import Document

import scoring
from storage import Store, backup, data_directory
from storage import errors as err
from storage import store as store_module
from storage.store import shard_of
from storage.summaries import summarize

SPY_PLAYERS = [{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}]


def index_as_before_version_7(folder: Path, summaries: dict[str, dict[str, Any]]) -> None:
    """Write the index as Debrief did up to schema version 6: a TinyDB table ``games``, one
    document per summary (a JSON object)."""
    (folder / "index.json").write_text(json.dumps({"games": summaries}), encoding="utf-8")


def target(by: str, base: str) -> dict[str, Any]:
    return {"event": "target", "by": by, "base": base}


def files_of(folder: Path) -> dict[str, bytes]:
    """Every data file's content (to show that something did not change)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


# --- where the data lives ------------------------------------------------------------------


def test_data_directory_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DEBRIEF_DATA_DIR", str(tmp_path / "a"))
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "b"))
    assert data_directory() == tmp_path / "a"
    assert data_directory(tmp_path / "c") == tmp_path / "c"
    monkeypatch.delenv("DEBRIEF_DATA_DIR")
    assert data_directory() == tmp_path / "b"
    monkeypatch.delenv("FLET_APP_STORAGE_DATA")
    assert "debrief" in str(data_directory()).lower()


def test_folder_is_created_on_first_use(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "data"
    store = Store.open(folder)
    try:
        assert (folder / "debrief.json").exists()
        assert store.schema_version == store_module.SCHEMA_VERSION
        assert Store.open(folder) is store  # one instance per folder in a process
    finally:
        store.close()


# --- games ---------------------------------------------------------------------------------


def test_a_game_from_start_to_history(store: Store) -> None:
    record = store.create_game("spy", SPY_PLAYERS, {}, notes="Friday")
    game_id = record["meta"]["id"]
    assert store.active_games()[0].id == game_id
    for base in ["Ben"] * 4 + ["Carla"] * 4:
        result = store.append_round(game_id, target("Anna", base))
    assert result.finished and result.winners == ["Anna"]
    assert store.active_games()[0].winners == ("Anna",)
    store.finish_game(game_id)
    assert store.active_games() == []
    [summary] = store.summaries()
    assert summary.id == game_id and summary.rounds == 8 and not summary.active
    assert summary.winners == ("Anna",) and summary.ended is not None
    assert store.load_game(game_id)["meta"]["notes"] == "Friday"


def test_edit_and_undo_rounds(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.append_round(game_id, target("Anna", "Ben"))
    store.append_round(game_id, target("Anna", "Ben"))
    result = store.replace_round(game_id, 0, target("Ben", "Carla"))
    assert result.standings()["next_target"] == {
        "Anna": "safe-1",
        "Ben": "safe-2",
        "Carla": "safe-2",
    }
    assert store.remove_last_round(game_id).standings()["next_target"]["Ben"] == "safe-1"
    store.remove_last_round(game_id)
    with pytest.raises(err.NoSuchRound):
        store.remove_last_round(game_id)
    with pytest.raises(err.NoSuchRound):
        store.replace_round(game_id, 3, target("Anna", "Ben"))


def test_nothing_invalid_is_stored(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.append_round(game_id, target("Anna", "Ben"))
    before = files_of(store.folder)
    with pytest.raises(scoring.InvalidRecord) as caught:
        store.append_round(game_id, target("Anna", "Anna"))
    assert caught.value.errors[0].path == "rounds[1].base"
    with pytest.raises(scoring.InvalidRecord):
        store.create_game("spy", [{"name": "Solo"}], {})
    with pytest.raises(scoring.InvalidRecord):
        store.replace_round(game_id, 0, {"event": "boom", "by": "Anna", "base": "Ben"})
    assert files_of(store.folder) == before
    assert len(store.load_game(game_id)["rounds"]) == 1


def test_an_edit_that_breaks_a_later_round_is_refused_with_the_reason(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.append_round(game_id, {"event": "bomb-lit", "by": "Anna", "base": "Ben"})
    store.append_round(game_id, {"event": "bomb-exploded", "by": "Carla", "base": "Ben"})
    store.append_round(game_id, target("Anna", "Ben"))
    with pytest.raises(scoring.InvalidRecord) as caught:  # without a lit bomb, no explosion
        store.replace_round(game_id, 0, target("Anna", "Ben"))
    assert [(e.code, e.path) for e in caught.value.errors] == [("NoLitBomb", "rounds[1].base")]
    assert store.load_game(game_id)["rounds"][0]["event"] == "bomb-lit"


def test_loaded_records_are_copies(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.load_game(game_id)["rounds"].append("garbage")
    assert store.load_game(game_id)["rounds"] == []
    # The game kept after a save is handed out too: a change deep inside it stays there.
    store.append_round(game_id, target("Anna", "Ben"))
    store.game_at(game_id).record["rounds"][0]["by"] = "garbage"
    assert store.load_game(game_id)["rounds"] == [target("Anna", "Ben")]


def test_edits_to_finished_games_update_the_history(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.append_round(game_id, target("Anna", "Ben"))
    store.finish_game(game_id)
    store.append_round(game_id, target("Anna", "Ben"))
    assert store.summaries()[0].rounds == 2
    store.reopen_game(game_id)
    assert store.is_active(game_id) and store.summaries()[0].active
    with pytest.raises(err.GameNotFinished):
        store.reopen_game(game_id)
    store.finish_game(game_id)
    with pytest.raises(err.GameNotActive):
        store.finish_game(game_id)


def test_delete_and_restore(store: Store) -> None:
    active = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    done = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.finish_game(done)
    for game_id in (active, done):
        store.delete_game(game_id)
    assert store.summaries() == [] and store.active_games() == []
    assert {s.id for s in store.summaries(deleted=True)} == {active, done}
    store.restore_game(done)
    assert [s.id for s in store.summaries()] == [done]
    with pytest.raises(err.GameNotFound):
        store.load_game("nope")


def test_summaries_newest_first_and_filters(store: Store) -> None:
    first = store.create_game("spy", SPY_PLAYERS, {}, started="2026-01-01T20:00:00+01:00")
    second = store.create_game(
        "kompromat",
        [{"name": "anna"}, {"name": "Dirk"}],
        {"first_player": "Dirk"},
        started="2026-02-01T20:00:00+01:00",
    )
    store.finish_game(first["meta"]["id"])
    ids = [s.id for s in store.summaries()]
    assert ids == [second["meta"]["id"], first["meta"]["id"]]
    assert [s.id for s in store.summaries(game="spy")] == [first["meta"]["id"]]
    assert len(store.summaries(player="ANNA")) == 2
    assert [s.id for s in store.summaries(player="Dirk")] == [second["meta"]["id"]]


def test_recording_a_round_does_not_rewrite_the_history(store: Store) -> None:
    rng = random.Random(7)
    history = [generators.black_spy_record(rng) for _ in range(30)]
    for index, record in enumerate(history):
        record["meta"] = {"id": f"old-{index}", "ended": "2026-01-01T22:00:00+00:00"}
    store.add_games(history)
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    before = {k: v for k, v in files_of(store.folder).items() if k != "active.json"}
    store.append_round(game_id, target("Anna", "Ben"))
    after = {k: v for k, v in files_of(store.folder).items() if k != "active.json"}
    assert after == before


# --- players and settings ------------------------------------------------------------------


def test_roster(store: Store) -> None:
    anna = store.add_player("  Anna ", "1988-03-14")
    assert anna["name"] == "Anna" and anna["born"] == "1988-03-14"
    ben = store.add_player("Ben")
    with pytest.raises(err.PlayerNameTaken):
        store.add_player("anna")
    with pytest.raises(err.InvalidPlayer) as caught:
        store.add_player("   ")
    assert caught.value.message == "a player needs a name"
    with pytest.raises(err.InvalidPlayer):
        store.set_player_birth(ben["id"], "31.02.1990")
    store.set_player_birth(ben["id"], "1990")
    store.rename_player(anna["id"], "Anne")
    with pytest.raises(err.PlayerNameTaken):
        store.rename_player(ben["id"], "ANNE")
    store.archive_player(ben["id"])
    assert [p["name"] for p in store.players()] == ["Anne"]
    everyone = store.players(include_archived=True)
    assert [(p["name"], p["born"], p["archived"]) for p in everyone] == [
        ("Anne", "1988-03-14", False),
        ("Ben", "1990", True),
    ]
    assert everyone[0]["former_names"] == ["Anna"]


def test_a_game_keeps_the_names_it_was_played_with(store: Store) -> None:
    anna = store.add_player("Anna")
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    store.rename_player(anna["id"], "Anne")
    assert store.load_game(game_id)["players"][0]["name"] == "Anna"


def test_settings(store: Store) -> None:
    assert store.setting("language", "system") == "system"
    store.set_setting("language", "de")
    store.set_setting("language", "en")
    assert store.setting("language") == "en"


# --- damage, locks, recovery, schema -------------------------------------------------------


def reopen(store: Store) -> Store:
    folder = store.folder
    store.close()
    return Store.open(folder)


def test_a_damaged_file_is_kept_aside_and_reported(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    store.add_player("Anna")
    store.create_game("spy", SPY_PLAYERS, {})
    store.close()
    (folder / "active.json").write_text('{"games": {"x": ')  # cut off mid-write by hand
    store = Store.open(folder)
    try:
        [notice] = store.notices
        assert (
            isinstance(notice, err.DamagedFileKeptAside) and notice.params["file"] == "active.json"
        )
        kept = folder / str(notice.params["kept_as"])
        assert kept.read_text() == '{"games": {"x": '
        assert kept.name.startswith("active.damaged-")
        assert store.active_games() == [] and [p["name"] for p in store.players()] == ["Anna"]
        store.create_game("spy", SPY_PLAYERS, {})  # the app still works
    finally:
        store.close()


def test_a_damaged_index_is_rebuilt_from_the_games(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    store.add_games([{**scenario("spywhere-four-players"), "meta": {"id": "s1"}}])
    store.close()
    (folder / "index.json").write_bytes(b"\x00\xff garbage")
    store = Store.open(folder)
    try:
        assert [n.code for n in store.notices] == ["DamagedFileKeptAside", "IndexRebuilt"]
        assert [s.id for s in store.summaries()] == ["s1"]
    finally:
        store.close()


def test_a_second_instance_is_refused(store: Store) -> None:
    script = (
        "import sys; from storage import Store, errors\n"
        "try:\n    Store.open(sys.argv[1])\nexcept errors.DataDirectoryInUse as e:\n"
        "    print(e.message); sys.exit(3)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(store.folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 3 and "already open" in done.stdout
    folder = store.folder
    store.close()
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    Store.open(folder)  # for the fixture's close


def test_an_interrupted_finish_is_completed_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    # What finish_game does, stopped after the archive file was written:
    store._begin("finish", [game_id])
    record = store.load_game(game_id)
    record["meta"]["ended"] = "2026-11-21T23:00:00+01:00"
    archived = {"record": record, "deleted_at": None, "revision": store.revision(game_id) + 1}
    store._shard(shard_of(game_id)).put(game_id, archived)  # one revision past the game's
    store.close()
    store = Store.open(folder)
    try:
        assert [n.code for n in store.notices] == ["InterruptedWorkCompleted"]
        assert store.active_games() == [] and [s.id for s in store.summaries()] == [game_id]
        assert not (folder / "journal.json").exists()
    finally:
        store.close()


def test_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    Store.open(folder).close()
    (folder / "active.json.tmp-12345").write_text("half")
    Store.open(folder).close()
    assert not (folder / "active.json.tmp-12345").exists()


def test_newer_data_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    store._main.table("meta").update({"version": 99}, doc_ids=["schema"])
    store.close()
    with pytest.raises(err.NewerData):
        Store.open(folder)


def test_migrations_run_in_order_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    store._main.table("meta").update({"version": 1}, doc_ids=["schema"])
    store.close()
    ran: list[int] = []
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 3)
    monkeypatch.setattr(
        store_module, "MIGRATIONS", {1: lambda s: ran.append(1), 2: lambda s: ran.append(2)}
    )
    store = Store.open(folder)
    try:
        assert ran == [1, 2] and store.schema_version == 3
    finally:
        store.close()
    Store.open(folder).close()
    assert ran == [1, 2]  # not again


def test_check_finds_invalid_records_and_a_stale_index(store: Store) -> None:
    store.add_games([{**scenario("spy-three-players"), "meta": {"id": "g1", "ended": None}}])
    store.add_games([{**scenario("spywhere-four-players"), "meta": {"id": "g2"}}])
    assert store.check() == (2, [])
    shard = store._shard(shard_of("g2"))
    broken = shard.get(doc_id="g2")["record"]
    broken["rounds"][0]["own_cards"]["Anna"] = 99
    shard.put("g2", {"record": broken, "deleted_at": None})
    store._index.remove_ids(["g2"])
    count, problems = store.check()
    assert count == 2
    assert problems == [
        "g2: finished but missing from the index",
        "g2: rounds[0].own_cards.Anna: 99 is more than 18 cards of their own nationality",
    ]


def test_writes_are_atomic_files(store: Store) -> None:
    store.create_game("spy", SPY_PLAYERS, {})
    inode = os.stat(store.folder / "active.json").st_ino
    store.create_game("spy", SPY_PLAYERS, {})
    assert os.stat(store.folder / "active.json").st_ino != inode  # replaced, not rewritten
    assert not list(store.folder.glob("*.tmp-*"))


def test_remove_any_round_and_put_a_record_back(store: Store) -> None:
    game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
    for base in ("Ben", "Carla", "Ben"):
        store.append_round(game_id, target("Anna", base))
    before = store.load_game(game_id)
    store.remove_round(game_id, 1)
    assert [r["base"] for r in store.load_game(game_id)["rounds"]] == ["Ben", "Ben"]
    with pytest.raises(err.NoSuchRound):
        store.remove_round(game_id, 5)
    store.set_record(game_id, before)
    assert store.load_game(game_id) == before
    broken = {**before, "rounds": [target("Anna", "Anna")]}
    with pytest.raises(scoring.InvalidRecord):
        store.set_record(game_id, broken)
    assert store.load_game(game_id) == before


def test_migration_to_version_2_adds_player_facts_to_summaries(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    store.add_games([{**scenario("spywhere-four-players"), "meta": {"id": "s1"}}])
    # Make it look like version 1 data: no facts in the summaries.
    store._main.table("meta").update({"version": 1}, doc_ids=["schema"])
    summary = store.summary("s1").to_dict()
    del summary["facts"]
    store.close()
    index_as_before_version_7(folder, {"s1": summary})
    store = Store.open(folder)
    try:
        assert store.schema_version == store_module.SCHEMA_VERSION and store.notices == []
        assert store.summaries()[0].facts["Anna"] == {"correct": 2}
    finally:
        store.close()


# --- games stored before a stricter rule ---------------------------------------------------


def stale_kompromat() -> dict[str, Any]:
    """Stored by an older Debrief: Anna's mission 4 left empty while she still had cards
    (today's rules refuse it)."""
    record = scenario("kompromat-first-round")
    record["rounds"][0]["missions"][3]["plays"]["Anna"] = []
    record["meta"] = {"id": "k1", "started": "2026-11-01T20:00:00+01:00", "ended": None}
    return record


def stale_spywhere() -> dict[str, Any]:
    """A finished game where Anna named Spain against two opponents."""
    record = scenario("spywhere-four-players")
    guesses = record["rounds"][0]["identifications"]["Anna"]
    first, second = list(guesses)[:2]
    guesses[second] = list(guesses[first])
    record["meta"] = {"id": "s1", "started": "2026-11-02T20:00:00+01:00", "ended": None}
    return record


def stored_by_version_2(folder: Path, active: list[dict], finished: list[dict]) -> None:
    """Write records the way schema version 2 stored them, without today's validation."""
    store = Store.open(folder)
    index: dict[str, dict[str, Any]] = {}
    for record in active:
        store._active.put(record["meta"]["id"], {"record": record, "deleted_at": None})
    for record in finished:
        game_id = record["meta"]["id"]
        record["meta"]["ended"] = "2026-11-02T22:00:00+01:00"
        doc = {"record": record, "deleted_at": None}
        store._shard(shard_of(game_id)).put(game_id, doc)
        summary = {"id": game_id, "game": record["game"], "players": [], "finished": True}
        index[game_id] = {**summary, "active": False, "deleted_at": None}
    store._main.table("meta").update({"version": 2}, doc_ids=["schema"])
    store.close()
    index_as_before_version_7(folder, index)


def test_games_that_break_a_new_rule_are_kept_and_marked_for_correction(tmp_path: Path) -> None:
    """At start-up, stored games that break a rule added since are reported once by
    game and reason, kept as they are, marked "needs a correction" (opening at the offending
    round), and count in no statistics until fixed."""
    folder = tmp_path / "data"
    good = {**scenario("spywhere-four-players"), "meta": {"id": "good"}}
    store = Store.open(folder)
    store.add_games([good])
    store.close()
    stored_by_version_2(folder, [stale_kompromat()], [stale_spywhere()])

    store = Store.open(folder)
    try:
        reported = [n for n in store.notices if n.code == "GameNeedsCorrection"]
        assert sorted((n.params["game_id"], n.params["round"]) for n in reported) == [
            ("k1", 1),
            ("s1", 1),
        ]
        kompromat_notice = next(n for n in reported if n.params["game_id"] == "k1")
        assert "Anna played no cards on mission 4 of round 1" in kompromat_notice.message
        assert store.load_game("k1") == stale_kompromat()  # kept exactly as it was
        assert store.summary("k1").needs_correction == 0
        assert store.summary("s1").needs_correction == 0
        assert store.summary("good").needs_correction is None
        assert [s.id for s in store.active_games()] == ["k1"]
        from scoring.stats import player_stats

        assert player_stats(store.summaries(), ["Anna"])["spywhere"].games == 1  # not s1
    finally:
        store.close()
    store = Store.open(folder)
    try:
        assert not [n for n in store.notices if n.code == "GameNeedsCorrection"]  # once
        still_invalid = stale_kompromat()["rounds"][0]
        still_invalid["missions"][3]["alarm"] = 1  # changed, but Anna's mission 4 still empty
        with pytest.raises(scoring.InvalidRecord):
            store.replace_round("k1", 0, still_invalid)
        fixed = scenario("kompromat-first-round")["rounds"][0]
        store.replace_round("k1", 0, fixed)
        assert store.summary("k1").needs_correction is None
        assert store.load_game("k1")["rounds"][0] == fixed
    finally:
        store.close()


# --- a damaged archive file -----------------------------------------------------------------


def test_a_damaged_archive_file_is_kept_aside_once_and_its_games_can_come_back(
    tmp_path: Path,
) -> None:
    """Its kept-aside copy must not be taken for an archive file again (the name grew at every
    open until "File name too long"), and re-importing its games must work."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    records = [
        {**scenario("spywhere-four-players"), "meta": {"id": f"g{n}", "ended": "2026-11-20"}}
        for n in range(40)
    ]
    store.add_games(records)
    shard = shard_of("g0")
    lost = [r for r in records if shard_of(r["meta"]["id"]) == shard]
    store.close()
    (folder / "games" / f"{shard}.json").write_text("{ not json")
    for _ in range(12):
        store = Store.open(folder)
        try:
            count, _ = store.check()  # reads every archive file
            assert count == len(records) - len(lost)
            store.summaries()
        finally:
            store.close()
        kept = sorted(p.name for p in (folder / "games").glob(f"{shard}.damaged-*"))
        assert len(kept) == 1 and kept[0].count("damaged") == 1, kept
    store = Store.open(folder)
    try:
        ids = {s.id for s in store.summaries()}
        assert not ids & {r["meta"]["id"] for r in lost}  # not listed as if still there
        assert store.add_games(lost) == len(lost)  # they can come back
        assert {s.id for s in store.summaries()} >= {r["meta"]["id"] for r in lost}
        assert store.check() == (len(records), [])
    finally:
        store.close()


# --- input that passes validation and then crashes the write ---------------------------------


def test_a_lone_surrogate_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """ "\\ud800" cannot be written as UTF-8: refused with its place, nothing half-written."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    try:
        game_id = store.create_game("spy", SPY_PLAYERS, {})["meta"]["id"]
        before = files_of(folder)
        with pytest.raises(err.InvalidPlayer):
            store.add_player("An\ud800na")
        with pytest.raises(scoring.InvalidRecord) as refused:
            store.set_notes(game_id, "good game \ud800")
        assert refused.value.errors[0].path == "meta.notes"
        with pytest.raises(scoring.InvalidRecord):
            store.create_game("spy", [{"name": "Z\ud800"}, *SPY_PLAYERS[1:]], {})
        record = {**scenario("spy-three-players"), "meta": {"id": "s1", "notes": "\udfff"}}
        plan = backup.plan_import(
            store,
            {
                "format": "debrief-backup/1",
                "players": [
                    {"name": "Bad\ud800", "born": None, "archived": False, "former_names": []}
                ],
                "games": [record],
            },
            "file",
        )
        assert [e.path for e in plan.errors] == ["players[0].name", "games[0].meta.notes"]
        assert files_of(folder) == before and not (folder / "journal.json").exists()
    finally:
        store.close()


def test_player_entries_of_a_backup_are_validated_like_a_record(store: Store) -> None:
    """former_names stored as "None" or 100,000 characters, "archived": "false" archiving,
    and a former name claiming another player's games were all let in."""
    store.add_player("Anna")

    def problems_of(player: dict[str, Any]) -> list[tuple[str, str]]:
        entry = {"name": "Ben", "born": None, "archived": False, "former_names": [], **player}
        document = {"format": "debrief-backup/1", "players": [entry], "games": []}
        return [(e.code, e.path) for e in backup.plan_import(store, document, "file").errors]

    assert problems_of({"former_names": None}) == [("NotAList", "players[0].former_names")]
    assert problems_of({"former_names": ["x" * 100_000]}) == [
        ("NameTooLong", "players[0].former_names[0]")
    ]
    assert problems_of({"archived": "false"}) == [("NotTrueOrFalse", "players[0].archived")]
    assert problems_of({"former_names": ["anna"]}) == [
        ("NameOfAnotherPlayer", "players[0].former_names[0]")
    ]
    assert problems_of({"born": "yesterday"}) == [("BadDate", "players[0].born")]
    assert problems_of({"colour": "red"}) == [("UnknownKeyDidYouMean", "players[0].colour")]
    assert problems_of({"color": "chartreuse"}) == [("NotOneOf", "players[0].color")]
    assert problems_of({"color": "sky"}) == []
    assert problems_of({}) == []


# --- CSV exports and formula injection --------------------------------------------------------


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised_scores_stay_numbers() -> None:
    """OWASP: a cell starting with = + - @ tab or carriage return is prefixed with a quote."""
    import csv
    import io

    names = ['=HYPERLINK("http://evil.example","x")', "+1", "-1"]
    record = {
        **scenario("spy-three-players"),
        "players": [{"name": n} for n in names],
        "rounds": [{"event": "target", "by": "+1", "base": "-1"}],
        "meta": {"id": "=cmd|' /C calc'!A0", "started": None, "ended": None, "notes": "@SUM(A1)"},
    }
    summary = summarize(record, active=True)
    history = list(csv.reader(io.StringIO(backup.csv_of_history([summary]))))
    game = list(csv.reader(io.StringIO(backup.csv_of_game(record))))
    for row in history[1:] + game:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            if cell.startswith("-"):
                float(cell)  # only a number may start with a minus
    assert history[1][0] == "'=cmd|' /C calc'!A0"
    assert [row[6] for row in history[1:]] == ["'" + names[0], "'+1", "'-1"]
    assert game[0] == ["round", "'" + names[0], "'+1", "'-1"]
    totals = [row[7] for row in history[1:]]
    assert all(cell.lstrip("-").isdigit() for cell in totals)  # scores stay plain numbers


# --- look-alike names in the roster ---------------------------------------------------------


def test_look_alike_names_are_one_player_in_the_roster(store: Store) -> None:
    zoe = store.add_player("Zoe\u0308  ")
    assert zoe["name"] == "Zo\u00eb"  # stored in NFC, trimmed
    with pytest.raises(err.PlayerNameTaken):
        store.add_player("Zo\u00eb")
    store.add_player("Anna")
    with pytest.raises(err.PlayerNameTaken):
        store.add_player("\uff21\uff4e\uff4e\uff41")  # fullwidth
    for bad in ("An\u200bna", "\u202eBen", "Ben\x07"):
        with pytest.raises(err.InvalidPlayer):
            store.add_player(bad)


def test_a_game_record_stores_its_names_normalised(store: Store) -> None:
    players = [{"name": "Zoe\u0308"}, {"name": " Anna  Lena "}, {"name": "Ben"}]
    record = store.create_game("spy", players, {})
    assert [p["name"] for p in record["players"]] == ["Zo\u00eb", "Anna Lena", "Ben"]
    game_id = record["meta"]["id"]
    store.append_round(game_id, {"event": "target", "by": "zoe\u0308", "base": "ANNA LENA"})
    assert store.summary(game_id).players == ("Zo\u00eb", "Anna Lena", "Ben")


def test_stored_names_are_normalised_by_a_migration_and_clashes_are_reported(
    tmp_path: Path,
) -> None:
    """Names stored by an older Debrief: decomposed, fullwidth twins, invisible characters.
    A migration stores them normalised, renames a clash and says so; games stay valid."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    roster = store._main.table("players")
    for player_id, name in [
        ("p1", "Anna"),
        ("p2", "\uff21\uff4e\uff4e\uff41"),
        ("p3", "Zoe\u0308"),
        ("p4", "Be\u200bn"),
    ]:
        roster.insert(
            Document(
                {"name": name, "born": None, "archived": False, "former_names": []},
                doc_id=player_id,
            )
        )
    game = scenario("spy-three-players")
    game["players"][0]["name"] = "Anna"
    game["players"][1]["name"] = "\uff21\uff4e\uff4e\uff41"
    for event in game["rounds"]:  # the record refers to the fullwidth player exactly
        for key in ("by", "base"):
            if event[key] == "Ben":
                event[key] = "\uff21\uff4e\uff4e\uff41"
    game["meta"] = {"id": "old-game", "started": None, "ended": None}
    store._active.put("old-game", {"record": game, "deleted_at": None})
    store._main.table("meta").update({"version": 3}, doc_ids=["schema"])
    store.close()
    store = Store.open(folder)
    try:
        names = sorted(p["name"] for p in store.players())
        assert names == sorted(["Anna", "\uff21\uff4e\uff4e\uff41 2", "Zo\u00eb", "Ben"])
        assert "NamesRenamed" in [n.code for n in store.notices]
        record = store.load_game("old-game")
        assert [p["name"] for p in record["players"]][:2] == ["Anna", "\uff21\uff4e\uff4e\uff41 2"]
        assert scoring.problems(record) == []
        assert store.check()[1] == []
    finally:
        store.close()


def test_summaries_cannot_be_changed(store: Store) -> None:
    """Changing a summary once changed what the next call returned (shallow copies).
    A summary cannot be changed at all, at any level (so none is copied): its
    fields cannot be set, its lists are tuples, its mappings (a player's facts too) are
    read-only."""
    store.add_games(
        [
            {**scenario("spy-three-players"), "meta": {"id": "s1", "ended": "2026-11-20"}},
            {**scenario("black-spy-basic"), "meta": {"id": "b1", "ended": "2026-11-21"}},
        ]
    )
    store.create_game("spy", SPY_PLAYERS, {})
    assert any(store.summary("b1").facts.values())  # a player's facts to change below
    for summaries in (store.summaries(), store.active_games(), [store.summary("s1")]):
        for summary in summaries:
            with pytest.raises(AttributeError):
                summary.players = ("Mallory",)  # type: ignore[misc]
            with pytest.raises(AttributeError):
                summary.players.append("Mallory")  # type: ignore[attr-defined]
            with pytest.raises(TypeError):
                summary.totals["Mallory"] = 99  # type: ignore[index]
            for facts in summary.facts.values():
                with pytest.raises(TypeError):
                    facts["Mallory"] = 1  # type: ignore[index]
            with pytest.raises(AttributeError):
                summary.mallory = 1  # type: ignore[attr-defined]
    for summary in [*store.summaries(), *store.active_games(), store.summary("s1")]:
        assert "Mallory" not in summary.players and "Mallory" not in summary.totals
        assert all("Mallory" not in facts for facts in summary.facts.values())


# --- names that look alike across scripts -----------------------------------------------------

CYRILLIC_ANNA = "\u0410nna"  # with a Cyrillic А


def as_look_alike(record: dict[str, Any], name: str = "Ben") -> dict[str, Any]:
    """`record` with `name` written with a Cyrillic А wherever it is named: "Аnna" beside Anna."""
    return json.loads(json.dumps(record).replace(f'"{name}"', f'"{CYRILLIC_ANNA}"'))


def test_a_name_that_looks_like_another_players_is_refused_naming_them(store: Store) -> None:
    anna = store.add_player("Anna")
    ben = store.add_player("Ben")
    with pytest.raises(err.PlayerNameLooksAlike) as added:
        store.add_player(CYRILLIC_ANNA)
    assert added.value.message == f"“{CYRILLIC_ANNA}” looks the same as “Anna”"
    with pytest.raises(err.PlayerNameLooksAlike) as renamed:
        store.rename_player(ben["id"], f" {CYRILLIC_ANNA.upper()} ")
    assert renamed.value.message == f"“{CYRILLIC_ANNA.upper()}” looks the same as “Anna”"
    store.rename_player(ben["id"], "Bob")
    with pytest.raises(err.PlayerNameLooksAlike) as greek:
        store.add_player("B\u03bfb")  # a Greek omicron
    assert greek.value.params["other"] == "Bob"
    store.rename_player(anna["id"], CYRILLIC_ANNA)  # her own name, spelt another way
    store.add_player("Ann\u00e1")  # an accent makes another name
    assert sorted(p["name"] for p in store.players()) == ["Ann\u00e1", "Bob", CYRILLIC_ANNA]


def test_an_import_with_a_game_whose_players_look_alike_is_refused(store: Store) -> None:
    record = as_look_alike({**scenario("spy-three-players"), "meta": {"id": "g1"}})
    document = {"format": "debrief-backup/1", "players": [], "games": [record]}
    before = files_of(store.folder)
    plan = backup.plan_import(store, document, "file")
    found = [(e.code, e.path) for e in plan.errors]
    assert found == [("LookAlikeName", "games[0].players[1].name")]
    assert plan.errors[0].message == f"“{CYRILLIC_ANNA}” looks the same as “Anna”"
    with pytest.raises(err.ImportRefused):
        backup.apply_import(store, plan)
    with pytest.raises(scoring.InvalidRecord):
        store.create_game("spy", record["players"], {})
    assert files_of(store.folder) == before


@pytest.mark.parametrize("version", [3, 4])
def test_a_stored_game_whose_players_look_alike_opens_as_it_was_and_says_so(
    tmp_path: Path, version: int
) -> None:
    """Stored by an older Debrief (version 3 before names were normalised, version 4 before
    look-alikes across scripts were one name): neither renamed nor kept aside; the games open,
    go on and finish as before, and Debrief says once which ones they are."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    active = as_look_alike(scenario("spy-three-players"))
    active["rounds"] = active["rounds"][:2]
    active["meta"] = {"id": "a1", "started": "2026-11-01T20:00:00+01:00", "ended": None}
    finished = as_look_alike(scenario("spywhere-four-players"))
    finished["meta"] = {"id": "f1", "started": "2026-11-02T20:00:00+01:00", "ended": None}
    store._active.put("a1", {"record": active, "deleted_at": None})
    doc = {"record": {**finished, "meta": {**finished["meta"], "ended": "2026-11-02T22:00"}}}
    store._shard(shard_of("f1")).put("f1", {**doc, "deleted_at": None})
    index = {"f1": summarize(doc["record"]).to_dict()}
    roster = store._main.table("players")
    for player_id, name in [("p1", "Anna"), ("p2", CYRILLIC_ANNA)]:
        entry = {"name": name, "born": None, "archived": False, "former_names": []}
        roster.insert(Document(entry, doc_id=player_id))
    store._main.table("meta").update({"version": version}, doc_ids=["schema"])
    store.close()
    index_as_before_version_7(folder, index)

    store = Store.open(folder)
    try:
        assert [n.code for n in store.notices if n.code == "NamesRenamed"] == []
        kept = [n for n in store.notices if n.code in ("GameNamesLookAlike", "PlayersLookAlike")]
        assert sorted(n.params.get("game_id", "roster") for n in kept) == ["a1", "f1", "roster"]
        said = next(n for n in kept if n.params.get("game_id") == "a1").message
        assert f"“{CYRILLIC_ANNA}” looks the same as “Anna”" in said
        assert store.load_game("a1") == active  # kept exactly as it was
        assert store.load_game("f1")["players"] == finished["players"]
        assert sorted(p["name"] for p in store.players()) == ["Anna", CYRILLIC_ANNA]
        assert store.summary("a1").players == ("Anna", CYRILLIC_ANNA, "Carla")
        assert store.summary("f1").needs_correction is None
        store.append_round("a1", target(CYRILLIC_ANNA, "Carla"))
        assert store.load_game("a1")["rounds"][-1]["by"] == CYRILLIC_ANNA
        store.finish_game("a1")
        count, problems = store.check()  # listed (an import refuses them), not kept aside
        assert count == 2 and sorted(problems) == [
            f"a1: players[1].name: “{CYRILLIC_ANNA}” looks the same as “Anna”",
            f"f1: players[1].name: “{CYRILLIC_ANNA}” looks the same as “Anna”",
        ]
        from scoring.stats import player_stats

        assert player_stats(store.summaries(), [CYRILLIC_ANNA])["spywhere"].games == 1
        totals = store.summary("f1").totals
        anna_alone = player_stats(store.summaries(), ["Anna"])["spywhere"]
        assert anna_alone.scores == [totals["Anna"]]  # her own seat, not her look-alike's
    finally:
        store.close()
    store = Store.open(folder)
    try:
        assert not [n for n in store.notices if n.code == "GameNamesLookAlike"]  # once
    finally:
        store.close()


# --- flags (emoji tag sequences) and variation selectors in names ----------------------------

SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
TECHNOLOGIST = "\U0001f469\u200d\U0001f4bb"  # 👩‍💻
HEART = "\u2764\ufe0f"  # ❤️: a heart with its emoji presentation selector
INVISIBLE_REFUSED = (
    "character {position} of the name is an invisible character ({code}); a name may hold a "
    f"zero-width joiner only inside an emoji sequence such as {TECHNOLOGIST}, and tag "
    f"characters only inside a flag such as {SCOTLAND}"
)


def test_a_flag_is_a_players_name_and_a_stray_selector_is_dropped(store: Store) -> None:
    """The roster takes the flag of Scotland; a variation selector after a letter is stored
    without it (so "Mo" typed with one is Mo), one after a heart is kept."""
    ailsa = store.add_player(f"{SCOTLAND} Ailsa")
    assert ailsa["name"] == f"{SCOTLAND} Ailsa"
    mo = store.add_player("Mo\ufe0f")
    assert mo["name"] == "Mo"
    with pytest.raises(err.PlayerNameTaken):
        store.add_player("Mo\ufe0e")
    assert store.add_player(f"{HEART} Mo")["name"] == f"{HEART} Mo"  # another name than Mo
    store.rename_player(mo["id"], " Moe\ufe0f ")
    store.rename_player(ailsa["id"], f"{SCOTLAND} Ailsa\ufe0f")  # the same name: no former one
    names = {p["name"]: p["former_names"] for p in store.players()}
    assert names == {f"{SCOTLAND} Ailsa": [], "Moe": ["Mo"], f"{HEART} Mo": []}
    with pytest.raises(err.InvalidPlayer) as refused:
        store.add_player("Kim\U000e0067")  # a tag character outside a flag
    assert refused.value.message == INVISIBLE_REFUSED.format(position=4, code="U+E0067")
    with pytest.raises(err.InvalidPlayer):
        store.add_player(f"{SCOTLAND[:-1]} Ailsa")  # a flag without its cancel tag


def test_an_import_stores_names_without_stray_selectors(store: Store) -> None:
    """A backup's roster and games, and the roster entries its games bring, are stored by the
    same rule as a typed name."""
    game = {**scenario("spy-three-players"), "meta": {"id": "g1"}}
    game = json.loads(json.dumps(game).replace('"Anna"', '"Anna\\ufe0f"'))
    game["players"][1]["name"] = f"{SCOTLAND} Ailsa"
    game = json.loads(json.dumps(game).replace('"Ben"', f'"{SCOTLAND} Ailsa"'))
    roster = [{"name": "Mo\ufe0f", "former_names": ["Moe\ufe0e"]}, {"name": f"{HEART} Kim"}]
    document = {"format": "debrief-backup/1", "players": roster, "games": [game]}
    plan = backup.plan_import(store, document, "file")
    assert plan.errors == []
    assert backup.apply_import(store, plan) == 1
    players = {p["name"]: p["former_names"] for p in store.players()}
    assert players == {
        "Mo": ["Moe"],
        f"{HEART} Kim": [],
        "Anna": [],
        f"{SCOTLAND} Ailsa": [],
        "Carla": [],
    }
    stored = store.load_game("g1")
    assert [p["name"] for p in stored["players"]] == ["Anna", f"{SCOTLAND} Ailsa", "Carla"]
    assert store.summary("g1").players == ("Anna", f"{SCOTLAND} Ailsa", "Carla")
    assert backup.export_backup(store)["games"] == [stored]


def stray_selectors(record: dict[str, Any], name: str, selector: str = "\ufe0f") -> dict[str, Any]:
    """`record` with `name` followed by a stray variation selector wherever it is named, as
    Debrief stored it before stray variation selectors were dropped."""
    return json.loads(json.dumps(record).replace(f'"{name}"', json.dumps(name + selector)))


@pytest.mark.parametrize("version", [3, 4, 5])
def test_stray_selectors_stored_before_are_dropped_by_a_migration(
    tmp_path: Path, version: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stored by an older Debrief (version 5 the last to keep stray selectors): a variation selector
    that follows no character taking one is dropped from the roster and the games, wherever
    a game names the player; a name that then clashes is renamed "Name 2" and said, as
    version 4 did; a selector after a heart stays. Names that look alike across scripts are
    still kept and reported once (version 5's notices)."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    active = stray_selectors(scenario("spy-three-players"), "Ben")
    active["players"][2]["name"] = f"{HEART} Carla"
    active = json.loads(json.dumps(active).replace('"Carla"', json.dumps(f"{HEART} Carla")))
    active["meta"] = {"id": "a1", "started": "2026-11-01T20:00:00+01:00", "ended": None}
    clash = stray_selectors(scenario("spy-three-players"), "Ben", "\ufe0e")
    clash = json.loads(json.dumps(clash).replace('"Anna"', '"Ben"'))  # two Bens, one now
    clash["meta"] = {"id": "a2", "started": None, "ended": None}
    finished = stray_selectors(scenario("spywhere-four-players"), "Dirk", "\ufe0e")
    finished = as_look_alike(finished, "Carla")  # "Аnna" with a Cyrillic А beside Anna
    finished["meta"] = {"id": "f1", "started": None, "ended": "2026-11-02T22:00"}
    store._active.put("a1", {"record": active, "deleted_at": None})
    store._active.put("a2", {"record": clash, "deleted_at": None})
    store._shard(shard_of("f1")).put("f1", {"record": finished, "deleted_at": None})
    summary = stray_selectors(summarize(finished).to_dict(), "Dirk", "\ufe0e")  # as version 5 did
    roster = store._main.table("players")
    for player_id, name, former in [
        ("p1", "Mo\ufe0f", ["Moe\ufe0f"]),
        ("p2", "Kim", []),
        ("p3", "Kim\ufe0f", []),
        ("p4", f"{HEART} Kim", []),
    ]:
        entry = {"name": name, "born": None, "archived": False, "former_names": former}
        roster.insert(Document(entry, doc_id=player_id))
    store._main.table("meta").update({"version": version}, doc_ids=["schema"])
    store.close()
    index_as_before_version_7(folder, {"f1": summary})

    rebuilt: list[bool] = []
    rebuild = Store._rebuild_index

    def counted(opened: Store, announce: bool = True) -> None:
        rebuilt.append(True)
        rebuild(opened, announce=announce)

    monkeypatch.setattr(Store, "_rebuild_index", counted)
    store = Store.open(folder)
    try:
        assert store.schema_version == store_module.SCHEMA_VERSION
        players = {p["name"]: p["former_names"] for p in store.players()}
        assert players == {"Mo": ["Moe"], "Kim": [], "Kim 2": [], f"{HEART} Kim": []}
        [renamed] = [n for n in store.notices if n.code == "NamesRenamed"]
        assert "Ben<U+FE0E> → Ben 2" in renamed.message
        assert "Kim<U+FE0F> → Kim 2" in renamed.message
        assert "Mo<U+FE0F>" not in renamed.message  # a selector dropped is no rename
        cleaned = json.loads(json.dumps(active).replace('"Ben\\ufe0f"', '"Ben"'))
        assert store.load_game("a1") == cleaned  # Ben wherever named; the heart keeps its own
        assert [p["name"] for p in store.load_game("a2")["players"]] == ["Ben", "Ben 2", "Carla"]
        assert store.summary("a2").players == ("Ben", "Ben 2", "Carla")
        seated = ["Anna", "Ben", CYRILLIC_ANNA, "Dirk"]  # the look-alike kept as she was
        assert [p["name"] for p in store.load_game("f1")["players"]] == seated
        assert store.summary("f1").players == tuple(seated)
        assert list(store.summary("f1").totals) == seated
        look_alikes = [n.params["game_id"] for n in store.notices if n.code == "GameNamesLookAlike"]
        assert look_alikes == ([] if version == 5 else ["f1"])  # said once, by version 5
        said = f"f1: players[2].name: “{CYRILLIC_ANNA}” looks the same as “Anna”"
        assert store.check()[1] == [said]
        if version >= 4:
            assert rebuilt == []  # only the summaries of the games changed are made again
    finally:
        store.close()


def test_games_stored_before_issue_22_open_unchanged(tmp_path: Path) -> None:
    """Games whose names hold no stray selector (emoji sequences, a heart with its selector)
    are not touched by the migration: not a byte of their files changes, and they replay as
    before."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    emoji = {"Anna": f"{HEART} Anna", "Ben": f"{TECHNOLOGIST} Ben"}
    shared = ["black-spy-basic", "kompromat-first-round", "spy-three-players"]
    records = [scenario(name) for name in [*shared, "spywhere-four-players"]]
    for index, record in enumerate(records):
        text = json.dumps(record)
        for name, new in emoji.items():
            text = text.replace(f'"{name}"', json.dumps(new))
        record = json.loads(text)
        record["meta"] = {"id": f"g{index}", "started": None, "ended": None}
        if index % 2:
            store.create_game(record["game"], record["players"], record["options"])
        store.add_games([record])
    store.finish_game("g0")
    standings = {r["meta"]["id"]: scoring.standings(r) for r in store.all_records()}
    store._main.table("meta").update({"version": 5}, doc_ids=["schema"])
    store.close()
    before = {k: v for k, v in files_of(folder).items() if k != "debrief.json"}
    store = Store.open(folder)
    try:
        assert store.notices == []
        assert {r["meta"]["id"]: scoring.standings(r) for r in store.all_records()} == standings
    finally:
        store.close()
    assert {k: v for k, v in files_of(folder).items() if k != "debrief.json"} == before


def test_an_import_plays_each_game_through_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking a backup plays every game through; storing it then uses that play instead of
    playing each game again (an import of thousands of games took twice as long)."""
    replay_module = sys.modules["scoring.replay"]  # `scoring.replay` is its function
    games = [
        {**scenario("spy-three-players"), "meta": {"id": "spy-three-players"}},
        {**scenario("black-spy-basic"), "meta": {"id": "black"}},
    ]
    document = {"format": "debrief-backup/1", "players": [], "games": games}
    played: list[object] = []
    original = replay_module._replay

    def counted(reader: Any, record: Any, stored: bool = False) -> Any:
        played.append(record)
        return original(reader, record, stored)

    monkeypatch.setattr(replay_module, "_replay", counted)
    plan = backup.plan_import(store, document, "file")
    assert backup.apply_import(store, plan) == len(games)
    assert len(played) == len(games)
    monkeypatch.undo()
    assert sorted(s.id for s in store.summaries()) == ["black", "spy-three-players"]
