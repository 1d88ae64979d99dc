"""The interface every game's rules implement, so callers never special-case a game by name.

A game is replayed as: read its options; start a state; for each round, read the round's
shape (errors that need no history) and then `play` it on the state (errors that need the
history, e.g. a player already out) which returns the next state. Everything shown to players
(totals, winners, next dealer, ...) is derived from the state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, Generic, Protocol, TypeAlias, TypeVar

from .errors import Term
from .reader import Reader
from .table import Table

# A value json.dumps accepts (and json.loads gives).
JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | str | int | float | bool | None
Record = dict[str, JSON]  # a game record (FORMAT.md), or one of its rounds
OptionsT = TypeVar("OptionsT")
OptionsT_co = TypeVar("OptionsT_co", covariant=True)
RoundT = TypeVar("RoundT")
StateT = TypeVar("StateT")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
RankKey = TypeVar("RankKey", Fraction, tuple[int, int])  # a total, or (points, tie-break)


def rank(keys: Mapping[str, RankKey]) -> dict[str, int]:
    """Places from sort keys (smaller is better); equal keys share a place and the next place
    counts everyone before it ("1, 2, 2, 4").

    >>> rank({"Anna": Fraction(3), "Ben": Fraction(1), "Carla": Fraction(3), "Dirk": Fraction(5)})
    {'Anna': 2, 'Ben': 1, 'Carla': 2, 'Dirk': 4}
    """
    return {
        name: 1 + sum(1 for other in keys.values() if other < key) for name, key in keys.items()
    }


def left_of(players: list[JSON], name: JSON) -> JSON:
    """The player seated to the left of `name`: the next one in a valid record's `players`.

    >>> left_of([{"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}], "Carla")
    'Anna'
    """
    names = [player["name"] for player in players if isinstance(player, dict)]
    return names[(names.index(name) + 1) % len(names)]


@dataclass(frozen=True)
class Setup(Generic[OptionsT_co]):
    """What is fixed for a whole game: who sits where, and the options."""

    table: Table
    options: OptionsT_co  # covariant: any game's setup is a `Setup[object]`


@dataclass(frozen=True)
class RecordKind:
    """A record a game keeps (the statistics' records): `title` (an English text to translate),
    what is measured in one game — a player's total ("total"), one of their facts
    ("fact:moons"), or the game's rounds ("rounds", the winner's) — and whether the `lowest`
    or the highest is best; "count" counts the games where a player's fact is not 0."""

    title: str
    measure: str
    best: str  # "lowest", "highest" or "count"


@dataclass(frozen=True)
class RoundScore:
    """What one round scored for a player, as the table entered it: its `points` (a pile's,
    a moon's, a round's victory points), and `became`, the total a rule then made of the
    total they reached (Going Back: 150 halved to 75), or None when no rule did; `said`: that
    rule's words, with the total as ``{total}`` ("halved to {total}")."""

    points: Fraction
    became: Fraction | None = None
    said: Term | None = field(default=None, compare=False)


class RulesUser(Protocol[T_co]):
    """Something done with one game's rules, whatever its options, round and state types: the
    registry holds `AnyRules`, and `AnyRules.use` hands the rules over with their types."""

    def __call__(self, rules: GameRules[OptionsT, RoundT, StateT], /) -> T_co: ...


class AnyRules(Protocol):
    """Some game's rules, its types unknown: what every game tells without them; `use` for
    the rest (every `GameRules` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def lower_is_better(self) -> bool: ...
    @property
    def places_only(self) -> bool: ...
    @property
    def records(self) -> tuple[RecordKind, ...]: ...
    @property
    def loss_fact(self) -> str | None: ...
    @property
    def lost_by_rule(self) -> str | None: ...
    @property
    def ahead_at_equal(self) -> str | None: ...

    def next_game(self, players: list[JSON], options: Record) -> tuple[list[JSON], Record]: ...
    def starter(self, players: list[JSON], options: Record) -> str: ...
    def use(self, user: RulesUser[T]) -> T: ...


class GameRules(ABC, Generic[OptionsT, RoundT, StateT]):
    """The rules of one game."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    lower_is_better: ClassVar[bool] = False  # Black Spy points and SPY placements
    places_only: ClassVar[bool] = False  # SPY: its totals are places, no points
    records: ClassVar[tuple[RecordKind, ...]] = ()  # what the statistics' records are
    # A player's fact that says they lost by a rule, whatever the points (Kompromat's 9
    # tokens): their points are no result (no record counts them, no margin is measured to
    # them), and `lost_by_rule` says it, with their name as ``{name}``.
    loss_fact: ClassVar[str | None] = None
    lost_by_rule: ClassVar[str | None] = None
    # Why a player is ahead of the next one at equal points (Kompromat: more tokens), if the
    # game's places can differ at equal points.
    ahead_at_equal: ClassVar[str | None] = None

    @abstractmethod
    def read_options(self, reader: Reader, table: Table, raw: object) -> OptionsT | None:
        """The `options` object; None (with errors added) when unusable."""

    @abstractmethod
    def read_round(
        self, reader: Reader, setup: Setup[OptionsT], raw: object, path: str
    ) -> RoundT | None:
        """One round's own content; None (with errors added) when it is not valid by itself."""

    @abstractmethod
    def start(self, setup: Setup[OptionsT]) -> StateT:
        """The state before the first round."""

    @abstractmethod
    def play(self, reader: Reader, state: StateT, rnd: RoundT, path: str) -> StateT | None:
        """The state after `rnd`, or None (with errors added) when it cannot follow `state`."""

    @abstractmethod
    def totals(self, state: StateT) -> dict[str, Fraction]:
        """One number per player, in seating order (points, victory points or placements)."""

    @abstractmethod
    def finished(self, state: StateT) -> bool:
        """Whether the game is over: no round may follow."""

    @abstractmethod
    def winners(self, state: StateT) -> list[str]:
        """The winners of a finished game (several on a shared win); empty otherwise or on a
        draw."""

    @abstractmethod
    def details(self, state: StateT) -> dict[str, JSON]:
        """The game's own standings keys (FORMAT.md), as JSON values."""

    @abstractmethod
    def blank_round(self, state: StateT) -> dict[str, JSON]:
        """A round to start entering from: the right shape, nothing happened yet."""

    def end_value(self, state: StateT) -> int | None:
        """The total that ends the game, for games that have one (Black Spy); else None."""
        return None

    def places(self, state: StateT) -> dict[str, int]:
        """Each player's place, 1 = best, by the game's own order of results: lower totals
        first where lower is better (Black Spy points, SPY placements), else higher; equal
        results share a place. Games with other tie-breaks or losses override this."""
        sign = 1 if self.lower_is_better else -1
        return rank({name: sign * total for name, total in self.totals(state).items()})

    def player_facts(self, state: StateT) -> dict[str, dict[str, int]]:
        """Per player, the game's own figures for statistics (moons shot, token losses, ...);
        {} for a game without any."""
        return {}

    def round_scores(self, before: StateT, after: StateT) -> dict[str, RoundScore]:
        """What the round that led from `before` to `after` scored for each player, as it was
        entered. Here, what it added to each total; a game whose rules then change a total
        (Black Spy's Going Back) says the points and what the total became apart."""
        old, new = self.totals(before), self.totals(after)
        return {name: RoundScore(new[name] - old.get(name, Fraction(0))) for name in new}

    def draft_points(self, state: StateT, draft: object) -> dict[str, Fraction]:
        """Each player's points for a round still being entered, as far as they can be read
        (for live display); games without per-round points return {}."""
        return {}

    def complete_round(self, state: StateT, draft: dict[str, JSON], player: str) -> dict[str, JSON]:
        """`draft` with `player`'s part filled in from what the others' parts leave over.

        Only games where a round's parts must add up (Black Spy) can do this; the others
        return the draft unchanged.
        """
        return draft

    def next_game(self, players: list[JSON], options: Record) -> tuple[list[JSON], Record]:
        """The players and options of the same table's next game, as tables play again: who
        begins moves one seat to the left. Here the players are listed in turn order (SPY,
        Spywhere), so the list turns by one; a game whose options name who begins (the first
        dealer, the starting player) moves that instead."""
        return [*players[1:], *players[:1]], dict(options)

    def starter(self, players: list[JSON], options: Record) -> str:
        """Who began the game: the first in turn order (SPY, Spywhere); a game whose options
        name who begins (the first dealer, the starting player) says so."""
        first = players[0]
        assert isinstance(first, dict)
        return str(first["name"])

    def use(self, user: RulesUser[T]) -> T:
        """`user`'s result for these rules (see `AnyRules`)."""
        return user(self)
