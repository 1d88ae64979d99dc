"""Statistics over many games, from their summaries (no records needed): per player and game,
and head to head. Only finished games count.

A summary is what storage keeps per game (read-only): ``game``, ``players``, ``finished``,
``winners``, ``totals`` (JSON numbers), ``places`` (1 = best, by the game's own result) and
``facts`` (each player's game figures, from `GameRules`). A game that ``needs_correction``
(stored before a rule it breaks) counts nowhere until it is corrected.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, TypeVar

from .registry import GAMES
from .table import folded_name, name_key


class Summary(Protocol):
    """What statistics read of a game's summary (storage's summaries hold more)."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> Sequence[str]: ...
    @property
    def totals(self) -> Mapping[str, int | float]: ...  # JSON numbers
    @property
    def places(self) -> Mapping[str, int]: ...
    @property
    def facts(self) -> Mapping[str, Mapping[str, int]]: ...
    @property
    def needs_correction(self) -> int | None: ...
    @property
    def deleted_at(self) -> str | None: ...


@dataclass
class PlayerGameStats:
    """One player's record in one game."""

    game: str
    games: int = 0
    wins: int = 0
    scores: list[Fraction] = field(default_factory=list)
    facts: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None

    @property
    def average(self) -> Fraction | None:
        return sum(self.scores, Fraction(0)) / len(self.scores) if self.scores else None

    @property
    def best(self) -> Fraction | None:
        """The best result: the lowest total where lower is better (Black Spy, SPY places)."""
        if not self.scores:
            return None
        return min(self.scores) if GAMES[self.game].lower_is_better else max(self.scores)

    @property
    def worst(self) -> Fraction | None:
        if not self.scores:
            return None
        return max(self.scores) if GAMES[self.game].lower_is_better else min(self.scores)


class Seating:
    """Who of `people` (each known by several names) sat at a game, and under which name:
    their own spelling first, then case-insensitively, then written in look-alike characters
    of another script (a game stored before look-alikes were one name may seat Anna beside
    "Аnna"). Each person's keys are worked out once, each game's once per game."""

    WAYS: tuple[Callable[[str], str], ...] = (str, folded_name, name_key)

    def __init__(self, people: Mapping[str, Collection[str]]) -> None:
        self.keys = {
            person: [{way(name) for name in names} for way in self.WAYS]
            for person, names in people.items()
        }

    def seated(self, players: Sequence[str]) -> dict[str, str]:
        """Each person at the game and their name in it."""
        if not self.keys:  # nobody to look for (no group chosen)
            return {}
        seat_keys = [[way(name) for name in players] for way in self.WAYS]
        found: dict[str, str] = {}
        for person, keys in self.keys.items():
            for wanted, at_seats in zip(keys, seat_keys, strict=True):
                name = next(
                    (n for n, k in zip(players, at_seats, strict=True) if k in wanted), None
                )
                if name is not None:
                    found[person] = name
                    break
        return found


S = TypeVar("S", bound=Summary)


def finished(summaries: Iterable[S]) -> list[S]:
    """The games that count: finished, not in the bin, not waiting for a correction."""
    return [s for s in summaries if s.finished and not s.deleted_at and s.needs_correction is None]


def player_stats(
    summaries: Iterable[Summary], names: Collection[str]
) -> dict[str, PlayerGameStats]:
    """Per game, the record of the player who played under any of `names` (a renamed player's
    former names count too).

    >>> from types import SimpleNamespace
    >>> games = [SimpleNamespace(game="spy", players=["Anna", "Ben"], finished=True,
    ...          winners=["Anna"], totals={"Anna": 1, "Ben": 2}, places={"Anna": 1, "Ben": 2},
    ...          facts={}, needs_correction=None, deleted_at=None)]
    >>> stats = player_stats(games, ["anna"])["spy"]
    >>> (stats.games, stats.wins, stats.best)
    (1, 1, Fraction(1, 1))
    """
    result: dict[str, PlayerGameStats] = {}
    seating = Seating({"": names})
    for summary in finished(summaries):
        name = seating.seated(summary.players).get("")
        if name is None:
            continue
        stats = result.setdefault(summary.game, PlayerGameStats(summary.game))
        stats.games += 1
        stats.wins += name in summary.winners
        stats.scores.append(Fraction(str(summary.totals[name])))
        for fact, value in summary.facts.get(name, {}).items():
            stats.facts[fact] = stats.facts.get(fact, 0) + int(value)
    return result


@dataclass
class HeadToHead:
    """Two players' finished games together, in one game."""

    game: str
    games: int = 0
    first_ahead: int = 0
    second_ahead: int = 0
    level: int = 0


def head_to_head(
    summaries: Iterable[Summary], first: Collection[str], second: Collection[str]
) -> dict[str, HeadToHead]:
    """Per game: how often each finished ahead of the other by the game's real result (its
    places: a Kompromat 9-token loss is behind whatever the points), or level."""
    result: dict[str, HeadToHead] = {}
    seating = Seating({"first": first, "second": second})
    for summary in finished(summaries):
        seats = seating.seated(summary.players)
        a, b = seats.get("first"), seats.get("second")
        if a is None or b is None or a == b:
            continue
        record = result.setdefault(summary.game, HeadToHead(summary.game))
        record.games += 1
        place_a, place_b = summary.places[a], summary.places[b]
        if place_a == place_b:
            record.level += 1
        elif place_a < place_b:
            record.first_ahead += 1
        else:
            record.second_ahead += 1
    return result
