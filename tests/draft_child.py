"""Keeps a draft key after key, saving a round now and then (for the draft kill test).

    python tests/draft_child.py DATA_FOLDER SEED

Each key is kept as the app keeps it (`Store.keep_draft`: in memory at once, on disk just
after) and reported after `keep_draft` returned: ``kept ROUNDS N`` (the draft of round
ROUNDS + 1, its Nth key in all). Every few keys the round is saved with its draft
(`append_round(..., saves_draft=SavesDraft(DEVICE))`, as a Save does) and reported
``saved ROUNDS``; the next key starts a new draft. Keys come back to back or a few
milliseconds apart, faster than a player's: the writer then lags behind, which is what the
test is about.
"""

from __future__ import annotations

import random
import sys
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import generators  # noqa: E402

from storage import Store  # noqa: E402
from storage.store import SavesDraft  # noqa: E402

NAMES = ["Anna", "Ben", "Carla", "Dirk"]
OPTIONS = {"first_dealer": "Anna", "variants": [], "end_value": 1_000_000}
DEVICE = "phone"


def main() -> None:
    folder, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    store = Store.open(folder)
    games = store.active_games()
    if games:
        game_id = games[0].id
    else:
        players = [{"name": name} for name in NAMES]
        game_id = store.create_game("black-spy", players, OPTIONS)["meta"]["id"]
    rounds = len(store.load_game(game_id)["rounds"])
    kept = store.draft(DEVICE, game_id)
    key = int(kept["entry"]["key"]) if kept else 0
    draft_id = str(kept["id"]) if kept else uuid.uuid4().hex
    print(f"ready {rounds} {key}", flush=True)
    while True:
        for _ in range(rng.randint(3, 15)):
            key += 1
            entry = {"rounds": rounds, "key": key}
            store.keep_draft(DEVICE, game_id, {"round": None, "entry": entry, "id": draft_id})
            print(f"kept {rounds} {key}", flush=True)
            if rng.random() < 0.5:
                time.sleep(rng.uniform(0, 0.004))
        deal = generators.black_spy_deal(rng, NAMES, False, 0.05)
        store.append_round(game_id, deal, saves_draft=SavesDraft(DEVICE))
        rounds += 1
        draft_id = uuid.uuid4().hex
        print(f"saved {rounds}", flush=True)


if __name__ == "__main__":
    main()
