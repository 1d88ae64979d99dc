"""A game's summary for lists (history, home, statistics): derived from its record by `scoring`.

A `Summary` cannot be changed, so it is handed out as it is kept, never copied (copying every
summary was 90% of opening a history of 10,000 games). It lives as one flat row of
JSON scalars, the form the index file keeps it in (`Summary.row`): reading 10,000 rows is one
`json.loads` of a list of lists of scalars and a check of the kinds of each row's fields
(`summaries_of`), and its parts (the players' totals, places and facts) are made only when
asked for. Seats are in the game's seating order; winners and leaders are bit masks over the
seats:

    id, game, started, ended, rounds, finished, needs_correction, active, deleted_at,
    winners, leaders, n (players), k (facts per player),
    n names, n totals, n places, k fact names, n × k fact values (player by player)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, cast, final

import scoring
from scoring.numbers import JSONNumber, to_json

Scalar = str | int | float | bool | None
Row = list[Scalar]

HEAD: Final = 13  # the fixed fields before the players
ID, GAME, STARTED, ENDED, ROUNDS, FINISHED, NEEDS_CORRECTION, ACTIVE, DELETED_AT = range(9)
WINNERS, LEADERS, PLAYERS, FACTS = range(9, HEAD)

# The keys of a summary as a JSON object (`Summary.to_dict`): the journal of an import and
# index files written before schema version 7 hold summaries so.
KEYS: Final = (
    "id",
    "game",
    "players",
    "started",
    "ended",
    "rounds",
    "finished",
    "winners",
    "leaders",
    "totals",
    "places",
    "facts",
    "needs_correction",
    "active",
    "deleted_at",
)

_TEXT = frozenset({str})
_INT = frozenset({int})
_NUMBER = frozenset({int, float})
_TEXT_OR_NONE = (str, type(None))


@final
class Summary:
    """What the history, home and statistics show of a game, without its rounds.

    Read-only: the players, winners and leaders are tuples, the totals, places and facts
    read-only mappings (made anew on each read), and no attribute can be set.
    """

    __slots__ = ("_row",)

    def __init__(self, row: Row) -> None:
        """Wrap a row that `row_problem` accepts (not checked here: see `from_row`)."""
        self._row = row

    # --- the fixed fields --------------------------------------------------------------------
    # The casts below hold for every row: `from_row` checks each field's type, `summarize`
    # makes them so.

    @property
    def id(self) -> str:
        return cast(str, self._row[ID])

    @property
    def game(self) -> str:
        return cast(str, self._row[GAME])

    @property
    def started(self) -> str | None:
        return cast(str | None, self._row[STARTED])

    @property
    def ended(self) -> str | None:
        return cast(str | None, self._row[ENDED])

    @property
    def rounds(self) -> int:
        return cast(int, self._row[ROUNDS])

    @property
    def finished(self) -> bool:
        return cast(bool, self._row[FINISHED])

    @property
    def needs_correction(self) -> int | None:
        """The first round to correct (a game stored before a rule it breaks); None if valid."""
        return cast(int | None, self._row[NEEDS_CORRECTION])

    @property
    def active(self) -> bool:
        """Still at the table."""
        return cast(bool, self._row[ACTIVE])

    @property
    def deleted_at(self) -> str | None:
        """In the bin since then."""
        return cast(str | None, self._row[DELETED_AT])

    # --- the players' parts ------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return cast(tuple[str, ...], tuple(self._row[HEAD : HEAD + self._count]))

    @property
    def winners(self) -> tuple[str, ...]:
        return self._seats(cast(int, self._row[WINNERS]))

    @property
    def leaders(self) -> tuple[str, ...]:
        return self._seats(cast(int, self._row[LEADERS]))

    @property
    def totals(self) -> Mapping[str, JSONNumber]:
        n = self._count
        totals = cast(list[JSONNumber], self._row[HEAD + n : HEAD + 2 * n])
        return MappingProxyType(dict(zip(self.players, totals, strict=True)))

    @property
    def places(self) -> Mapping[str, int]:
        """Each player's place, 1 = best, by the game's own result."""
        n = self._count
        places = self._row[HEAD + 2 * n : HEAD + 3 * n]
        return MappingProxyType(dict(zip(self.players, cast(list[int], places), strict=True)))

    @property
    def facts(self) -> Mapping[str, Mapping[str, int]]:
        """Each player's figures of the game for statistics (moons shot, …); empty for a game
        without any."""
        n, k = self._count, cast(int, self._row[FACTS])
        if not k:
            return MappingProxyType({})
        start = HEAD + 3 * n
        names = cast(list[str], self._row[start : start + k])
        values = cast(list[int], self._row[start + k :])
        facts = {}
        for seat, player in enumerate(self.players):
            figures = values[seat * k : (seat + 1) * k]
            facts[player] = MappingProxyType(dict(zip(names, figures, strict=True)))
        return MappingProxyType(facts)

    @property
    def _count(self) -> int:
        return cast(int, self._row[PLAYERS])

    def _seats(self, mask: int) -> tuple[str, ...]:
        players = self._row[HEAD : HEAD + self._count]
        return tuple(cast(str, name) for seat, name in enumerate(players) if mask >> seat & 1)

    # --- as stored ---------------------------------------------------------------------------

    @property
    def row(self) -> Sequence[Scalar]:
        """The row the index file keeps (the summary's own: read, never changed)."""
        return self._row

    def to_dict(self) -> dict[str, Any]:
        """The summary as a JSON object (the form of `KEYS`)."""
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.players),
            "started": self.started,
            "ended": self.ended,
            "rounds": self.rounds,
            "finished": self.finished,
            "winners": list(self.winners),
            "leaders": list(self.leaders),
            "totals": dict(self.totals),
            "places": dict(self.places),
            "facts": {player: dict(facts) for player, facts in self.facts.items()},
            "needs_correction": self.needs_correction,
            "active": self.active,
            "deleted_at": self.deleted_at,
        }

    @classmethod
    def from_row(cls, row: object) -> Summary | None:
        """The summary a stored row holds; None when it is not one (`row_problem`)."""
        return cls(cast(Row, row)) if row_problem(row) is None else None

    @classmethod
    def from_dict(cls, value: object) -> Summary | None:
        """The summary a JSON object of `KEYS` holds; None when it is not one (a key missing,
        a value of the wrong kind, a player's part missing or given for someone else)."""
        if not isinstance(value, dict) or not set(KEYS) <= set(value):
            return None
        players = value["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            return None
        parts = [value[key] for key in ("totals", "places", "facts")]
        seated = set(players)
        if len(seated) != len(players) or not all(
            isinstance(part, dict) and set(part) == seated for part in parts[:2]
        ):
            return None
        facts = parts[2]
        if not isinstance(facts, dict) or (facts and set(facts) != seated):
            return None
        try:
            seats = [_mask(players, value["winners"]), _mask(players, value["leaders"])]
            row = _row(
                value,
                seats,
                players,
                [parts[0][p] for p in players],
                [parts[1][p] for p in players],
                [facts[p] for p in players] if facts else [],
            )
        except (TypeError, ValueError):
            return None
        return cls.from_row(row)

    # --- comparing, showing ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Summary) and self._row == other._row

    def __hash__(self) -> int:
        return hash(tuple(self._row))

    def __repr__(self) -> str:
        return f"Summary({self.to_dict()!r})"


def _mask(players: list[str], chosen: object) -> int:
    """The bit mask of the seats of `chosen` (names of some of `players`)."""
    if not isinstance(chosen, list) or not all(isinstance(name, str) for name in chosen):
        raise ValueError("not a list of names")
    return sum(1 << players.index(name) for name in set(chosen))


def _row(
    value: Mapping[str, Any],
    seats: list[int],
    players: list[str],
    totals: list[Any],
    places: list[Any],
    facts: list[Any],
) -> Row:
    """The row of a summary's parts; `facts` is [] or one mapping per player, each with the
    first one's figures (a figure another player lacks counts 0)."""
    names: list[str] = list(facts[0]) if facts else []
    if facts and not all(isinstance(f, Mapping) for f in facts):
        raise ValueError("facts that are not figures")
    values = [f.get(name, 0) for f in facts for name in names]
    head: Row = [
        value["id"],
        value["game"],
        value["started"],
        value["ended"],
        value["rounds"],
        value["finished"],
        value["needs_correction"],
        value["active"],
        value["deleted_at"],
    ]
    return [*head, *seats, len(players), len(names), *players, *totals, *places, *names, *values]


def row_problem(row: object) -> str | None:
    """Why `row` is not a summary's row (None: it is one).

    Every field is checked for its kind (the names and texts are text, the counts whole
    numbers, the totals finite numbers) and the row for its length: whatever a row holds that
    passes, a summary reads it without failing. The game must be one Debrief knows.
    """
    if type(row) is not list or len(row) < HEAD:
        return "it is not a summary's row"
    fields = row[:HEAD]
    if (
        type(fields[ID]) is not str
        or type(fields[GAME]) is not str
        or fields[GAME] not in scoring.GAMES
        or not isinstance(fields[STARTED], _TEXT_OR_NONE)
        or not isinstance(fields[ENDED], _TEXT_OR_NONE)
        or type(fields[ROUNDS]) is not int
        or type(fields[FINISHED]) is not bool
        or not (fields[NEEDS_CORRECTION] is None or type(fields[NEEDS_CORRECTION]) is int)
        or type(fields[ACTIVE]) is not bool
        or not isinstance(fields[DELETED_AT], _TEXT_OR_NONE)
        or type(fields[WINNERS]) is not int
        or type(fields[LEADERS]) is not int
    ):
        return "it is not a summary's row"
    n, k = fields[PLAYERS], fields[FACTS]
    if type(n) is not int or type(k) is not int or n < 0 or k < 0:
        return "it is not a summary's row"
    if len(row) != HEAD + 3 * n + k + n * k:
        return "its players' parts are not all there"
    totals = HEAD + n
    places = totals + n
    names = places + n
    values = names + k
    totals_kinds = set(map(type, row[totals:places]))
    if (
        not set(map(type, row[HEAD:totals])) <= _TEXT
        or not totals_kinds <= _NUMBER
        or not set(map(type, row[places:names])) <= _INT
        or not set(map(type, row[names:values])) <= _TEXT
        or not set(map(type, row[values:])) <= _INT
    ):
        return "its players' parts are not all of their kind"
    if float in totals_kinds and not all(map(math.isfinite, row[totals:places])):
        return "a total is not a number"
    return None


def summaries_of(rows: object) -> tuple[dict[str, Summary], bool]:
    """The summaries of the rows an index file holds, by id, and whether they are all there:
    False when `rows` is not a list, one of them is not a summary's row (left out), or two are
    of one game.

    Each row is checked as `row_problem` does, but once per shape: rows whose fields are of
    the same kinds, one by one, are laid out alike (the kinds of a row tell where its names,
    totals, places and facts begin), so only their counts, game and totals are looked at
    again. 10,000 rows are checked in a third of the time.
    """
    if type(rows) is not list:
        return {}, False
    shapes: dict[tuple[type, ...], tuple[int, int, bool]] = {}  # kinds -> n, k, any float
    games = scoring.GAMES
    found: dict[str, Summary] = {}
    valid = True
    for row in rows:
        if type(row) is not list:
            valid = False
            continue
        kinds = tuple(map(type, row))
        shape = shapes.get(kinds)
        if shape is None:
            if row_problem(row) is not None:
                valid = False
                continue
            shape = shapes[kinds] = (row[PLAYERS], row[FACTS], float in kinds)
        n = row[PLAYERS]
        if n != shape[0] or row[FACTS] != shape[1] or row[GAME] not in games:
            valid = False
            continue
        if shape[2] and not all(map(math.isfinite, row[HEAD + n : HEAD + 2 * n])):
            valid = False
            continue
        found[row[ID]] = Summary(row)
    return found, valid and len(found) == len(rows)


def summarize(
    record: dict[str, Any],
    valid: scoring.Replay | None = None,
    active: bool = False,
    deleted_at: str | None = None,
    replayed: tuple[scoring.Replay, scoring.Correction | None] | None = None,
) -> Summary:
    """A game's summary (`valid`: the record's replay, when the caller has it already;
    `replayed`: what `scoring.replay_until_broken` made of it, likewise).

    A game stored before a rule it breaks is summarised from its rounds up to the broken one,
    and ``needs_correction`` names that round (its index); None for every valid game.
    """
    if replayed is None:
        replayed = (valid, None) if valid else scoring.replay_until_broken(record)
    result, correction = replayed
    meta = record.get("meta", {})
    players = list(result.table.names)
    totals, places, facts = result.totals, result.places, result.player_facts
    value = {
        "id": str(meta.get("id")),
        "game": result.rules.id,
        "started": _text(meta.get("started")),
        "ended": _text(meta.get("ended")),
        "rounds": len(record["rounds"]),
        "finished": bool(result.finished),
        "needs_correction": None if correction is None else int(correction.round),
        "active": active,
        "deleted_at": deleted_at,
    }
    row = _row(
        value,
        [_mask(players, result.winners), _mask(players, result.leaders)],
        players,
        [to_json(totals[p]) for p in players],
        [int(places[p]) for p in players],
        [{fact: int(n) for fact, n in facts.get(p, {}).items()} for p in players] if facts else [],
    )
    return Summary(row)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def newest_first(summaries: Iterable[Summary]) -> list[Summary]:
    """Newest first (by start; those without one last), the order kept where equal."""
    found = list(summaries)
    starts = [summary._row[STARTED] or "" for summary in found]
    order = sorted(range(len(found)), key=starts.__getitem__, reverse=True)
    return [found[i] for i in order]


def in_and_out_of_bin(summaries: list[Summary]) -> tuple[list[Summary], list[Summary]]:
    """(the summaries not in the bin, those in it), each in the order given."""
    binned = [summary for summary in summaries if summary._row[DELETED_AT] is not None]
    if not binned:
        return summaries, binned
    return [summary for summary in summaries if summary._row[DELETED_AT] is None], binned
