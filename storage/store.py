"""The repository the app uses: players, games and settings on disk, never losing a game.

Files in the data folder, each a TinyDB database on `AtomicStorage`:

    debrief.json     meta (schema version), players (the roster), settings
    active.json      games in progress: recording a round rewrites only this small file
    index.json       one summary per finished game, one row each (derived data: rebuilt if
                     damaged; see `index`)
    games/NN.json    finished game records, spread over 64 files by id
    seals.json       each archive file's size and time as Debrief last wrote or checked it:
                     one that differs is read and checked at start (derived: `seals`)
    journal.json     present only during a change that touches several files
    drafts.json      the round each device is entering (written just after each tap:
                     `drafts.DraftKeeper`)
    undo.json        each device's undo history of each game
    debrief.lock     held while the data is open: a second app instance is refused

Something of the wrong kind in one of these places (a folder where a file belongs, a file where
`games` belongs, a special file, a link to nothing) is renamed aside like a damaged file. A data
file that is a link is followed (`files.AtomicStorage`), unless it leads into the data folder
itself or to a file another data file already leads to: two files would then write over one.
The data folder itself may be a link.

A read-only folder (no lock can be made there, or what is damaged cannot be renamed aside) opens
to look at and export: what is damaged stays where it is, untouched, and is left out in memory
only, and no change is saved until the data is opened again (`files.Access`).

Every record written is validated by `scoring` first: nothing invalid is ever stored. Records
handed out are copies, so callers cannot change stored data by accident; summaries cannot be
changed at all, so they are handed out as they are kept.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import functools
import hashlib
import json
import logging
import re
import shutil
import threading
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypedDict

import scoring
from scoring.errors import N_
from scoring.reader import Reader, show
from scoring.table import (
    folded_name,
    look_alike_of,
    name_key,
    normal_name,
    read_birth,
    read_name,
)

from . import browser, colors, names, shapes
from . import errors as err
from .documents import Database, Documents
from .drafts import DraftKeeper
from .files import (
    READ_ONLY,
    Access,
    AtomicStorage,
    Damaged,
    file_problem,
    folder_problem,
    folder_syncs_deferred,
    keep_aside,
    remove_stale_temp_files,
    sync_deferred_folders,
    write_atomically,
    write_failure,
)
from .index import Index
from .paths import data_directory
from .seals import Seals
from .summaries import Summary, newest_first, summarize
from .trees import copied

if TYPE_CHECKING:
    from filelock import FileLock

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 8
# The replays of games not at the table kept at once (the last ones opened): a history browsed
# game by game kept every one for the life of the app. Each game at the table is always kept.
KEPT_FINISHED = 16
SHARDS = 64
SPACE_MARGIN = 1024 * 1024  # bytes an import leaves free on the disk
SHARD_FILE = re.compile(r"^\d{2}\.json$")
Record = dict[str, Any]


class Player(TypedDict):
    """A roster entry."""

    id: str
    name: str
    born: str | None
    archived: bool
    former_names: list[str]
    color: str  # one of storage.colors.COLORS


@dataclass(frozen=True)
class GameAt:
    """A game as stored at one revision, played through: worked out once per revision and
    shared by everyone who reads it then (`record` is read, never changed)."""

    record: Record
    revision: int
    result: scoring.Replay  # up to the round to correct, if any
    correction: scoring.Correction | None
    source: object  # the stored record this was made from (a new one is never the same object)


def _player(player_id: str, doc: dict[str, Any]) -> Player:
    return {
        "id": player_id,
        "name": doc["name"],
        "born": doc.get("born"),
        "archived": doc["archived"],
        "former_names": list(doc["former_names"]),
        "color": colors.known_color(doc.get("color")) or colors.fallback_color(player_id),
    }


def _derived_only(store: Store) -> None:
    """Versions 2 and 3 changed only derived data (facts, places and corrections in the
    summaries): the index made anew after the migrations brings it."""


def _report_games_needing_correction(store: Store) -> None:
    """Games stored before a rule they break (the stricter Kompromat and Spywhere
    rules of schema 3) are kept as they are, reported once, and wait for a correction."""
    for doc in store._all_documents():
        try:
            correction = _correction_of(doc["record"])
        except scoring.InvalidRecord:
            continue  # cannot be opened at all: kept aside by the checks after migrating
        if correction is not None:
            store.notices.append(_needs_correction_notice(doc["record"], correction))


def _correction_of(record: Record) -> scoring.Correction | None:
    return scoring.replay_until_broken(record)[1]


def _needs_correction_notice(record: Record, correction: scoring.Correction) -> err.StartupNotice:
    meta = record.get("meta", {})
    return err.GameNeedsCorrection(
        game_id=meta.get("id"),
        game=scoring.GAMES[record["game"]].title,
        players=", ".join(player["name"] for player in record["players"]),
        started=(meta.get("started") or "")[:10],
        round=correction.round + 1,
        reason=correction.problems[0],
    )


def _normalised_names(store: Store) -> dict[str, dict[str, Any]]:
    """Version 4 stores names as FORMAT.md says (NFC, one space, no invisible characters) and
    compares them by their NFKC case-folded form: stored names are made so, and players whose
    names are now one name are renamed "Name 2" (each change is reported). Returns the
    archived games it changed, by id."""
    renames: list[names.Rename] = []
    roster = store._main.documents("players")
    entries = roster.docs()
    players = [doc for _, doc in entries]
    renames += names.normalise_roster(players)
    roster.put_many({player_id: doc for player_id, doc in entries})
    archived: dict[str, dict[str, Any]] = {}
    for table in [store._active, *(store._shard(p.stem) for p in store._shard_files())]:
        changed: dict[str, dict[str, Any]] = {}
        for game_id, doc in table.docs():
            record = copied(doc["record"])
            renames += names.normalise_record(record)
            if record != doc["record"]:
                changed[game_id] = {**doc, "record": record}
        table.put_many(changed)
        if table is not store._active:
            archived.update(changed)
    if renames:
        listed = ", ".join(f"{names.shown(old)} → {new}" for old, new in dict(renames).items())
        store.notices.append(err.NamesRenamed(renames=listed))
    return archived


def _selectors_dropped(store: Store) -> None:
    """Version 6 keeps a variation selector (U+FE0E/U+FE0F) only right after a character that
    takes one ("Anna" with one is "Anna", "❤️" keeps it) and lets a flag's tag
    characters into a name. Stored names are cleaned by version 4's migration again, whose
    cleaning (`clean_name`) now drops a stray selector, wherever a game names the player (not
    reported: nothing visible changes); a name that then is another player's becomes
    "Name 2" and is reported. Names that look alike across scripts are still kept (version 4's
    rule compares by folded form only). Only the summaries of the finished games changed are
    made again: a selector dropped from one game replays no other."""
    changed = _normalised_names(store)
    summaries: dict[str, Summary] = {}
    for game_id, doc in changed.items():
        try:
            summaries[game_id] = store._archived_summary(doc)
        except scoring.InvalidRecord:
            continue  # cannot be opened at all: kept aside by the checks after migrating
    store._index.put_many(summaries)


def _index_in_rows(store: Store) -> None:
    """Version 7 keeps the index as one list of rows, not one TinyDB document per summary:
    the summaries read are checked and written anew in that layout once the data is open
    (`Store._open_files`), none made again."""


def _colors_given(store: Store) -> None:
    """Version 8 gives each player a colour: the roster's players, by name, each
    the colour fewest players before them have (archived ones not counted). No summary
    changes."""
    roster = store._main.documents("players")
    given: list[str] = []
    changed: dict[str, dict[str, Any]] = {}
    for player_id, doc in sorted(roster.docs(), key=_roster_order):
        if not isinstance(doc, dict):
            continue  # not a player: the checks after migrating keep it aside
        color = colors.known_color(doc.get("color")) or colors.next_color(given)
        if not doc.get("archived"):  # as a new player is given one: archived ones aside
            given.append(color)
        if doc.get("color") != color:
            changed[player_id] = {**doc, "color": color}
    roster.put_many(changed)


def _roster_order(entry: tuple[str, Any]) -> str:
    name = entry[1].get("name") if isinstance(entry[1], dict) else None
    return folded_name(name) if isinstance(name, str) else ""


def _names_kept(store: Store) -> None:
    """Version 5 compares names across scripts too ("Anna" and "Аnna" are one name, issue
    21.7). Stored names are kept as they are, never renamed: the games and roster entries
    whose names now look alike are reported (`_report_names_that_look_alike`)."""


def _report_names_that_look_alike(store: Store) -> None:
    """Games and roster entries stored before names that look the same across scripts were
    one name: kept as they are (such a game opens, goes on and counts as before), and said
    once."""
    for doc in store._all_documents():
        record = doc["record"]
        players = record.get("players")
        if not isinstance(players, list) or not all(
            isinstance(p, dict) and isinstance(p.get("name"), str) for p in players
        ):
            continue  # not a record that can be opened: the checks keep it aside
        names = [normal_name(player["name"]) for player in players]
        for index, name in enumerate(names):
            other = look_alike_of(name, names[:index])
            if other is None:
                continue
            try:
                scoring.replay_until_broken(record)
            except scoring.InvalidRecord:
                break  # cannot be opened at all: kept aside by the checks after migrating
            store.notices.append(_look_alike_notice(record, index, other))
            break
    roster = [player["name"] for player in store.players(include_archived=True)]
    for index, name in enumerate(roster):
        other = look_alike_of(name, roster[:index])
        if other is not None:
            reason = scoring.errors.LookAlikeName("", name=name, other=other)
            store.notices.append(err.PlayersLookAlike(reason=reason))


def _look_alike_notice(record: Record, index: int, other: str) -> err.StartupNotice:
    meta = record.get("meta", {})
    name = normal_name(record["players"][index]["name"])
    return err.GameNamesLookAlike(
        game_id=meta.get("id"),
        game=scoring.GAMES[record["game"]].title,
        players=", ".join(player["name"] for player in record["players"]),
        started=(meta.get("started") or "")[:10],
        reason=scoring.errors.LookAlikeName(f"players[{index}].name", name=name, other=other),
    )


# MIGRATIONS[n] upgrades the stored data of schema version n to n + 1; run in order at
# start-up, then the index (derived data) is made anew (unless every version passed is in
# SAME_INDEX: its summaries stay as they are) and the REPORTS of the versions passed are made.
MIGRATIONS: dict[int, Callable[[Store], object]] = {
    1: _derived_only,
    2: _derived_only,
    3: _normalised_names,
    4: _names_kept,
    5: _selectors_dropped,
    6: _index_in_rows,
    7: _colors_given,
}
REPORTS: dict[int, Callable[[Store], None]] = {
    2: _report_games_needing_correction,
    4: _report_names_that_look_alike,
}
# 4 -> 5 changes no summary, 5 -> 6 makes those it changes again, 6 -> 7 writes them in
# rows, 7 -> 8 changes the roster only: no replay of every game.
SAME_INDEX = frozenset({4, 5, 6, 7})


def link_refused(folder: Path, landings: set[Path], target: Path) -> str | None:
    """Why a data file of `folder` that is a link to `target` (an ordinary file) is not
    followed (`landings`: where the data files that are links lead already)."""
    own = (folder.resolve(), (folder / "games").resolve())
    if any(target.is_relative_to(inside) for inside in own):
        return N_("it is a link to another file in the data folder")
    if target in landings:
        return N_("it is a link to a file another data file already leads to")
    return None


def _device_key(device: str, game_id: str) -> str:
    return f"{device}/{game_id}"


def _check_based_on(game_id: str, doc: dict[str, Any], based_on: int | None) -> None:
    """A change made from revision `based_on` applies only while the game is still there."""
    if based_on is not None and based_on != _revision_of(doc):
        raise err.ChangedElsewhere(game_id=game_id)


def _drafts_ended(doc: dict[str, Any]) -> dict[str, Any]:
    """The draft each device last saved into this game, by its id (`DraftKeeper.end`)."""
    ended = doc.get("drafts_ended")
    return ended if isinstance(ended, dict) else {}


def _saved_draft(doc: dict[str, Any], draft_id: str) -> tuple[bool, int | None]:
    """Whether the game says the draft `draft_id` was saved into it, and the round it saved
    (None: no longer among the changes kept beside the game)."""
    for change in reversed(_changes_of(doc)):
        if change.get("draft") == draft_id:
            index = change.get("index")
            return True, index if isinstance(index, int) else None
    return draft_id in _drafts_ended(doc).values(), None


class SavesDraft(NamedTuple):
    """The draft a change saves: of which device, and which (None: the one it has kept)."""

    device: str
    draft_id: str | None = None


def _kept_beside(doc: dict[str, Any]) -> dict[str, Any]:
    """What a game's document keeps beside its record that goes with the game wherever it
    is moved (from the table to the history and back)."""
    return {"drafts_ended": doc["drafts_ended"]} if "drafts_ended" in doc else {}


CHANGES_KEPT = 20  # the latest changes of a game kept beside it, as their makers described them


def _changes_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's latest changes, oldest first, each with the revision it made (``rev``)."""
    changes = doc.get("changes")
    if not isinstance(changes, list):
        return []
    return [c for c in changes if isinstance(c, dict) and isinstance(c.get("rev"), int)]


