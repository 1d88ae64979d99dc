"""Replaying a whole game record (FORMAT.md) into standings, for any game in the registry."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

from . import errors as e
from .base import JSON, AnyRules, GameRules, RoundScore, Setup
from .numbers import to_json
from .reader import Reader, child, show, too_deep
from .registry import GAMES
from .table import Table, read_players

FORMAT = "game-record/1"
ENVELOPE_KEYS = ("format", "game", "players", "options", "rounds")
META_KEYS = ("id", "started", "ended", "notes")
MAX_NOTES = 10_000  # characters (FORMAT.md limits)
MAX_ROUNDS = 1_000
MAX_DEPTH = 32  # levels of nesting; a valid record has fewer than 10

OptionsT = TypeVar("OptionsT")
RoundT = TypeVar("RoundT")
StateT = TypeVar("StateT")


class Replay(Protocol):
    """A validated record played through, whatever its game: the final state and the totals
    after every round (a `GameReplay`; a game's screen narrows `state` and `setup.options` to
    its own types with isinstance)."""

    @property
    def rules(self) -> AnyRules: ...
    @property
    def setup(self) -> Setup[object]: ...
    @property
    def state(self) -> object: ...
    @property
    def round_totals(self) -> tuple[dict[str, Fraction], ...]: ...
    @property
    def table(self) -> Table: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> list[str]: ...
    @property
    def totals(self) -> dict[str, Fraction]: ...
    @property
    def places(self) -> dict[str, int]: ...
    @property
    def ranking(self) -> list[str]: ...
    @property
    def leaders(self) -> list[str]: ...
    @property
    def player_facts(self) -> dict[str, dict[str, int]]: ...
    @property
    def end_value(self) -> int | None: ...
    @property
    def first_totals(self) -> dict[str, Fraction]: ...
    def standings(self) -> dict[str, JSON]: ...
    def blank_round(self) -> dict[str, JSON]: ...
    def complete_round(self, draft: dict[str, JSON], player: str) -> dict[str, JSON]: ...
    def draft_points(self, draft: object) -> dict[str, Fraction]: ...
    def round_scores(self, round_: object) -> dict[str, RoundScore] | None: ...
    def problems_after(self, rounds: Sequence[object], first: int) -> list[e.RecordError]: ...
    def extended(self, round_: object) -> Replay: ...


@dataclass(frozen=True)
class GameReplay(Generic[OptionsT, RoundT, StateT]):
    """A validated record of one game played through: the final state and the totals after
    every round."""

    rules: GameRules[OptionsT, RoundT, StateT]
    setup: Setup[OptionsT]
    state: StateT
    round_totals: tuple[dict[str, Fraction], ...]

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def finished(self) -> bool:
        return self.rules.finished(self.state)

    @property
    def winners(self) -> list[str]:
        return self.rules.winners(self.state)

    @property
    def totals(self) -> dict[str, Fraction]:
        return self.rules.totals(self.state)

    @property
    def places(self) -> dict[str, int]:
        """Each player's place (1 = best) by the game's own result: a Kompromat 9-token loss is
        last whatever the points; equal results share a place."""
        return self.rules.places(self.state)

    @property
    def ranking(self) -> list[str]:
        """The players best first (the winners first once the game is over); a shared place in
        seating order."""
        places = self.places
        return sorted(self.table.names, key=lambda name: places[name])

    @property
    def leaders(self) -> list[str]:
        """The players best placed right now; nobody before the first round."""
        if not self.round_totals:
            return []
        return [name for name, place in self.places.items() if place == 1]

    @property
    def player_facts(self) -> dict[str, dict[str, int]]:
        return self.rules.player_facts(self.state)

    def standings(self) -> dict[str, JSON]:
        """The replay output of FORMAT.md: common keys first, then the game's own."""
        return {
            "game": self.rules.id,
            "finished": self.finished,
            "winners": list[JSON](self.winners),
            "totals": _scores_json(self.totals),
            "round_totals": [_scores_json(totals) for totals in self.round_totals],
            "places": dict[str, JSON](self.places),
            **self.rules.details(self.state),
        }

    @property
    def end_value(self) -> int | None:
        return self.rules.end_value(self.state)

    @property
    def first_totals(self) -> dict[str, Fraction]:
        """Each total before the first round (0 points; SPY: everyone's shared place)."""
        return self.rules.totals(self.rules.start(self.setup))

    def blank_round(self) -> dict[str, JSON]:
        return self.rules.blank_round(self.state)

    def complete_round(self, draft: dict[str, JSON], player: str) -> dict[str, JSON]:
        return self.rules.complete_round(self.state, draft, player)

    def draft_points(self, draft: object) -> dict[str, Fraction]:
        return self.rules.draft_points(self.state, draft)

    def round_scores(self, round_: object) -> dict[str, RoundScore] | None:
        """What `round_`, played after this game, scores for each player as entered (see
        `GameRules.round_scores`); None when it breaks a rule here."""
        try:
            after = self._played(round_)
        except e.InvalidRecord:
            return None
        return self.rules.round_scores(self.state, after.state)

    def problems_after(self, rounds: Sequence[object], first: int) -> list[e.RecordError]:
        """Every problem of `rounds` played after this game, the first of them being round
        `first` of the record (paths ``rounds[N]...``): what `problems` finds in them, without
        replaying the rounds before (this replay is those, already checked)."""
        reader = Reader()
        if _within_limits(reader, rounds, first):
            _play_from(reader, self.rules, self.setup, self.state, list(rounds), first)
        return reader.errors

    def extended(self, round_: object) -> Replay:
        """This game with `round_` played after it; raises `InvalidRecord` (with what
        `problems_after` finds) when the round breaks a rule."""
        return self._played(round_)

    def _played(self, round_: object) -> GameReplay[OptionsT, RoundT, StateT]:
        reader = Reader()
        index = len(self.round_totals)
        played = None
        if _within_limits(reader, [round_], index):
            played = _play_from(reader, self.rules, self.setup, self.state, [round_], index)
        if played is None:
            raise e.InvalidRecord(reader.errors)
        state, totals = played
        return GameReplay(self.rules, self.setup, state, (*self.round_totals, *totals))


