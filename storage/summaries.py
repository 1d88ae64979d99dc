"""A game's summary for lists (history, home): derived from its record by `scoring`."""

from __future__ import annotations

from typing import Any, TypedDict

import scoring
from scoring.numbers import JSONNumber, to_json


class Summary(TypedDict):
    """What the history, home and statistics show of a game, without its rounds."""

    id: str
    game: str
    players: list[str]
    started: str | None
    ended: str | None
    rounds: int
    finished: bool
    winners: list[str]
    leaders: list[str]
    totals: dict[str, JSONNumber]
    places: dict[str, int]
    facts: dict[str, dict[str, int]]
    needs_correction: int | None  # the first round to correct (a game stored before a rule)
    active: bool  # still at the table
    deleted_at: str | None  # in the bin since then


def summarize(
    record: dict[str, Any],
    valid: scoring.Replay | None = None,
    active: bool = False,
    deleted_at: str | None = None,
    correction: scoring.Correction | None = None,
) -> Summary:
    """A game's summary (`valid`: the record's replay, when the caller has it already, as far
    as it is valid: then `correction` is what `scoring.replay_until_broken` said with it).

    A game stored before a rule it breaks is summarised from its rounds up to the broken one,
    and ``needs_correction`` names that round (its index); None for every valid game.
    """
    result, correction = (valid, correction) if valid else scoring.replay_until_broken(record)
    meta = record.get("meta", {})
    return {
        "id": str(meta.get("id")),
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
        "active": active,
        "deleted_at": deleted_at,
    }
