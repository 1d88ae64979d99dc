"""A round being entered is data: this device's draft, kept beside the game on every change.

A game's screen asks `kept_entry` what to reopen on (the round and what its entry keeps), and
calls `use_kept` with what it is entering, each time it draws: the draft is written whenever it
changes. It survives going back, a reload, a server restart and a new tab of the same device;
saving or deleting the round, or discarding the entry, ends it. A draft never changes standings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

import flet as ft

import scoring
from scoring import Record

from .games import AtTable
from .safe import safe_effect

NEW = -1  # the index of a round being entered that is not saved yet
D = TypeVar("D")
UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, scoring.InvalidRecord)


def kept_entry(at: AtTable) -> tuple[int, Record] | None:
    """This device's draft of the game: (the round's index or NEW, what its entry keeps);
    None when there is none, or it belongs to a round that is gone."""
    if at.fix_round is not None:  # a stored game that needs a correction opens on it
        return None
    kept = at.state.draft(at.game_id)
    if kept is None:
        return None
    index = kept["round"]
    if index is None:
        return NEW, kept["entry"]
    if 0 <= index < len(at.rounds):
        return index, kept["entry"]
    return None


def restored(kept: tuple[int, Record] | None, read: Callable[[Record], D]) -> tuple[int, D] | None:
    """The draft read back by `read` (None when a draft of another version cannot be read)."""
    if kept is None:
        return None
    try:
        return kept[0], read(kept[1])
    except UNREADABLE:
        return None


def use_kept(
    at: AtTable, editing: int | None, entry: Record, untouched: Record | None = None
) -> None:
    """Keep `entry` (JSON) as this device's draft of round `editing` whenever it changes. A new
    round's entry still as it opened (`untouched`) is no draft: there is nothing to lose."""
    text = json.dumps(entry, sort_keys=True, default=str)
    blank = editing == NEW and entry == untouched

    def keep() -> None:
        if editing is None or at.fix_round is not None:
            return
        if blank:
            at.state.discard_draft(at.game_id)
        else:
            at.state.keep_draft(at.game_id, None if editing == NEW else editing, entry)

    ft.use_effect(safe_effect(keep), [at.game_id, editing, text])


def discard(at: AtTable, close: Callable[[], None]) -> Callable[[], None]:
    """The Discard button of an entry: the draft goes, the entry closes."""

    def discarded() -> None:
        at.state.discard_draft(at.game_id)
        close()

    return discarded
