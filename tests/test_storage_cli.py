"""python -m storage import / export / check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from builders import ROOT, SCENARIOS

RECORDS = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))
# Everyone the scenarios seat (their names stored as they are: they are stored normalised).
PLAYERS = {p["name"] for path in RECORDS for p in json.loads(path.read_text())["players"]}


def storage(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DEBRIEF_DATA_DIR"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "storage", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )


def export(folder: Path, *args: str) -> dict[str, Any]:
    done = storage("--data-dir", folder, "export", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def data_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


def test_import_export_import_gives_the_same_games(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    done = storage("import", *RECORDS, "--data-dir", first)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("1 game added, 0 already there") == len(RECORDS)  # one, not "1 games"
    backup = tmp_path / "backup.json"
    done = storage("--data-dir", first, "export", "--out", backup)
    assert done.returncode == 0 and backup.exists()
    assert storage("--data-dir", second, "import", backup).returncode == 0
    assert export(second) == json.loads(backup.read_text())
    document = json.loads(backup.read_text())
    assert document["format"] == "debrief-backup/1" and set(document) == {
        "format",
        "players",
        "games",
    }
    originals = {json.dumps(json.loads(p.read_text())["rounds"]) for p in RECORDS}
    assert {json.dumps(g["rounds"]) for g in document["games"]} == originals
    assert {p["name"] for p in document["players"]} == PLAYERS


def test_importing_again_skips_games_already_there(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    storage("--data-dir", folder, "import", *RECORDS)
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(export(folder)))
    done = storage("--data-dir", folder, "import", backup)
    assert done.returncode == 0 and f"0 games added, {len(RECORDS)} already there" in done.stdout
    assert len(export(folder)["games"]) == len(RECORDS)


def test_a_file_with_a_bad_record_adds_nothing_and_names_the_problem(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    good = json.loads(RECORDS[0].read_text())
    bad = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    bad["rounds"][2]["cards"]["Ben"]["black_spies"] = 7
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps([good, bad]))
    fine = tmp_path / "fine.json"
    fine.write_text(json.dumps(json.loads(RECORDS[1].read_text())))
    storage("--data-dir", folder, "check")  # creates the empty folder
    before = data_files(folder)
    done = storage("--data-dir", folder, "import", mixed)
    assert done.returncode == 2
    assert (
        "[1].rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal"
        in done.stderr
    )
    assert data_files(folder) == before
    done = storage("--data-dir", folder, "import", mixed, fine)  # each file on its own
    assert done.returncode == 2 and "fine.json: 1 game added" in done.stdout
    assert len(export(folder)["games"]) == 1


def test_not_a_record_or_backup_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    for name, text in (
        ("hello.json", '{"hello": 1}'),
        ("broken.json", '{"game": '),
        ("backup.json", '{"format": "debrief-backup/1", "games": {}}'),
    ):
        (tmp_path / name).write_text(text)
        done = storage("--data-dir", folder, "import", tmp_path / name)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert name in done.stderr


def test_backup_players_with_bad_fields_refuse_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    backup = tmp_path / "backup.json"
    backup.write_text(
        json.dumps(
            {
                "format": "debrief-backup/1",
                "games": [],
                "players": [{"name": "Anna", "born": "soon"}],
            }
        )
    )
    done = storage("--data-dir", folder, "import", backup)
    assert done.returncode == 2 and 'players[0].born: "soon" is not a date' in done.stderr


def test_export_one_game(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    storage("--data-dir", folder, "import", *RECORDS)
    kompromat = next(g for g in export(folder)["games"] if g["game"] == "kompromat")
    single = export(folder, "--game", kompromat["meta"]["id"])
    assert single["games"] == [kompromat]
    assert [p["name"] for p in single["players"]] == ["Anna", "Ben"]
    done = storage("--data-dir", folder, "export", "--game", "nope")
    assert done.returncode == 1 and "there is no game nope" in done.stderr


def test_check_and_the_data_dir_variable(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    env = {"DEBRIEF_DATA_DIR": str(folder)}
    assert storage("import", *RECORDS, env=env).returncode == 0
    done = storage("check", env=env)
    assert (
        done.returncode == 0
        and f"{len(RECORDS)} games, {len(PLAYERS)} players: everything is fine" in done.stdout
    )
    # Break one archived record behind the store's back.
    # A shard may hold several games; which ones share it depends on their random ids.
    shard = next(p for p in (folder / "games").glob("*.json") if "spywhere" in p.read_text())
    data = json.loads(shard.read_text())
    doc = next(d for d in data["games"].values() if d["record"]["game"] == "spywhere")
    doc["record"]["rounds"][0]["own_cards"]["Anna"] = 99
    shard.write_text(json.dumps(data))
    done = storage("check", env=env)
    assert done.returncode == 1
    assert "rounds[0].own_cards.Anna: 99 is more than 18" in done.stderr


def test_a_damaged_file_is_reported_by_the_cli(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    storage("--data-dir", folder, "import", *RECORDS)
    (folder / "debrief.json").write_text("{")
    done = storage("--data-dir", folder, "check")
    assert "note: debrief.json could not be read" in done.stderr
    assert list(folder.glob("debrief.damaged-*.json"))


def test_csv_of_a_game_and_of_the_history() -> None:
    import csv
    import io

    from storage.backup import csv_of_game, csv_of_history
    from storage.summaries import summarize

    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    rows = list(csv.reader(io.StringIO(csv_of_game(record))))
    assert rows[0] == ["round", "Anna", "Ben", "Carla", "Dirk"]
    assert rows[3] == ["3", "63", "126", "23", "68"]
    record = json.loads(RECORDS[-1].read_text())
    summary = summarize({**record, "meta": {**record.get("meta", {}), "id": "g1"}})
    rows = list(csv.reader(io.StringIO(csv_of_history([summary]))))
    assert rows[1][:2] == ["g1", summary.game] and len(rows) == 1 + len(summary.players)


def test_export_writes_games_that_need_a_correction_and_names_them(tmp_path: Path) -> None:
    """An export still writes games that need a correction, as they are, and says
    which ones an import will refuse until they are corrected (exit 1)."""
    from test_storage import stale_kompromat, stored_by_version_2

    folder = tmp_path / "data"
    stored_by_version_2(folder, [stale_kompromat()], [])
    out = tmp_path / "backup.json"
    done = storage("--data-dir", folder, "export", "--out", out)
    assert done.returncode == 1, done.stderr
    assert json.loads(out.read_text())["games"] == [stale_kompromat()]
    assert "an import refuses it until it is corrected" in done.stderr
    assert "k1" in done.stderr and "rounds[0].missions[3].plays.Anna" in done.stderr


def test_export_out_where_it_cannot_write_says_so(tmp_path: Path) -> None:
    """An export into a missing folder or onto a folder once ended in a traceback; one into the
    data folder replaced the roster file without a word."""
    folder = tmp_path / "data"
    assert storage("--data-dir", folder, "import", RECORDS[0]).returncode == 0
    roster = (folder / "debrief.json").read_bytes()
    for out in (tmp_path / "missing" / "backup.json", tmp_path, folder / "debrief.json"):
        done = storage("--data-dir", folder, "export", "--out", out)
        assert done.returncode == 1, out
        assert "Traceback" not in done.stderr and str(out) in done.stderr, done.stderr
    assert (folder / "debrief.json").read_bytes() == roster
    assert not (tmp_path / "missing").exists()


def test_a_data_dir_that_is_a_file_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "a-file"
    path.write_text("not a folder")
    for command in ("check", "export"):
        done = storage("--data-dir", path, command)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "is not a folder" in done.stderr
    assert path.read_text() == "not a folder"


def test_two_imports_of_the_same_file_at_once_do_not_crash(tmp_path: Path) -> None:
    """Two tabs plan the same import, one applies it, then the other: the second
    adds nothing (the games are there) instead of crashing."""
    from storage import Store, backup

    store = Store.open(tmp_path / "data")
    try:
        document = json.loads(RECORDS[0].read_text())
        document = {**document, "meta": {"id": "same-game"}}
        first = backup.plan_import(store, document, "file")
        second = backup.plan_import(store, document, "file")
        assert backup.apply_import(store, first) == 1
        assert backup.apply_import(store, second) == 0
        assert len(store.summaries()) == 1
    finally:
        store.close()
