"""Typed component state: `use_value` is Flet's `use_state` with the type of its first value.

    editing, set_editing = use_value(NO_ROUND)   # NO_ROUND: int | None = None

The setter takes a new value or a function of the current one (so two quick taps that each
add one count twice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import flet as ft

T = TypeVar("T")
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
