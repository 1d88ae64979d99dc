"""One module per game: everything the app shows of a game besides its rules.

A game module (``views/games/black_spy.py``, ...) provides a `GameView`: the table screen, the
new-game options form and their defaults, the names of the game's statistics and its icon.
The game's title and player counts come from its rules (`scoring.GAMES`). Everything outside a
game module asks this registry, never a game id.

Adding a game: its rules in ``scoring/`` (registered in `scoring.GAMES`), its module here
(found and registered by `load`), nothing else.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import flet as ft

import scoring
from scoring import JSON, GameRecord, Record, Term
from scoring.errors import N_
from storage.errors import StorageError

from ..hooks import Setter
from ..i18n import Translator
from ..state import HOST, VIEWER, AppState
from ..theme import player_color


def seated_colors(state: AppState, game_id: str) -> tuple[str, ...]:
    """The shades of the game's players' colours (the roster's, drawn apart at the table) in
    the theme this tab shows, in seating order; none for a game gone since it was read (the
    screen draws what it read, the next drawing says it is gone)."""
    try:
        colors = state.table_colors(game_id)
    except StorageError:
        return ()
    return tuple(player_color(color, state.dark) for color in colors)


ROUND = N_("round {number}")
TOTALS_CHART = N_("Totals over the rounds")
AHEAD_BY_POINTS = N_("ahead by {margin} points")


@dataclass(frozen=True)
class AtTable:
    """A game open at the table: what every game's screen gets. A game's module reads the game
    (its record, the replay so far) and enters rounds through the one round entry
    (views/round_entry.py), which saves, deletes, keeps the draft and says what happened;
    `app` is for that entry and the screen's frame only, never a game's module (checked by
    tests/test_architecture.py)."""

    app: AppState
    game_id: str
    record: GameRecord
    result: scoring.Replay  # the game so far (up to the round to correct, if any)
    fix_round: int | None  # a stored game that breaks a rule added since: the round to correct
    # Each player's colour in the theme shown, in seating order (`seated_colors`).
    colors: tuple[str, ...] = ()
    # The game up to a saved round, worked out once for this revision of the game (a key of
    # a correction's entry checks from it instead of replaying the rounds before).
    _befores: dict[int, scoring.Replay] = field(default_factory=dict, compare=False, repr=False)

    @property
    def t(self) -> Translator:
        return self.app.t

    def color_of(self, name: str) -> str:
        """The shade `name` is drawn in (the screen's text colour for a name not at the table)."""
        names = [player["name"] for player in self.record["players"]]
        if name in names and len(self.colors) == len(names):
            return self.colors[names.index(name)]
        return ft.Colors.ON_SURFACE

    @property
    def rounds(self) -> list[JSON]:
        return list(self.record["rounds"])

    @property
    def read_only(self) -> bool:
        """A guest who watches a shared table, or whose screen still shows the game before the
        one the host opened: the game is shown, nothing can be entered."""
        app = self.app
        return app.role == VIEWER or (app.role != HOST and self.game_id != app.shared_game)

    def before(self, index: int) -> scoring.Replay:
        """The game up to round `index` (NEW, or past the last saved one: all of it)."""
        if index < 0 or index >= len(self.record["rounds"]) or index == self.fix_round:
            return self.result
        if index not in self._befores:
            rounds = self.record["rounds"][:index]
            self._befores[index] = scoring.replay({**self.record, "rounds": rounds}, stored=True)
        return self._befores[index]

    def check(self, round_: Record, index: int) -> list[scoring.RecordError]:
        """What saving `round_` as round `index` would refuse (past the last: a new round),
        checked from the game before it: only that round and the saved ones after it (what
        a correction breaks there) are played."""
        rounds = self.record["rounds"]
        later = rounds[index + 1 :] if self.fix_round is None else []
        return scoring.check_round_after(self.before(index), round_, index, later)

    def round_name(self, index: int) -> str:
        """Round `index` as the game calls it ("deal 5"), in the player's language."""
        return self.t(view_of(self.record["game"]).round_name, number=index + 1)


@dataclass(frozen=True)
class NewGameForm:
    """A new game being set up: what a game's options form reads and changes."""

    t: Translator
    seats: tuple[str, ...]  # the players in seating order
    options: Record  # the game's options as the record writes them (FORMAT.md)
    set_options: Setter[Record]
    born: Mapping[str, str]  # birth dates typed for the game (Black Spy's Mole)
    set_born: Callable[[str, str], None]


class Screen(Protocol):
    """A game's table screen (a component; `key` makes a fresh one)."""

    def __call__(self, at: AtTable, key: str | None = None) -> ft.View: ...


OptionsForm = Callable[[NewGameForm], list[ft.Control]]
# Per player, in words, what made their result (the result screen): "shot the moon twice".
MadeOf = Callable[[Translator, scoring.Replay], dict[str, str]]


def nothing_said(t: Translator, result: scoring.Replay) -> dict[str, str]:
    """A game without anything to say beyond the scores."""
    return {}


def nothing_explained(t: Translator, result: scoring.Replay) -> list[str]:
    """A game whose scores say who won."""
    return []


# A game's options in a few words, for a table played lately: "The Mole + Going Back".
OptionsSaid = Callable[[Translator, tuple[str, ...], Record], str]


def no_options(t: Translator, seats: tuple[str, ...], options: Record) -> str:
    """A game whose options need no words (or has none)."""
    return ""


def rounds_counted(t: Translator, count: int) -> str:
    """A game's rounds counted, as most games call them: "5 rounds"."""
    return t.plural("{count} round", "{count} rounds", count)


@dataclass(frozen=True)
class GameView:
    rules: scoring.AnyRules
    icon: ft.IconData
    screen: Screen  # a component: the game at the table
    options_form: OptionsForm  # the options of a new game (below the players)
    # The options as the record writes them, from what the form set (defaults filled in).
    options_of: Callable[[tuple[str, ...], Record], Record]
    facts: Mapping[str, Term] = field(default_factory=dict)  # statistics' names
    round_name: Term = ROUND  # a round as the game calls it
    totals_are_scores: bool = True  # its totals are points (SPY's are places)
    # A watching phone's big scoreboard over the game's own screen (Kompromat's panel says
    # each player's points already, with the tokens).
    scoreboard: bool = True
    made_of: MadeOf = nothing_said
    # Why the result is what it is, where the scores do not say it (Kompromat's 9 tokens).
    explained: Callable[[Translator, scoring.Replay], list[str]] = nothing_explained
    options_said: OptionsSaid = no_options
    counted: Callable[[Translator, int], str] = rounds_counted  # "5 rounds", "5 events"
    chart_title: Term = TOTALS_CHART  # the history's chart of the game
    margin_words: Term = AHEAD_BY_POINTS  # a win's margin over the next player

    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def title(self) -> str:
        return self.rules.title


VIEWS: dict[str, GameView] = {}


def register(view: GameView) -> None:
    """Make a game's view known (its rules must be in `scoring.GAMES`)."""
    if scoring.GAMES.get(view.id) is not view.rules:
        raise ValueError(f"{view.id} is not a game of scoring.GAMES")
    VIEWS[view.id] = view


def load() -> dict[str, GameView]:
    """Every game's view, in the order of `scoring.GAMES`: each public module of this package
    is a game's (imported on first use; a module named with "_" is part of one), and games
    registered from elsewhere (a test's) count."""
    import_game_modules()
    return {game: VIEWS[game] for game in scoring.GAMES if game in VIEWS}


@functools.cache
def import_game_modules() -> None:
    """The games' modules imported and registered, once: the package's folder was listed at
    every `load` (five times in each opening of a game)."""
    for module_info in pkgutil.iter_modules(__path__):
        if not module_info.name.startswith("_"):
            register(importlib.import_module(f"{__name__}.{module_info.name}").VIEW)


def view_of(game: str) -> GameView:
    return load()[game]
