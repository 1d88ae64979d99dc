"""python -m scoring replay: standings on stdout, every problem on stderr and exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from builders import ROOT, SCENARIOS


def replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_reads_standard_input() -> None:
    done = replay("-", stdin=(SCENARIOS / "spy-three-players.json").read_text())
    assert done.returncode == 0
    assert json.loads(done.stdout)["eliminated"] == ["Anna"]


def test_halves_print_as_point_five(tmp_path: Path) -> None:
    rec = json.loads((SCENARIOS / "kompromat-first-round.json").read_text())
    done = replay("-", stdin=json.dumps(rec))
    assert '"Anna": 9' in done.stdout and "9.0" not in done.stdout


def test_invalid_record_prints_every_error_and_exits_2(tmp_path: Path) -> None:
    rec = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    rec["rounds"][2]["cards"]["Ben"]["black_spies"] = 7
    rec["options"]["halves"] = "sideways"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    done = replay(str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ['options.halves: "sideways" is not one of exact, down, up']
    del rec["options"]["halves"]
    path.write_text(json.dumps(rec))
    done = replay(str(path))
    assert done.stderr.splitlines() == [
        "rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal"
    ]


def test_broken_json_and_missing_file_exit_2_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "game-record/1",')
    done = replay(str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "not valid JSON" in done.stderr and "line 1" in done.stderr
    done = replay(str(tmp_path / "nope.json"))
    assert (
        done.returncode == 2 and "cannot be read" in done.stderr and "Traceback" not in done.stderr
    )


def test_absurd_input_exits_2_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    done = replay(str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    path.write_bytes(b"\xff\xfe{}")
    done = replay(str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_a_record_nested_985_deep_is_refused_with_exit_2(tmp_path: Path) -> None:
    """Deep enough to parse but not to validate: a RecursionError and exit 1."""
    rec = json.loads((SCENARIOS / "spy-three-players.json").read_text())
    rec["rounds"].append({"event": "DEEP", "by": "Anna", "base": "Ben"})
    deep = "[" * 985 + '"x"' + "]" * 985  # written by hand: json.dumps would run out of stack
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(rec).replace('"DEEP"', deep))
    done = replay(str(path))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert "nested" in done.stderr
