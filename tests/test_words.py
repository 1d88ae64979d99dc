"""Counts and lengths in words, in both languages: "1 card", never "1 cards"; "3 min", never
"0 h 3 min"."""

from __future__ import annotations

import json

import pytest
from builders import SCENARIOS

import scoring
from scoring.spywhere import ScoreParts
from views.games.spywhere import how_scored
from views.i18n import translator
from views.result import headline, result_text


@pytest.mark.parametrize(
    ("language", "minutes", "said"),
    [
        ("en", 3, "3 min"),
        ("en", 60, "1 h"),
        ("en", 72, "1 h 12 min"),
        ("de", 3, "3 Min."),
        ("de", 120, "2 Std."),
        ("de", 72, "1 Std. 12 Min."),
    ],
)
def test_a_games_length_says_only_what_it_has(language: str, minutes: int, said: str) -> None:
    assert translator(language).duration(minutes) == said


@pytest.mark.parametrize(
    ("language", "parts", "said"),
    [
        ("en", ScoreParts(1, 0, 0), "1 card × (1 + 0 correct)"),
        ("en", ScoreParts(4, 2, 3), "4 cards × (1 + 2 correct) + 3 for ending the game"),
        ("de", ScoreParts(1, 1, 0), "1 Karte × (1 + 1 richtig)"),
        ("de", ScoreParts(5, 0, 0), "5 Karten × (1 + 0 richtig)"),
    ],
)
def test_a_spywhere_score_counts_its_cards_in_the_right_number(
    language: str, parts: ScoreParts, said: str
) -> None:
    assert how_scored(translator(language), parts) == said


@pytest.mark.parametrize(
    ("language", "winners", "said"),
    [
        ("en", ["Carla"], "Game over: Carla won!"),
        ("en", ["Carla", "Dirk"], "Game over: Carla & Dirk won!"),
        ("de", ["Carla"], "Spielende: Carla gewinnt!"),
        ("de", ["Carla", "Dirk"], "Spielende: Carla & Dirk gewinnen!"),
        ("de", [], "Spielende: Unentschieden."),
    ],
)
def test_the_winners_are_named_in_the_right_number(
    language: str, winners: list[str], said: str
) -> None:
    assert headline(translator(language), winners) == said


def test_a_shared_result_says_who_won_why_and_the_places() -> None:
    record = json.loads((SCENARIOS / "kompromat-short-final-round-cards.json").read_text())
    record["meta"] = {"id": "k", "started": "2026-11-01T20:00:00+01:00", "ended": None}
    result = scoring.replay(record)
    text = result_text(translator("en"), scoring.game_record(record), result)
    assert text == (
        "Kompromat, 1 Nov 2026: Game over: Ben won! Anna reached 9 tokens and lost at once. "
        "1. Ben 1, 2. Anna 22"
    )


@pytest.mark.parametrize(
    ("language", "seated", "said"),
    [
        ("en", 3, "Kompromat: 2 players. Chosen so far: 3."),
        ("de", 3, "Kompromat: 2 Spieler. Bisher gewählt: 3."),
        ("en", 2, None),  # enough: Start says it all
        ("en", 0, None),  # nobody chosen yet: the players' note says what to do
    ],
)
def test_a_start_that_cannot_be_tapped_says_why(language: str, seated: int, said: str) -> None:
    """Found by a new player: with a third player chosen for Kompromat, Start was greyed out
    and nothing said why."""
    from views.new_game import seating_problem

    assert seating_problem(translator(language), "Kompromat", 2, 2, seated) == said


@pytest.mark.parametrize("language", ["en", "de"])
def test_history_and_the_result_name_a_games_day_alike(language: str) -> None:
    """Found by a new player: History said "2026-11-27", the result card "27 Nov 2026"."""
    from types import SimpleNamespace

    from views.history import when
    from views.result import started_on

    t = translator(language)
    started = "2026-11-27T20:15:00+00:00"
    listed = when(t, SimpleNamespace(started=started))  # type: ignore[arg-type]
    assert listed == started_on(t, {"meta": {"started": started}})  # type: ignore[typeddict-item]
    assert "2026" in listed and "11-27" not in listed