def _described_beside(doc: dict[str, Any], described: dict[str, Any] | None) -> dict[str, Any]:
    """What a change writes beside the record it makes: when, how its maker described it (the
    last change, and the latest changes with the revision each made)."""
    change = {**(described or {}), "rev": _revision_of(doc) + 1}
    return {
        "changed": now(),
        "last_change": described or {},
        "changes": [*_changes_of(doc), change][-CHANGES_KEPT:],
    }


def _revision_of(doc: dict[str, Any]) -> int:
    revision = doc.get("revision", 0)
    return revision if isinstance(revision, int) else 0


def now() -> str:
    return dt.datetime.now(dt.UTC).astimezone().isoformat(timespec="seconds")


def _validated_change(old: Record, new: Record) -> scoring.Replay:
    """The replay of `new`, which replaces `old`; raises `InvalidRecord` when it may not.

    Nothing invalid is stored, with one exception: a game stored before a rule it breaks
    (it needs a correction) takes the changes that correct it, those that shorten its broken
    tail (a corrected or deleted round), and changes that leave its rounds as they are (notes).
    """
    # A game keeps the names it was stored with (names that look alike across scripts were
    # accepted once), as long as its players stay the same.
    stored = new.get("players") == old.get("players")
    try:
        return scoring.replay(new, stored=stored)
    except scoring.InvalidRecord:
        if _correction_of(old) is None:
            raise
    result, correction = scoring.replay_until_broken(new, stored=stored)
    assert correction is not None
    before = scoring.replay_until_broken(old)[1]
    assert before is not None
    old_tail = len(old["rounds"]) - before.round
    new_tail = len(new["rounds"]) - correction.round
    if new_tail < old_tail or (new_tail == old_tail and new["rounds"] == old["rounds"]):
        return result
    raise scoring.InvalidRecord(correction.problems)


def with_normal_names(record: Record) -> Record:
    """A copy of a valid record whose players' names are stored as FORMAT.md says (the
    references in its rounds find them by their NFKC case-folded form)."""
    named = copied(record)
    for player in named["players"]:
        player["name"] = normal_name(player["name"])
    return named


def shard_of(game_id: str) -> str:
    """The archive file a finished game lives in (stable: derived from its id)."""
    number = int(hashlib.sha1(game_id.encode()).hexdigest()[:8], 16) % SHARDS
    return f"{number:02d}"


