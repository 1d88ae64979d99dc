"""Typed component state: `use_value` is Flet's `use_state` with the type of its first value.

    editing, set_editing = use_value(NO_ROUND)   # NO_ROUND: int | None = None

The setter takes a new value or a function of the current one (so two quick taps that each
add one count twice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

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


def memo(component: Callable[P, R]) -> Callable[P, R]:
    """`ft.memo`, typed: the component is drawn again only when a prop is not equal to the
    last drawing's (compared shallowly, `is` or `==`), or its own state changed."""
    # ft.memo is not typed; it returns a wrapper taking the component's own arguments.
    memoized: Callable[[Callable[P, R]], Callable[P, R]] = ft.memo
    return memoized(component)
