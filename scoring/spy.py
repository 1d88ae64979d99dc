"""SPY (2 to 4 players): RULES.md section 3.

No points: each round is one event at the table. Players search the other bases for Safe 1,
Safe 2, Top Secret 1 and Top Secret 2 in that order; the fourth found puts the base's owner
out. A bomb found the first time is lit; finding a lit bomb puts the finder out (the bomb stays
lit). The last player in wins; placements are the reverse order of elimination.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from . import errors as e
from .base import JSON, GameRules, RecordKind, Setup
from .drafts import Answers, DraftProblem, check_draft
from .errors import N_
from .reader import Reader, child
from .table import Table, read_player_ref

TARGETS = ("safe-1", "safe-2", "top-secret-1", "top-secret-2")
EVENTS = ("target", "bomb-lit", "bomb-exploded")


def bombs_per_base(players: int) -> int:
    """**Decision:** each colour set holds 2 bombs, the green and red sets a third ("Bomb 2",
    30 cards = 4 x 7 + 2); with 3 or 4 players the Bomb 2 cards are removed, so a base holds
    3 bombs with 2 players and 2 bombs otherwise."""
    return 3 if players == 2 else 2


def events_on(lit: int, bombs: int) -> tuple[str, ...]:
    """What a search of a base with `lit` of its `bombs` bombs lit can turn up: a target
    always, an unlit bomb while one is left, a lit bomb while one is lit.

    >>> events_on(0, 2), events_on(2, 2)
    (('target', 'bomb-lit'), ('target', 'bomb-exploded'))
    """
    found = {"target": True, "bomb-lit": lit < bombs, "bomb-exploded": lit > 0}
    return tuple(kind for kind in EVENTS if found[kind])


@dataclass(frozen=True)
class Options:
    pass


@dataclass(frozen=True)
class Event:
    kind: str
    by: str
    base: str

    def to_json(self) -> dict[str, JSON]:
        return {"event": self.kind, "by": self.by, "base": self.base}


@dataclass(frozen=True)
class LoggedEvent:
    """An event as the table saw it: which target was found, who went out."""

    kind: str
    by: str
    base: str
    target: str | None = None
    out: str | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "event": self.kind,
            "by": self.by,
            "base": self.base,
            "target": self.target,
            "out": self.out,
        }


@dataclass(frozen=True)
class Base:
    """One player's spy base as the table sees it."""

    owner: str
    found: int  # targets found, 0 to 4
    next_target: str | None  # None once the owner is out
    lit: int
    bombs: int  # bombs a base holds
    place: int | None  # once out


@dataclass(frozen=True)
class Board:
    bases: tuple[Base, ...]
    still_in: tuple[str, ...]
    log: tuple[LoggedEvent, ...]


@dataclass(frozen=True)
class EventPreview(Answers):
    """An event being entered (its JSON so far), answered by the rules: whom each player may
    search and what they may log there, so that the screen offers only what saving accepts."""

    still_in: tuple[str, ...]
    # For each player who may log an event, the bases they may search (every other player
    # still in) and the events each allows: a target always; a bomb lit while an unlit one is
    # left; a lit bomb found while one is lit. Empty once the game is over.
    may_log: dict[str, dict[str, tuple[str, ...]]]
    next_target: dict[str, str]  # each base still in: what its next search finds
    lit: dict[str, int]  # lit bombs in each base
    bombs: int  # bombs in a base
    missing: tuple[DraftProblem, ...]
    problems: tuple[DraftProblem, ...]
    # Once the event can be saved: what it did (the target found, who went out), the places
    # after it, whether it ends the game and who then won.
    logged: LoggedEvent | None = None
    totals: dict[str, Fraction] | None = None
    ends_game: bool = False
    winners: tuple[str, ...] = ()

    def can_log(self, kind: str, by: str, base: str) -> bool:
        """Whether `by` may log `kind` against `base`'s base now."""
        return kind in self.may_log.get(by, {}).get(base, ())


@dataclass(frozen=True)
class State:
    setup: Setup[Options]
    found: dict[str, int]  # targets found in each base, 0 to 4
    lit: dict[str, int]  # lit bombs in each base
    eliminated: tuple[str, ...] = ()
    log: tuple[LoggedEvent, ...] = ()  # what each event did, for the table's event list

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def still_in(self) -> list[str]:
        return [name for name in self.table.names if name not in self.eliminated]


