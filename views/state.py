"""The app's state: where the user is, their settings, and every change to their data.

`AppState` is the only way a screen reads stored data or changes it: each change saves at once
(through `storage`), keeps an undo step where that means something, and bumps `revision`, which
every screen that shows stored data reads, so they all redraw. The store itself is private.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import flet as ft

import scoring
from scoring import Record
from scoring.table import name_key
from storage import Store, backup
from storage.errors import StartupNotice, StorageError
from storage.store import Player
from storage.summaries import Summary

from .i18n import Translator, system_language
from .widgets import show_note

T = TypeVar("T")
REFUSALS = (scoring.InvalidRecord, StorageError)  # a change refused: nothing was written
Refusal = scoring.InvalidRecord | StorageError


UNDO_LIMIT = 20  # steps kept per game and device


@dataclass(frozen=True)
class Step:
    """A change to a game this device made, that it can undo (or, undone, redo).

    `record` is the game as the step puts it back; the step applies only while the game is at
    `revision`, the revision the change (or its undo) produced: after another device's change it
    no longer means what it says."""

    what: str  # "save", "change" or "delete" (a round)
    index: int  # the round's index
    record: Record
    revision: int

    def to_json(self) -> Record:
        return {"what": self.what, "index": self.index, "record": self.record, "rev": self.revision}

    @classmethod
    def from_json(cls, data: Record) -> Step:
        return cls(str(data["what"]), int(data["index"]), dict(data["record"]), int(data["rev"]))


@dataclass(frozen=True)
class History:
    undo: tuple[Step, ...] = ()
    redo: tuple[Step, ...] = ()

    def to_json(self) -> Record:
        return {"undo": [s.to_json() for s in self.undo], "redo": [s.to_json() for s in self.redo]}

    @classmethod
    def from_json(cls, data: Record) -> History:
        try:
            return cls(
                tuple(Step.from_json(s) for s in data["undo"]),
                tuple(Step.from_json(s) for s in data["redo"]),
            )
        except (KeyError, TypeError, ValueError):  # written by another version: start afresh
            return cls()


@ft.observable
@dataclass
class AppState:
    _store: Store
    route: str = "/"
    language_setting: str = "system"  # "system", "en" or "de"
    theme_setting: str = "system"  # "system", "light" or "dark"
    device_languages: list[str] = field(default_factory=list)
    message: str | None = None  # a short note for the snack bar
    revision: int = 0  # bumped after every change to stored data
    device: str = "this-device"  # the browser profile or app install (drafts, undo)

    @classmethod
    def load(cls, store: Store, route: str = "/", device: str = "this-device") -> AppState:
        """The state at start; opened at the home screen, it returns to the game the table was
        playing when the app was closed (if that game is still in progress)."""
        if route in ("", "/"):
            route = cls._last_table(store) or "/"
        return cls(
            _store=store,
            route=route,
            language_setting=str(store.setting("language", "system")),
            theme_setting=str(store.setting("theme", "system")),
            device=device,
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

    def _changed(self) -> None:
        """Stored data changed: every screen showing it redraws."""
        self.revision += 1

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
        self._store.set_setting("language", value)
        self.language_setting = value

    def set_theme(self, value: str) -> None:
        self._store.set_setting("theme", value)
        self.theme_setting = value

    @property
    def theme_mode(self) -> ft.ThemeMode:
        return {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            self.theme_setting, ft.ThemeMode.SYSTEM
        )

    @property
    def data_folder(self) -> Path:
        return self._store.folder

    # --- navigation and notes --------------------------------------------------------------

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
            self._store.set_setting("last_route", route)

    def say(self, message: str) -> None:
        """A short note (saved, undone, refused, ...) in a bar at the bottom of the screen, over
        the content: it moves nothing a finger is about to tap (a line above the content pushed
        every control down after a save, and a tap on its way went to a control drawn anew)."""
        self.message = message
        page = ft.context.page
        if page is not None:
            show_note(page, message, seconds=4)

    def refusal(self, error: Refusal) -> list[str]:
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

    @property
    def notices(self) -> list[StartupNotice]:
        """What was found when the data was opened (damage kept aside, ...)."""
        return list(self._store.notices)

    def dismiss_notices(self) -> None:
        """The user has read what was found when the data was opened."""
        self._store.notices.clear()
        self._changed()

    # --- reading games ---------------------------------------------------------------------

    def record(self, game_id: str) -> Record:
        return self._store.load_game(game_id)

    def is_active(self, game_id: str) -> bool:
        return self._store.is_active(game_id)

    def summary(self, game_id: str) -> Summary:
        return self._store.summary(game_id)

    def summaries(
        self, game: str | None = None, player: str | None = None, deleted: bool = False
    ) -> list[Summary]:
        return self._store.summaries(game=game, player=player, deleted=deleted)

    def active_games(self) -> list[Summary]:
        return self._store.active_games()

    # --- changing games --------------------------------------------------------------------

    def start_game(self, game: str, players: list[Record], options: Record) -> str:
        record = self._store.create_game(game, players, options)
        self._changed()
        return str(record["meta"]["id"])

    def save_round(self, game_id: str, index: int | None, round_: Record) -> scoring.Replay:
        """Save a round being entered: a new one (`index` None) or a correction of round
        `index`; the entry's draft is done with. Raises `InvalidRecord` or a `StorageError`
        (nothing saved)."""
        before = self._store.load_game(game_id)
        if index is None:
            result = self._store.append_round(game_id, round_)
            self._stepped(game_id, before, "save", len(before["rounds"]))
        else:
            result = self._store.replace_round(game_id, index, round_)
            self._stepped(game_id, before, "change", index)
        self.discard_draft(game_id)
        return result

    def delete_round(self, game_id: str, index: int) -> scoring.Replay:
        before = self._store.load_game(game_id)
        result = self._store.remove_round(game_id, index)
        self._stepped(game_id, before, "delete", index)
        self.discard_draft(game_id)
        return result

    # --- undo and redo: per game and device ---------------------------------------------------

    def history(self, game_id: str) -> History:
        return History.from_json(self._store.history(self.device, game_id))

    def _set_history(self, game_id: str, history: History) -> None:
        """An undo history that cannot be saved is lost, not the change it belongs to."""
        with contextlib.suppress(StorageError):
            self._store.set_history(self.device, game_id, history.to_json())

    def _stepped(self, game_id: str, before: Record, what: str, index: int) -> None:
        """A change this device made to a game: it can be undone (redo starts afresh), unless
        it corrected a game stored before a rule it breaks (that record cannot be stored
        again)."""
        if scoring.replay_until_broken(before)[1] is None:
            step = Step(what, index, before, self._store.revision(game_id))
            undo = (*self.history(game_id).undo, step)[-UNDO_LIMIT:]
            self._set_history(game_id, History(undo, ()))
        self._changed()

    def steps(self, game_id: str) -> tuple[Step | None, Step | None]:
        """What Undo and Redo would do now; None for each that has nothing to do, or whose
        step no longer applies (another device changed the game since)."""
        history = self.history(game_id)
        if not history.undo and not history.redo:
            return None, None
        try:
            current = self._store.revision(game_id)
        except StorageError:
            return None, None

        def applicable(steps: tuple[Step, ...]) -> Step | None:
            return steps[-1] if steps and steps[-1].revision == current else None

        return applicable(history.undo), applicable(history.redo)

    def undo(self, game_id: str) -> Step | None:
        """Put the game back as it was before this device's last change; returns that step,
        or None when it no longer applies (the game changed since: the history ends)."""
        return self._swap(game_id, backwards=True)

    def redo(self, game_id: str) -> Step | None:
        return self._swap(game_id, backwards=False)

    def _swap(self, game_id: str, backwards: bool) -> Step | None:
        history = self.history(game_id)
        steps, others = (history.undo, history.redo) if backwards else (history.redo, history.undo)
        if not steps:
            return None
        step = steps[-1]
        current = self._store.load_game(game_id)
        try:
            self._store.set_record(game_id, copy.deepcopy(step.record), based_on=step.revision)
        except REFUSALS:
            self._set_history(game_id, History())  # the game moved on: the history is over
            self._changed()
            return None
        back = Step(step.what, step.index, current, self._store.revision(game_id))
        steps, others = steps[:-1], (*others, back)
        self._set_history(game_id, History(steps, others) if backwards else History(others, steps))
        self._changed()
        return step

    # --- drafts: the round this device is entering --------------------------------------------

    def draft(self, game_id: str) -> Record | None:
        return self._store.draft(self.device, game_id)

    def keep_draft(self, game_id: str, index: int | None, entry: Record) -> None:
        """The round being entered, kept on every change (a full disk or a read-only folder
        costs the draft only, and says so once)."""
        try:
            self._store.keep_draft(self.device, game_id, {"round": index, "entry": entry})
        except StorageError as error:
            if self.message is None:
                self.say(
                    self.t(
                        "The entry could not be kept as a draft: {reason}",
                        reason=self.t.problem(error),
                    )
                )

    def discard_draft(self, game_id: str) -> None:
        with contextlib.suppress(StorageError):
            self._store.discard_draft(self.device, game_id)

    def finish(self, game_id: str) -> None:
        self._store.finish_game(game_id)
        self._set_history(game_id, History())
        self.discard_draft(game_id)
        self._changed()

    def reopen(self, game_id: str) -> None:
        """A finished game back at the table (to continue or correct it)."""
        self._store.reopen_game(game_id)
        self._changed()

    def delete_game(self, game_id: str) -> None:
        self._store.delete_game(game_id)
        self._changed()

    def restore_game(self, game_id: str) -> None:
        self._store.restore_game(game_id)
        self._changed()

    def set_notes(self, game_id: str, notes: str) -> None:
        self._store.set_notes(game_id, notes)
        self._changed()

    # --- players ---------------------------------------------------------------------------

    def players(self, include_archived: bool = False) -> list[Player]:
        return self._store.players(include_archived=include_archived)

    def add_player(self, name: str, born: str | None = None) -> Player:
        player = self._store.add_player(name, born)
        self._changed()
        return player

    def change_player(self, player_id: str, name: str | None, born: str | None) -> None:
        """A new name (games keep theirs) and/or birth date; None leaves it as it is."""
        if name is not None:
            self._store.rename_player(player_id, name)
        if born is not None:
            self._store.set_player_birth(player_id, born.strip() or None)
        self._changed()

    def archive_player(self, player_id: str, archived: bool) -> None:
        self._store.archive_player(player_id, archived)
        self._changed()

    def remember_birth_dates(self, born: dict[str, str], seated: list[str]) -> None:
        """Birth dates typed for a game also go to the roster, for next time (a date that
        cannot be saved is skipped: the game has it)."""
        keys = {name_key(name) for name in seated}
        for player in self._store.players():
            date = born.get(player["name"])
            if date and date != player["born"] and name_key(player["name"]) in keys:
                with contextlib.suppress(StorageError):
                    self._store.set_player_birth(player["id"], date)
        self._changed()

    # --- backups ---------------------------------------------------------------------------

    def plan_import(self, data: object, source: str) -> backup.ImportPlan:
        return backup.plan_import(self._store, data, source)

    def apply_import(self, plan: backup.ImportPlan) -> int:
        added = backup.apply_import(self._store, plan)
        self._changed()
        return added

    def export(self, game_id: str | None = None) -> Record:
        """Everything (or one game) as a backup document."""
        return backup.export_backup(self._store, game_id)

    def needing_correction(self, document: Record) -> list[tuple[str, scoring.RecordError]]:
        return backup.needing_correction(self._store, document)

    def history_csv(self) -> str:
        return backup.csv_of_history(self._store.summaries())
