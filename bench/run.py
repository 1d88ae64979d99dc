"""Storage benchmark: Debrief's store against plain TinyDB holding the same records in one file.

    python bench/run.py [--sizes 100,1000,10000]

Builds realistic histories (finished Black Spy games, 4 to 6 players, 10 to 15 deals) in a
temporary folder, then measures each design in its own fresh process, so that peak memory is
that design's alone. Prints one JSON line; it asserts nothing. The limits the app aims for are
in the output ("limits") so the figures can be read against them.

Figures (milliseconds are medians):
  record_round_ms     record one round of a game in progress (validation included)
  history_ms          open the data and load every game's summary (cold: a fresh open)
  history_warm_ms     load the summaries again from the opened data
  open_game_ms        open one finished game (cold: its file not read yet)
  statistics_ms       open the data and work out the statistics screen (every game, all
                      time: places, streaks, rivals, records) — ours from the stored
                      summaries, plain TinyDB's from the records, each played through
  peak_rss_mb         the measuring process's peak resident memory
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import generators  # noqa: E402
from tinydb import TinyDB  # noqa: E402

import scoring  # noqa: E402
from scoring.group_stats import counted, group_stats, records  # noqa: E402
from storage import Store  # noqa: E402
from storage.summaries import summarize  # noqa: E402

LIMITS = {"record_round_ms": 10, "history_ms": 300, "statistics_naive_over_ours": 20}
NAMES = generators.NAMES
PEOPLE = {name: [name] for name in NAMES}  # everyone the generated games seat


def statistics_of(summaries: list[Any]) -> object:
    """What the statistics screen works out (views/statistics.py), for everyone, all time."""
    chosen = counted(summaries, PEOPLE)
    return group_stats(chosen, PEOPLE), records(chosen)


def realistic_game(rng: random.Random, number: int) -> dict[str, Any]:
    """A finished Black Spy game: its end value set to the highest total after 10-15 deals."""
    while True:
        count = rng.randint(4, 6)
        names = rng.sample(NAMES, count)
        options = {"first_dealer": names[0], "variants": [], "end_value": 10**6}
        record = generators.envelope("black-spy", [{"name": n} for n in names], options)
        deals = rng.randint(10, 15)
        record["rounds"] = [
            generators.black_spy_deal(rng, names, False, 0.02) for _ in range(deals)
        ]
        totals = scoring.replay(record).round_totals
        highest = [max(t.values()) for t in totals]
        if highest[-1] > max(highest[:-1]):
            options["end_value"] = int(highest[-1])
            day = 1 + number % 28
            record["meta"] = {
                "id": f"game-{number:06d}",
                "started": f"20{10 + number % 15}-{1 + number % 12:02d}-{day:02d}T19:30:00+01:00",
                "ended": f"20{10 + number % 15}-{1 + number % 12:02d}-{day:02d}T21:45:00+01:00",
                "notes": "",
            }
            return record


def median_ms(samples: list[float]) -> float:
    """The median in milliseconds, to three significant digits: a figure of microseconds (the
    warm history, served from memory) rounded to two decimals was 0.0 on a quick run."""
    return float(f"{statistics.median(samples) * 1000:.3g}")


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def peak_rss_mb() -> float:
    """This process's peak resident memory. On Linux ru_maxrss keeps the forking parent's peak
    across exec, so read VmHWM (reset at exec) where there is one."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def new_game_rounds(rng: random.Random, count: int) -> tuple[list[str], list[dict[str, Any]]]:
    names = NAMES[:5]
    return names, [generators.black_spy_deal(rng, names, False, 0.02) for _ in range(count)]


# --- building the data sets (in the parent process) -----------------------------------------


def build(folder: Path, records: list[dict[str, Any]]) -> dict[str, float]:
    ours, naive = folder / "ours", folder / "naive.json"
    store = Store.open(ours)
    ours_seconds = timed(lambda: store.add_games(records))
    store.close()
    docs = [{"record": r, "summary": summarize(r).to_dict()} for r in records]
    db = TinyDB(naive)
    naive_seconds = timed(lambda: db.insert_multiple(docs))
    db.close()
    return {"ours_build_s": round(ours_seconds, 2), "naive_build_s": round(naive_seconds, 2)}


# --- measuring (each in a fresh process) ----------------------------------------------------


