"""A round being entered is checked from the game kept at the last save, not by replaying the
whole record on every key: `check_round_after` says exactly what `check_round` says,
for a new round and for a correction with the saved rounds after it; `extended` is the replay
of the record with the round added."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import generators
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_previews import damaged

import scoring
from scoring.replay import MAX_ROUNDS
from storage import Store

randoms = st.randoms(use_true_random=False)
Record = dict[str, Any]


def a_round_of(rng: random.Random, rec: Record, names: list[str]) -> Any:
    """One of the game's own rounds (valid somewhere, perhaps not here), sometimes damaged."""
    if not rec["rounds"]:
        return {}
    round_ = copy.deepcopy(rng.choice(rec["rounds"]))
    return damaged(rng, round_, names) if rng.random() < 0.5 else round_


@settings(max_examples=150, deadline=None)
@given(randoms)
def test_checking_from_the_kept_game_says_what_check_round_says(rng: random.Random) -> None:
    rec = generators.any_record(rng)
    names = [p["name"] for p in rec["players"]]
    rounds = rec["rounds"]
    index = rng.randrange(len(rounds) + 1)  # a correction, or (len) a new round
    draft = a_round_of(rng, rec, names)
    before = scoring.replay({**rec, "rounds": rounds[:index]}, stored=True)
    later = rounds[index + 1 :]
    found = scoring.check_round_after(before, draft, index, later)
    expected = scoring.check_round(rec, draft, None if index == len(rounds) else index)
    assert [(e.code, e.path, e.message) for e in found] == [
        (e.code, e.path, e.message) for e in expected
    ]


@settings(max_examples=100, deadline=None)
@given(randoms)
def test_a_game_extended_by_a_round_is_the_replay_with_it(rng: random.Random) -> None:
    rec = generators.any_record(rng)
    names = [p["name"] for p in rec["players"]]
    cut = rng.randrange(len(rec["rounds"]) + 1)
    before = {**rec, "rounds": rec["rounds"][:cut]}
    round_ = a_round_of(rng, rec, names) if rng.random() < 0.3 else None
    if round_ is None and cut < len(rec["rounds"]):
        round_ = rec["rounds"][cut]
    if round_ is None:
        return
    kept = scoring.replay(before, stored=True)
    after, errors = scoring.checked({**before, "rounds": [*before["rounds"], round_]}, stored=True)
    if after is None:
        with pytest.raises(scoring.InvalidRecord) as refused:
            kept.extended(round_)
        assert [e.path for e in refused.value.errors] == [e.path for e in errors]
    else:
        assert kept.extended(round_).standings() == after.standings()


def test_a_round_nested_too_deep_is_said_alone_with_its_path_in_the_record() -> None:
    rng = random.Random(3)
    rec = generators.black_spy_record(rng, max_deals=3)
    before = scoring.replay(rec, stored=True)
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    draft = {"cards": {"x": deep}}
    found = scoring.check_round_after(before, draft, len(rec["rounds"]))
    expected = scoring.check_round(rec, draft)
    assert [(e.code, e.path) for e in found] == [(e.code, e.path) for e in expected]
    assert [e.code for e in found] == ["NestedTooDeep"]


def test_a_round_past_the_limit_of_rounds_is_refused_as_the_record_would_be() -> None:
    before = scoring.replay(generators.spy_record(random.Random(1)), stored=True)
    found = scoring.check_round_after(before, {}, MAX_ROUNDS)
    assert [e.code for e in found] == ["TooManyRounds"]


def test_a_sent_message_is_not_written_out_control_by_control() -> None:
    """Flet formats every message it sends into a debug line; with `brief_message_text` that
    line no longer walks the patch (a Save's patch at deal 40 is thousands of controls)."""
    from flet.messaging.protocol import Message, MessageAction

    from web.serve import brief_message_text

    class Patch:
        def __repr__(self) -> str:
            raise AssertionError("the patch was written out")

    brief_message_text()
    message = Message(MessageAction.PATCH_CONTROL, Patch())
    assert "PATCH_CONTROL" in f"send_message: {message}"


# --- the store keeps each game's replay per revision ------------------------------------------


def counting_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every whole-record replay from here on, counted (one entry each)."""
    counted: list[int] = []
    for name in ("replay", "replay_until_broken"):
        original = getattr(scoring, name)

        def counting(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            counted.append(1)
            return _original(*args, **kwargs)

        monkeypatch.setattr(scoring, name, counting)
    return counted


def test_a_game_is_played_through_once_per_revision_and_appends_play_one_round(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    rec = generators.black_spy_record(rng, max_deals=12)
    game_id = store.create_game("black-spy", rec["players"], rec["options"])["meta"]["id"]
    first, *rest = rec["rounds"]
    store.append_round(game_id, first)
    opened = store.game_at(game_id)
    replays = counting_replays(monkeypatch)
    assert store.game_at(game_id) is opened  # the same revision: nothing worked out again
    seen = []
    for round_ in rest:
        store.append_round(game_id, round_)
        seen.append(store.game_at(game_id))
        store.active_games()  # home's summaries come from the kept replay too
    assert replays == []  # each round played from the kept game, never the whole record
    monkeypatch.undo()
    for at in seen:
        assert at.result.standings() == scoring.standings(at.record)
    assert [at.revision for at in seen] == list(range(2, len(rest) + 2))


def test_a_changed_round_or_a_game_still_to_correct_is_played_through_in_full(
    store: Store,
) -> None:
    rng = random.Random(6)
    rec = generators.black_spy_record(rng, max_deals=6)
    game_id = store.create_game("black-spy", rec["players"], rec["options"])["meta"]["id"]
    for round_ in rec["rounds"][:3]:
        store.append_round(game_id, round_)
    store.replace_round(game_id, 0, rec["rounds"][3])
    at = store.game_at(game_id)
    expected = {**rec, "rounds": [rec["rounds"][3], *rec["rounds"][1:3]]}
    assert at.result.round_totals == scoring.replay(expected).round_totals
    store.remove_round(game_id, 1)
    at = store.game_at(game_id)
    assert len(at.result.round_totals) == 2
    with pytest.raises(scoring.InvalidRecord):  # a round that breaks a rule: nothing kept
        store.append_round(game_id, {"points": {"nobody": 60}})
    assert store.game_at(game_id) is at


def test_a_game_in_progress_stored_without_meta_is_listed_and_kept_like_any(
    tmp_path: Path,
) -> None:
    """`meta` is optional in a record (FORMAT.md): a game in progress without it (written by
    hand, another program) is summed up from the kept replay like any, also after a change."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    rec = generators.black_spy_record(random.Random(1), max_deals=3)
    store.create_game("black-spy", rec["players"], rec["options"])
    store.close()
    active = folder / "active.json"
    data = json.loads(active.read_text())
    [(game_id, doc)] = [(k, d) for t in data.values() for k, d in t.items() if "record" in d]
    del doc["record"]["meta"]
    active.write_text(json.dumps(data))
    store = Store.open(folder)
    try:
        assert [s.rounds for s in store.active_games()] == [0]
        assert store.game_at(game_id).result.round_totals == ()
        store.delete_game(game_id)
        assert [s.rounds for s in store.summaries(deleted=True)] == [0]
    finally:
        store.close()