def _within_limits(reader: Reader, rounds: Sequence[object], first: int) -> bool:
    """Whether `rounds`, from round `first` of a record on, keep the record's limits (its
    count of rounds, its nesting); else `reader` has the one error `_replay` says alone."""
    count = first + len(rounds)
    if count > MAX_ROUNDS:
        reader.add(e.TooManyRounds("rounds", count=count, limit=MAX_ROUNDS))
        return False
    # Nested as deep as where the rounds sit in a record, with the path `_replay` gives.
    deep = too_deep({"rounds": [*([None] * first), *rounds]}, MAX_DEPTH)
    if deep is not None:
        reader.add(e.NestedTooDeep(deep, limit=MAX_DEPTH))
        return False
    return True


def _scores_json(scores: Mapping[str, Fraction]) -> dict[str, JSON]:
    return {name: to_json(score) for name, score in scores.items()}


@dataclass(frozen=True)
class _Envelope:
    rules: AnyRules
    table: Table
    options: object  # as the record has it: read by the game's rules
    rounds: list[object]


def _read_envelope(reader: Reader, record: object, stored: bool) -> _Envelope | None:
    fields = reader.obj(record, "", required=ENVELOPE_KEYS, optional=["meta"])
    if fields is None:
        return None
    if "format" in fields and fields["format"] != FORMAT:
        reader.add(e.UnsupportedFormat("format", value=show(fields["format"]), expected=FORMAT))
    rules = _read_game(reader, fields.get("game"), "game" in fields)
    table = read_players(reader, fields["players"], stored=stored) if "players" in fields else None
    if table is not None and rules is not None:
        _check_player_count(reader, rules, table)
    rounds = reader.list(fields["rounds"], "rounds") if "rounds" in fields else None
    if rounds is not None and len(rounds) > MAX_ROUNDS:
        reader.add(e.TooManyRounds("rounds", count=len(rounds), limit=MAX_ROUNDS))
    if "meta" in fields:
        _read_meta(reader, fields["meta"])
    if reader.errors or rules is None or table is None or rounds is None:
        return None
    return _Envelope(rules, table, fields["options"], rounds)


def _read_game(reader: Reader, value: object, present: bool) -> AnyRules | None:
    if not present:
        return None
    if not isinstance(value, str) or value not in GAMES:
        reader.add(e.UnknownGame("game", value=show(value), choices=", ".join(GAMES)))
        return None
    return GAMES[value]


def _check_player_count(reader: Reader, rules: AnyRules, table: Table) -> None:
    if not rules.min_players <= len(table) <= rules.max_players:
        reader.add(
            e.WrongPlayerCount(
                "players",
                game=rules.title,
                low=rules.min_players,
                high=rules.max_players,
                count=len(table),
            )
        )


