"""What the one round entry (views/round_entry.py) is made of: the draft, and errors said
when spoken to.

A round being entered is data: this device's draft, kept beside the game on every change. The
entry asks `kept_entry` what to reopen on (the round and what its entry keeps), and calls
`use_kept` with what it is entering, each time it draws: the draft is kept whenever it
changes (in memory at once, on disk just after the screen has answered: `storage.drafts`). It
survives going back, a reload, a server restart and a new tab of the same device; saving or
deleting the round (in the same write), or discarding the entry, ends it. A draft never
changes standings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TypeVar

import flet as ft

import scoring
from scoring import Record
from scoring.errors import N_, MissingKey
from storage.errors import DraftAlreadySaved

from .games import AtTable
from .hooks import use_value_for
from .i18n import Translator
from .safe import safe_effect
from .state import DETAILED, QUICK, REFUSALS, draft_id_of
from .widgets import drawn_as, segmented

NEW = -1  # the index of a round being entered that is not saved yet
T = TypeVar("T")
UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, scoring.InvalidRecord)


def kept_entry(at: AtTable) -> tuple[int, Record, str] | None:
    """This device's draft of the game: (the round's index or NEW, what its entry keeps, the
    draft's id); None when there is none, or it belongs to a round that is gone."""
    if at.fix_round is not None:  # a stored game that needs a correction opens on it
        return None
    kept = at.app.draft(at.game_id)
    if kept is None:
        return None
    index = kept["round"]
    if index is not None and not (isinstance(index, int) and 0 <= index < len(at.rounds)):
        return None
    entry = kept["entry"]
    if not isinstance(entry, dict):  # a draft of another version: no game's entry reads it
        return None
    return NEW if index is None else index, entry, draft_id_of(kept)


def opener(open_entry: Callable[[int], None], index: int) -> Callable[[], None]:
    """A tap that opens round `index`'s entry."""
    return lambda: open_entry(index)


def use_kept(
    at: AtTable,
    editing: int | None,
    entry: Record,
    draft_id: str,
    untouched: Record | None = None,
) -> None:
    """Keep `entry` (JSON) as this device's draft `draft_id` of round `editing` whenever it
    changes. A new round's entry still as it opened (`untouched`) is no draft: there is
    nothing to lose."""
    text = json.dumps(entry, sort_keys=True, default=str)
    blank = editing == NEW and entry == untouched

    def keep() -> None:
        if editing is None or at.fix_round is not None:
            return
        if blank:
            at.app.discard_draft(at.game_id)
        else:
            at.app.keep_draft(at.game_id, None if editing == NEW else editing, entry, draft_id)

    ft.use_effect(safe_effect(keep), [at.game_id, editing, text, draft_id])


# --- errors speak when spoken to ----------------------------------------------------------------


NOT_SAVED = N_("Not saved:")  # above the problems the entry lists, each once


def not_saved(at: AtTable, errors: list[scoring.RecordError], entered: int | None = None) -> str:
    """Why a Save was refused by the rules, in one line (a number pad's, which has room for
    one): the first problem and how many more."""
    t = at.t
    text = t("Not saved: {problem}", problem=subject(at, errors[0], entered))
    if len(errors) > 1:
        text += " " + t.plural("({count} more problem)", "({count} more problems)", len(errors) - 1)
    return text


Report = Callable[[list[str]], None]


def use_refusal(entered: object, opened: object = None) -> tuple[list[str], Report]:
    """(what the last Save or Delete was refused for, how to say it): said in the entry above
    its Save, the one place every game says it, while the entry is as it was refused; the
    next change answers it, and so does the entry's next opening (`opened`)."""
    text = json.dumps(entered, sort_keys=True, default=str)
    refused, set_refused = use_value_for(opened, ("", list[str]()))

    def report(messages: list[str]) -> None:
        set_refused((text, messages))

    return (refused[1] if refused[0] == text else []), report


