"""Typed component state: `use_value` is Flet's `use_state` with the type of its first value.

    editing, set_editing = use_value(NO_ROUND)   # NO_ROUND: int | None = None

The setter takes a new value or a function of the current one (so two quick taps that each
add one count twice).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import ParamSpec, Protocol, TypeVar

import flet as ft

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")
Setter = Callable[[T | Callable[[T], T]], None]

NO_ROUND: int | None = None  # no round is being entered
NO_TEXT: str | None = None  # nothing typed yet (the stored value shows)


def use_value(initial: T) -> tuple[T, Setter[T]]:
    """State that starts as `initial` (its type is the state's type)."""
    return ft.use_state(initial)


def use_value_for(generation: object, initial: T) -> tuple[T, Setter[T]]:
    """`use_value` that starts again as `initial` whenever `generation` changes: the state of
    a component kept for what comes next (an entry kept under the sheet and opened again for
    the next round, `round_entry.Opening`), where nothing of the last one may stay."""
    return use_made_for(generation, lambda: initial)


def use_made_for(generation: object, make: Callable[[], T]) -> tuple[T, Setter[T]]:
    """`use_made` that makes its value again whenever `generation` changes (`use_value_for`).
    A change made by a drawing of another generation is dropped (a tap on its way while the
    entry was put away)."""
    held: ft.MutableRef[tuple[object, T] | None] = ft.use_ref(None)
    _, set_drawings = ft.use_state(0)
    if held.current is None or held.current[0] != generation:
        held.current = (generation, make())  # no drawing more: this one shows it
    value = held.current[1]

    def set_value(new: T | Callable[[T], T]) -> None:
        current = held.current
        if current is None or current[0] != generation:
            return
        changed = new(current[1]) if callable(new) else new
        if changed != current[1]:
            held.current = (generation, changed)
            set_drawings(lambda drawings: drawings + 1)

    return value, set_value


def use_made(make: Callable[[], T]) -> tuple[T, Setter[T]]:
    """State that starts as what `make` returns (made on the first drawing only)."""
    return ft.use_state(make)


def use_messages() -> tuple[list[str], Setter[list[str]]]:
    """Messages shown under an entry (what was refused, and why)."""
    return use_made(list[str])


def use_latest(handler: Callable[P, R]) -> Callable[P, R]:
    """`handler` as one function for the component's life that calls the latest drawing's
    `handler`: a prop of a memoized component (`memo` skips drawing it again while its props
    are equal, and a function made anew at every drawing never is)."""
    latest: ft.MutableRef[Callable[P, R] | None] = ft.use_ref(None)
    latest.current = handler

    def calling_latest(*args: P.args, **kwargs: P.kwargs) -> R:
        current = latest.current
        assert current is not None  # set at every drawing, before any event can call it
        result: R = current(*args, **kwargs)
        return result

    stable, _ = use_made(lambda: calling_latest)
    return stable


class Listened(Protocol):
    """What announces its changes by field (`state.Announcing`)."""

    def listen(self, listener: Callable[[str], None]) -> Callable[[], None]: ...


HIDDEN = object()  # what a component showed while it was not shown: nothing is equal to it


def always() -> bool:
    return True


def use_follow(
    state: Listened, shows: Callable[[], object], shown: Callable[[], bool] = always
) -> None:
    """Draw this component again when what it shows of `state` has changed: `shows()` (the
    revision of the data, a route, ...) differs from what it was at the last drawing. Checked
    at each change `state` announces. While not `shown()` (a screen under the one on top) it
    is not drawn; once shown again it is drawn afresh (what it shows besides `state`, such as
    a draft kept meanwhile, may have changed too)."""
    drawn: ft.MutableRef[object] = ft.use_ref(None)
    drawn.current = shows() if shown() else HIDDEN  # at every drawing
    _, set_drawings = use_value(0)
    latest_shows, latest_shown = use_latest(shows), use_latest(shown)

    def heard(field: str) -> None:
        if not latest_shown():
            drawn.current = HIDDEN
            return
        now = latest_shows()
        if now != drawn.current:
            drawn.current = now  # one drawing for changes that come before it
            set_drawings(lambda drawings: drawings + 1)

    stop, _ = use_made(lambda: state.listen(heard))
    ft.use_effect(lambda: stop, [])  # stops listening when the component goes


C = TypeVar("C", bound=ft.Control)

# Starts the key a retained control is given: a control character, which no player's name
# holds (`scoring.table.forbidden_character`), so never a sibling's key made of a name.
RETAINED_KEY = "\x1f"


class Retained:
    """The controls of a component's last drawing, by key (`use_retained`)."""

    def __init__(self, last: dict[str, tuple[Hashable, ft.Control]]) -> None:
        self.last = last
        self.made: dict[str, tuple[Hashable, ft.Control]] = {}

    def __call__(self, key: str, what: Hashable, make: Callable[[], C]) -> C:
        """The control made as `key` in the last drawing if it was made of the same `what`,
        else `make()`. `what` must hold all the control is made of (its texts, its state, its
        handlers). Among its siblings the control is matched by its key (Flet matches
        unkeyed ones by their place, and a retained one whose place moved would be taken for
        another): its own, else `key`, which must be unique among them."""
        found = self.last.get(key)
        if found is not None and found[0] == what:
            control = found[1]
        else:
            control = make()
            if control.key is None:
                control.key = RETAINED_KEY + key
        self.made[key] = (what, control)
        return control  # type: ignore[return-value]  # made by `make` for this `key`


def use_retained(generation: object = None) -> Retained:
    """Controls given again as the very objects of the last drawing when made of the same
    things: Flet's diff skips such a control, where it compares every property of one made
    anew (a count tap draws two rows of seven chips again, of which two changed). What a
    drawing does not ask for again is let go, and so is everything when `generation` changes
    (`use_value_for`: a handler of the last opening's state drops what it is told).

    Never one the browser changes by itself (a chip with `on_select`, a segmented button, a
    switch), nor one holding such: the browser's change is written into that very object, and
    one the server did not take would not spring back (`widgets.drawn_as`)."""
    held: ft.MutableRef[tuple[object, Retained] | None] = ft.use_ref(None)
    last = held.current
    retained = Retained(last[1].made if last is not None and last[0] == generation else {})
    held.current = (generation, retained)
    return retained


def memo(component: Callable[P, R]) -> Callable[P, R]:
    """`ft.memo`, typed: the component is drawn again only when a prop is not equal to the
    last drawing's (compared shallowly, `is` or `==`), or its own state changed."""
    # ft.memo is not typed; it returns a wrapper taking the component's own arguments.
    memoized: Callable[[Callable[P, R]], Callable[P, R]] = ft.memo
    return memoized(component)
