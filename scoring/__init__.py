"""Debrief's scoring engine: pure rules, no UI and no I/O.

A game record (FORMAT.md) goes in; standings come out, always derived from what happened.

>>> import scoring
>>> sorted(scoring.GAMES)
['black-spy', 'kompromat', 'spy', 'spywhere']
"""

from .base import JSON, AnyRules, GameRules, Record, RoundScore, Setup
from .errors import InvalidRecord, Problem, RecordError, Term
from .record import (
    GameRecord,
    Meta,
    as_int,
    as_list,
    as_object,
    game_record,
    options_as,
    state_as,
    table_key,
)
from .registry import GAMES
from .replay import (
    Correction,
    Replay,
    blank_round,
    check_round,
    check_round_after,
    checked,
    complete_round,
    draft_points,
    next_game,
    problems,
    replay,
    replay_until_broken,
    round_of,
    round_points,
    round_scores,
    standings,
)

__all__ = [
    "GAMES",
    "JSON",
    "AnyRules",
    "Correction",
    "GameRecord",
    "GameRules",
    "InvalidRecord",
    "Meta",
    "Problem",
    "Record",
    "RecordError",
    "Replay",
    "RoundScore",
    "Setup",
    "Term",
    "as_int",
    "as_list",
    "as_object",
    "blank_round",
    "check_round",
    "check_round_after",
    "checked",
    "complete_round",
    "draft_points",
    "game_record",
    "next_game",
    "options_as",
    "problems",
    "replay",
    "replay_until_broken",
    "round_of",
    "round_points",
    "round_scores",
    "standings",
    "state_as",
    "table_key",
]
