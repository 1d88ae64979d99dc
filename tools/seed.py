"""Fill a data folder with the shared scenarios and generated finished games (for trying the
history and statistics screens with a real amount of data).

    python tools/seed.py DATA_FOLDER [--games 1000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import generators  # noqa: E402
from builders import SCENARIOS  # noqa: E402

import scoring  # noqa: E402
from storage import Store  # noqa: E402
from storage.backup import apply_import, plan_import  # noqa: E402


def generated(count: int, seed: int = 7) -> list[dict]:
    """`count` finished games of all four kinds, one or two an evening over the last years."""
    rng = random.Random(seed)
    start = dt.datetime(2021, 1, 1, 19, 30, tzinfo=dt.UTC)
    records = []
    while len(records) < count:
        record = generators.any_record(rng)
        if not scoring.replay(record).finished:
            continue
        began = start + dt.timedelta(days=len(records) // 2, minutes=rng.randint(0, 90))
        ended = began + dt.timedelta(minutes=rng.randint(15, 150))
        record["meta"] = {
            "id": f"seed-{len(records):05d}",
            "started": began.isoformat(),
            "ended": ended.isoformat(),
            "notes": "",
        }
        records.append(record)
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    store = Store.open(args.folder)
    try:
        for path in sorted(SCENARIOS.glob("*.json")):
            if not path.name.endswith(".expected.json"):
                apply_import(store, plan_import(store, json.loads(path.read_text()), path.name))
        apply_import(store, plan_import(store, generated(args.games), "generated"))
        print(f"{args.folder}: {len(store.summaries())} games, {len(store.players())} players")
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
