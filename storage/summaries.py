"""A game's summary for lists (history, home): derived from its record by `scoring`."""

from __future__ import annotations

from typing import Any

import scoring
from scoring.numbers import to_json


def summarize(record: dict[str, Any], valid: scoring.Replay | None = None) -> dict[str, Any]:
    """What the history and home screens show of a game, without its rounds (`valid`: the
    record's replay, when the caller has it already).

    A game stored before a rule it breaks is summarised from its rounds up to the broken one,
    and ``needs_correction`` names that round (its index); None for every valid game.
    """
    result, correction = (valid, None) if valid else scoring.replay_until_broken(record)
    meta = record.get("meta", {})
    return {
        "id": meta.get("id"),
        "game": result.rules.id,
        "players": list(result.table.names),
        "started": meta.get("started"),
        "ended": meta.get("ended"),
        "rounds": len(record["rounds"]),
        "finished": result.finished,
        "winners": result.winners,
        "leaders": result.leaders,
        "totals": {name: to_json(total) for name, total in result.totals.items()},
        "places": result.places,
        "facts": result.player_facts,
        "needs_correction": None if correction is None else correction.round,
    }
