"""Spywhere (2 to 6 players): RULES.md section 4.

One round, entered at the end: passports, each player's cards of their own nationality,
identification attempts, and who ended the game. Score: ``cards × (1 + correct)``, plus 3 for
the player who ended the game by making an attempt on every opponent. Highest total wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from . import errors as e
from .base import JSON, GameRules, RecordKind, Setup
from .drafts import Answers, DraftProblem, check_draft
from .errors import N_
from .reader import Reader, as_whole, child, show
from .table import Table, read_player_map, read_player_ref

NATIONALITIES = ("italy", "england", "france", "spain", "belgium", "germany")
CARDS_PER_NATIONALITY = 18
ENDING_BONUS = 3
ROUND_KEYS = ("passports", "own_cards", "identifications", "ended_by")
COUNTS_KEYS = ("own_cards", "correct")


def passports_each(players: int) -> int:
    """Two players get two passports each; otherwise one."""
    return 2 if players == 2 else 1


def removes_a_nationality(players: int) -> bool:
    """With 3 or 4 players the table removes one nationality."""
    return players in (3, 4)


@dataclass(frozen=True)
class Options:
    removed_nationality: str | None = None

    @property
    def in_play(self) -> tuple[str, ...]:
        return tuple(n for n in NATIONALITIES if n != self.removed_nationality)


@dataclass(frozen=True)
class Ending:
    """The end of a game as the table lays it open; also the draft the wizard edits (then it
    may be incomplete: the rules check it when it is saved)."""

    passports: dict[str, tuple[str, ...]]
    own_cards: dict[str, int]
    identifications: dict[str, dict[str, tuple[str, ...]]]  # guesser -> opponent -> guesses
    ended_by: str | None

    @classmethod
    def blank(cls, table: Table) -> Ending:
        names = table.names
        return cls({n: () for n in names}, {n: 0 for n in names}, {n: {} for n in names}, None)

    @classmethod
    def from_json(cls, raw: object, table: Table) -> Ending:
        """A stored round as far as it can be read (a draft starts from it)."""
        draft = cls.blank(table)
        fields = raw if isinstance(raw, dict) else {}
        passports = fields.get("passports")
        for name, held in passports.items() if isinstance(passports, dict) else []:
            seated = table.resolve(str(name))
            if seated and isinstance(held, list):
                draft.passports[seated] = tuple(str(n) for n in held)
        own = fields.get("own_cards")
        for name, count in own.items() if isinstance(own, dict) else []:
            seated = table.resolve(str(name))
            if seated and isinstance(count, int) and not isinstance(count, bool):
                draft.own_cards[seated] = count
        guesses = fields.get("identifications")
        for guesser, made in guesses.items() if isinstance(guesses, dict) else []:
            seated = table.resolve(str(guesser))
            for opponent, named in made.items() if isinstance(made, dict) else []:
                target = table.resolve(str(opponent))
                if seated and target and isinstance(named, list):
                    draft.identifications[seated][target] = tuple(str(n) for n in named)
        ended = fields.get("ended_by")
        ended_by = table.resolve(ended) if isinstance(ended, str) else None
        return replace(draft, ended_by=ended_by)

    def to_json(self) -> dict[str, JSON]:
        return {
            "passports": {name: list(held) for name, held in self.passports.items()},
            "own_cards": dict(self.own_cards),
            "identifications": {
                guesser: {opponent: list(named) for opponent, named in made.items() if named}
                for guesser, made in self.identifications.items()
            },
            "ended_by": self.ended_by,
        }

    def with_passport(self, name: str, slot: int, nationality: str | None) -> Ending:
        held = set_slot(self.passports.get(name, ()), slot, nationality)
        return replace(self, passports={**self.passports, name: held})

    def with_own_cards(self, name: str, step: int, limit: int) -> Ending:
        count = max(0, min(limit, self.own_cards.get(name, 0) + step))
        return replace(self, own_cards={**self.own_cards, name: count})

    def with_guess(self, guesser: str, opponent: str, slot: int, nationality: str | None) -> Ending:
        made = dict(self.identifications.get(guesser, {}))
        made[opponent] = set_slot(made.get(opponent, ()), slot, nationality)
        return replace(self, identifications={**self.identifications, guesser: made})

    def with_ended_by(self, name: str | None) -> Ending:
        return replace(self, ended_by=name)


def set_slot(values: tuple[str, ...], slot: int, value: str | None) -> tuple[str, ...]:
    """`values` with position `slot` set (None clears it); gaps are dropped.

    >>> set_slot(("italy",), 1, "spain"), set_slot(("italy", "spain"), 0, None)
    (('italy', 'spain'), ('spain',))
    """
    padded: list[str | None] = [*values, *[None] * (slot + 1 - len(values))]
    padded[slot] = value
    return tuple(v for v in padded if v)


@dataclass(frozen=True)
class ScoreParts:
    """How one player's score is made: own cards × (1 + correct) + the ending bonus."""

    own_cards: int
    correct: int
    ending_bonus: int

    @property
    def total(self) -> int:
        return self.own_cards * (1 + self.correct) + self.ending_bonus


