"""Writes games in a loop and reports each write only after it returned (for the kill test).

    python tests/crash_child.py DATA_FOLDER SEED

Each line ``saved GAME_ID ROUNDS active|finished`` is printed after that state was saved. The
parent kills this process at random moments and checks that every reported state is there.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import generators  # noqa: E402

from storage import Store  # noqa: E402

NAMES = ["Anna", "Ben", "Carla", "Dirk"]
OPTIONS = {"first_dealer": "Anna", "variants": [], "end_value": 1_000_000}


def report(game_id: str, rounds: int, state: str) -> None:
    print(f"saved {game_id} {rounds} {state}", flush=True)


def main() -> None:
    folder, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    store = Store.open(folder)
    print("ready", flush=True)
    while True:
        game_id = store.create_game("black-spy", [{"name": n} for n in NAMES], OPTIONS)["meta"][
            "id"
        ]
        report(game_id, 0, "active")
        rounds = 0
        for _ in range(rng.randint(1, 5)):
            store.append_round(game_id, generators.black_spy_deal(rng, NAMES, False, 0.05))
            rounds += 1
            report(game_id, rounds, "active")
        store.finish_game(game_id)
        report(game_id, rounds, "finished")
        if rng.random() < 0.3:  # a change to a finished game touches two files
            store.replace_round(game_id, 0, generators.black_spy_deal(rng, NAMES, False, 0.05))
            report(game_id, rounds, "finished")
        if rng.random() < 0.2:  # and back to the table, and to the history again
            store.reopen_game(game_id)
            report(game_id, rounds, "active")
            store.finish_game(game_id)
            report(game_id, rounds, "finished")


if __name__ == "__main__":
    main()