def _read_meta(reader: Reader, value: object) -> None:
    """`meta` never affects scoring, but it is part of the format and must be well-formed."""
    fields = reader.obj(value, "meta", optional=META_KEYS)
    if fields is None:
        return
    if "id" in fields:
        reader.text(fields["id"], "meta.id")
    if "notes" in fields:
        notes = reader.text(fields["notes"], "meta.notes")
        if notes is not None and len(notes) > MAX_NOTES:
            reader.add(e.TextTooLong("meta.notes", length=len(notes), limit=MAX_NOTES))
    for key in ("started", "ended"):
        if key in fields and fields[key] is not None:
            _read_datetime(reader, fields[key], child("meta", key))


def _read_datetime(reader: Reader, value: object, path: str) -> None:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        dt.datetime.fromisoformat(value)
    except ValueError:
        reader.add(e.BadDateTime(path, value=show(value)))


def _replay(reader: Reader, record: object, stored: bool = False) -> Replay | None:
    deep = too_deep(record, MAX_DEPTH)
    if deep is not None:  # no record is; and checking it further would exhaust the stack
        reader.add(e.NestedTooDeep(deep, limit=MAX_DEPTH))
        return None
    envelope = _read_envelope(reader, record, stored)
    if envelope is None:
        return None
    return envelope.rules.use(_PlayThrough(reader, envelope))


@dataclass(frozen=True)
class _PlayThrough:
    """The rounds of `envelope` played by its game's rules (a `RulesUser`)."""

    reader: Reader
    envelope: _Envelope

    def __call__(
        self, rules: GameRules[OptionsT, RoundT, StateT], /
    ) -> GameReplay[OptionsT, RoundT, StateT] | None:
        reader, envelope = self.reader, self.envelope
        options = rules.read_options(reader, envelope.table, envelope.options)
        if options is None or reader.errors:
            return None
        setup = Setup(envelope.table, options)
        return _play_rounds(reader, rules, setup, envelope.rounds)


def _play_rounds(
    reader: Reader,
    rules: GameRules[OptionsT, RoundT, StateT],
    setup: Setup[OptionsT],
    rounds: list[object],
) -> GameReplay[OptionsT, RoundT, StateT] | None:
    played = _play_from(reader, rules, setup, rules.start(setup), rounds, 0)
    if played is None:
        return None
    state, round_totals = played
    return GameReplay(rules, setup, state, round_totals)


def _play_from(
    reader: Reader,
    rules: GameRules[OptionsT, RoundT, StateT],
    setup: Setup[OptionsT],
    state: StateT,
    rounds: list[object],
    first: int,
) -> tuple[StateT, tuple[dict[str, Fraction], ...]] | None:
    """`rounds` played from `state`, the first being round `first` of the record: the state
    after them and the totals after each (None when one breaks a rule: `reader` says why)."""
    round_totals: list[dict[str, Fraction]] = []
    broken = False  # after a broken round the state is unknown: later rounds get shape checks only
    for index, raw in enumerate(rounds, start=first):
        path = child("rounds", index)
        if not broken and rules.finished(state):
            reader.add(e.GameAlreadyOver(path, after=index))
            broken = True
        rnd = rules.read_round(reader, setup, raw, path)
        if broken or rnd is None:
            broken = True
            continue
        next_state = rules.play(reader, state, rnd, path)
        if next_state is None:
            broken = True
            continue
        state = next_state
        round_totals.append(rules.totals(state))
    if reader.errors:
        return None
    return state, tuple(round_totals)


def replay(record: object, *, stored: bool = False) -> Replay:
    """Validate `record` (parsed JSON) and play it through; raises `InvalidRecord` listing every
    problem found.

    `stored`: a record the app stored, perhaps before names that look the same across scripts
    were one name: its players keep such names (each is found by their own
    name). A record that comes in (a new game, an import, the command line) is not.
    """
    reader = Reader()
    result = _replay(reader, record, stored)
    if result is None:
        raise e.InvalidRecord(reader.errors)
    return result


def problems(record: object, *, stored: bool = False) -> list[e.RecordError]:
    """Every problem in `record`; empty when it is valid (`stored`: as in `replay`)."""
    return checked(record, stored=stored)[1]


def checked(record: object, *, stored: bool = False) -> tuple[Replay | None, list[e.RecordError]]:
    """`replay` and `problems` in one play through: the replay of a valid record (None when
    it is not) and every problem in it."""
    reader = Reader()
    result = _replay(reader, record, stored)
    return result, reader.errors


_ROUND_PATH = re.compile(r"^rounds\[(\d+)\]")


def round_of(error: e.RecordError) -> int | None:
    """The index of the round an error is in (None: outside the rounds).

    >>> round_of(e.MissingKey("rounds[12].missions[0].card")), round_of(e.MissingKey("options"))
    (12, None)
    """
    match = _ROUND_PATH.match(error.path)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class Correction:
    """A stored record that breaks a rule (one added after it was stored): the first round
    to correct, and what is wrong there."""

    round: int  # index into `rounds`
    problems: tuple[e.RecordError, ...]


