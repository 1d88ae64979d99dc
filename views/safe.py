"""No session freezes in silence.

Flet 1.0.5 redraws components in one loop per session (`Session.__updates_scheduler`) that
calls `Component.update` with no error handling: a single exception while drawing ends the loop
for good, and every later change of that session is dropped without a word (event handlers still
run). An exception in an event handler or an effect is instead reported to the browser as a
crashed session. Both are too much for a table in the middle of a game.

`install()` puts one guard at each of these two places: a drawing that fails is logged with its
traceback, the player is told in a short message, and the loop goes on (the next change draws
the screen afresh); an error Flet would report as a crash is logged and told the same way. The
message is in the player's language: each session's app registers it with `watch`.

Effects of our own go through `safe_effect`, so their failure is told the same way and never
reaches Flet's crash report.

The same loop draws the components a change touched in no set order; the guard draws them from
the outside in, so that a tap is answered in one drawing (`waiting_around`). And a player's tap
puts away the notes shown before it (`widgets.put_away`), which would lie over the controls
at the bottom of the next screen.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TypeVar

import flet as ft
from flet.components.component import Component
from flet.messaging.session import Session

from .widgets import PLAYERS_STEPS, notes_up, put_away, show_note

logger = logging.getLogger("debrief")
T = TypeVar("T")
_messages: weakref.WeakKeyDictionary[Session, Callable[[], str]] = weakref.WeakKeyDictionary()
_GUARDED = "_debrief_guarded"


def install() -> None:
    """Guard Flet's drawing loop and its crash report (once per process)."""
    if getattr(Component.update, _GUARDED, False):
        return
    draw = Component.update
    drawn_ahead: weakref.WeakSet[Component] = weakref.WeakSet()

    def guarded_draw(component: Component) -> None:
        try:
            draw(component)  # type: ignore[no-untyped-call]
        except Exception:
            logger.exception("drawing %s failed; the session goes on", component)
            tell_player()

    def guarded_update(component: Component) -> None:
        enclosing = waiting_around(component)
        if enclosing is not None:
            drawn_ahead.add(enclosing)
            guarded_draw(enclosing)  # draws this one anew too, unless a memo stops it there
        elif component in drawn_ahead and not component._state.is_dirty:
            drawn_ahead.discard(component)
            return  # drawn ahead of its turn, unchanged since
        guarded_draw(component)  # skipped by Flet if the drawing around it replaced it

    def reported_error(session: Session, message: str) -> None:
        logger.error("an event or effect failed; the session goes on:\n%s", message)
        tell_player(session)

    dispatch = Session.dispatch_event

    async def dispatched(session: Session, control_id: int, name: str, data: object) -> None:
        notes = notes_up(session) if name in PLAYERS_STEPS else []
        await dispatch(session, control_id, name, data)
        if notes:
            put_away(session.page, notes)  # the player has moved on (`put_away`)

    setattr(guarded_update, _GUARDED, True)
    Component.update = guarded_update  # type: ignore[method-assign]
    Session.error = reported_error  # type: ignore[method-assign, assignment]
    Session.dispatch_event = dispatched  # type: ignore[method-assign, assignment]


def waiting_around(component: Component) -> Component | None:
    """The outermost component around `component` whose state changed and which waits to be
    drawn, if any.

    Flet draws the components a change touched one by one, in no set order (a set), and sends
    each drawing as a message of its own. A tap that changes an inner component and one around
    it (a Kompromat mission's card: the entry's draft and the mission shown) was answered twice
    when the inner one came first: a half-drawn screen (the next mission without the line that
    says how the last one ended) and, a moment later, the whole one, which moved what the next
    tap was aimed at. Drawn from the outside in, the drawing around it draws the inner one
    too (and Flet then skips the inner one's own turn): one tap, one answer."""
    outermost = None
    around = component.parent
    while around is not None:
        if isinstance(around, Component) and waits_to_be_drawn(around):
            outermost = around
        around = around.parent
    return outermost


def waits_to_be_drawn(component: Component) -> bool:
    state = component._state
    return state.is_dirty and state.mounted and not component._stale


def watch(page: ft.Page, message: Callable[[], str]) -> None:
    """What to tell this session's player when something fails (in their language)."""
    _messages[page.session] = message


def tell_player(session: Session | None = None) -> None:
    """Show a short note at the bottom of the player's screen; never raises."""
    try:
        page = session.page if session is not None else ft.context.page
        message = _messages.get(page.session)
        if message is not None:
            show_note(page, message(), seconds=8)
    except Exception:  # the note must not become a failure of its own
        logger.exception("could not tell the player about a failure")


def safe_effect(setup: Callable[[], object]) -> Callable[[], object]:
    """`setup` for `ft.use_effect`, told like a failed drawing when it raises."""

    def guarded() -> object:
        try:
            return setup()
        except Exception:
            logger.exception("an effect failed; the session goes on")
            tell_player()
            return None

    return guarded


async def done_on_device(call: Awaitable[object], what: str) -> bool:
    """Whether the device did `call` (one that answers nothing): see `from_device`."""
    try:
        await call
    except (RuntimeError, TimeoutError) as error:
        logger.info("no answer from the device for %s: %s", what, error)
        return False
    return True


async def from_device(call: Awaitable[T], what: str) -> T | None:
    """The device's answer to `call` (its preferences, a picture, a file saved), or None when
    there is none: the tab went while the app waited (Flet's "Session closed"), the device
    answered with an error, or not in time. A case the app handles, one line in the log: a
    phone that closes its tab, or a client that answers nothing, is no failure of the app."""
    try:
        return await call
    except (RuntimeError, TimeoutError) as error:  # Flet raises the device's error as these
        logger.info("no answer from the device for %s: %s", what, error)
        return None


async def scrolled(column: ft.Column, **where: object) -> None:
    """`column.scroll_to(**where)`, run after the drawing that asked for it: unless the column
    has left the page meanwhile (the entry closed by the tap that came next), which Flet
    refuses to scroll (it raises: a control not on the page has no session)."""
    try:
        column.page  # noqa: B018  (the property raises once the column is off the page)
    except RuntimeError:
        return
    await done_on_device(column.scroll_to(**where), "a scroll")  # type: ignore[arg-type]