class Spy(GameRules[Options, Event, State]):
    id: ClassVar[str] = "spy"
    title: ClassVar[str] = "SPY"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    lower_is_better: ClassVar[bool] = True
    places_only: ClassVar[bool] = True
    records: ClassVar[tuple[RecordKind, ...]] = (
        RecordKind(N_("Fewest events to a win"), "rounds", "lowest"),
    )

    def read_options(self, reader: Reader, table: Table, raw: object) -> Options | None:
        before = len(reader.errors)
        reader.obj(raw, "options")
        return Options() if len(reader.errors) == before else None

    def read_round(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> Event | None:
        fields = reader.obj(raw, path, required=["event", "by", "base"])
        if fields is None or any(key not in fields for key in ("event", "by", "base")):
            return None
        kind = reader.choice(fields["event"], child(path, "event"), EVENTS)
        by = read_player_ref(reader, setup.table, fields["by"], child(path, "by"))
        base = read_player_ref(reader, setup.table, fields["base"], child(path, "base"))
        if kind is None or by is None or base is None:
            return None
        if by == base:
            reader.add(e.SamePlayer(child(path, "base"), name=by, action=e.N_("spy on")))
            return None
        return Event(kind, by, base)

    def start(self, setup: Setup[Options]) -> State:
        zero = {name: 0 for name in setup.table.names}
        return State(setup, dict(zero), dict(zero))

    def play(self, reader: Reader, state: State, rnd: Event, path: str) -> State | None:
        ok = True
        for key, name in (("by", rnd.by), ("base", rnd.base)):
            if name in state.eliminated:
                reader.add(e.PlayerOut(child(path, key), name=name))
                ok = False
        limit = bombs_per_base(len(state.table))
        if ok and rnd.kind == "bomb-lit" and state.lit[rnd.base] >= limit:
            reader.add(e.NoUnlitBomb(child(path, "base"), name=rnd.base, limit=limit))
            ok = False
        if ok and rnd.kind == "bomb-exploded" and state.lit[rnd.base] == 0:
            reader.add(e.NoLitBomb(child(path, "base"), name=rnd.base))
            ok = False
        if not ok:
            return None
        found, lit, out = dict(state.found), dict(state.lit), state.eliminated
        entry = LoggedEvent(rnd.kind, rnd.by, rnd.base)
        if rnd.kind == "target":
            entry = replace(entry, target=TARGETS[found[rnd.base]])
            found[rnd.base] += 1
            if found[rnd.base] == len(TARGETS):
                out = (*out, rnd.base)
                entry = replace(entry, out=rnd.base)
        elif rnd.kind == "bomb-lit":
            lit[rnd.base] += 1
        else:
            out = (*out, rnd.by)
            entry = replace(entry, out=rnd.by)
        return State(state.setup, found, lit, out, (*state.log, entry))

    def placements(self, state: State) -> dict[str, int]:
        """The first out places last; players still in share the best open place (1)."""
        places = {name: 1 for name in state.still_in}
        for order, name in enumerate(state.eliminated):
            places[name] = len(state.table) - order
        return {name: places[name] for name in state.table.names}

    def totals(self, state: State) -> dict[str, Fraction]:
        return {name: Fraction(place) for name, place in self.placements(state).items()}

    def finished(self, state: State) -> bool:
        return len(state.still_in) <= 1

    def winners(self, state: State) -> list[str]:
        return state.still_in if self.finished(state) else []

    def player_facts(self, state: State) -> dict[str, dict[str, int]]:
        """Survived: still in at the end; bombs set off: lit bombs this player found (and was
        put out by)."""
        return {
            name: {
                "survived": int(name not in state.eliminated),
                "bombs_set_off": sum(
                    1 for e in state.log if e.kind == "bomb-exploded" and e.by == name
                ),
            }
            for name in state.table.names
        }

    def details(self, state: State) -> dict[str, JSON]:
        return {
            "eliminated": list(state.eliminated),
            "next_target": {name: TARGETS[state.found[name]] for name in state.still_in},
            "lit_bombs": dict(state.lit),
            "targets_found": dict(state.found),
            "bombs_per_base": bombs_per_base(len(state.table)),
            "log": [entry.to_json() for entry in state.log],
        }

    def board(self, state: State) -> Board:
        """Each base, who is still in, and what happened, for the table screen."""
        places = self.placements(state)
        bombs = bombs_per_base(len(state.table))
        bases = tuple(
            Base(
                owner=name,
                found=state.found[name],
                next_target=None if name in state.eliminated else TARGETS[state.found[name]],
                lit=state.lit[name],
                bombs=bombs,
                place=places[name] if name in state.eliminated else None,
            )
            for name in state.table.names
        )
        return Board(bases, tuple(state.still_in), state.log)

    def preview(self, state: State, draft: object) -> EventPreview:
        """An event being entered after `state`, answered as saving it would: who may log what
        against whom, what is missing and wrong (the replay's own errors, keyed by player and
        part) and, once it can be saved, what it does and whether it ends the game."""
        checked = check_draft(self, state.setup, state, draft, len(state.log))
        preview = EventPreview(
            still_in=tuple(state.still_in),
            may_log=self.may_log(state),
            next_target={name: TARGETS[state.found[name]] for name in state.still_in},
            lit=dict(state.lit),
            bombs=bombs_per_base(len(state.table)),
            missing=checked.missing,
            problems=checked.problems,
        )
        after: State | None = checked.after
        if after is None:
            return preview
        return replace(
            preview,
            logged=after.log[-1],
            totals=self.totals(after),
            ends_game=self.finished(after),
            winners=tuple(self.winners(after)),
        )

    def may_log(self, state: State) -> dict[str, dict[str, tuple[str, ...]]]:
        """by -> base -> the events `play` accepts there (none once the game is over)."""
        if self.finished(state):
            return {}
        limit = bombs_per_base(len(state.table))
        allowed: dict[str, dict[str, tuple[str, ...]]] = {}
        for by in state.still_in:
            allowed[by] = {}
            for base in state.still_in:
                if base != by:
                    allowed[by][base] = events_on(state.lit[base], limit)
        return allowed

    def blank_round(self, state: State) -> dict[str, JSON]:
        """The next event as the turn stands: the spy is the next player in turn order (still
        in) after the last event's, searching the next base round the table."""
        players = state.still_in
        if len(players) < 2:  # the game is over: any spy and base, for the record's shape
            by = players[0] if players else state.table.names[0]
            return {"event": "target", "by": by, "base": state.table.left_of(by)}
        by = next_in(state, state.log[-1].by) if state.log else players[0]
        return {"event": "target", "by": by, "base": next_in(state, by)}


def next_in(state: State, after: str) -> str:
    """The first player after `after` in turn order (round the table) who is still in."""
    names = state.table.names
    start = names.index(after)
    return next(
        name for name in [*names[start + 1 :], *names[:start]] if name not in state.eliminated
    )


RULES = Spy()
