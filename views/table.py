"""A game at the table: the game's own screen, from its module in `views.games`."""

from __future__ import annotations

import contextlib
import contextvars
import logging
import weakref
from collections.abc import Callable

import flet as ft

import scoring
from storage.errors import StorageError

from . import games
from .hooks import memo
from .state import AppState, use_screen
from .widgets import back_bar

logger = logging.getLogger(__name__)


# Each session's one wake lock (`wake_lock`), gone with the session.
WAKE_LOCKS: weakref.WeakKeyDictionary[object, ft.Wakelock] = weakref.WeakKeyDictionary()


def wake_lock(page: ft.Page) -> ft.Wakelock:
    """The session's one wake lock, made when its first game opens. (A lock made at each
    opening was a service added to the page, and let go at the next tap: two messages more
    around every game's screen, each drawn by the browser.)"""
    lock = WAKE_LOCKS.get(page.session)
    if lock is None:
        lock = WAKE_LOCKS[page.session] = ft.Wakelock()
    return lock


def keep_awake() -> Callable[[], None]:
    """The screen stays on while a game is open (a phone lying on the table); it may sleep
    again when the game is closed. Where the platform cannot (a browser on plain HTTP) the
    screen just sleeps as it would."""
    page = ft.context.page
    lock = wake_lock(page)

    async def switch(on: bool) -> None:
        try:
            await (lock.enable() if on else lock.disable())  # type: ignore[no-untyped-call]
        except Exception:  # no wake lock here: nothing is lost
            logger.debug("no wake lock on this platform", exc_info=True)

    def release() -> None:
        with contextlib.suppress(Exception):  # a session that has closed has no screen
            contextvars.copy_context().run(page.run_task, switch, False)

    page.run_task(switch, True)
    return release


@memo
@ft.component
def GameScreen(state: AppState, game_id: str) -> ft.View:
    t = state.t
    use_screen(state, f"/game/{game_id}")
    ft.use_effect(keep_awake, [])
    try:
        game = state.game_at(game_id)
    except (StorageError, scoring.InvalidRecord) as error:  # nothing that can be opened
        problems = error.errors if isinstance(error, scoring.InvalidRecord) else [error]
        return ft.View(
            route=f"/game/{game_id}",
            appbar=back_bar("Debrief", lambda: state.go("/"), t),
            controls=[ft.Text(t.problem(problem)) for problem in problems],
        )
    fix_round = None if game.correction is None else game.correction.round
    record = scoring.game_record(game.record)
    colors = games.seated_colors(state, game_id)
    at = games.AtTable(state, game_id, record, game.result, fix_round, colors)
    # One screen instance across saves, so a tap that was on its way while a round was saved
    # still reaches the control it was aimed at (a new instance per round count dropped it:
    # the next SPY event went to the first player). A stored game's correction is a different
    # screen: a new instance per round to correct.
    key = f"{game_id}:{fix_round}"
    return games.view_of(at.record["game"]).screen(at, key=key)
