"""Statistics from summaries, checked against numbers worked out from known records."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from types import SimpleNamespace

import generators
from builders import CODE, SCENARIOS, T3, T4, T5, kompromat_game, mission
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.stats import head_to_head, player_stats
from storage.summaries import Summary, summarize


def summary_of(record: dict, deleted_at: str | None = None) -> Summary:
    return summarize(record, deleted_at=deleted_at)


def finished_spywhere() -> dict:
    return json.loads((SCENARIOS / "spywhere-four-players.json").read_text())


def test_figures_for_a_known_game() -> None:
    stats = player_stats([summary_of(finished_spywhere())], ["Anna"])["spywhere"]
    assert (stats.games, stats.wins, stats.win_rate, stats.average) == (1, 1, 1, 18)
    assert stats.facts == {"correct": 2}
    ben = player_stats([summary_of(finished_spywhere())], ["ben"])["spywhere"]
    assert (ben.wins, ben.best, ben.worst, ben.facts) == (0, 6, 6, {"correct": 1})


def test_unfinished_and_deleted_games_do_not_count() -> None:
    unfinished = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    deleted = summary_of(finished_spywhere(), deleted_at="2026-11-21T20:00:00+00:00")
    assert player_stats([summary_of(unfinished), deleted], ["Anna"]) == {}


def test_lowest_is_best_in_black_spy() -> None:
    rng = random.Random(3)
    records = [generators.black_spy_record(rng, count=3) for _ in range(20)]
    summaries = [summary_of(r) for r in records if scoring.replay(r).finished]
    name = summaries[0].players[0]
    stats = player_stats(summaries, [name])["black-spy"]
    mine = [Fraction(str(s.totals[name])) for s in summaries if name in s.players]
    assert (stats.best, stats.worst) == (min(mine), max(mine))
    assert stats.games == len(mine)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_stats_agree_with_the_records(rng: random.Random) -> None:
    records = [generators.any_record(rng) for _ in range(12)]
    summaries = [summary_of(r) for r in records]
    name = rng.choice(generators.NAMES[:5])
    stats = player_stats(summaries, [name])
    replays = [scoring.replay(r) for r in records]  # each record played through once
    for game, figures in stats.items():
        played = [
            (r, replayed)
            for r, replayed in zip(records, replays, strict=True)
            if r["game"] == game and replayed.finished and name in [p["name"] for p in r["players"]]
        ]
        assert figures.games == len(played)
        assert figures.wins == sum(name in replayed.winners for _, replayed in played)
        totals = [replayed.totals[name] for _, replayed in played]
        assert figures.average == sum(totals, Fraction(0)) / len(totals)
        if game == "black-spy":
            deals = [d for r, _ in played for d in scoring.standings(r)["deals"]]
            assert figures.facts["moons"] == sum(d["moon"] == name for d in deals)


def test_head_to_head_counts_who_finished_ahead() -> None:
    summary = summary_of(finished_spywhere())  # Anna 18, Ben 6, Carla 8, Dirk 6
    record = head_to_head([summary], ["Anna"], ["Ben"])["spywhere"]
    assert (record.games, record.first_ahead, record.second_ahead, record.level) == (1, 1, 0, 0)
    level = head_to_head([summary], ["Ben"], ["Dirk"])["spywhere"]
    assert level.level == 1
    spy = Summary.from_dict(
        {
            **summary_of(json.loads((SCENARIOS / "spy-three-players.json").read_text())).to_dict(),
            "finished": True,  # places: lower is better
        }
    )
    assert head_to_head([spy], ["Ben"], ["Anna"])["spy"].first_ahead == 1


def ben_loses_at_nine_tokens_with_more_vp() -> dict:
    """Ben wins four targets with "!" under them, then a code with one more: 9 tokens, 27 VP
    against Anna's 0 — and Anna wins."""
    return kompromat_game(
        mission(T5, [2], [3], alarm=3),
        mission(T4, [3], [4], alarm=2),
        mission(T4, [4], [5], alarm=2),
        mission(T3, [5], [6], alarm=1),
        mission(CODE, [2], [3], alarm=1),
        packed=True,
    )


def test_head_to_head_follows_the_real_result() -> None:
    """Head to head follows the game's real result (a 9-token loss loses, whatever
    the victory points)."""
    record = ben_loses_at_nine_tokens_with_more_vp()
    result = scoring.replay(record)
    assert result.winners == ["Anna"] and result.totals["Ben"] > result.totals["Anna"]
    h2h = head_to_head([summary_of(record)], ["Anna"], ["Ben"])["kompromat"]
    assert (h2h.first_ahead, h2h.second_ahead, h2h.level) == (1, 0, 0)


def test_results_list_the_winner_first_then_the_games_own_order() -> None:
    """A game's page lists the winner first, then the rest by the game's own order."""
    assert scoring.replay(ben_loses_at_nine_tokens_with_more_vp()).ranking == ["Anna", "Ben"]
    spywhere = scoring.replay(finished_spywhere())  # Anna 18, Ben 6, Carla 8, Dirk 6
    assert spywhere.ranking == ["Anna", "Carla", "Ben", "Dirk"]
    assert spywhere.places == {"Anna": 1, "Carla": 2, "Ben": 3, "Dirk": 3}


def test_a_game_length_needs_two_comparable_times() -> None:
    """A `started` without a UTC offset and an `ended` with one once broke History and
    the game's page (comparing them raised); such a length is simply not shown."""
    from views.history import length
    from views.i18n import Translator

    summary = SimpleNamespace(started="2026-11-20T19:30:00", ended="2026-11-20T21:00:00+01:00")
    assert length(Translator("en"), summary) is None
    both = SimpleNamespace(started="2026-11-20T19:30:00+01:00", ended="2026-11-20T21:00:00+01:00")
    assert length(Translator("en"), both) == "1 h 30 min"
