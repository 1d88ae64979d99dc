"""Two scorers, one round: what another tab or device did to the round this device is entering
or correcting since its entry began, worked out from the game's latest changes (`Store.
changes_since`) and this device's draft. Nothing here decides a score or changes data: the
entry shows the conflict beside the player's own numbers, and `AppState.resolve` makes the
choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring import JSON, Record

SAVED, CORRECTED, DELETED = "saved", "corrected", "deleted"  # the round, as it is now
FINISHED = "finished"  # the game went into the history: no round is entered any more
KEEP, REPLACE, NEXT = "keep", "replace", "next"  # the choices

# What a change did to the round at its index (an undo or a redo says it itself: "did").
EFFECTS = {"save": "insert", "change": "replace", "delete": "remove"}


@dataclass(frozen=True)
class Conflict:
    """Another tab or device `did` something to the round (`index`) this device's entry is
    for, since the entry began: it `what` it ("save", "change", "delete", "undo", "redo"),
    and the round there now is `theirs` (None: deleted). A choice is made on the game at
    `revision`."""

    what: str
    did: str  # SAVED, CORRECTED or DELETED
    who: str  # the other device's name ("" if it had none)
    same_device: bool  # another tab of this device
    index: int
    new: bool  # the entry is a new round's (else a correction)
    theirs: Record | None
    revision: int

    def choices(self, next_possible: bool) -> list[str]:
        """Keep theirs (the default, first), put mine in its place, and, for a new round where
        the game goes on, save mine as the next one; a finished game: only keep it so."""
        if self.did == FINISHED:
            return [KEEP]
        return [KEEP, REPLACE, *([NEXT] if self.new and next_possible else [])]


def effect(change: Record) -> str | None:
    """ "insert", "replace" or "remove": what `change` did at its index; None if nothing."""
    what = change.get("what")
    if what in ("undo", "redo"):
        did = change.get("did")
        return did if did in ("insert", "replace", "remove") else None
    return EFFECTS.get(str(what))


def find_conflict(
    draft: Record | None,
    changes: Sequence[Record],
    rounds: Sequence[JSON],
    revision: int,
    device: str,
    tab: str,
) -> Conflict | None:
    """The conflict of this device's `draft` with the game now (`rounds` at `revision`), after
    `changes` (those since the draft's base, oldest first); None when no other tab or device
    changed the draft's round since the entry began."""
    base = draft.get("base") if draft is not None else None
    if draft is None or not isinstance(base, int) or base >= revision:
        return None
    new = draft.get("round") is None
    index = draft.get("at") if new else draft.get("round")
    if not isinstance(index, int):
        return None

    def made(change: Record, did: str, theirs: Record | None) -> Conflict:
        who = str(change.get("name") or "")
        same_device = change.get("device") == device
        return Conflict(
            str(change.get("what")), did, who, same_device, index, new, theirs, revision
        )

    last = None
    for change in changes:
        if change.get("device") == device and change.get("tab") == tab:
            continue  # this tab's own change (a choice made here)
        if change.get("what") == "finish":
            return made(change, FINISHED, None)
        if change.get("index") == index and effect(change) is not None:
            last = change
    if last is None:
        return None
    there = rounds[index] if index < len(rounds) else None
    theirs = there if isinstance(there, dict) else None
    if effect(last) == "remove":
        return None if new else made(last, DELETED, None)  # new: their round is gone again
    if theirs is None:
        return None
    return made(last, SAVED if new and effect(last) == "insert" else CORRECTED, theirs)
