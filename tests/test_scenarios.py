"""Every recorded game in tests/scenarios replays to its expected standings.

tests/scenarios holds the shared scenarios (copied from ../shared/scenarios, where our machines
have that folder, so that a clone of the project alone tests them too) and records of our own.
The folder is read at collection time, so a new NAME.json with NAME.expected.json is a new test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import ROOT, SCENARIOS

import scoring

RECORDS = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))


def expected_of(path: Path) -> dict[str, Any]:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def assert_contains(expected: Any, actual: Any, where: str = "standings") -> None:
    """`actual` has every key of `expected` with an equal value (extra keys are fine)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            assert_contains(value, actual[key], f"{where}.{key}")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


SHARED = ROOT.parent / "shared" / "scenarios"


def test_scenarios_are_there() -> None:
    assert len(RECORDS) >= 4


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/scenarios beside this clone")
def test_the_copies_of_the_shared_scenarios_are_current() -> None:
    """Where ../shared is there, every shared scenario is in tests/scenarios, unchanged."""
    for shared in sorted(SHARED.glob("*.json")):
        copy = SCENARIOS / shared.name
        assert copy.exists(), f"copy {shared.name} into tests/scenarios"
        assert json.loads(copy.read_text()) == json.loads(shared.read_text()), shared.name


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_scenario_replays_to_expected_standings(path: Path) -> None:
    standings = scoring.standings(json.loads(path.read_text()))
    assert_contains(expected_of(path), standings)
    assert list(standings["totals"]) == list(expected_of(path)["totals"])  # seating order


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_cli_replay_prints_expected_standings(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert_contains(expected_of(path), json.loads(done.stdout))
