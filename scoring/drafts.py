"""What a round being entered breaks, as saving it would say, keyed for the entry screen.

Every game's preview of a round being entered (`black_spy`, `spy`, `spywhere`) finds its
problems here, with the very reading and playing that a replay does: what a preview says is
wrong is exactly what saving refuses, so a screen never decides a rule itself. Paths are
those of the round (``cards.Ben.black_spies``; ``""`` is the round as a whole), as
`scoring.check_round` gives them under ``rounds[N].``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from . import errors as e
from .base import GameRules, Setup
from .reader import Reader
from .table import Table

OptionsT = TypeVar("OptionsT")
RoundT = TypeVar("RoundT")
StateT = TypeVar("StateT")

# The errors that say a part has not been entered yet, rather than entered wrong.
MISSING = (e.MissingKey, e.MissingPlayer, e.MoonChoiceRequired)


@dataclass(frozen=True)
class DraftProblem:
    """One problem of a round being entered: `part` of the round it is about (its path inside
    the round), the player whose entry that is (None: the round as a whole, e.g. piles that do
    not add up) and `error`, the message the screen translates (its `template` and `params`)."""

    part: str
    player: str | None
    error: e.RecordError


class Answers:
    """What every preview of a round being entered answers besides its game's own: what is
    missing and what is wrong (the fields of the preview dataclasses that use this)."""

    missing: tuple[DraftProblem, ...]  # parts not entered yet (saving would say "is missing")
    problems: tuple[DraftProblem, ...]  # parts entered wrong (saving refuses them)

    @property
    def complete(self) -> bool:
        """Every part of the round is entered (it may still be wrong: see `problems`)."""
        return not self.missing

    @property
    def may_save(self) -> bool:
        """Saving the draft as it stands is accepted."""
        return not self.missing and not self.problems

    def problems_of(self, player: str | None) -> tuple[DraftProblem, ...]:
        """The problems about `player`'s entry (None: about the round as a whole)."""
        return tuple(found for found in self.problems if found.player == player)


@dataclass(frozen=True)
class Checked(Generic[StateT]):
    """A draft read and played as a replay would: the state after it (None when it cannot be
    saved), and what is missing and what is wrong, each keyed."""

    after: StateT | None  # the game's state after the round; None unless it can be saved
    missing: tuple[DraftProblem, ...]
    problems: tuple[DraftProblem, ...]


def check_draft(
    rules: GameRules[OptionsT, RoundT, StateT],
    setup: Setup[OptionsT],
    state: StateT,
    draft: object,
    after: int,
) -> Checked[StateT]:
    """`draft` as the next round after `state` (the game's `setup`, after `after` rounds):
    read, then played unless the game is over, exactly as `scoring.replay` does it."""
    reader = Reader()
    over = rules.finished(state)
    if over:
        reader.add(e.GameAlreadyOver("", after=after))
    rnd = rules.read_round(reader, setup, draft, "")
    played = None if over or rnd is None else rules.play(reader, state, rnd, "")
    missing, problems = keyed(setup.table, reader.errors)
    return Checked(played if not reader.errors else None, missing, problems)


def keyed(
    table: Table, errors: Iterable[e.RecordError]
) -> tuple[tuple[DraftProblem, ...], tuple[DraftProblem, ...]]:
    """(missing, problems): each error keyed to its part and player; an error that says a part
    is not entered yet is missing, any other a problem."""
    missing: list[DraftProblem] = []
    problems: list[DraftProblem] = []
    for error in errors:
        found = DraftProblem(error.path, player_of(table, error), error)
        (missing if isinstance(error, MISSING) else problems).append(found)
    return tuple(missing), tuple(problems)


def player_of(table: Table, error: e.RecordError) -> str | None:
    """The player whose entry an error is about: the player keyed second in its path
    (``cards.Ben.black_spies``, ``identifications.Anna.Ben[0]``: Anna's guess), else the player
    the message names (``by``: "Ben is already out of the game")."""
    keys = _KEY.findall(error.path)
    if len(keys) > 1:
        name = table.resolve(_key_text(keys[1]))
        if name is not None:
            return name
    named = error.params.get("name")
    return table.resolve(named) if isinstance(named, str) else None


# A key of a path as `reader.child` writes it: a name, or a quoted name in brackets.
_KEY = re.compile(r'\[("(?:[^"\\]|\\.)*")\]|(?<![^.])([^.\[\]]+)')


def _key_text(found: tuple[str, str]) -> str:
    quoted, plain = found
    if not quoted:
        return plain
    try:
        return str(json.loads(quoted))
    except ValueError:  # not a name a table holds (printable() escaped it)
        return quoted