@dataclass(frozen=True)
class CountedEnding:
    """The end of a game in counts form (FORMAT.md): each player's own cards and how many
    opponents they identified, as the table counted them; who ended the game."""

    own_cards: dict[str, int]
    correct: dict[str, int]
    ended_by: str | None

    def to_json(self) -> dict[str, JSON]:
        counts: dict[str, JSON] = {
            name: {"own_cards": self.own_cards[name], "correct": self.correct[name]}
            for name in self.own_cards
        }
        return {"counts": counts, "ended_by": self.ended_by}


AnyEnding = Ending | CountedEnding


@dataclass(frozen=True)
class EndingPreview(Answers):
    """The end of a game being entered (its JSON so far, in either form), answered by the
    rules: what each player may still choose, what is missing and wrong, and the result so
    far, so that the screen offers only what saving accepts."""

    form: str  # "counts" (FORMAT.md's counts form) or "laid-open" (passports and guesses)
    # Laid open: for each player and passport slot, the nationalities in play that are on no
    # other passport (nor in their other slot).
    passport_choices: dict[str, tuple[tuple[str, ...], ...]]
    # Laid open: guesser -> opponent -> for each slot, the nationalities in play whose
    # identification card the guesser has not laid elsewhere (one card per nationality).
    guess_choices: dict[str, dict[str, tuple[tuple[str, ...], ...]]]
    own_cards_limit: int  # the most cards of their own nationality a hand holds
    correct_limit: int  # counts form: the most opponents' nationalities one can identify
    # Who may be entered as having ended the game: laid open, those with an attempt on every
    # opponent (two players: both guesses); counts form, anyone.
    may_end: dict[str, bool]
    missing: tuple[DraftProblem, ...]
    problems: tuple[DraftProblem, ...]
    # The result so far: how each player's score is made, for the players whose own cards are
    # entered (the counts form: and their correct count).
    parts: dict[str, ScoreParts]
    # Once the ending can be saved (it ends the game): the totals and the winners.
    totals: dict[str, Fraction] | None = None
    winners: tuple[str, ...] = ()

    @property
    def points(self) -> dict[str, int]:
        """Each player's points so far (the players whose own cards are entered)."""
        return {name: parts.total for name, parts in self.parts.items()}


@dataclass(frozen=True)
class State:
    setup: Setup[Options]
    ending: AnyEnding | None = None

    @property
    def table(self) -> Table:
        return self.setup.table


def correct_identifications(ending: AnyEnding, player: str) -> int:
    """Opponents' nationalities `player` identified correctly (two players: 0, 1 or 2)."""
    if isinstance(ending, CountedEnding):
        return ending.correct[player]
    return sum(
        len(set(guesses) & set(ending.passports[opponent]))
        for opponent, guesses in ending.identifications.get(player, {}).items()
    )


def score_parts(ending: AnyEnding, player: str) -> ScoreParts:
    """``own cards × (1 + correct)`` plus 3 for ending the game by attempts on every opponent."""
    bonus = ENDING_BONUS if ending.ended_by == player else 0
    return ScoreParts(ending.own_cards[player], correct_identifications(ending, player), bonus)


def score(ending: AnyEnding, player: str) -> int:
    return score_parts(ending, player).total


def own_cards_limit(players: int) -> int:
    """Cards of one's own nationality a hand can hold: 18 per passport."""
    return CARDS_PER_NATIONALITY * passports_each(players)


def laid_elsewhere(made: Mapping[str, Sequence[str]], opponent: str, slot: int) -> set[str]:
    """The identification cards a player has laid before other opponents, or in the other
    slot before this one (two players): one card per nationality, so those cannot be named
    here.

    >>> sorted(laid_elsewhere({"Ben": ["spain"], "Carla": ["italy"]}, "Carla", 0))
    ['spain']
    """
    laid = {n for other, guesses in made.items() if other != opponent for n in guesses}
    laid |= {n for index, n in enumerate(made.get(opponent, ())) if index != slot}
    return laid