def save_checked(
    at: AtTable,
    errors: list[scoring.RecordError],
    set_tried: Callable[[bool], None],
    store: Callable[[], T],
    report: Report,
    listed: int | None = None,
) -> T | None:
    """Save an entry unless it breaks a rule: then nothing is stored, why is said through
    `report` and from now on every problem stands next to the entry. `listed`: the entry lists
    every problem from now on, each once (its round's index): the refusal says only "Not
    saved:" above them; else it says the first in its one line. A save the store refuses
    (another device saved first, a full disk) keeps the entry and says why, the same way. The
    store's answer; None when nothing was saved."""
    if errors:
        set_tried(True)
        report([at.t(NOT_SAVED)] if listed is not None else [not_saved(at, errors)])
        return None
    try:
        return store()
    except DraftAlreadySaved as saved:
        at.app.say(said_already(at, saved, ALREADY_SAVED))
        return None
    except REFUSALS as refused:
        report(at.app.refusal(refused))
        return None


def delete_checked(at: AtTable, delete: Callable[[], object], report: Report) -> bool:
    """Delete a saved round; a refusal (another device changed the game) is said through
    `report`, as a refused save is. Whether it was deleted."""
    try:
        delete()
    except DraftAlreadySaved as deleted:
        at.app.say(said_already(at, deleted, ALREADY_DELETED))
        return False
    except REFUSALS as refused:
        report(at.app.refusal(refused))
        return False
    return True


ALREADY_SAVED = N_("{round} is already saved; nothing was saved twice.")
ALREADY_DELETED = N_("{round} is already deleted; nothing else was deleted.")


def said_already(at: AtTable, done: DraftAlreadySaved, said: str) -> str:
    """A second tap on a Save or Delete whose draft was saved already, answered in a note
    (the entry it came from has closed, or is about to: nothing in it to say it in)."""
    number = done.params.get("number")
    if not isinstance(number, int):
        return at.t("This entry was saved already; nothing was saved twice.")
    text = at.t(said, round=at.round_name(number - 1))
    return text[:1].upper() + text[1:]


def round_in_words(t: Translator, before: scoring.Replay, round_: object) -> str | None:
    """A round as the table entered it, each player's points and what a rule then made of
    their total said apart: "Anna 20, Ben 5, Carla 35 (halved to 75), Dirk 0". None when it
    is not a round there (yet)."""
    scores = scoring.round_scores(before, round_)
    if scores is None:
        return None
    return ", ".join(f"{name} {score_in_words(t, score)}" for name, score in scores.items())


def score_in_words(t: Translator, score: scoring.RoundScore) -> str:
    points = t.number(score.points)
    if score.became is None or score.said is None:
        return points
    return f"{points} ({t(score.said, total=t.number(score.became))})"


ROUND_PATH = re.compile(r"^rounds\[\d+\]\.?")
FIELD_NAMES = {
    "card": N_("mission card"),
    "plays": N_("cards played"),
    "passports": N_("passports"),
    "own_cards": N_("own cards"),
    "identifications": N_("identifications"),
    "ended_by": N_("who ended the game"),
    "moon_choice": N_("the choice after all 16 black cards"),
}


def part_of(error: scoring.RecordError) -> str:
    """The part of the round an error is about, e.g. ``missions[1].plays.Anna``."""
    return ROUND_PATH.sub("", error.path)


def spoken_to(
    errors: list[scoring.RecordError], touched: frozenset[str], tried: bool
) -> list[scoring.RecordError]:
    """The errors to show: all of them after a Save attempt; before it, only those about a
    part the player has entered something in (a part holds its sub-parts: a mission holds its
    players' plays). An untouched entry shows no error."""
    if tried:
        return errors
    return [
        error
        for error in errors
        if any(_within(part_of(error), part) or _within(part, part_of(error)) for part in touched)
    ]


