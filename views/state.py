"""The app's state: where the user is, their settings, and every change to their games.

Screens read games from `storage` and standings from `scoring`; they change games only through
`AppState`, which saves at once, keeps an undo step, and tells the screens to redraw.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import flet as ft

import scoring
from storage import Store
from storage.errors import StorageError

from .i18n import Translator, system_language

Record = dict[str, Any]
T = TypeVar("T")
REFUSALS = (scoring.InvalidRecord, StorageError)  # a change refused: nothing was written


@dataclass(frozen=True)
class UndoStep:
    game_id: str
    before: Record  # the whole record before the change
    label: str  # what the change was, in the player's language


@ft.observable
@dataclass
class AppState:
    store: Store
    route: str = "/"
    language_setting: str = "system"  # "system", "en" or "de"
    theme_setting: str = "system"  # "system", "light" or "dark"
    device_languages: list[str] = field(default_factory=list)
    message: str | None = None  # a short note for the snack bar
    undo_steps: list[UndoStep] = field(default_factory=list)
    revision: int = 0  # bumped after every change to stored data

    @classmethod
    def load(cls, store: Store, route: str = "/") -> AppState:
        """The state at start; opened at the home screen, it returns to the game the table was
        playing when the app was closed (if that game is still in progress)."""
        if route in ("", "/"):
            route = cls._last_table(store) or "/"
        return cls(
            store=store,
            route=route,
            language_setting=store.setting("language", "system"),
            theme_setting=store.setting("theme", "system"),
        )

    @staticmethod
    def _last_table(store: Store) -> str | None:
        route = store.setting("last_route")
        if not isinstance(route, str) or not route.startswith("/game/"):
            return None
        game_id = route.removeprefix("/game/")
        if store.contains_game(game_id) and store.is_active(game_id):
            return route
        return None

    # --- settings --------------------------------------------------------------------------

    @property
    def language(self) -> str:
        if self.language_setting in ("en", "de"):
            return self.language_setting
        return system_language(self.device_languages)

    @property
    def t(self) -> Translator:
        return Translator(self.language)

    def set_language(self, value: str) -> None:
        self.store.set_setting("language", value)
        self.language_setting = value

    def set_theme(self, value: str) -> None:
        self.store.set_setting("theme", value)
        self.theme_setting = value

    @property
    def theme_mode(self) -> ft.ThemeMode:
        return {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            self.theme_setting, ft.ThemeMode.SYSTEM
        )

    # --- navigation ------------------------------------------------------------------------

    def go(self, route: str) -> None:
        """Open a screen: the browser's address and back button follow."""
        self.message = None
        self.route = route
        self.remember_route(route)
        page = ft.context.page
        if page is not None and page.route != route:
            page.navigate(route)

    def remember_route(self, route: str) -> None:
        """Where to reopen the app; a convenience that a full disk may skip."""
        with contextlib.suppress(StorageError):
            self.store.set_setting("last_route", route)

    def say(self, message: str) -> None:
        self.message = message

    def refusal(self, error: scoring.InvalidRecord | StorageError) -> list[str]:
        """Why a change was not saved, in the player's language (nothing was changed)."""
        if isinstance(error, scoring.InvalidRecord):
            return [self.t.problem(problem) for problem in error.errors]
        return [self.t.problem(error)]

    def attempt(self, change: Callable[[], T]) -> T | None:
        """Make `change` and return its result; when it is refused (a rule, a full disk, ...)
        say why and return None."""
        try:
            return change()
        except REFUSALS as error:
            self.say(" ".join(self.refusal(error)))
            return None

    def tried(self, change: Callable[[], object]) -> bool:
        """Make `change`; whether it was saved (when refused, the reason is said)."""
        try:
            change()
        except REFUSALS as error:
            self.say(" ".join(self.refusal(error)))
            return False
        return True

    def dismiss_notices(self) -> None:
        """The user has read what was found when the data was opened."""
        self.store.notices.clear()
        self.revision += 1

    # --- games -----------------------------------------------------------------------------

    def record(self, game_id: str) -> Record:
        return self.store.load_game(game_id)

    def start_game(self, game: str, players: list[dict[str, Any]], options: dict[str, Any]) -> str:
        record = self.store.create_game(game, players, options)
        self.revision += 1
        return str(record["meta"]["id"])

    def _changed(self, game_id: str, before: Record, label: str) -> None:
        """A change was saved: it can be undone, unless it corrected a game stored before a
        rule it breaks (that record cannot be stored again)."""
        if scoring.replay_until_broken(before)[1] is None:
            self.undo_steps = [*self.undo_steps[-19:], UndoStep(game_id, before, label)]
        self.revision += 1

    def save_round(self, game_id: str, index: int | None, round_: dict[str, Any]) -> scoring.Replay:
        """Save a round being entered: a new one (`index` None) or a correction of round
        `index`. Raises `InvalidRecord` (nothing saved)."""
        if index is None:
            return self.add_round(game_id, round_)
        return self.change_round(game_id, index, round_)

    def add_round(self, game_id: str, round_: dict[str, Any]) -> scoring.Replay:
        """Save a new round (raises `InvalidRecord`, nothing saved)."""
        before = self.store.load_game(game_id)
        result = self.store.append_round(game_id, round_)
        self._changed(
            game_id, before, self.t("Round {number} saved", number=len(before["rounds"]) + 1)
        )
        return result

    def change_round(self, game_id: str, index: int, round_: dict[str, Any]) -> scoring.Replay:
        before = self.store.load_game(game_id)
        result = self.store.replace_round(game_id, index, round_)
        self._changed(game_id, before, self.t("Round {number} changed", number=index + 1))
        return result

    def delete_round(self, game_id: str, index: int) -> scoring.Replay:
        before = self.store.load_game(game_id)
        result = self.store.remove_round(game_id, index)
        self._changed(game_id, before, self.t("Round {number} deleted", number=index + 1))
        return result

    def undo(self) -> str | None:
        """Put the last changed game back as it was; returns what was undone."""
        if not self.undo_steps:
            return None
        step = self.undo_steps[-1]
        try:
            self.store.set_record(step.game_id, copy.deepcopy(step.before))
        except (StorageError, scoring.InvalidRecord):
            return None
        self.undo_steps = self.undo_steps[:-1]
        self.revision += 1
        return step.label

    def can_undo(self, game_id: str) -> bool:
        return bool(self.undo_steps) and self.undo_steps[-1].game_id == game_id

    def finish(self, game_id: str) -> None:
        self.store.finish_game(game_id)
        self.undo_steps = [s for s in self.undo_steps if s.game_id != game_id]
        self.revision += 1