def _size(path: Path) -> int:
    """The size of a data file (0 for what is not there or cannot be looked at: a link to
    nothing kept aside)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


class Store:
    """Debrief's data in one folder. Use `Store.open()`: one instance per folder per process."""

    _instances: ClassVar[dict[Path, Store]] = {}
    _instances_lock: ClassVar[threading.Lock] = threading.Lock()

    # --- opening and closing ---------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | Path | None = None) -> Store:
        """The store for `folder` (default: `data_directory()`), created on first use.

        Raises `DataDirectoryInUse` when another process has it open, `NewerData` when a newer
        Debrief wrote it, `DataFolderLinkBroken` when it is a link to nothing (a drive that is
        not connected: an empty folder made there would hide the data). Problems found and
        handled while opening are in `notices`.
        """
        given = data_directory(folder)
        if given.is_symlink() and not given.exists():
            raise err.DataFolderLinkBroken(folder=str(given), target=str(given.readlink()))
        path = given.resolve()
        with cls._instances_lock:
            if path not in cls._instances:
                cls._instances[path] = cls(path)
            return cls._instances[path]

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.notices: list[err.StartupNotice] = []
        self._open_done = False  # set once opening is over: damage found later is announced
        self._lock = threading.RLock()
        # Each game's replay at its latest revision (`game_at`): a screen drawn again, a round
        # appended, a summary of a game in progress start from it instead of replaying all.
        # Every game at the table; of the others the last KEPT_FINISHED opened (`_keep`).
        self._kept: collections.OrderedDict[str, GameAt] = collections.OrderedDict()
        # Who follows changes in this process: every open tab and device's app state, so each
        # screen redraws when another one changes the data (weak: a closed session just goes).
        self._listeners: list[weakref.WeakMethod[Callable[[], None]]] = []
        # The summaries of the games in progress, by their record (which a change replaces,
        # never changes): worked out once, not at every look at the home screen or history.
        self._active_summaries: dict[int, tuple[Record, str | None, Summary]] = {}
        # Where the data files that are links lead (two may not lead to one file).
        self._landings: set[Path] = set()
        # Nothing can be written here, by anyone (found out below, or while setting the data
        # right): it opens to look at and export, and saves nothing until opened again.
        notices = self.notices  # not `self`: a closed store is freed at once (no cycle)
        self._access = Access(folder, lambda: notices.append(err.ReadOnlyData(folder=str(folder))))
        if folder.exists() and not folder.is_dir():
            raise err.NotAFolder(folder=str(folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise write_failure(error, folder) from error
        self._file_lock: FileLock | None = None
        if self._keep_aside_odd_lock(folder / "debrief.lock"):
            self._lock_folder(folder / "debrief.lock")
        try:
            with self._access.repairing():
                self._open_files()
        except BaseException:
            self._release()
            raise

    def _lock_folder(self, lock: Path) -> None:
        """Hold the lock (`DataDirectoryInUse` when another process does); where it cannot be
        made, the folder is read-only. In a browser the tab's lock is the lock (storage/browser:
        one tab of the browser holds the data); a lock file would hold nothing off there, each
        tab's files being its own, in its memory."""
        if not browser.Tab.holds_the_data:  # a browser's lock: another tab has the data
            raise err.OpenInAnotherTab()
        if browser.IN_BROWSER:
            return
        import filelock  # here: a browser's start does without it (about 60 ms of importing)

        file_lock = filelock.FileLock(str(lock), timeout=0)
        try:
            file_lock.acquire()
        except filelock.Timeout:
            raise err.DataDirectoryInUse(folder=str(self.folder)) from None
        except OSError as error:
            if error.errno not in READ_ONLY:
                raise write_failure(error, self.folder) from error
            self._access.found_read_only()
            return
        self._file_lock = file_lock

    def _keep_aside_odd_lock(self, lock: Path) -> bool:
        """The lock must be a plain file; anything else there (a folder, a link: the lock is
        never opened through one) is kept aside. False: it is there still (read-only)."""
        if not (lock.is_symlink() or (lock.exists() and not lock.is_file())):
            return True
        kept = keep_aside(lock, "not a lock file", self._access)
        if kept.kept_as is None:
            self.notices.append(err.LockLeftInPlace())
            return False
        self.notices.append(err.LockKeptAside(kept_as=kept.kept_as.name))
        return True

    def _games_folder(self) -> Damaged | None:
        """The folder of finished games, made if missing; something else there (a file, a link
        to nothing) is kept aside first (and returned), or left there in a read-only folder."""
        games = self.folder / "games"
        reason = folder_problem(games)
        kept = keep_aside(games, reason, self._access) if reason is not None else None
        if self._access.read_only:
            return kept
        try:
            games.mkdir(exist_ok=True)
        except OSError as error:
            if error.errno not in READ_ONLY:
                raise write_failure(error, self.folder) from error
            self._access.found_read_only()
        return kept

    def _open_files(self) -> None:
        games_kept = self._games_folder()
        if not self._access.read_only:  # only safe while holding the lock
            cut_off = remove_stale_temp_files(self.folder)
            cut_off += remove_stale_temp_files(self.folder / "games")
            # A draft's write cut off costs the tap it carried, as a draft may (drafts.py);
            # any other was a change the app had not said was saved: the player is told.
            if [path for path in cut_off if not path.name.startswith("drafts.json")]:
                self.notices.append(err.InterruptedWriteRemoved())
        self._seals = Seals(
            AtomicStorage(self.folder / "seals.json", self._refuse_link, self._access)
        )
        self._main = self._database(self.folder / "debrief.json")
        self._active = self._database(self.folder / "active.json").documents("games")
        self._shards: dict[str, Documents] = {}
        index_missing = not (self.folder / "index.json").exists()
        self._index = Index(self._file(self.folder / "index.json"))
        if games_kept is not None:  # every finished game was in it
            self._archive_lost(games_kept, self._index.ids())
        # What migrations can read first; what the rules of this version accept after them.
        # What belongs to one device (drafts, undo histories): small files of their own, since
        # a draft is written on every tap.
        self._drafts = self._database(self.folder / "drafts.json").documents("drafts")
        self._histories = self._database(self.folder / "undo.json").documents("histories")
        self._keep_aside_unusable(self._drafts, shapes.draft_problem)
        self._keep_aside_unusable(self._histories, shapes.history_problem)
        self._keep_aside_unusable(self._main.documents("players"), shapes.player_shape_problem)
        self._keep_aside_unusable(self._main.documents("settings"), shapes.setting_problem)
        self._keep_aside_unusable(self._active, shapes.game_shape_problem)
        self._migrate()
        self._keep_aside_unusable(self._main.documents("players"), shapes.player_problem)
        self._keep_aside_unusable(
            self._active, lambda doc: shapes.game_problem(doc, self._replayed_active)
        )
        self._recover_journal()
        if self._index.unusable or (index_missing and any(self._shard_files())):
            self._rebuild_index()
        elif index_missing:  # a new folder: an index that exists means "trust it" from now on
            self._replace_index({})
        elif self._index.old_layout:  # written before version 7: in rows from now on
            with contextlib.suppress(err.StorageError):  # the disk is full: again next time
                self._index.save()
        self._check_archive()
        self._keeper = DraftKeeper(self._drafts, self._access, self._drafts.docs())
        self._keeper.leave(self._ended_drafts())
        self._open_done = True

    def _ended_drafts(self) -> list[str]:
        """The drafts in drafts.json whose round was saved (the game names them as ended): a
        kill before they left the file, or a write of one that was under way at the save."""
        ended: list[str] = []
        for key, draft in self._drafts.docs():
            device, _, game_id = key.rpartition("/")
            if "id" not in draft:
                continue  # kept by an older version: ended by its removal only
            try:
                doc = self._find(game_id)[1]
            except err.StorageError:
                continue
            if _drafts_ended(doc).get(device) == draft["id"]:
                ended.append(key)
        return ended

    def _keep_aside_unusable(
        self, table: Documents, problem_of: Callable[[Any], str | None]
    ) -> set[str]:
        """Move the documents of `table` that cannot be used into a kept-aside file (one for
        all of them), tell the user about each, and return their ids."""
        reasons = {doc_id: problem_of(doc) for doc_id, doc in table.docs()}
        bad = {doc_id: reason for doc_id, reason in reasons.items() if reason is not None}
        if not bad:
            return set()
        storage = table.storage
        assert isinstance(storage, AtomicStorage)
        kept = storage.keep_documents_aside(table.name, list(bad), "cannot be used")
        table.clear_cache()
        file = self._relative(storage.path)
        for doc_id, reason in bad.items():
            if kept is None or kept.kept_as is None:  # nothing can be written: left in its file
                self.notices.append(err.DocumentLeftOut(file=file, id=doc_id, reason=reason))
            else:
                kept_as = self._relative(kept.kept_as)
                self.notices.append(
                    err.DocumentKeptAside(file=file, id=doc_id, reason=reason, kept_as=kept_as)
                )
        return set(bad)

    def _relative(self, path: Path) -> str:
        return str(path.relative_to(self.folder))

    def _database(
        self, path: Path, report: bool = True, on_written: Callable[[], None] | None = None
    ) -> Database:
        db = Database(
            path,
            storage=AtomicStorage,
            refuse_link=self._refuse_link,
            access=self._access,
            on_written=on_written,
        )
        storage = db.storage
        assert isinstance(storage, AtomicStorage)
        self._opened(storage, report)
        return db

    def _file(self, path: Path) -> AtomicStorage:
        """A data file read and written whole, without TinyDB's tables (the index)."""
        storage = AtomicStorage(path, refuse_link=self._refuse_link, access=self._access)
        self._opened(storage, report=True)
        return storage

    def _opened(self, storage: AtomicStorage, report: bool) -> None:
        """Note where a data file just opened lands, and report what was damaged in it."""
        if storage.lands_on != storage.path:
            self._landings.add(storage.lands_on)
        for damaged in storage.damaged if report else ():
            self._report_damage(damaged)

    @property
    def _refuse_link(self) -> Callable[[Path], str | None]:
        """`link_refused` for this store's files (which do not hold on to the store)."""
        return functools.partial(link_refused, self.folder, self._landings)

    def _report_damage(self, damaged: Damaged) -> None:
        file = self._relative(damaged.path)
        if damaged.kept_as is None:  # read-only: it stays where it is
            left = err.DamagedFileLeftInPlace if damaged.whole else err.PartsLeftInPlace
            self.notices.append(left(file=file, reason=damaged.reason))
            return
        notice = err.DamagedFileKeptAside if damaged.whole else err.PartsKeptAside
        self.notices.append(
            notice(file=file, kept_as=self._relative(damaged.kept_as), reason=damaged.reason)
        )

    def close(self) -> None:
        """Write the drafts still pending and release the folder (another process may open it
        now)."""
        with self._instances_lock, self._lock:
            self._instances.pop(self.folder, None)
            self._keeper.close()
            with contextlib.suppress(err.StorageError):  # derived: a check next time instead
                self._seals.save()
            self._release()

    def _release(self) -> None:
        if self._file_lock is not None:
            self._file_lock.release()

    # --- schema ----------------------------------------------------------------------------

    @property
    def schema_version(self) -> int | None:
        """The version of the data's layout (None: the mark is missing or damaged)."""
        doc = self._main.documents("meta").get_doc("schema")
        version = doc.get("version") if doc else None
        valid = isinstance(version, int) and not isinstance(version, bool) and version >= 1
        return version if valid else None

    def _migrate(self) -> None:
        meta = self._main.documents("meta")
        doc = meta.get_doc("schema")
        if doc is None and not self._holds_data():
            meta.put("schema", {"version": SCHEMA_VERSION, "created": now()})
            return
        found = self.schema_version
        if found is None:
            # Unknown: every migration rebuilds derived data, so running them all is safe.
            mark = show(doc.get("version") if doc else None)
            self.notices.append(err.SchemaVersionRepaired(found=mark))
            meta.put("schema", {"version": 1, "created": now()})
            found = 1
        if found > SCHEMA_VERSION:
            raise err.NewerData(folder=str(self.folder), found=found)
        for version in range(found, SCHEMA_VERSION):
            MIGRATIONS[version](self)
            meta.update_doc("schema", {"version": version + 1})
        if found < SCHEMA_VERSION:
            if not SAME_INDEX.issuperset(range(found, SCHEMA_VERSION)):
                self._rebuild_index(announce=False)
            for version in range(found, SCHEMA_VERSION):
                if version in REPORTS:
                    REPORTS[version](self)

    def _holds_data(self) -> bool:
        """Whether the folder holds games or players already (a lost version mark then
        does not mean "new")."""
        return bool(
            len(self._active) or len(self._main.documents("players")) or any(self._shard_files())
        )

    # --- archive files ---------------------------------------------------------------------

    def _shard(self, name: str) -> Documents:
        """An archive file, opened on first use (a damaged one is kept aside then). Damage
        found once the data is open (the file changed while Debrief ran) is told at once:
        every tab follows (`announce`) and shows the new notices where it is."""
        if name not in self._shards:
            told = len(self.notices)
            with self._access.repairing():
                self._open_shard(name)
            if self._open_done and len(self.notices) > told:
                self.announce(None)
        return self._shards[name]

    def _open_shard(self, name: str) -> None:
        """Read an archive file, keeping aside what cannot be read, and tell which finished
        games that takes out of the history (by their summaries) and what to do."""
        path = self.folder / "games" / f"{name}.json"
        sealed = functools.partial(self._seals.seal, name, path)  # after each write of it
        db = self._database(path, report=False, on_written=sealed)
        shard = self._shards[name] = db.documents("games")
        storage = db.storage
        assert isinstance(storage, AtomicStorage)
        listed = [game_id for game_id in self._index.ids() if shard_of(game_id) == name]
        whole = [damaged for damaged in storage.damaged if damaged.whole]
        if whole:
            self._archive_lost(whole[0], listed)
            return
        parts = [damaged for damaged in storage.damaged if not damaged.whole]
        unusable = {
            doc_id: reason
            for doc_id, doc in shard.docs()
            if (reason := self._archived_problem(name, doc_id, doc)) is not None
        }
        kept = None
        if unusable:
            kept = storage.keep_documents_aside(shard.name, list(unusable), "cannot be used")
            shard.clear_cache()
        # Games the damage took: those kept aside, and those in parts that were not games.
        lost = [i for i in listed if i in unusable or (parts and not shard.has(i))]
        if lost:
            damaged = parts[0] if parts else None
            reason = damaged.reason if damaged is not None else unusable[lost[0]]
            kept_as = kept.kept_as if kept is not None else None
            if kept_as is None and damaged is not None:
                kept_as = damaged.kept_as
            self._archive_lost(Damaged(path, kept_as, reason), lost)
        elif parts:
            self._report_damage(parts[0])
        for doc_id, reason in unusable.items():
            if doc_id not in lost:  # a copy out of place, or a game missing from the index
                kept_in = self._relative(kept.kept_as) if kept and kept.kept_as else None
                file = self._relative(path)
                if kept_in is None:
                    self.notices.append(err.DocumentLeftOut(file=file, id=doc_id, reason=reason))
                else:
                    self.notices.append(
                        err.DocumentKeptAside(file=file, id=doc_id, reason=reason, kept_as=kept_in)
                    )

    def _archived_problem(self, name: str, doc_id: str, doc: dict[str, Any]) -> str | None:
        """Why a document of archive file `name` cannot be used: not a game, or a game that
        belongs in another archive file (where it is never looked for)."""
        problem = shapes.game_shape_problem(doc)
        if problem is not None:
            return problem
        home = shard_of(doc_id)
        if home == name:
            return None
        if self._shard(home).has(doc_id):
            return f"the same game is in two archive files; games/{home}.json holds it"
        return f"it belongs in games/{home}.json, where Debrief looks for it"

    def _forget_summaries(self, game_ids: set[str]) -> None:
        """Archived games kept aside leave the list of finished games."""
        self._index.remove_ids(game_ids)

    def _archive_lost(self, damaged: Damaged, lost: list[str]) -> None:
        """An archive file (or the folder of them) could not be read, or games in it, and was
        kept aside: its games (`lost`) leave the list of finished games (they can be imported
        again), and the user is told which, by their summaries."""
        if not lost:
            self._report_damage(damaged)
            return
        games = tuple(summary for i in lost if (summary := self._index.get(i)) is not None)
        self._index.remove_ids(lost)
        file = self._relative(damaged.path)
        if damaged.kept_as is None:  # read-only: it stays where it is
            self.notices.append(
                err.DamagedArchiveLeftInPlace(
                    file=file, reason=damaged.reason, count=len(lost), games=games
                )
            )
            return
        self.notices.append(
            err.DamagedArchiveKeptAside(
                file=file,
                kept_as=self._relative(damaged.kept_as),
                reason=damaged.reason,
                count=len(lost),
                games=games,
            )
        )

    def _check_archive(self) -> None:
        """Read at once each archive file that is not as Debrief last left it (its seal), as
        reading it for a game would (keeping aside what is damaged, telling which games that
        takes out), so that damage is said at start; and tell of the finished games whose
        archive file is gone. Files as sealed are not read."""
        seen: set[str] = set()
        for path in self._archive_entries():
            name = path.stem
            seen.add(name)
            if name in self._shards:  # read already while opening (a journal, the index)
                self._seals.seal(name, path)
                continue
            if self._seals.matches(name, path):
                continue
            self._open_shard(name)
            self._records_missing(name)
            if self._access.read_only:  # what was left out is held in memory: keep it
                continue
            self._seals.seal(name, path)
            del self._shards[name]  # read again when one of its games is asked for
        by_file: dict[str, list[str]] = {}
        if len(seen) < SHARDS:  # (with every file there, none is gone: no game looked at)
            for game_id in self._index.ids():
                by_file.setdefault(shard_of(game_id), []).append(game_id)
        for name in sorted(set(by_file) - seen):
            games = tuple(summary for i in by_file[name] if (summary := self._index.get(i)))
            self._index.remove_ids(by_file[name])
            self.notices.append(
                err.ArchiveFileMissing(
                    file=f"games/{name}.json", count=len(by_file[name]), games=games
                )
            )
        for name in self._seals.names() - seen:
            self._seals.forget(name)
        with contextlib.suppress(err.StorageError):  # derived: a check next time instead
            self._seals.save()

    def _records_missing(self, name: str) -> None:
        """The history's games whose records archive file `name` does not hold (a file
        changed outside Debrief) leave the history, named."""
        shard = self._shards[name]
        missing = [i for i in self._index.ids() if shard_of(i) == name and not shard.has(i)]
        if missing:
            games = tuple(summary for i in missing if (summary := self._index.get(i)))
            self._index.remove_ids(missing)
            self.notices.append(
                err.ArchivedRecordsMissing(
                    file=f"games/{name}.json", count=len(missing), games=games
                )
            )

    def _archive_entries(self) -> list[Path]:
        """Whatever is in the games folder under an archive file's name (a folder, a link, a
        special file too: each is kept aside when it is read)."""
        folder = self.folder / "games"
        try:
            entries = sorted(folder.iterdir())
        except OSError:  # not a folder (kept aside), or a read-only folder left in place
            return []
        return [path for path in entries if SHARD_FILE.match(path.name)]

    def _shard_files(self) -> Iterator[Path]:
        """The archive files: exactly ``NN.json`` (never a kept-aside ``NN.damaged-….json``)."""
        folder = self.folder / "games"
        return (path for path in sorted(folder.glob("*.json")) if SHARD_FILE.match(path.name))

    def _rebuild_index(self, announce: bool = True) -> None:
        """Summaries are derived data: make them again from the archived records (a record
        that cannot be opened is kept aside)."""
        summaries: dict[str, Summary] = {}
        for path in self._shard_files():
            shard = self._shard(path.stem)
            self._keep_aside_unusable(shard, shapes.game_problem)
            for game_id, doc in shard.docs():
                summaries[game_id] = self._archived_summary(doc)
        self._replace_index(summaries)
        if announce:
            self.notices.append(err.IndexRebuilt(count=len(summaries)))

    def _replace_index(self, summaries: dict[str, Summary]) -> None:
        """Replace every summary in one atomic write."""
        self._index.replace_all(summaries)

    @staticmethod
    def _archived_summary(doc: dict[str, Any]) -> Summary:
        return summarize(doc["record"], deleted_at=doc.get("deleted_at"))

    # --- changes that touch several files --------------------------------------------------

    @property
    def _journal_path(self) -> Path:
        return self.folder / "journal.json"

    def _begin(self, operation: str, game_ids: Iterable[str]) -> None:
        """Write down what is about to change, so an interrupted change is finished at start-up."""
        self._write_journal(json.dumps({"operation": operation, "games": list(game_ids)}))

    def _write_journal(self, text: str) -> None:
        """The journal is durable before anything it describes is written (also inside
        `one_change`)."""
        self._access.check()
        write_atomically(self._journal_path, text)
        sync_deferred_folders()

    def _end(self) -> None:
        """What the journal describes is durable; then it goes (its removal need not be: a
        journal found again finishes a change already finished, idempotently)."""
        sync_deferred_folders()
        if not self._access.read_only:  # read-only: a change is finished in memory only
            self._journal_path.unlink(missing_ok=True)

    @contextlib.contextmanager
    def _journaled(
        self, operation: str, game_ids: Iterable[str]
    ) -> Iterator[list[Callable[[], None]]]:
        """A change of several files, its journal written first and removed when it is done.
        Each write done adds its undoing to the list handed out; a change refused in the middle
        (a full disk) undoes those and then leaves no journal, which would otherwise finish
        the refused change at the next start (a game finished with the copy made before the
        refusal, the rounds saved after it gone). Only when undoing fails too does the journal
        stay, for the next start to set right (`_recover_journal`)."""
        self._begin(operation, game_ids)
        done: list[Callable[[], None]] = []
        try:
            yield done
        except err.StorageError:
            undone = True
            for undo in reversed(done):
                try:
                    undo()
                except err.StorageError:
                    undone = False
                    logger.warning("a refused %s could not be undone", operation, exc_info=True)
            if undone and not self._access.read_only:
                self._journal_path.unlink(missing_ok=True)
            raise
        self._end()

    def _put_back(self, table: Documents, game_id: str, doc: dict[str, Any] | None) -> None:
        """`table` as it was for the game: `doc` in it again, or none."""
        if doc is not None:
            table.put(game_id, doc)
        elif table.has(game_id):
            table.remove_ids([game_id])

    def _summary_back(self, game_id: str, summary: Summary | None) -> None:
        if summary is not None:
            self._index.put(game_id, summary)
        else:
            self._index.remove_ids([game_id])

    @contextlib.contextmanager
    def one_change(self) -> Iterator[None]:
        """Several writes that make one change (a round saved and its undo step): each file is
        written whole and fsynced before it replaces the old one, as always, and their folder
        is fsynced once, at the end, instead of after each (`files.folder_syncs_deferred`).
        Nothing else writes meanwhile (the store's lock is held)."""
        with self._lock, folder_syncs_deferred():
            yield

    def _recover_journal(self) -> None:
        """Bring an interrupted multi-file change to a consistent end.

        An import's journal holds everything it writes, so it is written again in full (one
        write per file). Every step of the other changes is an idempotent put or remove, so
        finishing means: where a game is archived, its summary is made again from the
        archive; where it is both active and archived, the operation says which copy is the
        one meant.
        """
        reason = file_problem(self._journal_path)
        if reason is not None:  # a folder, a link to nothing: never opened
            self._journal_unusable(reason)
            return
        try:
            journal = json.loads(self._journal_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (ValueError, RecursionError):
            journal = None
        reason = shapes.journal_problem(journal)
        if reason is not None:
            self._journal_unusable(reason)
            return
        assert isinstance(journal, dict)
        if journal["operation"] == "import":
            try:
                self._write_import(journal)
            except err.StorageError as problem:  # the disk is still full: next time
                self.notices.append(err.ImportWaitsForSpace(problem=problem))
                return
            if self._access.read_only:  # written in memory only: next time
                self.notices.append(err.ImportWaitsForSpace(problem=self._access.refusal()))
                return
            self._end()
            self.notices.append(
                err.InterruptedImportCompleted(
                    games=len(journal["index"]) + len(journal["active"]),
                    players=len(journal["players"]),
                )
            )
            return
        operation, game_ids = journal.get("operation"), journal.get("games", [])
        for game_id in game_ids:
            archived = self._shard(shard_of(game_id)).get_doc(game_id)
            active = self._active.get_doc(game_id)
            if operation == "reopen" and active is not None:
                self._remove_archived(game_id)
            elif (
                operation == "finish"
                and archived is not None
                and active is not None
                and (_revision_of(active) >= _revision_of(archived))
            ):
                # The finish's copy is one revision past the game it finished: a copy at the
                # table as new or newer changed after it (the finish was refused and the game
                # played on), and is the game.
                self._remove_archived(game_id)
            elif archived is not None:
                self._index.put(game_id, self._archived_summary(archived))
                if active is not None:
                    self._active.remove_ids([game_id])
        if not self._access.read_only:  # else finished in memory only, and again next time
            self._end()
            self.notices.append(err.InterruptedWorkCompleted(count=len(game_ids)))

    def _journal_unusable(self, reason: str) -> None:
        """A journal that cannot be read cannot be finished: keep it (where it is, in a
        read-only folder), rebuild what is derived, and tell the user to look at their last
        change."""
        kept = keep_aside(self._journal_path, reason, self._access)
        self._rebuild_index(announce=False)
        if kept.kept_as is None:
            self.notices.append(err.JournalLeftInPlace(reason=reason))
        else:
            self.notices.append(err.JournalKeptAside(kept_as=kept.kept_as.name, reason=reason))

    # --- small table helpers ---------------------------------------------------------------

    def _remove_archived(self, game_id: str) -> None:
        shard = self._shard(shard_of(game_id))
        if shard.has(game_id):
            shard.remove_ids([game_id])
        self._index.remove_ids([game_id])

    # --- games -----------------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        players: list[dict[str, Any]],
        options: dict[str, Any],
        started: str | None = None,
        notes: str = "",
    ) -> Record:
        """Start a game; returns its record (with ``meta.id``). Raises `InvalidRecord`."""
        record: Record = {
            "format": "game-record/1",
            "game": game,
            "players": players,
            "options": options,
            "rounds": [],
            "meta": {
                "id": uuid.uuid4().hex,
                "started": started or now(),
                "ended": None,
                "notes": notes,
            },
        }
        scoring.replay(record)
        record = with_normal_names(record)
        with self._lock:
            self._active.put(record["meta"]["id"], {"record": record, "deleted_at": None})
        return copied(record)

    def load_game(self, game_id: str) -> Record:
        """A copy of the game's record. Raises `GameNotFound`."""
        with self._lock:
            return copied(self._find(game_id)[1]["record"])

    def load_game_at(self, game_id: str) -> tuple[Record, int]:
        """A copy of the game's record and the revision it is (read together)."""
        with self._lock:
            doc = self._find(game_id)[1]
            return copied(doc["record"]), _revision_of(doc)

    def last_change(self, game_id: str) -> dict[str, Any]:
        """What the game's latest change was, as its maker described it (`{}` if unknown)."""
        with self._lock:
            change = self._find(game_id)[1].get("last_change")
        return dict(change) if isinstance(change, dict) else {}

    def changed_at(self, game_id: str) -> str | None:
        """When the game was last changed (ISO 8601), if that is known (a game changed before
        Debrief kept it, or imported, is not)."""
        with self._lock:
            changed = self._find(game_id)[1].get("changed")
        return changed if isinstance(changed, str) else None

    def ended_at(self, game_id: str) -> str | None:
        """When the game ended: put into the history, else its last change (ISO 8601)."""
        meta = self.game_at(game_id).record.get("meta")
        ended = meta.get("ended") if isinstance(meta, dict) else None
        return ended if isinstance(ended, str) else self.changed_at(game_id)

    def changes_since(self, game_id: str, revision: int) -> list[dict[str, Any]]:
        """The game's changes after `revision`, oldest first, as their makers described them,
        each with the revision it made (``rev``); only the latest `CHANGES_KEPT` are known."""
        with self._lock:
            changes = _changes_of(self._find(game_id)[1])
        return [dict(change) for change in changes if change["rev"] > revision]

    # --- following changes -------------------------------------------------------------------

    def listen(self, listener: Callable[[], None]) -> None:
        """Call `listener` (a bound method, held weakly) after `announce` by someone else."""
        with self._lock:
            self._listeners = [ref for ref in self._listeners if ref() is not None]
            self._listeners.append(weakref.WeakMethod(listener))

    def announce(self, origin: object) -> None:
        """The data changed: tell every listener but those of `origin` (who knows already)."""
        with self._lock:
            listeners = [ref() for ref in self._listeners]
        for listener in listeners:
            if listener is not None and getattr(listener, "__self__", None) is not origin:
                try:
                    listener()
                except Exception:  # one closed session must not stop the others
                    logger.exception("a listener failed")

    def is_active(self, game_id: str) -> bool:
        with self._lock:
            return self._find(game_id)[0] is self._active

    def _find(self, game_id: str) -> tuple[Documents, dict[str, Any]]:
        doc = self._active.get_doc(game_id)
        if doc is not None:
            return self._active, doc
        shard = self._shard(shard_of(game_id))
        doc = shard.get_doc(game_id)
        if doc is None:
            raise err.GameNotFound(game_id=game_id)
        return shard, doc

    def _change_record(
        self,
        game_id: str,
        change: Callable[[Record], None],
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
        saves_draft: SavesDraft | None = None,
    ) -> scoring.Replay:
        """Apply `change` to a copy of the record, validate it, then store it under the next
        revision. `based_on`: the revision the change was made from; when the game has moved
        on since, nothing is changed (`ChangedElsewhere`). `described`: what the change was and
        who made it, kept beside the record until the next one (never exported). `saves_draft`:
        the device and the draft whose round this change saves (a Save, a Delete); a draft is
        saved once (`DraftAlreadySaved` for the second time, before anything else is looked
        at), and the same write says the draft has ended (`drafts.DraftKeeper.end`), so it can
        never come back."""
        with self._lock:
            table, doc = self._find(game_id)
            key, draft_id = self._draft_saved_by(game_id, doc, saves_draft)
            _check_based_on(game_id, doc, based_on)
            record = copied(doc["record"])
            change(record)
            result = self._validated(game_id, doc, record)
            if draft_id is not None:
                described = {**(described or {}), "draft": draft_id}
            new_doc = {
                **doc,
                "record": record,
                "revision": _revision_of(doc) + 1,
                **_described_beside(doc, described),
            }
            if saves_draft is not None and draft_id is not None:
                new_doc["drafts_ended"] = {**_drafts_ended(doc), saves_draft.device: draft_id}
            if table is self._active:
                table.put(game_id, new_doc)
            else:
                with self._journaled("edit", [game_id]) as done:
                    table.put(game_id, new_doc)
                    done.append(functools.partial(self._put_back, table, game_id, doc))
                    self._index.put(game_id, self._archived_summary(new_doc))
            if len(result.round_totals) == len(record["rounds"]):  # every round valid
                self._keep(game_id, new_doc, result, None)
            else:  # still to correct: worked out again when it is next read
                self._kept.pop(game_id, None)
            if key is not None:
                self._end_kept_draft(key, draft_id)
            return result

    def _draft_saved_by(
        self, game_id: str, doc: dict[str, Any], saves_draft: SavesDraft | None
    ) -> tuple[str | None, str | None]:
        """(the key of the device's draft, the id of the draft a change saves); raises
        `DraftAlreadySaved` when the game says that draft was saved already. A change that
        names no id saves the draft the device has kept (a caller that does not know it)."""
        if saves_draft is None:
            return None, None
        key = _device_key(saves_draft.device, game_id)
        draft_id = saves_draft.draft_id
        if draft_id is None:
            kept = self._keeper.get(key)
            found = kept.get("id") if kept is not None else None
            draft_id = found if isinstance(found, str) else None
        if draft_id is not None:
            saved, index = _saved_draft(doc, draft_id)
            if saved:
                number = index + 1 if index is not None else None
                raise err.DraftAlreadySaved(game_id=game_id, number=number)
        return key, draft_id

    def _end_kept_draft(self, key: str, draft_id: str | None) -> None:
        """The device's kept draft of the round just saved leaves (a newer one stays)."""
        kept = self._keeper.get(key)
        if kept is None:
            return
        if "id" in kept:
            if draft_id is not None:
                self._keeper.end(key, draft_id)
        else:  # a draft of an older version, without an id: removed as before
            with contextlib.suppress(err.StorageError):
                self._keeper.discard(key)

    def _validated(self, game_id: str, doc: dict[str, Any], new: Record) -> scoring.Replay:
        """`_validated_change` of the stored record to `new`; a round appended to a valid
        game is played from the game's kept replay (the rounds before it are checked)."""
        old = doc["record"]
        kept = self._kept.get(game_id)
        rounds = old["rounds"]
        appended = (
            kept is not None
            and kept.source is old
            and kept.correction is None
            and len(new["rounds"]) == len(rounds) + 1
            and new["rounds"][: len(rounds)] == rounds
            and {**new, "rounds": rounds} == old
        )
        if kept is not None and appended:
            return kept.result.extended(new["rounds"][-1])
        return _validated_change(old, new)

    def append_round(
        self,
        game_id: str,
        round_: dict[str, Any],
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
        saves_draft: SavesDraft | None = None,
    ) -> scoring.Replay:
        """Record a round (the draft `saves_draft` with it: see `_change_record`).
        Raises `InvalidRecord` (nothing stored), `ChangedElsewhere` or `GameNotFound`."""
        return self._change_record(
            game_id, lambda r: r["rounds"].append(round_), based_on, described, saves_draft
        )

    def replace_round(
        self,
        game_id: str,
        index: int,
        round_: dict[str, Any],
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
        saves_draft: SavesDraft | None = None,
    ) -> scoring.Replay:
        """Edit a past round; refused with the reason if it breaks a later round."""

        def replace(record: Record) -> None:
            if not 0 <= index < len(record["rounds"]):
                raise err.NoSuchRound(game_id=game_id, number=index + 1)
            record["rounds"][index] = round_

        return self._change_record(game_id, replace, based_on, described, saves_draft)

    def insert_round(
        self,
        game_id: str,
        index: int,
        round_: dict[str, Any],
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
        saves_draft: SavesDraft | None = None,
    ) -> scoring.Replay:
        """Put a round in before round `index` (at the end: after the last); refused with the
        reason if it breaks a rule there or a later round."""

        def insert(record: Record) -> None:
            if not 0 <= index <= len(record["rounds"]):
                raise err.NoSuchRound(game_id=game_id, number=index + 1)
            record["rounds"].insert(index, round_)

        return self._change_record(game_id, insert, based_on, described, saves_draft)

    def remove_last_round(self, game_id: str) -> scoring.Replay:
        def remove(record: Record) -> None:
            if not record["rounds"]:
                raise err.NoSuchRound(game_id=game_id, number=0)
            record["rounds"].pop()

        return self._change_record(game_id, remove)

    def remove_round(
        self,
        game_id: str,
        index: int,
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
        saves_draft: SavesDraft | None = None,
    ) -> scoring.Replay:
        """Delete any round; refused with the reason if a later round depends on it."""

        def remove(record: Record) -> None:
            if not 0 <= index < len(record["rounds"]):
                raise err.NoSuchRound(game_id=game_id, number=index + 1)
            del record["rounds"][index]

        return self._change_record(game_id, remove, based_on, described, saves_draft)

    def set_record(
        self,
        game_id: str,
        record: Record,
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
    ) -> scoring.Replay:
        """Replace a game's whole record (undo, redo); it keeps its id. `based_on`: the
        revision it replaces (refused with `ChangedElsewhere` when the game moved on)."""

        def replace(current: Record) -> None:
            current.clear()
            current.update(copied(record))
            current.setdefault("meta", {})["id"] = game_id

        return self._change_record(game_id, replace, based_on, described)

    def game_at(self, game_id: str) -> GameAt:
        """The game as it is now and its replay as far as it is valid, worked out once per
        revision. Raises `GameNotFound`, or `InvalidRecord` when the game cannot be opened."""
        with self._lock:
            doc = self._find(game_id)[1]
            return self._game_at(game_id, doc)

    def _game_at(self, game_id: str, doc: dict[str, Any]) -> GameAt:
        kept = self._kept.get(game_id)
        if kept is not None and kept.source is doc["record"]:
            self._kept.move_to_end(game_id)  # opened last
            return kept
        result, correction = scoring.replay_until_broken(doc["record"])
        return self._keep(game_id, doc, result, correction)

    def _keep(
        self,
        game_id: str,
        doc: dict[str, Any],
        result: scoring.Replay,
        correction: scoring.Correction | None,
    ) -> GameAt:
        """Keep `result`, the replay of the stored game `doc`, as the game's (`game_at`)."""
        record = doc["record"]
        kept = GameAt(copied(record), _revision_of(doc), result, correction, record)
        self._kept[game_id] = kept
        self._kept.move_to_end(game_id)
        others = [kept_id for kept_id in self._kept if not self._active.has(kept_id)]
        for forgotten in others[: max(0, len(others) - KEPT_FINISHED)]:  # the least recent
            del self._kept[forgotten]
        return kept

    def revision(self, game_id: str) -> int:
        """How many changes the game has had (stored beside its record, never in it)."""
        with self._lock:
            return _revision_of(self._find(game_id)[1])

    def set_notes(self, game_id: str, notes: str, described: dict[str, Any] | None = None) -> None:
        self._change_record(
            game_id, lambda r: r.setdefault("meta", {}).update(notes=notes), None, described
        )

    def finish_game(
        self,
        game_id: str,
        ended: str | None = None,
        based_on: int | None = None,
        described: dict[str, Any] | None = None,
    ) -> None:
        """Move a game from the table to the history (it may be finished or abandoned).
        `based_on`: the revision the player saw when they finished it (`ChangedElsewhere`)."""
        with self._lock:
            table, doc = self._find(game_id)
            if table is not self._active:
                raise err.GameNotActive(game_id=game_id)
            _check_based_on(game_id, doc, based_on)
            record = copied(doc["record"])
            record.setdefault("meta", {})["ended"] = ended or now()
            scoring.replay(record, stored=True)
            archived = {
                "record": record,
                "deleted_at": doc.get("deleted_at"),
                "revision": _revision_of(doc) + 1,
                **_described_beside(doc, described),
                **_kept_beside(doc),
            }
            shard = self._shard(shard_of(game_id))
            with self._journaled("finish", [game_id]) as done:
                there = shard.get_doc(game_id)
                shard.put(game_id, archived)
                done.append(functools.partial(self._put_back, shard, game_id, there))
                listed = self._index.get(game_id)
                self._index.put(game_id, self._archived_summary(archived))
                done.append(functools.partial(self._summary_back, game_id, listed))
                self._active.remove_ids([game_id])

    def reopen_game(self, game_id: str) -> None:
        """Bring a finished game back to the table (to continue or correct it)."""
        with self._lock:
            table, doc = self._find(game_id)
            if table is self._active:
                raise err.GameNotFinished(game_id=game_id)
            record = copied(doc["record"])
            record.setdefault("meta", {})["ended"] = None
            reopened = {
                "record": record,
                "deleted_at": doc.get("deleted_at"),
                "revision": _revision_of(doc) + 1,
                **_kept_beside(doc),
            }
            with self._journaled("reopen", [game_id]) as done:
                self._active.put(game_id, reopened)
                done.append(functools.partial(self._put_back, self._active, game_id, None))
                table.remove_ids([game_id])
                done.append(functools.partial(self._put_back, table, game_id, doc))
                self._index.remove_ids([game_id])

    def delete_game(self, game_id: str) -> None:
        """Move a game to the bin; `restore_game` brings it back."""
        self._set_deleted(game_id, now())

    def restore_game(self, game_id: str) -> None:
        self._set_deleted(game_id, None)

    def _set_deleted(self, game_id: str, deleted_at: str | None) -> None:
        with self._lock:
            table, doc = self._find(game_id)
            new_doc = {**doc, "deleted_at": deleted_at}
            if table is self._active:
                table.put(game_id, new_doc)
                return
            with self._journaled("delete", [game_id]) as done:
                table.put(game_id, new_doc)
                done.append(functools.partial(self._put_back, table, game_id, doc))
                self._index.put(game_id, self._archived_summary(new_doc))

    # --- history ---------------------------------------------------------------------------

    def summaries(
        self, game: str | None = None, player: str | None = None, deleted: bool = False
    ) -> list[Summary]:
        """Summaries of every game, newest first: finished ones from the index, games in
        progress worked out now. `deleted=True` lists the bin instead."""
        key = name_key(player) if player else None
        keys: dict[str, str] = {}  # name_key of each name seen (a few names, many games)

        def chosen(summary: Summary) -> bool:
            if game is not None and summary.game != game:
                return False
            if key is None:
                return True
            for name in summary.players:
                if name not in keys:
                    keys[name] = name_key(name)
                if keys[name] == key:
                    return True
            return False

        with self._lock:
            found = self._index.newest_first(deleted)
            active = self._active_summaries_now()
        playing = [s for s in active if (s.deleted_at is not None) == deleted and chosen(s)]
        if game is not None or key is not None:
            found = [s for s in found if chosen(s)]
        return newest_first([*found, *playing]) if playing else found

    def summary(self, game_id: str) -> Summary:
        """One game's summary (in progress or finished, in the bin or not)."""
        with self._lock:
            table, doc = self._find(game_id)
            if table is self._active:
                return self._active_summary(game_id, doc)
            stored = self._index.get(game_id)
            return self._archived_summary(doc) if stored is None else stored

    def active_games(self) -> list[Summary]:
        """Games in progress, newest first (for the home screen)."""
        with self._lock:
            found = self._active_summaries_now()
        return newest_first(s for s in found if s.deleted_at is None)

    def _active_summaries_now(self) -> list[Summary]:
        """The summary of every game in progress (and forgetting those of records gone)."""
        docs = self._active.docs()
        found = [self._active_summary(game_id, doc) for game_id, doc in docs]
        kept = {id(doc["record"]) for _, doc in docs}
        self._active_summaries = {
            key: value for key, value in self._active_summaries.items() if key in kept
        }
        return found

    def _active_summary(self, game_id: str, doc: dict[str, Any]) -> Summary:
        record, deleted_at = doc["record"], doc.get("deleted_at")
        kept = self._active_summaries.get(id(record))
        if kept is not None and kept[0] is record and kept[1] == deleted_at:
            return kept[2]
        at = self._game_at(game_id, doc)  # the screens' replay, kept
        replayed = (at.result, at.correction)
        summary = summarize(record, active=True, deleted_at=deleted_at, replayed=replayed)
        self._active_summaries[id(record)] = (record, deleted_at, summary)
        return summary

    def _replayed_active(
        self, doc: dict[str, Any], result: scoring.Replay, correction: scoring.Correction | None
    ) -> None:
        """A game in progress checked at start-up: its summary made from that replay, which
        is kept as the game's (opening it plays it through no second time)."""
        record, deleted_at = doc["record"], doc.get("deleted_at")
        summary = summarize(
            record, active=True, deleted_at=deleted_at, replayed=(result, correction)
        )
        self._keep(summary.id, doc, result, correction)  # a record without meta: "None"
        self._active_summaries[id(record)] = (record, deleted_at, summary)

    def all_records(self, include_deleted: bool = False) -> Iterator[Record]:
        """Every record (copies): games in progress first, then the archive file by file."""
        for doc in self._all_documents():
            if include_deleted or doc.get("deleted_at") is None:
                yield copied(doc["record"])

    def _all_documents(self) -> list[dict[str, Any]]:
        """Every stored game document: in progress, then archived."""
        with self._lock:
            docs = [doc for _, doc in self._active.docs()]
            for path in self._shard_files():
                docs += [doc for _, doc in self._shard(path.stem).docs()]
        return docs

    def contains_game(self, game_id: str) -> bool:
        with self._lock:
            try:
                self._find(game_id)
            except err.GameNotFound:
                return False
            return True

    def add_games(
        self,
        records: Sequence[Record],
        players: Sequence[dict[str, Any]] = (),
        replays: Mapping[str, scoring.Replay] | None = None,
    ) -> int:
        """Import valid new records and roster entries as one change: all of it or none of it,
        whenever the process is killed. Finished records (``meta.ended`` set, or over by the
        rules) go to the history, the others to the table; records whose ``meta.id`` is
        stored already are skipped (another import got there first). `replays`: records
        already played through, by id (an import plan's), which are not played again. Returns
        how many games were added.

        The whole change is written to the journal first, then one write per file touched;
        an interrupted import is written again from the journal at the next start.
        """
        with self._lock:
            change: dict[str, Any] = {
                "operation": "import",
                "archived": {},
                "index": {},
                "active": {},
                "players": {},
            }
            for record in records:
                game_id = record["meta"]["id"]
                if self.contains_game(game_id) or game_id in change["index"]:
                    continue
                result = replays.get(game_id) if replays else None
                if result is None:
                    result = scoring.replay(record)
                stored = with_normal_names(record)
                doc = {"record": stored, "deleted_at": None}
                if record["meta"].get("ended") or result.finished:
                    change["archived"].setdefault(shard_of(game_id), {})[game_id] = doc
                    change["index"][game_id] = summarize(stored, result).to_dict()
                else:
                    change["active"][game_id] = doc
            taken = {name_key(p["name"]) for p in self.players(include_archived=True)}
            given = [p["color"] for p in self.players()]
            for player in players:
                if name_key(player["name"]) not in taken:
                    taken.add(name_key(player["name"]))
                    color = colors.known_color(player.get("color")) or colors.next_color(given)
                    given.append(color)
                    change["players"][uuid.uuid4().hex] = {**player, "color": color}
            added = len(change["index"]) + len(change["active"])
            if not added and not change["players"]:
                return 0
            journal = json.dumps(change, ensure_ascii=False)
            self._access.check()
            self._check_space_for(journal)
            self._write_journal(journal)
            self._write_import(change)
            self._end()
            return added

    def _check_space_for(self, journal: str) -> None:
        """Refuse an import the disk cannot hold before writing anything: its journal, then
        its data again in the files, each written beside the old one before replacing it."""
        files = [*self.folder.glob("*.json"), *self._shard_files()]
        needed = 2 * len(journal.encode("utf-8")) + max(map(_size, files), default=0)
        if shutil.disk_usage(self.folder).free < needed + SPACE_MARGIN:
            raise err.DiskFull(folder=str(self.folder))

    def _write_import(self, change: dict[str, Any]) -> None:
        """Write an import's games, summaries and players: one write per file (idempotent)."""
        for shard, docs in change["archived"].items():
            self._shard(shard).put_many(docs)
        summaries = {}
        for game_id, value in change["index"].items():
            summary = Summary.from_dict(value)
            if summary is None:  # a journal changed since it was written: made again
                self._index.mark_unusable()
            else:
                summaries[game_id] = summary
        self._index.put_many(summaries)
        self._active.put_many(change["active"])
        self._main.documents("players").put_many(change["players"])

    # --- players ---------------------------------------------------------------------------

    def players(self, include_archived: bool = False) -> list[Player]:
        """The roster, by name."""
        with self._lock:
            found = [_player(player_id, doc) for player_id, doc in self._roster.docs()]
        found = [p for p in found if include_archived or not p["archived"]]
        return sorted(found, key=lambda p: folded_name(p["name"]))

    @property
    def _roster(self) -> Documents:
        return self._main.documents("players")

    def add_player(self, name: str, born: str | None = None, color: str | None = None) -> Player:
        """A new roster entry, in `color` or the colour fewest players have."""
        with self._lock:
            clean = self._valid_name(name)
            player: dict[str, Any] = {
                "name": clean,
                "born": self._valid_birth(born),
                "archived": False,
                "former_names": [],
                "color": self._valid_color(color) if color is not None else self._next_color(),
            }
            player_id = uuid.uuid4().hex
            self._roster.put(player_id, player)
            return _player(player_id, player)

    def rename_player(self, player_id: str, name: str) -> None:
        """Rename in the roster; finished games keep the name they were played with."""
        with self._lock:
            player = self._player(player_id)
            clean = self._valid_name(name, except_id=player_id)
            former = list(player["former_names"])
            if clean != player["name"]:
                former.append(player["name"])
            self._roster.update_doc(player_id, {"name": clean, "former_names": former})

    def add_former_name(self, player_id: str, name: str) -> None:
        """Link games played under an earlier name to this player (kept by imports)."""
        with self._lock:
            former = [*self._player(player_id)["former_names"], name]
            self._roster.update_doc(player_id, {"former_names": former})

    def player_colors(self) -> dict[str, str]:
        """Each roster player's colour by the key of every name they had (`name_key`)."""
        return {
            name_key(name): player["color"]
            for player in self.players(include_archived=True)
            for name in [*player["former_names"], player["name"]]
        }

    def set_player_color(self, player_id: str, color: str) -> None:
        with self._lock:
            self._player(player_id)
            self._roster.update_doc(player_id, {"color": self._valid_color(color)})

    def _next_color(self) -> str:
        """The colour fewest players of the roster (archived ones aside) have."""
        return colors.next_color(p["color"] for p in self.players())

    @staticmethod
    def _valid_color(color: str) -> str:
        reader = Reader()
        if reader.choice(color, "color", colors.COLORS) is None:
            raise err.InvalidPlayer(problem=reader.errors[0])
        return color

    def set_player_birth(self, player_id: str, born: str | None) -> None:
        with self._lock:
            self._player(player_id)
            self._roster.update_doc(player_id, {"born": self._valid_birth(born)})

    def archive_player(self, player_id: str, archived: bool = True) -> None:
        with self._lock:
            self._player(player_id)
            self._roster.update_doc(player_id, {"archived": archived})

    def _player(self, player_id: str) -> dict[str, Any]:
        doc = self._roster.get_doc(player_id)
        if doc is None:
            raise err.PlayerNotFound(player_id=player_id)
        return dict(doc)

    def _valid_name(self, name: str, except_id: str | None = None) -> str:
        reader = Reader()
        clean = read_name(reader, name, "name")
        if clean is None:
            raise err.InvalidPlayer(problem=reader.errors[0])
        others = [doc["name"] for player_id, doc in self._roster.docs() if player_id != except_id]
        if any(folded_name(other) == folded_name(clean) for other in others):
            raise err.PlayerNameTaken(name=clean)
        look_alike = look_alike_of(clean, others)
        if look_alike is not None:
            raise err.PlayerNameLooksAlike(name=clean, other=look_alike)
        return clean

    @staticmethod
    def _valid_birth(born: str | None) -> str | None:
        if born is None or born == "":
            return None
        reader = Reader()
        birth = read_birth(reader, born, "born")
        if birth is None:
            raise err.InvalidPlayer(problem=reader.errors[0])
        return birth.to_json()

    # --- what belongs to one device: the round it is entering, its undo history -------------

    def draft(self, device: str, game_id: str) -> dict[str, Any] | None:
        """The round `device` is entering in a game: ``{"round": index or None (a new one),
        "entry": what the entry screen needs, "id": which draft it is}``, or None. The newest,
        written or not (`drafts.DraftKeeper`)."""
        return self._keeper.get(_device_key(device, game_id))

    def keep_draft(self, device: str, game_id: str, draft: dict[str, Any]) -> None:
        """Keep the draft now (in memory) and write it just after (see `drafts.DraftKeeper`
        for what a kill may cost). `OpenedReadOnly` at once; a failure of an earlier write (a
        full disk) is raised by the next call."""
        self._keeper.keep(_device_key(device, game_id), draft)

    def discard_draft(self, device: str, game_id: str) -> None:
        self._keeper.discard(_device_key(device, game_id))

    def settle(self) -> None:
        """Wait until every draft kept so far is written (tests, benchmarks; `close` does)."""
        self._keeper.settle()

    def history(self, device: str, game_id: str) -> dict[str, Any]:
        """`device`'s undo history of a game: ``{"undo": [steps], "redo": [steps]}``."""
        with self._lock:
            found = self._histories.get_doc(_device_key(device, game_id))
        return found if found is not None else {"undo": [], "redo": []}

    def set_history(self, device: str, game_id: str, history: dict[str, Any]) -> None:
        with self._lock:
            key = _device_key(device, game_id)
            if history["undo"] or history["redo"]:
                self._histories.put(key, history)
            elif self._histories.has(key):
                self._histories.remove_ids([key])

    # --- settings --------------------------------------------------------------------------

    def setting(self, key: str, default: Any = None) -> Any:
        with self._lock:
            doc = self._main.documents("settings").get_doc(key)
        return default if doc is None else doc["value"]

    def set_setting(self, key: str, value: Any) -> None:
        with self._lock:
            self._main.documents("settings").put(key, {"value": value})

    # --- checking --------------------------------------------------------------------------

    def kept_aside(self) -> list[str]:
        """The files kept aside after damage, now or at an earlier start (relative paths):
        Debrief never reads them again, nor removes them."""
        found: list[str] = []
        for folder in (self.folder, self.folder / "games"):
            with contextlib.suppress(OSError):
                found += [self._relative(p) for p in sorted(folder.glob("*.damaged-*"))]
        return found

    def check(self) -> tuple[int, list[str]]:
        """Load and validate every record (keeping aside those that cannot be opened), and
        compare the index with the archive.

        Returns (games checked, problems as text with the game id and path).
        """
        rule_problems: list[str] = []

        def problem_of(doc: dict[str, Any]) -> str | None:
            """Why a stored game cannot be opened; a rule it breaks in a round is listed, and
            so are names that look alike, stored before they were one name."""
            shape = shapes.game_shape_problem(doc)
            if shape is not None:
                return shape
            found = scoring.problems(doc["record"])
            outside = [error for error in found if scoring.round_of(error) is None]
            if outside:  # names that look alike, stored while accepted, are only listed
                as_stored = scoring.problems(doc["record"], stored=True)
                outside = [error for error in as_stored if scoring.round_of(error) is None]
                if outside:
                    return str(outside[0])
                found += as_stored
            game_id = doc["record"].get("meta", {}).get("id", "?")
            rule_problems.extend(f"{game_id}: {error}" for error in found)
            return None

        with self._lock, self._access.repairing():
            reported = len(self.notices)
            shards = [self._shard(path.stem) for path in self._shard_files()]
            count = 0
            archived_ids: set[str] = set()
            for table in [self._active, *shards]:
                self._forget_summaries(self._keep_aside_unusable(table, problem_of))
                ids = set(table.ids())
                count += len(ids)
                if table is not self._active:
                    archived_ids |= ids
            problems = [notice.message for notice in self.notices[reported:]]
            index_ids = set(self._index.ids())
            for game_id in sorted(archived_ids - index_ids):
                problems.append(f"{game_id}: finished but missing from the index")
            for game_id in sorted(index_ids - archived_ids):
                problems.append(f"{game_id}: in the index but its record is missing")
        return count, problems + rule_problems