def passport_choices(
    table: Table, options: Options, passports: Mapping[str, Sequence[str]]
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each player and passport slot, the nationalities in play on no other passport: no
    nationality is on two passports."""
    choices: dict[str, tuple[tuple[str, ...], ...]] = {}
    for name in table.names:
        slots = []
        for slot in range(passports_each(len(table))):
            taken = {n for other, held in passports.items() if other != name for n in held}
            taken |= {n for index, n in enumerate(passports.get(name, ())) if index != slot}
            slots.append(tuple(n for n in options.in_play if n not in taken))
        choices[name] = tuple(slots)
    return choices


def guess_choices(
    table: Table, options: Options, guesser: str, made: Mapping[str, Sequence[str]]
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """opponent -> for each slot, the nationalities in play `guesser` may still name there:
    not laid before another opponent or in the other slot (`laid_elsewhere`)."""
    return {
        opponent: tuple(
            tuple(n for n in options.in_play if n not in laid_elsewhere(made, opponent, slot))
            for slot in range(passports_each(len(table)))
        )
        for opponent in table.opponents(guesser)
    }


class Spywhere(GameRules[Options, AnyEnding, State]):
    id: ClassVar[str] = "spywhere"
    title: ClassVar[str] = "Spywhere"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    records: ClassVar[tuple[RecordKind, ...]] = (
        RecordKind(N_("Most correct identifications"), "fact:correct", "highest"),
    )

    def read_options(self, reader: Reader, table: Table, raw: object) -> Options | None:
        fields = reader.obj(raw, "options", optional=["removed_nationality"])
        if fields is None:
            return None
        path = child("options", "removed_nationality")
        removes = removes_a_nationality(len(table))
        if "removed_nationality" not in fields:
            if removes:
                reader.add(e.RemovedNationalityRequired(path))
                return None
            return Options()
        if not removes:
            reader.add(e.RemovedNationalityNotAllowed(path))
            return None
        removed = reader.choice(fields["removed_nationality"], path, NATIONALITIES)
        return Options(removed) if removed else None

    def default_options(self, seats: tuple[str, ...], removed: str) -> dict[str, JSON]:
        """The options of a new game for these seats (`removed`: the nationality left out
        where one is)."""
        return {"removed_nationality": removed} if removes_a_nationality(len(seats)) else {}

    def read_round(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> AnyEnding | None:
        """The end of the game: what was laid open, or only each player's counts."""
        if isinstance(raw, dict) and "counts" in raw:
            laid_open = [key for key in ("passports", "own_cards", "identifications") if key in raw]
            if laid_open:
                reader.add(e.BothForms(path, one=laid_open[0], other="counts"))
                return None
            return self._read_counts(reader, setup, raw, path)
        fields = reader.obj(raw, path, required=ROUND_KEYS)
        if fields is None or any(key not in fields for key in ROUND_KEYS):
            return None
        before = len(reader.errors)
        table = setup.table
        passports = self._read_passports(
            reader, setup, fields["passports"], child(path, "passports")
        )
        own_cards = self._read_own_cards(
            reader, table, fields["own_cards"], child(path, "own_cards")
        )
        guesses = self._read_identifications(
            reader, setup, fields["identifications"], child(path, "identifications")
        )
        ended_by = None
        if fields["ended_by"] is not None:
            ended_by = read_player_ref(reader, table, fields["ended_by"], child(path, "ended_by"))
        if len(reader.errors) > before or passports is None or own_cards is None or guesses is None:
            return None
        if ended_by is not None and not self._attempted_all(table, guesses, ended_by):
            reader.add(e.EndedWithoutAllAttempts(child(path, "ended_by"), name=ended_by))
            return None
        return Ending(passports, own_cards, guesses, ended_by)

    def _read_counts(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> CountedEnding | None:
        fields = reader.obj(raw, path, required=("counts", "ended_by"))
        if fields is None or "counts" not in fields or "ended_by" not in fields:
            return None
        table = setup.table
        counts_path = child(path, "counts")
        entries = read_player_map(reader, table, fields["counts"], counts_path, require_all=True)
        ended_by = None
        if fields["ended_by"] is not None:
            ended_by = read_player_ref(reader, table, fields["ended_by"], child(path, "ended_by"))
        if entries is None:
            return None
        own_cards: dict[str, int] = {}
        correct: dict[str, int] = {}
        most_correct = passports_each(len(table)) * (len(table) - 1)
        for name, (entry_path, value) in entries.items():
            counted = reader.obj(value, entry_path, required=COUNTS_KEYS)
            if counted is None or any(key not in counted for key in COUNTS_KEYS):
                continue
            own = reader.whole(
                counted["own_cards"],
                child(entry_path, "own_cards"),
                0,
                own_cards_limit(len(table)),
                N_("cards of their own nationality"),
            )
            right = reader.whole(
                counted["correct"],
                child(entry_path, "correct"),
                0,
                most_correct,
                N_("opponents' nationalities to identify"),
            )
            if own is not None and right is not None:
                own_cards[name], correct[name] = own, right
        if len(own_cards) < len(entries) or (fields["ended_by"] is not None and ended_by is None):
            return None
        return CountedEnding(own_cards, correct, ended_by)

    @staticmethod
    def _attempted_all(
        table: Table, guesses: dict[str, dict[str, tuple[str, ...]]], player: str
    ) -> bool:
        needed = passports_each(len(table))
        made = guesses.get(player, {})
        return all(len(made.get(opponent, ())) == needed for opponent in table.opponents(player))

    def _read_passports(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> dict[str, tuple[str, ...]] | None:
        entries = read_player_map(reader, setup.table, raw, path, require_all=True)
        if entries is None:
            return None
        each = passports_each(len(setup.table))
        holder: dict[str, str] = {}
        passports: dict[str, tuple[str, ...]] = {}
        ok = True
        for name, (entry_path, value) in entries.items():
            items = reader.list(value, entry_path)
            if items is None:
                ok = False
                continue
            if len(items) != each:
                reader.add(
                    e.WrongLength(
                        entry_path,
                        expected=each,
                        actual=len(items),
                        what=N_("passports"),
                    )
                )
                ok = False
            for index, item in enumerate(items):
                nationality = self._read_nationality(
                    reader, setup.options, item, child(entry_path, index)
                )
                if nationality is None:
                    ok = False
                elif nationality in holder:
                    reader.add(
                        e.PassportTwice(
                            child(entry_path, index),
                            value=nationality,
                            other=holder[nationality],
                        )
                    )
                    ok = False
                else:
                    holder[nationality] = name
            passports[name] = tuple(str(item) for item in items)
        return passports if ok else None

    @staticmethod
    def _read_nationality(reader: Reader, options: Options, raw: object, path: str) -> str | None:
        nationality = reader.choice(raw, path, NATIONALITIES)
        if nationality is not None and nationality == options.removed_nationality:
            reader.add(e.NationalityRemoved(path, value=nationality))
            return None
        return nationality

    @staticmethod
    def _read_own_cards(
        reader: Reader, table: Table, raw: object, path: str
    ) -> dict[str, int] | None:
        entries = read_player_map(reader, table, raw, path, require_all=True)
        if entries is None:
            return None
        limit = own_cards_limit(len(table))
        counts = {
            name: reader.whole(value, entry_path, 0, limit, N_("cards of their own nationality"))
            for name, (entry_path, value) in entries.items()
        }
        if any(count is None for count in counts.values()):
            return None
        return {name: count for name, count in counts.items() if count is not None}

    def _read_identifications(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> dict[str, dict[str, tuple[str, ...]]] | None:
        """guesser -> opponent -> guessed nationalities; a missing guesser made no attempt."""
        table = setup.table
        guessers = read_player_map(reader, table, raw, path, require_all=False)
        if guessers is None:
            return None
        allowed = passports_each(len(table))
        result: dict[str, dict[str, tuple[str, ...]]] = {}
        ok = True
        for guesser, (guesser_path, value) in guessers.items():
            targets = read_player_map(reader, table, value, guesser_path, require_all=False)
            if targets is None:
                ok = False
                continue
            result[guesser] = {}
            named: dict[str, str] = {}  # nationality -> the opponent it was laid before
            for opponent, (target_path, guesses) in targets.items():
                if opponent == guesser:
                    reader.add(e.SamePlayer(target_path, name=guesser, action=N_("identify")))
                    ok = False
                    continue
                read = self._read_guesses(reader, setup.options, guesses, target_path, allowed)
                if read is None:
                    ok = False
                    continue
                for index, nationality in enumerate(read):
                    if nationality in named:
                        reader.add(
                            e.NationalityNamedTwice(
                                child(target_path, index),
                                name=guesser,
                                value=nationality,
                                other=named[nationality],
                            )
                        )
                        ok = False
                    named.setdefault(nationality, opponent)
                result[guesser][opponent] = read
        return result if ok else None

    def _read_guesses(
        self, reader: Reader, options: Options, raw: object, path: str, allowed: int
    ) -> tuple[str, ...] | None:
        items = reader.list(raw, path)
        if items is None:
            return None
        if len(items) > allowed:
            reader.add(e.NumberTooHigh(path, value=len(items), limit=allowed, what=N_("guesses")))
            return None
        guesses: list[str] = []
        for index, item in enumerate(items):
            nationality = self._read_nationality(reader, options, item, child(path, index))
            if nationality is None:
                return None
            if nationality in guesses:
                reader.add(e.ListedTwice(child(path, index), value=show(nationality)))
                return None
            guesses.append(nationality)
        return tuple(guesses)

    def start(self, setup: Setup[Options]) -> State:
        return State(setup)

    def play(self, reader: Reader, state: State, rnd: AnyEnding, path: str) -> State | None:
        return State(state.setup, rnd)

    def totals(self, state: State) -> dict[str, Fraction]:
        if state.ending is None:
            return {name: Fraction(0) for name in state.table.names}
        return {name: Fraction(score(state.ending, name)) for name in state.table.names}

    def finished(self, state: State) -> bool:
        return state.ending is not None

    def winners(self, state: State) -> list[str]:
        """Highest total wins; **Decision:** equal highest totals share the win."""
        if state.ending is None:
            return []
        totals = self.totals(state)
        best = max(totals.values())
        return [name for name, total in totals.items() if total == best]

    def player_facts(self, state: State) -> dict[str, dict[str, int]]:
        """Correct identifications."""
        ending = state.ending
        return {
            name: {"correct": correct_identifications(ending, name) if ending else 0}
            for name in state.table.names
        }

    def details(self, state: State) -> dict[str, JSON]:
        ending = state.ending
        correct: dict[str, JSON] = {
            name: correct_identifications(ending, name) if ending else 0
            for name in state.table.names
        }
        return {"correct": correct, "nationalities": list(state.setup.options.in_play)}

    def preview(self, state: State, draft: object) -> EndingPreview:
        """The end of a game being entered, answered as saving it would: the passports and
        guesses each player may still choose, who may have ended the game, what is missing and
        wrong (the replay's own errors, keyed by player and part), the result so far and,
        once it can be saved, the totals and winners."""
        checked = check_draft(self, state.setup, state, draft, 0 if state.ending is None else 1)
        table, options = state.table, state.setup.options
        fields = draft if isinstance(draft, dict) else {}
        counts = "counts" in fields
        ending = Ending.from_json(draft, table)
        preview = EndingPreview(
            form="counts" if counts else "laid-open",
            passport_choices=passport_choices(table, options, ending.passports),
            guess_choices={
                name: guess_choices(table, options, name, ending.identifications[name])
                for name in table.names
            },
            own_cards_limit=own_cards_limit(len(table)),
            correct_limit=passports_each(len(table)) * (len(table) - 1),
            may_end={
                name: counts or self._attempted_all(table, ending.identifications, name)
                for name in table.names
            },
            missing=checked.missing,
            problems=checked.problems,
            parts=self._parts_so_far(table, fields, ending),
        )
        after: State | None = checked.after
        if after is None:
            return preview
        return replace(preview, totals=self.totals(after), winners=tuple(self.winners(after)))

    @staticmethod
    def _parts_so_far(
        table: Table, fields: dict[str, object], ending: Ending
    ) -> dict[str, ScoreParts]:
        """How each player's score is made as far as it is entered: their own cards (and in
        the counts form their correct count) readable; correct guesses as far as the passports
        they name are entered."""
        limit = own_cards_limit(len(table))
        raw = fields.get("counts") if "counts" in fields else fields.get("own_cards")
        entered = (
            {table.resolve(str(k)): v for k, v in raw.items()} if isinstance(raw, dict) else {}
        )
        parts: dict[str, ScoreParts] = {}
        for name in table.names:
            value = entered.get(name)
            counted = value if isinstance(value, dict) else {"own_cards": value}
            own, right = as_whole(counted.get("own_cards")), as_whole(counted.get("correct"))
            if own is None or not 0 <= own <= limit or ("counts" in fields and right is None):
                continue
            if right is None:
                right = correct_identifications(ending, name)
            bonus = ENDING_BONUS if ending.ended_by == name else 0
            parts[name] = ScoreParts(own, right, bonus)
        return parts

    def blank_round(self, state: State) -> dict[str, JSON]:
        names = state.table.names
        return {
            "passports": {name: [] for name in names},
            "own_cards": {name: 0 for name in names},
            "identifications": {name: {} for name in names},
            "ended_by": None,
        }


RULES = Spywhere()