def measure_ours(folder: Path, ids: list[str], samples: int) -> dict[str, float]:
    rng = random.Random(1)
    store = Store.open(folder)
    names, rounds = new_game_rounds(rng, samples)
    options = {"first_dealer": names[0], "variants": [], "end_value": 10**6}
    game_id = store.create_game("black-spy", [{"name": n} for n in names], options)["meta"]["id"]
    record_round = [timed(lambda r=r: store.append_round(game_id, r)) for r in rounds]
    store.delete_game(game_id)
    warm = [timed(store.summaries) for _ in range(5)]
    opened = []
    for game in rng.sample(ids, min(20, len(ids))):
        store._shards.clear()  # cold: the game's archive file is read from disk
        opened.append(timed(lambda game=game: store.load_game(game)))
    store.close()
    cold = []
    for _ in range(5):
        cold.append(timed(lambda: Store.open(folder).summaries()))
        Store.open(folder).close()
    stats = []
    for _ in range(3):
        stats.append(timed(lambda: statistics_of(Store.open(folder).summaries())))
        Store.open(folder).close()
    return {
        "record_round_ms": median_ms(record_round),
        "history_ms": median_ms(cold),
        "history_warm_ms": median_ms(warm),
        "open_game_ms": median_ms(opened),
        "statistics_ms": median_ms(stats),
        "peak_rss_mb": peak_rss_mb(),
    }


def measure_naive(path: Path, samples: int) -> dict[str, float]:
    """Plain TinyDB, default JSONStorage, every record (with its summary) in one file."""
    rng = random.Random(1)
    db = TinyDB(path)
    names, rounds = new_game_rounds(rng, samples)
    options = {"first_dealer": names[0], "variants": [], "end_value": 10**6}
    record = generators.envelope("black-spy", [{"name": n} for n in names], options)
    doc_id = db.insert({"record": record, "summary": summarize(record).to_dict()})

    def append(round_: dict[str, Any]) -> None:
        current = db.get(doc_id=doc_id)["record"]  # type: ignore[index]
        changed = {**current, "rounds": [*current["rounds"], round_]}
        scoring.replay(changed)
        db.update({"record": changed, "summary": summarize(changed).to_dict()}, doc_ids=[doc_id])

    record_round = [timed(lambda r=r: append(r)) for r in rounds]
    warm = [timed(lambda: [d["summary"] for d in db.all()]) for _ in range(3)]
    ids = [d.doc_id for d in db.all()]
    opened = [timed(lambda i=i: db.get(doc_id=i)) for i in rng.sample(ids, min(5, len(ids)))]
    db.close()
    cold = [timed(lambda: [d["summary"] for d in TinyDB(path).all()]) for _ in range(3)]
    from_records = [
        timed(lambda: statistics_of([summarize(d["record"]) for d in TinyDB(path).all()]))
    ]
    return {
        "record_round_ms": median_ms(record_round),
        "history_ms": median_ms(cold),
        "history_warm_ms": median_ms(warm),
        "open_game_ms": median_ms(opened),
        "statistics_ms": median_ms(from_records),
        "peak_rss_mb": peak_rss_mb(),
    }


def run_child(args: list[str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--measure", choices=["ours", "naive"], help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--samples", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure == "ours":
        ids = json.loads((args.folder / "ids.json").read_text())
        print(json.dumps(measure_ours(args.folder / "ours", ids, args.samples)))
        return
    if args.measure == "naive":
        print(json.dumps(measure_naive(args.folder / "naive.json", args.samples)))
        return
    report: dict[str, Any] = {"limits": LIMITS, "sizes": {}}
    rng = random.Random(2026)
    records: list[dict[str, Any]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        records += [realistic_game(rng, len(records) + i) for i in range(size - len(records))]
        folder = Path(tempfile.mkdtemp(prefix=f"debrief-bench-{size}-"))
        try:
            built = build(folder, records[:size])
            (folder / "ids.json").write_text(json.dumps([r["meta"]["id"] for r in records[:size]]))
            ours = run_child(["--measure", "ours", "--folder", str(folder), "--samples", "30"])
            naive_samples = "10" if size <= 1000 else "5"
            naive = run_child(
                ["--measure", "naive", "--folder", str(folder), "--samples", naive_samples]
            )
            ratio = {k: round(naive[k] / ours[k], 1) if ours[k] else None for k in ours}
            report["sizes"][str(size)] = {
                "ours": ours,
                "naive_tinydb": naive,
                "naive_over_ours": ratio,
                **built,
            }
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