def replay_until_broken(record: object, *, stored: bool = True) -> tuple[Replay, Correction | None]:
    """A stored record played through as far as it is valid, and what needs a correction.

    For games stored before a stricter rule: their rounds up to the first broken one still
    give standings, so the game can be shown and opened at the round to correct. Raises
    `InvalidRecord` when the problem lies outside the rounds (the game cannot be opened).
    Names that look the same across scripts are kept, as in `replay(record, stored=True)`.
    """
    reader = Reader()
    result = _replay(reader, record, stored)
    if result is not None:
        return result, None
    rounds = [round_of(error) for error in reader.errors]
    if any(index is None for index in rounds):
        raise e.InvalidRecord(reader.errors)
    first = min(index for index in rounds if index is not None)
    assert isinstance(record, dict)
    before = replay({**record, "rounds": _rounds_of(record)[:first]}, stored=stored)
    wrong = tuple(
        error for error, index in zip(reader.errors, rounds, strict=True) if index == first
    )
    return before, Correction(first, wrong)


def standings(record: object) -> dict[str, JSON]:
    """The replay output for a valid record; raises `InvalidRecord` otherwise."""
    return replay(record).standings()


def next_game(record: object) -> tuple[list[JSON], dict[str, JSON]]:
    """The players (in seating or turn order) and options of the same table's next game:
    the same players and options, whoever began this one passing that on to the player on
    their left. Raises `InvalidRecord` for a record that is not valid."""
    result = replay(record, stored=True)
    assert isinstance(record, dict)  # a valid record is an object
    players, options = record["players"], record["options"]
    assert isinstance(players, list) and isinstance(options, dict)
    return result.rules.next_game(players, options)


def _rounds_of(record: object) -> list[object]:
    if isinstance(record, dict) and isinstance(record.get("rounds"), list):
        return list(record["rounds"])
    return []


def check_round(record: object, draft: object, index: int | None = None) -> list[e.RecordError]:
    """Problems with `draft` as round `index` of `record` (default: a new last round).

    For entering a round while the table watches: the record so far must be valid (else
    `InvalidRecord` is raised). Replacing a past round also reports what it breaks in the
    rounds after it, with their paths. A record that needs a correction may have its first
    broken round replaced: then only problems up to that round count (the rounds after it
    are corrected one by one, next).
    """
    _, correction = replay_until_broken(record)
    rounds = _rounds_of(record)
    if correction is not None and index != correction.round:
        raise e.InvalidRecord(correction.problems)
    if index is None or index == len(rounds):
        rounds.append(draft)
    else:
        rounds[index] = draft
    assert isinstance(record, dict)
    found = problems({**record, "rounds": rounds}, stored=True)
    if correction is None:
        return found
    return [error for error in found if (round_of(error) or 0) <= correction.round]


def check_round_after(
    before: Replay, draft: object, index: int, later: Sequence[object] = ()
) -> list[e.RecordError]:
    """`check_round`'s problems with `draft` as round `index`, from `before`, the game's
    first `index` rounds played (kept from the last save), and `later`, the saved rounds after
    it (a correction: what it breaks there): only the rounds from `index` on are played."""
    return before.problems_after([draft, *later], index)


def blank_round(record: object) -> dict[str, JSON]:
    """A round of the record's game to start entering from (the record must be valid)."""
    result = replay(record, stored=True)
    return result.blank_round()


def complete_round(record: object, draft: dict[str, JSON], player: str) -> dict[str, JSON]:
    """`draft` with `player`'s part worked out from the others' (Black Spy: "the rest")."""
    result = replay(record, stored=True)
    name = result.table.resolve(player)
    if name is None:
        return draft
    return result.complete_round(draft, name)


def draft_points(record: object, draft: object) -> dict[str, Fraction]:
    """Each player's points for a round being entered, as far as they can be read."""
    result = replay(record, stored=True)
    return result.draft_points(draft)


def round_scores(before: Replay, round_: object) -> dict[str, RoundScore] | None:
    """What a round played after the game `before` scored for each player as entered, and
    what the rules then made of a total (`RoundScore`); None when it breaks a rule there."""
    return before.round_scores(round_)


def round_points(before: Replay, round_: object) -> dict[str, Fraction] | None:
    """What a round played after the game `before` adds to each player's total (a saved
    round's points, for saying what it was); None when the round breaks a rule there."""
    try:
        after = before.extended(round_)
    except e.InvalidRecord:
        return None
    return {name: after.totals[name] - before.totals.get(name, 0) for name in after.totals}
