"""A draft is written just after its key (storage.drafts): a SIGKILL right after a key loses at
most that key, never an earlier one, and never brings back the draft of a saved round.

A child (draft_child.py) keeps drafts key after key, faster than a player types, and saves a
round now and then; the test kills it right after a key it reported, many times, on the same
data folder. Reopened, the data must open clean, and the draft on disk must be the last
reported key's, the one before it, or (the child went on) the one after it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from builders import ROOT
from child_forge import Child, ChildForge
from killed import killed

from storage import Store

KILLS = 30
CHILD = Path(__file__).resolve().parent / "draft_child.py"


def kill_after_keys(child: Child, keys: int) -> list[str]:
    """Kill the child right after it reported its `keys`-th key (or ended); every line it
    printed."""
    assert child.stdout is not None
    lines: list[str] = []
    seen = 0
    while seen < keys:
        line = child.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        seen += line.startswith("kept ")
    out, err = killed(child)
    assert "Traceback" not in err, err
    return lines + out.splitlines()


def what_is_allowed(lines: list[str]) -> tuple[int, list[int]]:
    """(the rounds saved as last reported, the keys reported of the draft after them)."""
    ready = lines[0].split()
    assert ready[0] == "ready", lines[:3]
    rounds, keys = int(ready[1]), [int(ready[2])] if int(ready[2]) else []
    for line in lines[1:]:
        word, *numbers = line.split()
        if word == "saved":
            rounds, keys = int(numbers[0]), []
        elif word == "kept":
            assert int(numbers[0]) == rounds
            keys.append(int(numbers[1]))
    return rounds, keys


def check_after_kill(folder: Path, lines: list[str]) -> None:
    rounds, keys = what_is_allowed(lines)
    store = Store.open(folder)
    try:
        # A kill in the middle of a round's write is said (never said to be saved); one in the
        # middle of a draft's is not (a draft may lose its last tap).
        assert [n.code for n in store.notices if n.code != "InterruptedWriteRemoved"] == []
        assert store.check()[1] == []
        [game] = store.active_games()
        stored = game.rounds
        draft = store.draft("phone", game.id)
        assert stored in (rounds, rounds + 1), (stored, rounds)  # a save under way may land
        if stored == rounds + 1:  # saved with its draft, in one write: the draft is over
            assert draft is None, (draft, lines[-3:])
            return
        if draft is not None:  # never the draft of a saved round
            assert draft["entry"]["rounds"] == stored, (draft, lines[-3:])
        if not keys:  # no key of this draft reported: the one under way may be there
            return
        before = keys[-2] if len(keys) > 1 else None  # on disk for sure (None: no draft)
        if before is None and draft is None:
            return
        assert draft is not None, f"the draft of keys {keys[-2:]} is lost"
        lowest = keys[-1] if before is None else before
        assert lowest <= draft["entry"]["key"] <= keys[-1] + 1, (draft, keys[-3:])
    finally:
        store.close()


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL is POSIX")
def test_a_kill_right_after_a_key_loses_that_key_at_most(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    rng = random.Random(2025)
    written_behind = 0
    with ChildForge(CHILD, ROOT) as children:
        for seed in range(KILLS):
            child = children.start(str(folder), str(seed))
            lines = kill_after_keys(child, rng.randint(1, 40))
            check_after_kill(folder, lines)
            written_behind += len(lines) > 2
    assert written_behind >= KILLS // 2  # the kills did land while keys came
