"""Counts and lengths in words, in both languages: "1 card", never "1 cards"; "3 min", never
"0 h 3 min" (issue 27)."""

from __future__ import annotations

import pytest

from scoring.spywhere import ScoreParts
from views.games.spywhere import how_scored
from views.i18n import translator


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
