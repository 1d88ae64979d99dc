"""bench/run.py still runs and reports every figure for both designs (it asserts no speed)."""

from __future__ import annotations

import json
import subprocess
import sys

from builders import ROOT

FIGURES = {
    "record_round_ms",
    "history_ms",
    "history_warm_ms",
    "open_game_ms",
    "statistics_ms",
    "peak_rss_mb",
}


def test_benchmark_prints_one_json_line_with_both_designs() -> None:
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--sizes", "12"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    report = json.loads(line)
    figures = report["sizes"]["12"]
    assert set(figures["ours"]) == FIGURES and set(figures["naive_tinydb"]) == FIGURES
    assert all(value > 0 for value in figures["ours"].values())
    assert report["limits"] == {
        "record_round_ms": 10,
        "history_ms": 300,
        "statistics_naive_over_ours": 20,
    }


def test_import_benchmark_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "bench/imports.py", "--games", "30", "--players", "20,40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    report = json.loads(line)
    assert set(report["players"]) == {"20", "40"}
    assert all(figures["import_s"] > 0 for figures in report["players"].values())
    games = report["games"]["30"]
    assert set(games) == {
        "import_s",
        "open_s",
        "check_s",
        "recovery_s",
        "recovery_over_open_plus_check",
    }
    assert games["recovery_s"] > 0
