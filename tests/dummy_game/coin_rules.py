"""A fifth game for the tests: Coin. Each round one player wins the toss; three wins win; no
one wins two tosses in a row (a rule the screen does not know, so a save can be refused).

It exists to prove that adding a game takes its rules (here) and its view (coin_view.py), and
nothing else: tests/dummy_game/at_start.py registers both in a test server.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from scoring import errors as e
from scoring.base import JSON, GameRules, Setup
from scoring.reader import Reader, child
from scoring.table import Table, read_player_ref

WINS_TO_WIN = 3


@dataclass(frozen=True)
class Options:
    pass


@dataclass(frozen=True)
class Toss:
    winner: str


@dataclass(frozen=True)
class State:
    setup: Setup[Options]
    wins: dict[str, int]
    last_winner: str | None = None


class Coin(GameRules[Options, Toss, State]):
    id: ClassVar[str] = "coin"
    title: ClassVar[str] = "Coin"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def read_options(self, reader: Reader, table: Table, raw: object) -> Options | None:
        before = len(reader.errors)
        reader.obj(raw, "options")
        return Options() if len(reader.errors) == before else None

    def read_round(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> Toss | None:
        fields = reader.obj(raw, path, required=["winner"])
        if fields is None or "winner" not in fields:
            return None
        winner = read_player_ref(reader, setup.table, fields["winner"], child(path, "winner"))
        return Toss(winner) if winner else None

    def start(self, setup: Setup[Options]) -> State:
        return State(setup, {name: 0 for name in setup.table.names})

    def play(self, reader: Reader, state: State, rnd: Toss, path: str) -> State | None:
        if rnd.winner == state.last_winner:
            others = ", ".join(n for n in state.setup.table.names if n != rnd.winner)
            reader.add(e.NotOneOf(child(path, "winner"), value=rnd.winner, choices=others))
            return None
        wins = {**state.wins, rnd.winner: state.wins[rnd.winner] + 1}
        return State(state.setup, wins, rnd.winner)

    def totals(self, state: State) -> dict[str, Fraction]:
        return {name: Fraction(wins) for name, wins in state.wins.items()}

    def finished(self, state: State) -> bool:
        return max(state.wins.values()) >= WINS_TO_WIN

    def winners(self, state: State) -> list[str]:
        if not self.finished(state):
            return []
        return [name for name, wins in state.wins.items() if wins >= WINS_TO_WIN]

    def details(self, state: State) -> dict[str, JSON]:
        return {}

    def blank_round(self, state: State) -> dict[str, JSON]:
        return {"winner": state.setup.table.names[0]}


RULES = Coin()