def _within(part: str, whole: str) -> bool:
    """Whether `part` is `whole` or inside it (the empty part is the whole round)."""
    return (
        whole == "" or part == whole or part.startswith(whole + ".") or part.startswith(whole + "[")
    )


PART = re.compile(r'(\w+)\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|([^.\[\]]+)')


def parts_of(part: str) -> list[tuple[str, int | None, str]]:
    """A part's path piece by piece, as (a list's name, the index in it, or a key): the path
    grammar of `scoring.reader.child` ("missions[1].card", 'points["Anna Lena"]')."""
    found: list[tuple[str, int | None, str]] = []
    for listed, index, quoted, word in PART.findall(part):
        if listed:
            found.append((listed, int(index), ""))
        else:
            found.append(("", None, json.loads(quoted) if quoted else word))
    return found


def subject(at: AtTable, error: scoring.RecordError, entered: int | None = None) -> str:
    """An error with what it is about in front, unless it says so itself: "Anna: must hold …";
    a part not entered yet as the table says it ("Mission 2 has no card yet."). The round
    `entered` is not named (the entry's title says it): another round is ("Deal 5: …", what a
    correction breaks later)."""
    t = at.t
    missing = not_entered(at, error)
    if missing is not None:
        return missing
    text = t.problem(error)
    names = set(at.result.table.names)
    said: list[str] = []
    index = re.match(r"^rounds\[(\d+)\]", error.path)
    number = int(index.group(1)) if index else None
    if (
        number is not None
        and number != entered
        and at.round_name(number).lower() not in text.lower()
    ):
        said.append(at.round_name(number))
    for field, position, word in parts_of(part_of(error)):
        mission = t("mission {number}", number=(position or 0) + 1)
        if field == "missions" and mission.lower() not in text.lower():
            said.append(mission)
        elif word in names and word not in text:
            said.append(word)
        elif word in FIELD_NAMES and not any(name in text for name in names):
            said.append(t(FIELD_NAMES[word]))  # a message naming its player says enough
    if not said:
        return text
    where = ", ".join(said)
    return f"{where[:1].upper()}{where[1:]}: {text}"


# A part of a mission not entered yet, as the table says it: "Mission 2 has no card yet."
IN_A_MISSION = {"card": N_("{mission} has no card yet.")}
NOT_ENTERED = N_("{part} is not entered yet.")  # a part of the round: "Who ended the game …"


def not_entered(at: AtTable, error: scoring.RecordError) -> str | None:
    """A part of the round missing from the entry, in the table's words; None for any other
    problem."""
    if not isinstance(error, MissingKey):
        return None
    parts = parts_of(part_of(error))
    if not parts:
        return None
    *around, (_, _, field) = parts
    missions = [
        position for name, position, _ in around if name == "missions" and position is not None
    ]
    t = at.t
    if missions and field in IN_A_MISSION:
        mission = t("mission {number}", number=missions[-1] + 1)
        said = t(IN_A_MISSION[field], mission=mission)
    elif field in FIELD_NAMES:
        said = t(NOT_ENTERED, part=t(FIELD_NAMES[field]))
    else:
        return None
    return said[:1].upper() + said[1:]


def form_switch(at: AtTable, form: str, switched: Callable[[str], None]) -> ft.Control:
    """Quick entry (what the table counts: points, an outcome) or the cards, detailed. The
    form chosen is this device's choice for this game and this kind of game;
    `switched` then shows the entry in it."""
    t = at.t

    def switch_to(chosen: str) -> None:
        at.app.set_entry_mode(at.game_id, at.record["game"], chosen)
        switched(chosen)

    return segmented(
        selected=[form],
        key=drawn_as("form", form),
        segments=[
            ft.Segment(value=QUICK, label=ft.Text(t("Quick"))),
            ft.Segment(value=DETAILED, label=ft.Text(t("Cards"))),
        ],
        on_change=lambda e: switch_to(e.control.selected[0]) if e.control.selected else None,
    )
