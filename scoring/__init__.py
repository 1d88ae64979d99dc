"""Debrief's scoring engine: pure rules, no UI and no I/O.

A game record (FORMAT.md) goes in; standings come out, always derived from what happened.

>>> import scoring
>>> sorted(scoring.GAMES)
['black-spy', 'kompromat', 'spy', 'spywhere']
"""

from .base import JSON, AnyRules, GameRules, Record, Setup
from .errors import InvalidRecord, Problem, RecordError, Term
from .registry import GAMES
from .replay import (
    Correction,
    Replay,
    blank_round,
    check_round,
    checked,
    complete_round,
    draft_points,
    problems,
    replay,
    replay_until_broken,
    round_of,
    standings,
)

__all__ = [
    "GAMES",
    "JSON",
    "AnyRules",
    "Correction",
    "GameRules",
    "InvalidRecord",
    "Problem",
    "Record",
    "RecordError",
    "Replay",
    "Setup",
    "Term",
    "blank_round",
    "check_round",
    "checked",
    "complete_round",
    "draft_points",
    "problems",
    "replay",
    "replay_until_broken",
    "round_of",
    "standings",
]
