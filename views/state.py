"""The app's state: where the user is, their settings, and every change to their data.

`AppState` is the only way a screen reads stored data or changes it: each change saves at once
(through `storage`), keeps an undo step where that means something, and bumps `revision`. It
announces each change of a public field by name (`listen`); a screen follows only what it shows
(`hooks.use_follow`): the screen on top redraws when `revision` moves, the app's stack of
screens when the route, role or language does, and nothing is drawn again for a change it does
not show (a screen under the one on top, say). The store itself is private.

Every method that reads or changes stored data says who may call it (`allowed`) and checks it
where it happens, whatever screen or forged event called it: the host may do everything; a
guest of a shared table reads the game the host has open, and a scorer also enters, corrects
and undoes its rounds. A session's role and address are fixed when it connects (views/app.py).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import copy
import functools
import logging
import re
import uuid
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

import flet as ft

import scoring
from scoring import JSON, Record
from scoring.errors import N_, Term
from scoring.table import name_key
from storage import Store, backup, bgstats, browser
from storage.errors import ChangedElsewhere, StartupNotice, StorageError
from storage.store import GameAt, Player, SavesDraft
from storage.summaries import Summary
from web.sharing import Connected, PinAttempt, Sharing

from .conflicts import KEEP, NEXT, Conflict, find_conflict
from .hooks import use_follow
from .i18n import Translator, system_language, translator
from .theme import drawn_apart
from .widgets import show_note

T = TypeVar("T")
logger = logging.getLogger(__name__)
HOST, VIEWER, SCORER = "host", "viewer", "scorer"  # who is at this tab (a shared table)
EVERYONE = (HOST, SCORER, VIEWER)
ROLES = "_debrief_roles"  # where `allowed` writes its decision on a method
P = ParamSpec("P")
R = TypeVar("R")


class Inline(Executor):
    """Runs what it is given at once: where no thread can be started (a browser)."""

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        done: Future[R] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as error:
            done.set_exception(error)
        return done


# Conveniences written after the answer, one at a time in the order they came (the last route
# written is the last one followed). Its thread is joined when the interpreter exits.
LATER: Executor = (
    ThreadPoolExecutor(max_workers=1, thread_name_prefix="debrief-later")
    if browser.THREADS
    else Inline()  # in a browser: written at once (into memory; storage/browser.py)
)


class NotAllowed(PermissionError):
    """A session asked for what its role may not do (a guest's forged event, say): nothing was
    read or written."""


def allowed(
    *roles: str, shared_game: bool = False
) -> Callable[[Callable[Concatenate[AppState, P], R]], Callable[Concatenate[AppState, P], R]]:
    """Who may call an `AppState` method: `roles`, and a guest only for the game the host has
    open (`shared_game`: the method's first argument is a game id). Checked at every call."""

    def decide(
        method: Callable[Concatenate[AppState, P], R],
    ) -> Callable[Concatenate[AppState, P], R]:
        def checked(self: AppState, /, *args: P.args, **kwargs: P.kwargs) -> R:
            game_id = (args[0] if args else kwargs.get("game_id")) if shared_game else None
            self.check_caller(roles, game_id)
            return method(self, *args, **kwargs)

        functools.update_wrapper(checked, method)
        setattr(checked, ROLES, roles)
        return checked

    return decide


DRAFT_ID = re.compile(r"^[0-9a-f]{32}$")


def new_draft_id() -> str:
    """The id of a new draft (an entry opened): what its Save names, so it is saved once."""
    return uuid.uuid4().hex


def draft_id_of(draft: Record) -> str:
    """The id of a kept draft (one kept by an older version, or of another shape: a new
    one)."""
    found = draft.get("id")
    return found if isinstance(found, str) and DRAFT_ID.match(found) else new_draft_id()


def checked_draft_id(draft_id: object) -> str | None:
    """A draft's id as `new_draft_id` makes them (None: not given). Anything else is refused:
    a draft id is a stored key."""
    if draft_id is None:
        return None
    if not isinstance(draft_id, str) or not DRAFT_ID.match(draft_id):
        raise ValueError(f"not a draft id: {str(draft_id)[:40]!r}")
    return draft_id


def roles_of(member: object) -> tuple[str, ...]:
    """The roles `allowed` gave a method or a property (empty: no decision)."""
    function = member.fget if isinstance(member, property) else member
    return tuple(getattr(function, ROLES, ()))


class Overtaken(Exception):
    """A change made from an old state of a game: another tab or device changed it first.
    Nothing was written; the screen shows the game as it is now."""

    def __init__(
        self,
        who: str,
        what: str,
        index: int | None,
        round_word: str,
        kept: bool,
        name: str = "",
        conflict: Conflict | None = None,
    ):
        super().__init__(f"{who} {what} {index}")
        self.who = who  # "device", "tab" or "" (not known)
        self.what = what  # as the other change was described: "save", "undo", ...
        self.index = index
        self.round_word = round_word  # how the game calls a round: "deal {number}"
        self.kept = kept  # an entry's draft is kept (and may be saved again as it is)
        self.name = name  # the other device's name ("" not known)
        self.conflict = conflict  # the other change was to the entry's round: shown, to choose


REFUSALS = (scoring.InvalidRecord, StorageError, Overtaken)  # refused: nothing was written
QUICK, DETAILED = "quick", "detailed"  # how a round is entered: its numbers, or its cards
Refusal = scoring.InvalidRecord | StorageError | Overtaken

OVERTAKEN = {
    "save": N_("{who} saved {round} in the meantime."),
    "change": N_("{who} corrected {round} in the meantime."),
    "delete": N_("{who} deleted {round} in the meantime."),
    "undo": N_("{who} undid a change in the meantime."),
    "redo": N_("{who} redid a change in the meantime."),
    "finish": N_("{who} put the game into the history in the meantime."),
}
WHO = {"device": N_("Another device"), "tab": N_("Another tab")}


UNDO_LIMIT = 20  # steps kept per game and device
NAME_LONGEST = 40  # characters of a device's name
THIS_DEVICE = N_("This device")  # what a device is called that says nothing of itself
NAME_KEY = "debrief.device_name"  # where a device keeps its name (its shared preferences)


REMOVE, INSERT, REPLACE = "remove", "insert", "replace"  # what a step does to the rounds


def again_on_top(steps: tuple[Step, ...], revision: int) -> tuple[Step, ...]:
    """The steps left once the last one was undone (or redone), the new last one made for the
    game's `revision`: the game is as it was right after that step again, so it applies (a
    step applies to the revision it was made at; without this, one Undo was all there was).
    The steps of a history follow one another with no other change between them (`_stepped`
    starts afresh after one), so this holds all the way down."""
    if not steps:
        return steps
    return (*steps[:-1], replace(steps[-1], revision=revision))


def operation(what: str, backwards: bool) -> str:
    """What undoing (`backwards`) or redoing the change `what` does to its round: undoing a
    save takes the round out, redoing it puts it back in; a correction puts a round in its
    place either way; undoing a delete puts the round back in, redoing it takes it out."""
    if what == "change":
        return REPLACE
    if what not in ("save", "delete"):
        raise ValueError(f"not a change to undo: {what}")
    return REMOVE if (what == "save") == backwards else INSERT


@dataclass(frozen=True)
class Step:
    """A change to a game this device made, that it can undo (or, undone, redo).

    It keeps what the change did to one round, never the whole game: `what` was done to round
    `index` (saved, corrected or deleted), and `round` is the round the step puts at `index`
    when it is taken (the round before a correction, a deleted round; None where it takes
    round `index` out: undoing a save, redoing a delete). Taken, it makes the game anew from
    the game as it is now (`applied`). It applies only while the game is at `revision`, the
    revision the change (or its undo) produced: after another device's change it no longer
    means what it says."""

    what: str  # "save", "change" or "delete" (a round)
    index: int  # the round's index
    round: Record | None
    revision: int
    tab: str = ""  # the tab that made it: only that tab undoes it ("" from an older version)

    def to_json(self) -> Record:
        return {
            "what": self.what,
            "index": self.index,
            "round": self.round,
            "rev": self.revision,
            "tab": self.tab,
        }

    @classmethod
    def from_json(cls, data: Record, backwards: bool) -> Step:
        """A step as stored; `backwards`: from the undo list (else the redo list). A step of
        an older version kept the whole game as the step puts it back (``record``): the round
        it puts at `index` is that game's, which is all the step changes (it applied only to
        the game as that change left it)."""
        what, index = str(data["what"]), scoring.as_int(data["index"])
        kind = operation(what, backwards)
        if "record" in data:
            rounds = scoring.as_list(scoring.as_object(data["record"])["rounds"])
            if kind != REMOVE and not 0 <= index < len(rounds):
                raise ValueError(f"no round {index} in the step's game")
            put = None if kind == REMOVE else scoring.as_object(rounds[index])
        else:
            put = None if data.get("round") is None else scoring.as_object(data["round"])
        if (put is None) != (kind == REMOVE):
            raise ValueError(f"a step that does not say what it puts back: {what}")
        return cls(what, index, put, scoring.as_int(data["rev"]), str(data.get("tab", "")))

    def applied(self, record: Record, backwards: bool) -> tuple[Record, Record | None] | None:
        """The game `record` with this step taken (undone if `backwards`, else redone), and
        the round the step took out or replaced (what taking it back puts there again: None
        where it only put a round in); None when `record` has no place for it."""
        rounds = list(scoring.as_list(record["rounds"]))
        kind, index = operation(self.what, backwards), self.index
        taken: Record | None = None
        if kind == INSERT and self.round is not None and 0 <= index <= len(rounds):
            rounds.insert(index, self.round)
        elif kind != INSERT and 0 <= index < len(rounds):
            taken = scoring.as_object(rounds[index])
            if kind == REMOVE:
                del rounds[index]
            elif self.round is not None:
                rounds[index] = self.round
            else:
                return None
        else:
            return None
        return {**record, "rounds": rounds}, taken


RECENT_GAMES_LOOKED_AT = 40  # for the recent tables: the newest games, enough for a few tables


def as_records(players: list[JSON]) -> list[Record]:
    """A valid record's players, typed as what they are (objects)."""
    return [player for player in players if isinstance(player, dict)]


def round_of(game: GameAt, index: int) -> Record:
    """A copy of round `index` of a game (a step keeps it; the game's record is shared)."""
    return copy.deepcopy(scoring.as_object(scoring.as_list(game.record["rounds"])[index]))


@dataclass(frozen=True)
class History:
    undo: tuple[Step, ...] = ()
    redo: tuple[Step, ...] = ()

    def to_json(self) -> Record:
        return {"undo": [s.to_json() for s in self.undo], "redo": [s.to_json() for s in self.redo]}

    @classmethod
    def from_json(cls, data: Record) -> History:
        """The history as stored (steps of an older version too, see `Step.from_json`); one
        that cannot be read is no history: nothing to undo, nothing shown wrong."""
        try:
            return cls(
                tuple(
                    Step.from_json(scoring.as_object(s), backwards=True)
                    for s in scoring.as_list(data["undo"])
                ),
                tuple(
                    Step.from_json(scoring.as_object(s), backwards=False)
                    for s in scoring.as_list(data["redo"])
                ),
            )
        except (KeyError, TypeError, ValueError, IndexError):  # another version's: afresh
            return cls()


class Announcing:
    """Tells its listeners the name of each public field set to a new value (on the thread
    that set it). Unlike Flet's observable, a component that is given one is not subscribed to
    all of it: it listens to what it shows (`hooks.use_follow`)."""

    _listeners: list[Callable[[str], None]]

    def listen(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call `listener(field)` after each change; returns what stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return stop

    def __setattr__(self, name: str, value: object) -> None:
        before = getattr(self, name, _UNSET)
        object.__setattr__(self, name, value)
        if name.startswith("_") or before is _UNSET or before == value:
            return
        for listener in list(self.__dict__.get("_listeners", ())):
            listener(name)


_UNSET = object()  # a field not set yet (while the dataclass is made)


@dataclass
class AppState(Announcing):
    _store: Store
    # How a game calls a round ("deal {number}"), by the game's id: the games' views know it,
    # and they stand above this module (each game's screen gets an AppState), so the app hands
    # their lookup in.
    _round_name_of: Callable[[str], str]
    route: str = "/"
    language_setting: str = "system"  # "system", "en" or "de"
    theme_setting: str = "system"  # "system", "light" or "dark"
    platform_dark: bool = False  # the device shows dark (what "system" follows)
    device_languages: list[str] = field(default_factory=list)
    message: str | None = None  # a short note for the snack bar
    revision: int = 0  # bumped after every change to stored data
    device: str = "this-device"  # the browser profile or app install (drafts, undo)
    tab: str = "this-tab"  # the Flet session: a change's base revision and undo belong to it
    role: str = HOST  # a guest of a shared table is a VIEWER, with the PIN a SCORER
    address: str = ""  # where this session connected from (the guard saw it; "" for the host)
    asking_pin: bool = False  # a viewer is typing the PIN
    # This device's name as its player gave it ("" not named yet), kept on the device; what
    # the others are told it is until then (from the browser or system: "Android phone").
    device_name: str = ""
    device_kind: Term = THIS_DEVICE
    name_asked: bool = False  # "Whose phone is this?" was asked in this session
    name_read: bool = False  # the name kept on the device was read (after the first drawing)
    guests_seen: int = 0  # the host's: bumped when a phone comes, goes, is named or scores
    host_followed: int = 0  # a guest's: bumped when it follows the host to the game it opened
    # A guest's: the game its screen shows (`followed_game`), set here only, from the games the
    # host has shown, never from anything the client sent.
    _following: str | None = None
    _sharing: Sharing | None = None  # the table shared on the local network (--share)
    _page: ft.Page | None = None  # where to redraw when another tab or device changes data
    # The revision of each game as this tab last drew it: a change is made from it.
    # (Private fields are not announced; drawing sets it.)
    _seen: dict[str, int] = field(default_factory=dict)
    _pin_note: ft.SnackBar | None = None  # the host's last note of a wrong PIN
    # What Back does first on the screen shown (a round's entry open: back to the sheet).
    _back: Callable[[], None] | None = None
    _listeners: list[Callable[[str], None]] = field(default_factory=list)  # `listen`
    # The addresses `go` gave the browser whose route change has not come back yet, oldest
    # first: each comes back as the page's route change, which changes nothing then.
    _addresses_given: list[str] = field(default_factory=list)

    @classmethod
    def load(
        cls,
        store: Store,
        route: str = "/",
        device: str = "this-device",
        tab: str = "this-tab",
        page: ft.Page | None = None,
        role: str = HOST,
        sharing: Sharing | None = None,
        address: str = "",
        *,
        round_name_of: Callable[[str], str],
    ) -> AppState:
        """The state at start; opened at the home screen, the host's returns to the game the
        table was playing when the app was closed (if that game is still in progress). It
        follows every change another tab or device makes to the data. `round_name_of` tells how
        a game calls a round (see `views.games.view_of`), for the note of a change overtaken."""
        if route in ("", "/") and role == HOST:
            route = cls._last_table(store) or "/"
        guest = role != HOST  # a guest's phone: its own language and theme, not the host's
        state = cls(
            _store=store,
            _round_name_of=round_name_of,
            route=route,
            language_setting="system" if guest else str(store.setting("language", "system")),
            theme_setting="system" if guest else str(store.setting("theme", "system")),
            device=device,
            tab=tab,
            role=role,
            address=address,
            _page=page,
            _sharing=sharing,
        )
        store.listen(state.changed_elsewhere)
        browser.listen_refusals(state.not_kept)
        if sharing is not None and role == HOST:
            sharing.watch(state.heard_wrong_pin)
        if sharing is not None:  # the host's list of phones; a guest's end of access
            sharing.watch_guests(state.guests_changed)
        return state

    # --- this device's name ------------------------------------------------------------------

    def named(self, name: str) -> None:
        """This device's name as it was kept on it (read after the first drawing), or as its
        player just gave it; the host's list of phones says it."""
        self.device_name = name[:NAME_LONGEST]
        self.name_read = True
        self._describe_to_host()

    @allowed(HOST, SCORER)
    def set_device_name(self, name: str) -> bool:
        """The player named this device: kept on it (a full name only). Whether it was."""
        name = " ".join(name.split())[:NAME_LONGEST]
        if not name:
            return False
        self.named(name)
        self.name_asked = True
        page = self._page
        if page is not None:
            page.run_task(ft.SharedPreferences().set, NAME_KEY, name)
        self.say(self.t("This device is called {name} now.", name=name))
        return True

    def _describe_to_host(self) -> None:
        """A guest's session tells the shared table who it is, for the host's list."""
        page = self._page
        if self._sharing is not None and self.role != HOST and page is not None:
            self._sharing.describe(page.session, self.device, self.shown_name, self.role)

    @property
    def name_wanted(self) -> bool:
        """Whether to ask "Whose phone is this?" now: a device that scores on a shared table
        and has no name yet, once a session."""
        scores = self.role == SCORER or (self.role == HOST and self.sharing_active)
        return scores and self.name_read and not self.device_name and not self.name_asked

    @property
    def access_ended(self) -> bool:
        """A guest whose device's access the host ended: it sees that, and may do nothing."""
        return self.role != HOST and self._sharing is not None and self._sharing.ended(self.device)

    @property
    def sharing_active(self) -> bool:
        return self._sharing is not None and self._sharing.active

    @property
    @allowed(HOST)
    def connected_phones(self) -> list[Connected]:
        """The phones on the shared table now, with their names and roles."""
        return self._sharing.connected() if self._sharing is not None else []

    @allowed(HOST)
    async def end_access(self, device: str) -> None:
        """End one phone's access to the shared table (it stays out until a new share)."""
        if self._sharing is not None:
            await self._sharing.end_access(device)

    def check_caller(self, roles: tuple[str, ...], game_id: object = None) -> None:
        """Raise `NotAllowed` unless this session's role is one of `roles` and, for a guest,
        its device's access was not ended and `game_id` (when given) is the game the host has
        open now."""
        if self.role not in roles:
            raise NotAllowed(f"a {self.role} may not do this")
        if self.access_ended:
            raise NotAllowed("the host ended this phone's access")
        # The game a guest followed before the host opened another stays readable (its result
        # on the screen), and only that: nothing of it can be changed.
        kept = VIEWER in roles and game_id == self._following
        if self.role != HOST and game_id is not None and game_id != self.shared_game and not kept:
            raise NotAllowed(f"a {self.role} sees only the shared game")

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
        """Stored data changed: every screen showing it redraws, in every tab and device."""
        self.revision += 1
        self._store.announce(self)

    def changed_elsewhere(self) -> None:
        """Another tab or device changed the data (called from its thread): redraw this tab
        from the data as it is now, in this tab's own session."""

        async def redraw() -> None:
            self.revision += 1

        self._in_own_session(redraw)

    def not_kept(self, error: StorageError) -> None:
        """The browser did not keep a change (the static site): said at once, in this tab's
        own session, on the screen it shows."""

        async def say() -> None:
            said = self.t.problem(error)
            self.say(said[:1].upper() + said[1:])

        self._in_own_session(say)

    def guests_changed(self) -> None:
        """A phone came, went, was named, scores or was ended (called from its thread): the
        host's list follows, and a guest sees whether its own access was ended."""

        async def redraw() -> None:
            self.guests_seen += 1

        self._in_own_session(redraw)

    def _in_own_session(self, redraw: Callable[[], Awaitable[None]]) -> None:
        page = self._page
        if page is None:
            return
        try:
            if page.session.connection is None:
                return  # a tab that is away redraws when it comes back (`reconnected`)
            # run_task binds the page to the caller's context: keep the caller's own intact.
            contextvars.copy_context().run(page.run_task, redraw)
        except Exception:  # a session that has closed (Flet raises when asked for it): gone
            logger.debug("tab %s did not follow a change", self.tab, exc_info=True)

    # --- a shared table ----------------------------------------------------------------------

    @property
    def shared_game(self) -> str | None:
        """The game guests see (the one the host has open), if it is there."""
        game_id = self._sharing.game_id if self._sharing else None
        if game_id is None or not self._store.contains_game(game_id):
            return None
        return game_id

    @property
    def followed_game(self) -> str | None:
        """The game a guest's screen shows: the one the host had open when it came, kept when
        the host opens another (the end of a game stays on the screen until the guest follows
        with `follow_host`)."""
        following, shared = self._following, self.shared_game
        if following is None or (following != shared and not self._still_there(following)):
            self._following = shared
        return self._following

    def _still_there(self, game_id: str) -> bool:
        """Whether a game a guest kept on its screen is still stored and not in the bin."""
        store = self._store
        return store.contains_game(game_id) and store.summary(game_id).deleted_at is None

    @property
    def host_moved_on(self) -> str | None:
        """The game the host has open, when it is not the one this guest's screen shows."""
        shared = self.shared_game
        return shared if shared is not None and shared != self.followed_game else None

    @allowed(SCORER, VIEWER)
    def follow_host(self) -> None:
        """A guest's "Follow": its screen shows the game the host has open now."""
        self._following = self.shared_game
        self.host_followed += 1

    @property
    def sharing(self) -> Sharing | None:
        """The table to share, for the host's share panel (None for a guest, or where nothing
        can be served to a network: the app in its own window or on a phone)."""
        return self._sharing if self.role == HOST else None

    @allowed(HOST)
    async def start_sharing(self) -> bool:
        """The host shares the table (a new link and PIN); whether it could."""
        if self.sharing is None:
            return False
        try:
            await self.sharing.start()
        except OSError as error:
            self.say(self.t("Sharing could not start: {reason}", reason=error.strerror or error))
            return False
        self._changed()  # this tab and the host's other tabs show it is shared
        return True

    @allowed(HOST)
    async def stop_sharing(self) -> None:
        """The host stops sharing: every guest is out, every link and PIN void."""
        if self.sharing is None:
            return
        await self.sharing.stop()
        self._changed()
        self.say(self.t("Sharing stopped: every link and PIN has ended."))

    @allowed(HOST)
    def show_to_guests(self, game_id: str) -> None:
        """The host opened a game: with the table shared, the guests now see it."""
        if self._sharing is not None and self._sharing.show(game_id):
            self._store.announce(self)

    def ask_pin(self) -> None:
        self.asking_pin = True

    def stop_asking_pin(self) -> None:
        self.asking_pin = False

    def try_pin(self, typed: str) -> str:
        """A viewer typed a PIN: "ok" (this tab is a scorer now), "wrong" or "locked". Counted
        against the address this session connected from."""
        if self._sharing is None or self.role != VIEWER:
            return "wrong"
        result = self._sharing.try_pin(typed, self.address)
        if result == "ok":
            self._sharing.remember_scorer(self.device, self.address)
            self.role = SCORER
            self._describe_to_host()
            self.asking_pin = False
            self.say(self.t("You can enter this game's rounds now."))
        return result

    def heard_wrong_pin(self, attempt: PinAttempt) -> None:
        """The host's tab: a guest typed a PIN that did not open (called from that guest's
        session). Tell the host where it came from, with a way to stop sharing at once."""
        page = self._page
        if page is None or page.session.connection is None:
            return

        async def stop() -> None:
            await self.stop_sharing()

        async def tell() -> None:
            tries = self._sharing.wrong_pins() if self._sharing else [attempt]
            t = self.t
            text = t.plural(
                "A wrong PIN from {address} ({count} in all).",
                "A wrong PIN from {address} ({count} in all).",
                len(tries),
                address=attempt.address,
            )
            earlier = self._pin_note
            if earlier is not None and earlier.open:  # the newest count replaces it at once
                earlier.open = False
                earlier.update()
            self._pin_note = ft.SnackBar(
                ft.Text(text),
                action=t("Stop sharing"),
                on_action=lambda: page.run_task(stop),
                duration=8000,
            )
            page.show_dialog(self._pin_note)
            self.revision += 1  # the bar's share icon says it until the host has looked

        try:
            contextvars.copy_context().run(page.run_task, tell)
        except Exception:  # a session that has closed: nobody to tell
            logger.debug("tab %s was not told of a wrong PIN", self.tab, exc_info=True)

    def reconnected(self) -> None:
        """The tab came back (a reload, a network gap): draw it from the data as it is now.
        An address given before may never come back now: the page's route is what it says."""
        self._addresses_given.clear()
        self.revision += 1

    # --- settings --------------------------------------------------------------------------

    @property
    def language(self) -> str:
        if self.language_setting in ("en", "de"):
            return self.language_setting
        return system_language(self.device_languages)

    @property
    def t(self) -> Translator:
        return translator(self.language)

    @allowed(HOST)
    def set_language(self, value: str) -> None:
        self._store.set_setting("language", value)
        self.language_setting = value

    @allowed(HOST)
    def set_theme(self, value: str) -> None:
        self._store.set_setting("theme", value)
        self.theme_setting = value

    @property
    def dark(self) -> bool:
        """Whether this tab's screens are drawn in the dark theme (the players' colours have
        a shade for each)."""
        return self.theme_setting == "dark" or (
            self.theme_setting == "system" and self.platform_dark
        )

    @property
    def theme_mode(self) -> ft.ThemeMode:
        return {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            self.theme_setting, ft.ThemeMode.SYSTEM
        )

    @property
    @allowed(HOST)
    def data_folder(self) -> Path:
        return self._store.folder

    @property
    @allowed(HOST)
    def kept_aside(self) -> list[str]:
        """The data folder's files kept aside after damage (`Store.kept_aside`)."""
        return self._store.kept_aside()

    # --- navigation and notes --------------------------------------------------------------

    def go(self, route: str) -> None:
        """Open a screen, in one round trip: the browser is given the new address first and
        the screen is drawn right after it, in the same turn of the server's loop (the address
        goes out in the first step of a task made before the drawing is asked for, and the
        loop runs them in that order). No screen reaches the browser before its address: a
        screen drawn first was lost by a reload at that moment, which reopens the address.
        The page's route change that answers the address then changes nothing (`followed`)."""
        self.message = None
        page = ft.context.page
        given = self._addresses_given
        address = given[-1] if given else page.route if page is not None else route
        if page is not None and address != route:
            page.navigate(route)
            given.append(route)
        self._show(route)

    def back(self) -> None:
        """Back, the bar's or the system's: first out of what is open on the screen (a
        round's entry, for the game's sheet: its draft is kept), else Home."""
        if self._back is not None:
            self._back()
        else:
            self.go("/")

    def on_back(self, leave: Callable[[], None] | None) -> None:
        """While something is open on the screen, Back calls `leave` (None: nothing is)."""
        self._back = leave

    def off_back(self, leave: Callable[[], None]) -> None:
        """`leave` is no longer what Back does (what it leaves has closed, or its screen)."""
        if self._back is leave:
            self._back = None

    def followed(self, route: str) -> None:
        """The page's route changed: by an address `go` gave it (shown already), or by the
        browser's back button or a typed address: its screen is shown."""
        given = self._addresses_given
        if given and given[0] == route:
            given.pop(0)
            return
        self._show(route)

    def _show(self, route: str) -> None:
        """Show the screen of `route` (where to reopen the app is written once it is drawn:
        `route_drawn`)."""
        self.route = route

    def route_drawn(self) -> None:
        """The screen of the route is drawn and on its way to the browser: where to reopen the
        app is written now, in a writer of its own. Written while the screen was being drawn
        (the handler of the tap handed it over), the writer's thread took turns with the
        drawing for Python's lock and held the data's lock through its fsync, which the
        drawing waited for: opening a game took twice its time in the server, and a Back
        100 ms more at a slow fsync. Handed over at the loop's next turn: the messages of the
        drawing, whose sending the loop has queued already, go out before the thread starts."""
        route = self.route
        try:
            asyncio.get_running_loop().call_soon(LATER.submit, self.remember_route, route)
        except RuntimeError:  # no loop running (drawn outside the server): at once
            LATER.submit(self.remember_route, route)

    def remember_route(self, route: str) -> None:
        """Where to reopen the app (the host's app only); a convenience a full disk may skip."""
        if self.role != HOST:
            return
        with contextlib.suppress(StorageError):
            self._store.set_setting("last_route", route)

    def say_undoable(self, message: str, undo: Callable[[], object]) -> None:
        """`say`, with Undo on the note (for a while longer: a finger needs time to find it)."""
        self.message = message
        page = ft.context.page
        if page is not None:
            show_note(page, message, seconds=8, action=(self.t("Undo"), undo))

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
        if isinstance(error, Overtaken):
            if error.conflict is not None:  # the entry shows it, with the choices
                return [self.t("Choose above what becomes of your entry.")]
            return [self._overtaken_message(error)]
        return [self.t.problem(error)]

    def _overtaken_message(self, error: Overtaken) -> str:
        """E.g. "Another device saved deal 6 in the meantime. Your entry is kept: …"""
        t = self.t
        if error.who == "self":  # a second tap on what was just saved: nothing twice
            return t("That was saved already; nothing was saved twice.")
        said = OVERTAKEN.get(error.what)
        if said is None or error.who not in WHO:
            text = t("The game was changed in the meantime.")
        else:
            index = error.index if error.index is not None else 0
            who = error.name if error.who == "device" and error.name else t(WHO[error.who])
            text = t(said, who=who, round=t(error.round_word, number=index + 1))
        if error.kept:
            return text + " " + t("Your entry is kept: check it, then save it again.")
        return text + " " + t("Nothing was changed here.")

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
    @allowed(HOST)
    def notices(self) -> list[StartupNotice]:
        """What was found when the data was opened (damage kept aside, ...)."""
        return list(self._store.notices)

    @allowed(HOST)
    def dismiss_notices(self) -> None:
        """The user has read what was found when the data was opened."""
        self._store.notices.clear()
        self._changed()

    # --- reading games ---------------------------------------------------------------------

    @allowed(*EVERYONE, shared_game=True)
    def game_at(self, game_id: str) -> GameAt:
        """The game as it is now, played through (once per revision, for every screen that
        draws it); what this tab's next change to it is based on. Its record is read, never
        changed."""
        at = self._store.game_at(game_id)
        self._seen[game_id] = at.revision
        return at

    @allowed(*EVERYONE, shared_game=True)
    def is_active(self, game_id: str) -> bool:
        return self._store.is_active(game_id)

    @allowed(HOST)
    def summary(self, game_id: str) -> Summary:
        return self._store.summary(game_id)

    @allowed(HOST)
    def summaries(
        self, game: str | None = None, player: str | None = None, deleted: bool = False
    ) -> list[Summary]:
        return self._store.summaries(game=game, player=player, deleted=deleted)

    @allowed(HOST)
    def active_games(self) -> list[Summary]:
        return self._store.active_games()

    # --- changing games --------------------------------------------------------------------

    @allowed(HOST)
    def start_game(self, game: str, players: list[Record], options: Record) -> str:
        record = self._store.create_game(game, players, options)
        self._changed()
        return str(record["meta"]["id"])

    @allowed(HOST)
    def play_again(self, game_id: str) -> str:
        """The same table's next game (`scoring.next_game`: who began moves one seat left),
        started; a finished game still at the table goes into the history first."""
        game = self._store.game_at(game_id)
        players, options = scoring.next_game(game.record)
        if game.result.finished and self._store.is_active(game_id):
            self.finish(game_id)
        return self.start_game(str(game.record["game"]), as_records(players), options)

    @allowed(HOST)
    def recent_tables(self, limit: int = 4) -> list[GameAt]:
        """The tables a group returns to: of the tables of the latest games (a few dozen looked
        at, however long the history), the most played first, then the newest; of each, its
        latest game (at most `limit`). (The newest only dropped the usual table after one
        evening of other games.)"""
        latest: dict[str, str] = {}  # each table's latest game, by game and players
        played: collections.Counter[str] = collections.Counter()
        for summary in self._store.summaries()[:RECENT_GAMES_LOOKED_AT]:  # newest first
            key = scoring.table_key(summary.game, summary.players, {})
            latest.setdefault(key, summary.id)
            played[key] += 1
        order = list(latest)  # newest first
        chosen = sorted(order, key=lambda key: (-played[key], order.index(key)))
        tables: list[GameAt] = []
        for key in chosen:
            with contextlib.suppress(StorageError, scoring.InvalidRecord):
                tables.append(self._store.game_at(latest[key]))
            if len(tables) == limit:
                break
        return tables

    @allowed(*EVERYONE, shared_game=True)
    def table_colors(self, game_id: str) -> tuple[str, ...]:
        """The colour each player of the game is drawn in, in seating order: the roster's,
        a colour shared at the table drawn apart (`theme.drawn_apart`)."""
        record = self._store.game_at(game_id).record
        roster = self._store.player_colors()
        return tuple(drawn_apart([roster.get(name_key(p["name"])) for p in record["players"]]))

    @allowed(*EVERYONE, shared_game=True)
    def ended_at(self, game_id: str) -> str | None:
        """When the game ended: put into the history, else its last change (ISO 8601)."""
        return self._store.ended_at(game_id)

    @allowed(*EVERYONE, shared_game=True)
    def bgstats_link(self, game_id: str) -> str | None:
        """The link that logs the game in BG Stats (storage/bgstats.py); None for a game that
        has none (still going on, or in the bin)."""
        try:
            return bgstats.link_of(bgstats.stored_play(self._store, game_id))
        except StorageError:
            return None

    @allowed(HOST, SCORER, shared_game=True)
    def save_round(
        self, game_id: str, index: int | None, round_: Record, draft_id: str | None = None
    ) -> scoring.Replay:
        """Save a round being entered: a new one (`index` None) or a correction of round
        `index`; the entry's draft (`draft_id`, else the one this device kept) ends with it,
        in the same write, and is never saved again (`DraftAlreadySaved`: a second tap).
        Raises `InvalidRecord`, `Overtaken` (another tab or device changed the game first;
        with a `Conflict` when it changed this very round) or a `StorageError`: nothing
        saved. The round and its undo step are one change: their files are synced together
        (`Store.one_change`)."""
        return self._save(game_id, index, round_, self._entry_base(game_id), draft_id)

    def _save(
        self,
        game_id: str,
        index: int | None,
        round_: Record,
        base: int | None,
        draft_id: str | None,
        insert: bool = False,
    ) -> scoring.Replay:
        """`save_round` made on the game at revision `base`; `insert`: round `index` goes in
        before the round there now (a deleted round put back)."""
        before = self._store.game_at(game_id)
        saves = SavesDraft(self.device, checked_draft_id(draft_id))
        with self._overtaken_check(game_id, kept=True), self._store.one_change():
            if index is None or insert:  # a new round goes in after the last one
                at = len(before.record["rounds"]) if index is None else index
                result = self._store.insert_round(
                    game_id, at, round_, base, self._described("save", at), saves
                )
                self._stepped(game_id, before, Step("save", at, None, 0))
            else:
                result = self._store.replace_round(
                    game_id, index, round_, base, self._described("change", index), saves
                )
                self._stepped(game_id, before, Step("change", index, round_of(before, index), 0))
        self._changed()
        return result

    @allowed(HOST, SCORER, shared_game=True)
    def conflict(self, game_id: str) -> Conflict | None:
        """What another tab or device did to the round this device is entering or correcting,
        since its entry began (None: nothing)."""
        draft = self._store.draft(self.device, game_id)
        base = draft.get("base") if draft is not None else None
        if not isinstance(base, int) or base >= self._store.revision(game_id):
            return None  # (at every key of an entry: nothing else read while nothing changed)
        at = self._store.game_at(game_id)
        changes = self._store.changes_since(game_id, base)
        rounds = at.record["rounds"]
        return find_conflict(draft, changes, rounds, at.revision, self.device, self.tab)

    @allowed(HOST, SCORER, shared_game=True)
    def resolve(
        self,
        game_id: str,
        conflict: Conflict,
        choice: str,
        round_: Record,
        draft_id: str | None = None,
    ) -> scoring.Replay | None:
        """The player's choice in `conflict`, made on the game as the conflict showed it:
        KEEP theirs (this device's entry ends, nothing is written), REPLACE theirs with
        `round_` (a deleted round is put back in its place), or save it as the NEXT round.
        Checked and refused like any save (`save_round`); None when nothing was saved."""
        if choice == KEEP:
            self.discard_draft(game_id)
            self.revision += 1
            return None
        if choice == NEXT:
            return self._save(game_id, None, round_, conflict.revision, draft_id)
        deleted = conflict.theirs is None
        return self._save(
            game_id, conflict.index, round_, conflict.revision, draft_id, insert=deleted
        )

    @allowed(HOST, SCORER, shared_game=True)
    def delete_round(self, game_id: str, index: int, draft_id: str | None = None) -> scoring.Replay:
        """Delete a saved round (and the entry's draft of it, `draft_id`, in the same write:
        a second tap on Delete is `DraftAlreadySaved`, not the next round deleted)."""
        before = self._store.game_at(game_id)
        base = self._entry_base(game_id)
        saves = SavesDraft(self.device, checked_draft_id(draft_id))
        with self._overtaken_check(game_id, kept=True), self._store.one_change():
            result = self._store.remove_round(
                game_id, index, base, self._described("delete", index), saves
            )
            self._stepped(game_id, before, Step("delete", index, round_of(before, index), 0))
        self._changed()
        return result

    # --- changes made from an old state ------------------------------------------------------

    def _described(self, what: str, index: int | None = None, **more: JSON) -> Record:
        """A change as the other tabs and devices will be told of it, should theirs clash: what
        was done to which round, by which device (and its name) and tab."""
        return {
            "what": what,
            "index": index,
            "device": self.device,
            "name": self.shown_name,
            "tab": self.tab,
            **more,
        }

    @property
    def shown_name(self) -> str:
        """What the other devices call this one: its name, else the suggested one."""
        return self.device_name or self.t(self.device_kind)

    def _entry_base(self, game_id: str) -> int | None:
        """The revision an entry was begun on (its draft keeps it); else what this tab saw."""
        kept = self._store.draft(self.device, game_id)
        base = kept.get("base") if kept else None
        return base if isinstance(base, int) else self._seen.get(game_id)

    @contextlib.contextmanager
    def _overtaken_check(self, game_id: str, kept: bool) -> Iterator[None]:
        """Turn a change refused for an old base revision into `Overtaken`, naming what
        happened and who did it; this tab then shows the game as it is now. When the other
        change was to the very round of this device's entry, the entry shows that conflict
        and waits for the player's choice (`conflict`, `resolve`); else its draft is based on
        the game as it is now, so the player can look at it and save it again on purpose."""
        try:
            yield
        except ChangedElsewhere:
            change = self._store.last_change(game_id)
            conflict = self.conflict(game_id) if kept else None
            kept_draft = self._store.draft(self.device, game_id) if kept else None
            if kept_draft is not None and conflict is None:
                rebased = {**kept_draft, "base": self._store.revision(game_id)}
                if kept_draft.get("round") is None:  # a new round: the next one now
                    rebased["at"] = len(self._store.game_at(game_id).record["rounds"])
                with contextlib.suppress(StorageError):
                    self._store.keep_draft(self.device, game_id, rebased)
            self.revision += 1
            raise Overtaken(
                self._who(change),
                str(change.get("what", "")),
                change.get("index") if isinstance(change.get("index"), int) else None,
                self._round_word(game_id),
                kept,
                name=str(change.get("name") or ""),
                conflict=conflict,
            ) from None

    def _who(self, change: Record) -> str:
        if not change:
            return ""
        if change.get("device") != self.device:
            return "device"
        return "self" if change.get("tab") == self.tab else "tab"

    def _round_word(self, game_id: str) -> str:
        try:
            return self._round_name_of(str(self._store.load_game(game_id)["game"]))
        except (StorageError, KeyError):
            return N_("round {number}")

    # --- undo and redo: per game and device ---------------------------------------------------

    @allowed(*EVERYONE, shared_game=True)
    def history(self, game_id: str) -> History:
        return History.from_json(self._store.history(self.device, game_id))

    def _set_history(self, game_id: str, history: History) -> None:
        """An undo history that cannot be saved is lost, not the change it belongs to."""
        with contextlib.suppress(StorageError):
            self._store.set_history(self.device, game_id, history.to_json())

    def _stepped(self, game_id: str, before: GameAt, change: Step) -> None:
        """A change this device made to a game (`before` it): it can be undone (redo starts
        afresh), unless it corrected a game stored before a rule it breaks (that record
        cannot be stored again). `change` says what it did; its revision and tab are set
        here."""
        if before.correction is None:
            step = replace(change, revision=self._store.revision(game_id), tab=self.tab)
            earlier = self.history(game_id).undo
            if earlier and earlier[-1].revision != before.revision:
                earlier = ()  # the game changed elsewhere in between: they undo nothing now
            undo = (*earlier, step)[-UNDO_LIMIT:]
            self._set_history(game_id, History(undo, ()))

    @allowed(*EVERYONE, shared_game=True)
    def steps(self, game_id: str) -> tuple[Step | None, Step | None]:
        """What Undo and Redo would do now; None for each that has nothing to do, whose step
        another tab made, or that no longer applies (another tab or device changed the game
        since)."""
        history = self.history(game_id)
        if not history.undo and not history.redo:
            return None, None
        try:
            current = self._store.revision(game_id)
        except StorageError:
            return None, None

        def applicable(steps: tuple[Step, ...]) -> Step | None:
            if not steps or steps[-1].revision != current:
                return None
            return steps[-1] if steps[-1].tab in ("", self.tab) else None

        return applicable(history.undo), applicable(history.redo)

    @allowed(HOST, SCORER, shared_game=True)
    def undo(self, game_id: str) -> Step | None:
        """Put the game back as it was before this device's last change; returns that step,
        or None when it no longer applies (the game changed since: the history ends)."""
        return self._swap(game_id, backwards=True)

    @allowed(HOST, SCORER, shared_game=True)
    def redo(self, game_id: str) -> Step | None:
        return self._swap(game_id, backwards=False)

    def _swap(self, game_id: str, backwards: bool) -> Step | None:
        history = self.history(game_id)
        steps, others = (history.undo, history.redo) if backwards else (history.redo, history.undo)
        if not steps:
            return None
        step = steps[-1]
        if step.tab not in ("", self.tab):  # another tab's change: only that tab undoes it
            return None
        current, revision = self._store.load_game_at(game_id)
        what = "undo" if backwards else "redo"
        made = step.applied(current, backwards) if revision == step.revision else None
        try:
            if made is None:  # the game moved on (or has no place for the step)
                raise ChangedElsewhere(game_id=game_id)
            record, taken = made
            with self._store.one_change():
                did = operation(step.what, backwards)
                described = self._described(what, step.index, did=did)
                self._store.set_record(game_id, record, step.revision, described)
                revision = self._store.revision(game_id)
                back = Step(step.what, step.index, taken, revision, self.tab)
                steps, others = again_on_top(steps[:-1], revision), (*others, back)
                history = History(steps, others) if backwards else History(others, steps)
                self._set_history(game_id, history)
        except REFUSALS:
            self._set_history(game_id, History())  # the game moved on: the history is over
            self._changed()
            return None
        self._changed()
        return step

    # --- drafts: the round this device is entering --------------------------------------------

    @allowed(*EVERYONE, shared_game=True)
    def entry_mode(self, game_id: str, game: str) -> str:
        """QUICK or DETAILED: this device's choice for this game, else its last one for this
        kind of game, else QUICK — most tables count each pile and say a number. (Each device
        its own: a guest's phone that used Cards opened the host's next deals in Cards. A
        choice kept before it was the device's is the host's.)"""
        keys = [f"entry-mode/{self.device}/{game_id}", f"entry-mode/{self.device}/{game}"]
        if self.role == HOST:
            keys += [f"entry-mode/{game_id}", f"entry-mode/{game}"]
        for key in keys:
            mode = self._store.setting(key)
            if mode in (QUICK, DETAILED):
                return str(mode)
        return QUICK

    @allowed(HOST, SCORER, shared_game=True)
    def set_entry_mode(self, game_id: str, game: str, mode: str) -> None:
        """Remember this device's choice for this game and for this kind of game (a
        convenience a full disk may skip)."""
        if mode not in (QUICK, DETAILED):
            return
        with contextlib.suppress(StorageError):
            self._store.set_setting(f"entry-mode/{self.device}/{game_id}", mode)
            self._store.set_setting(f"entry-mode/{self.device}/{game}", mode)

    @allowed(*EVERYONE, shared_game=True)
    def draft(self, game_id: str) -> Record | None:
        return self._store.draft(self.device, game_id)

    @allowed(HOST, SCORER, shared_game=True)
    def keep_draft(
        self, game_id: str, index: int | None, entry: Record, draft_id: str | None = None
    ) -> None:
        """The round being entered, kept on every change: at once in memory (every tab of
        this device reads it), on disk just after the screen has answered (a kill right after
        a change may lose that change, never an earlier one: `storage.drafts`). `draft_id`:
        which draft it is (its entry's; None: the one kept, else a new one). A full disk or a
        read-only folder costs the draft only, and says so once."""
        kept = self._store.draft(self.device, game_id)
        same = kept is not None and kept.get("round") == index
        if kept is not None and draft_id is not None and kept.get("id") != draft_id:
            same = False  # another entry's draft of the round: this one begins afresh
        base = kept.get("base") if kept is not None and same else None
        if not isinstance(base, int):  # a new draft is based on the game as this tab drew it
            base = self._seen.get(game_id)
        if draft_id is None:  # which draft it is: its round's save ends it
            draft_id = draft_id_of(kept) if kept is not None and same else new_draft_id()
        draft_id = checked_draft_id(draft_id)
        at = kept.get("at") if kept is not None and same else None
        if index is None and not isinstance(at, int):  # the round number it is entered as
            at = len(self._store.game_at(game_id).record["rounds"])
        draft = {"round": index, "entry": entry, "base": base, "id": draft_id}
        try:
            self._store.keep_draft(
                self.device, game_id, {**draft, **({"at": at} if index is None else {})}
            )
        except StorageError as error:
            if self.message is None:
                self.say(
                    self.t(
                        "The entry could not be kept as a draft: {reason}",
                        reason=self.t.problem(error),
                    )
                )

    @allowed(HOST, SCORER, shared_game=True)
    def discard_draft(self, game_id: str) -> None:
        with contextlib.suppress(StorageError):
            self._store.discard_draft(self.device, game_id)

    @allowed(HOST)
    def finish(self, game_id: str) -> None:
        """Into the history, if the game is still as this tab drew it. A game that is over
        ended with its last change (its last round), not when Finish was tapped."""
        over = self._store.game_at(game_id).result.finished
        ended = self._store.changed_at(game_id) if over else None
        with self._overtaken_check(game_id, kept=False):
            self._store.finish_game(
                game_id, ended, self._seen.get(game_id), self._described("finish")
            )
        self._set_history(game_id, History())
        self.discard_draft(game_id)
        self._changed()

    @allowed(HOST)
    def reopen(self, game_id: str) -> None:
        """A finished game back at the table (to continue or correct it)."""
        self._store.reopen_game(game_id)
        self._changed()

    @allowed(HOST)
    def delete_game(self, game_id: str) -> None:
        self._store.delete_game(game_id)
        self._changed()

    @allowed(HOST)
    def restore_game(self, game_id: str) -> None:
        self._store.restore_game(game_id)
        self._changed()

    @allowed(HOST)
    def set_notes(self, game_id: str, notes: str) -> None:
        self._store.set_notes(game_id, notes, self._described("notes"))
        self._changed()

    # --- players ---------------------------------------------------------------------------

    @allowed(HOST)
    def players(self, include_archived: bool = False) -> list[Player]:
        return self._store.players(include_archived=include_archived)

    @allowed(HOST)
    def add_player(self, name: str, born: str | None = None) -> Player:
        player = self._store.add_player(name, born)
        self._changed()
        return player

    @allowed(HOST)
    def change_player(self, player_id: str, name: str | None, born: str | None) -> None:
        """A new name (games keep theirs) and/or birth date; None leaves it as it is."""
        if name is not None:
            self._store.rename_player(player_id, name)
        if born is not None:
            self._store.set_player_birth(player_id, born.strip() or None)
        self._changed()

    @allowed(HOST)
    def set_player_color(self, player_id: str, color: str) -> None:
        self._store.set_player_color(player_id, color)
        self._changed()

    @allowed(HOST)
    def archive_player(self, player_id: str, archived: bool) -> None:
        self._store.archive_player(player_id, archived)
        self._changed()

    @allowed(HOST)
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

    @allowed(HOST)
    def plan_import(self, data: object, source: str) -> backup.ImportPlan:
        return backup.plan_import(self._store, data, source)

    @allowed(HOST)
    def apply_import(self, plan: backup.ImportPlan) -> int:
        added = backup.apply_import(self._store, plan)
        self._changed()
        return added

    @allowed(HOST)
    def export(self, game_id: str | None = None) -> Record:
        """Everything (or one game) as a backup document."""
        return backup.export_backup(self._store, game_id)

    @allowed(HOST)
    def needing_correction(self, document: Record) -> list[tuple[str, scoring.RecordError]]:
        return backup.needing_correction(self._store, document)

    @allowed(HOST)
    def history_csv(self) -> str:
        return backup.csv_of_history(self._store.summaries())


def use_screen(state: AppState, route: str, *also: Callable[[], object]) -> None:
    """A screen's drawing follows what every screen shows of the state: the stored data
    (`revision`), the language, the theme and this session's role; `also` what it shows besides (a
    setting, a note). While another screen lies over it (the route is not `route`; a guest's
    one screen always lies on top) nothing is drawn: it catches up when it is on top again."""

    def shows() -> tuple[object, ...]:
        return (
            state.revision,
            state.language,
            state.dark,
            state.role,
            *(what() for what in also),
        )

    use_follow(state, shows, lambda: state.role != HOST or state.route == route)
