"""What a valid record looks like to the screens that read it, with types: its envelope as a
`GameRecord`, and a replay's state and options as the game's own types.

A record is JSON (`Record`); once `replay` (or `replay_until_broken`) has accepted it, its
envelope has a known shape, which `game_record` checks and names. Its rounds stay JSON: a
stored game may need a round corrected, and each game reads its rounds itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NotRequired, TypedDict, TypeGuard, TypeVar

from .base import JSON, Record
from .replay import Replay

T = TypeVar("T")


class Meta(TypedDict, total=False):
    """A record's `meta` (FORMAT.md): never part of the scoring."""

    id: str
    started: str | None
    ended: str | None
    notes: str


class GameRecord(TypedDict):
    """A record's envelope (FORMAT.md), as `replay` accepts it."""

    format: str
    game: str  # an id of `scoring.GAMES`
    players: list[Record]  # {"name": ..., "born": ...} in seating order
    options: Record  # the game's own, as the record writes them
    rounds: list[JSON]  # each game reads its own (one may need a correction)
    meta: NotRequired[Meta]


def game_record(data: Record) -> GameRecord:
    """`data`, a record `replay` (or `replay_until_broken`) accepted, as a `GameRecord`;
    raises TypeError for anything that is not shaped like one."""
    if not _is_game_record(data):
        raise TypeError("not a game record (FORMAT.md)")
    return data


def _is_game_record(data: Record) -> TypeGuard[GameRecord]:
    players, meta = data.get("players"), data.get("meta", {})
    return (
        isinstance(data.get("format"), str)
        and isinstance(data.get("game"), str)
        and isinstance(players, list)
        and all(isinstance(player, dict) for player in players)
        and isinstance(data.get("options"), dict)
        and isinstance(data.get("rounds"), list)
        and isinstance(meta, dict)
        and all(isinstance(meta.get(key, ""), str) for key in ("id", "notes"))
        and all(isinstance(meta.get(key), str | None) for key in ("started", "ended"))
    )


def state_as(result: Replay, kind: type[T]) -> T:
    """The state of `result`, which a game's screen knows to be its own `kind`; raises
    TypeError otherwise."""
    state = result.state
    if not isinstance(state, kind):
        raise TypeError(f"a {result.rules.id} state is not a {kind.__name__}")
    return state


def options_as(result: Replay, kind: type[T]) -> T:
    """The options of `result`, which a game's screen knows to be its own `kind`; raises
    TypeError otherwise."""
    options = result.setup.options
    if not isinstance(options, kind):
        raise TypeError(f"{result.rules.id} options are not a {kind.__name__}")
    return options


def as_object(value: JSON) -> Record:
    """`value`, which must be a JSON object; raises TypeError otherwise (as reading a key of
    it would)."""
    if not isinstance(value, dict):
        raise TypeError(f"not a JSON object: {type(value).__name__}")
    return value


def as_int(value: JSON) -> int:
    """`int(value)` for a JSON number or string; raises TypeError otherwise (as int() does)."""
    if not isinstance(value, str | int | float):
        raise TypeError(f"not a number: {type(value).__name__}")
    return int(value)


def as_list(value: JSON) -> list[JSON]:
    """`value`, which must be a JSON array; raises TypeError otherwise."""
    if not isinstance(value, list):
        raise TypeError(f"not a JSON array: {type(value).__name__}")
    return value


def table_key(game: str, names: Sequence[str], options: Record) -> str:
    """What makes a table the same table again: the game, the players round the table (in
    seating order, wherever the circle is begun) and the options, but not who began (the
    first dealer, the starting player: any option naming a player). Two games of one table,
    played again with the deal moved on, have the same key.

    >>> seated = table_key("spy", ["Anna", "Ben", "Carla"], {})
    >>> table_key("spy", ["Ben", "Carla", "Anna"], {}) == seated
    True
    >>> table_key("spy", ["Ben", "Anna", "Carla"], {}) == seated  # Anna left of Carla now
    False
    """
    circle = min([*names[start:], *names[:start]] for start in range(len(names)))
    kept = {key: v for key, v in options.items() if not (isinstance(v, str) and v in names)}
    return json.dumps([game, circle, kept], sort_keys=True, ensure_ascii=False)
