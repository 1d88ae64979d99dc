"""Import benchmark: big imports, new players, and recovery after a crash in an import.

    python bench/imports.py [--games 10000] [--players 1000,4000]

Prints one JSON line; it asserts nothing. Figures (seconds, each measured in a fresh process):
  players.N.import_s    import a backup that adds N new players to the roster
  games.import_s        import a backup of N finished games into an empty folder
  games.open_s          open that data normally (nothing to recover)
  games.check_s         `check`: read and validate every record
  games.recovery_s      open the data after a crash right after the import's journal was
                        written (the whole import is written again from the journal)
  games.recovery_over_open_plus_check   recovery_s / (open_s + check_s): at most 1 is the aim
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import realistic_game  # noqa: E402

from storage import Store, backup  # noqa: E402
from storage.store import Store as StoreClass  # noqa: E402


def seconds(action: Any) -> float:
    start = time.perf_counter()
    action()
    return round(time.perf_counter() - start, 3)


def import_file(folder: Path, source: Path) -> None:
    store = Store.open(folder)
    try:
        document = json.loads(source.read_text())
        backup.apply_import(store, backup.plan_import(store, document, source.name))
    finally:
        store.close()


def crash_after_journal(folder: Path, source: Path) -> None:
    """Import, but die (like a SIGKILL) as soon as the journal is written."""

    def die(self: StoreClass, change: dict[str, Any]) -> None:
        os._exit(9)

    StoreClass._write_import = die  # type: ignore[method-assign]
    import_file(folder, source)


def open_store(folder: Path) -> None:
    Store.open(folder).close()


def check_store(folder: Path) -> None:
    store = Store.open(folder)
    try:
        store.check()
    finally:
        store.close()


CHILD_ACTIONS = {
    "import": import_file,
    "crash": crash_after_journal,
    "open": lambda folder, source: open_store(folder),
    "check": lambda folder, source: check_store(folder),
}


def in_child(action: str, folder: Path, source: Path) -> float:
    """Run `action` in a fresh process; its time as the child measured it."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", action, str(folder), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    if action != "crash" and done.returncode != 0:
        raise RuntimeError(done.stderr)
    return float(done.stdout.strip() or 0)


def players_figures(base: Path, count: int) -> dict[str, float]:
    folder, source = base / f"players-{count}", base / f"players-{count}.json"
    players = [
        {"name": f"Player {n:05d}", "born": None, "archived": False, "former_names": []}
        for n in range(count)
    ]
    source.write_text(json.dumps({"format": "debrief-backup/1", "players": players, "games": []}))
    return {"import_s": in_child("import", folder, source)}


def games_figures(base: Path, count: int) -> dict[str, float]:
    rng = random.Random(2026)
    games = [realistic_game(rng, number) for number in range(count)]
    source = base / "games.json"
    source.write_text(json.dumps({"format": "debrief-backup/1", "players": [], "games": games}))
    done, crashed = base / "imported", base / "crashed"
    figures = {
        "import_s": in_child("import", done, source),
        "open_s": in_child("open", done, source),
        "check_s": in_child("check", done, source),
    }
    in_child("crash", crashed, source)
    if not (crashed / "journal.json").exists():
        raise RuntimeError("the simulated crash left no journal")
    figures["recovery_s"] = in_child("open", crashed, source)
    figures["recovery_over_open_plus_check"] = round(
        figures["recovery_s"] / (figures["open_s"] + figures["check_s"]), 2
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", default="1000,4000")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        action, folder, source = args.child
        print(seconds(lambda: CHILD_ACTIONS[action](Path(folder), Path(source))))
        return
    base = Path(tempfile.mkdtemp(prefix="debrief-bench-imports-"))
    try:
        report: dict[str, Any] = {
            "players": {
                str(n): players_figures(base, n) for n in map(int, args.players.split(","))
            },
            "games": {str(args.games): games_figures(base, args.games)},
        }
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
