"""One round entry for every game: the draft kept on every change, the quick/cards switch, the
number pad and its moving on, Save, a refusal said in one place, Discard, Delete, and a saved
round corrected in the form it was entered.

A game's view module supplies what is its own only: for each form, how a draft starts, what
it keeps, the round it enters and the fields that change it (`Form`), and the words of its
entry (`RoundEntryOf`). The engine decides every rule: errors come from `AtTable.check` (what
`scoring.check_round` says, played from the game before the round), everything a field may
offer from the game's preview.

A game's screen calls `use_round_entry` on each drawing; while an entry is open it shows
`entry.control` (else its own sheet, with `entry.open_round` on its buttons). A game whose
round is one tap (SPY's event) keeps a new round's entry always open under its sheet
(`RoundEntryOf.always_open`), its buttons each saving the round they stand for
(`Drawn.actions`, `Entering.save_round`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Generic, TypeVar

import flet as ft

import scoring
from scoring import JSON, Record, Term
from scoring.errors import N_

from . import buttons
from .conflicts import CORRECTED, DELETED, FINISHED, KEEP, NEXT, REPLACE, SAVED, Conflict
from .device_name import ask_name_if_wanted
from .entry import (
    NEW,
    NOT_SAVED,
    UNREADABLE,
    Report,
    delete_checked,
    form_switch,
    kept_entry,
    round_in_words,
    save_checked,
    spoken_to,
    subject,
    use_kept,
    use_refusal,
)
from .frame import KeptEntry, entry_exits, swap
from .games import AtTable
from .hooks import NO_ROUND, use_latest, use_made, use_retained, use_value, use_value_for
from .i18n import Translator
from .numpad import PinnedPad, number_pad
from .safe import safe_effect
from .state import DETAILED, QUICK, draft_id_of, new_draft_id
from .widgets import error_box, heading, info_box, problem_line

D = TypeVar("D")  # a form's draft
Q = TypeVar("Q")  # the quick form's draft
C = TypeVar("C")  # the cards form's draft
Change = Callable[[Callable[[D], D]], None]
ROUND_DELETED = N_("Round {number} deleted")


@dataclass(frozen=True)
class Entering(Generic[D]):
    """A round being entered, as a form's fields see it."""

    at: AtTable
    before: scoring.Replay  # the game up to this round
    index: int  # the round's index (its number − 1)
    correcting: bool  # a saved round (else a new one)
    draft: D
    change: Change[D]  # applied to the draft as it is when the change arrives
    touch: Callable[[str], None]  # something entered in this part: its problems speak
    errors: list[scoring.RecordError]  # the round's problems as it stands
    spoken: list[scoring.RecordError]  # those said now (parts touched; all after a Save)
    save: Callable[[], None]
    scroller: ft.MutableRef[ft.Column | None]  # the column the entry scrolls in
    # Save a round the form built itself (an action that is the round: SPY's "Found").
    save_round: Callable[[Record], None]
    # The opening shown (`Opening.count`): a form's own state starts afresh with a new one
    # (`hooks.use_value_for`), as the entry closed last is opened again for the next round.
    opened: int = 0

    @property
    def t(self) -> Translator:
        return self.at.t


@dataclass(frozen=True)
class Drawn:
    """A form's fields, and the problems they say in place (the rest are said above Save)."""

    controls: list[ft.Control]
    said: list[scoring.RecordError] = field(default_factory=list)
    # Instead of Save: the form's own buttons (a wizard's Back, Next and Save; SPY's events,
    # each saving the round it builds with `Entering.save_round`). Discard and Delete follow.
    actions: list[ft.Control] | None = None
    title: str | None = None  # instead of the entry's title (a wizard's step)


@dataclass(frozen=True)
class Pad(Generic[D]):
    """A form typed on the number pad: a key changes the draft, the pad moves on by itself,
    Save sits beside Next and one line above the keys says a problem."""

    next_label: Term
    press: Callable[[scoring.Replay, D, str], D]
    active: Callable[[D], str | None]  # the row the pad types into
    rows: Callable[[D], list[str]]  # every row it can type into, in order
    minus: Callable[[scoring.Replay, D], bool] = lambda before, draft: True
    # Whether the problems are said before Save (once every row is typed, say).
    complete: Callable[[D], bool] = lambda draft: True
    # The form's own words for a problem it made itself (a row it filled in from the others:
    # the rows typed are what to check), else None.
    worded: Callable[[Translator, scoring.Replay, D, scoring.RecordError], str | None] = (
        lambda t, before, draft, error: None
    )


@dataclass(frozen=True)
class Form(Generic[D]):
    """One way of entering a game's round, quick or with the cards."""

    blank: Callable[[scoring.Replay], D]  # a new round
    of_round: Callable[[scoring.Replay, JSON], D]  # a saved round, to correct
    read_kept: Callable[[scoring.Replay, Record], D]  # this device's draft (UNREADABLE: none)
    kept: Callable[[D], Record]  # what the draft keeps, merged into the device's entry
    entered: Callable[[scoring.Replay, D], Record]  # the round as the record writes it
    fields: Callable[[Entering[D]], Drawn]
    pad: Pad[D] | None = None


@dataclass(frozen=True)
class Carry(Generic[Q, C]):
    """For a game whose two forms share most of a round (Kompromat: the mission cards, the
    "!" marks, the items), switching carries the draft over instead of showing the other
    form's own; only the form shown is kept."""

    to_cards: Callable[[Q], C]
    to_quick: Callable[[C], Q]
    form_of_kept: Callable[[Record], str]  # the form of a draft kept before forms were named


@dataclass(frozen=True)
class RoundEntryOf(Generic[Q, C]):
    """A game's round entry: its forms (cards None: one form only) and its words."""

    quick: Form[Q]
    cards: Form[C] | None
    was_quick: Callable[[JSON], bool]  # whether a saved round was entered in the quick form
    title: Callable[[Translator, int, bool], str]  # (t, index, correcting): "Correct deal 3"
    save_label: Term
    saved: Callable[[Translator, scoring.Replay, int], str]  # (t, game after, index)
    delete_label: Term | None = None  # None: a saved round cannot be deleted
    deleted: Term = ROUND_DELETED
    carry: Carry[Q, C] | None = None
    # A game of one round (Spywhere's end) has no sheet to show before it is saved: while no
    # round is, the entry is open on a new one (Discard starts it afresh).
    opens_by_itself: bool = False
    # A new round's entry is always shown (`RoundEntry.control`) while the game is not over and
    # no other round is open: it never closes, so it has no Discard, and keeps no draft (it is
    # part of the sheet; a draft's base would refuse the next round once another device saved).
    always_open: bool = False


@dataclass(frozen=True)
class RoundEntry:
    """What a game's screen needs of its entry."""

    open: bool  # an entry is opened (no undo in the bar); else the game's own sheet
    control: ft.Control | None  # the entry, when open (or always open)
    open_round: Callable[[int], None]  # NEW or a saved round's index
    fills: bool  # the entry fills the screen (a number pad pinned to its bottom)
    scroller: ft.MutableRef[ft.Column | None]
    # While closed: the entry closed last, as it was shown, for a screen that keeps it under
    # its sheet (`frame.screen`); the next round's entry is that one, set afresh.
    kept: KeptEntry | None = None


@dataclass(frozen=True)
class Drafts(Generic[Q, C]):
    """Both forms' drafts of the round being entered, and the form shown."""

    form: str
    quick: Q
    cards: C | None


class Kept(Generic[Q, C]):
    """The drafts of an open entry as they are now: the entry draws from them when it is made
    (also when it is made again, moved from the pad's place to the scrolling column by a
    switch of form) and writes each change here. `draft_id`: which draft it is, what its Save
    (or Delete) names so that it is saved once (an entry always open takes a new one after
    each save)."""

    def __init__(self, drafts: Drafts[Q, C], draft_id: str) -> None:
        self.drafts = drafts
        self.draft_id = draft_id


@dataclass(frozen=True)
class Opening(Generic[Q, C]):
    """An entry as it opened: on which round, with its drafts (kept there at each change,
    `EntryShown`), the how-manyth opening of the screen: an entry opened again (the entry
    closed last, kept under the sheet, on the next round) starts afresh, nothing of the last
    opening touched, tried or refused (`hooks.use_value_for`)."""

    editing: int
    kept: Kept[Q, C] = field(compare=False)
    count: int = 0


def use_round_entry(at: AtTable, of: RoundEntryOf[Q, C]) -> RoundEntry:
    """The round entry of a game's screen: opened where a stored game must be corrected, else
    on this device's draft, else on a new round if it opens by itself, else closed (the sheet)
    until `open_round`. The screen holds which round is open and the form shown; the entry
    holds its drafts, so that a key draws the entry again, not the screen around it."""
    first, _ = use_made(lambda: opened(at, of))
    opened_last, set_opening = use_value(
        None if first is None else Opening(first[0], Kept(first[1], first[2]))
    )
    # The opening whose round was saved (or deleted): closed from the drawing that shows the
    # game with that change, the one its revision sets off (closing it at once drew the screen
    # first with the game as it was, the sheet without the round, then again).
    saved: ft.MutableRef[Opening[Q, C] | None] = ft.use_ref(None)
    drawn: ft.MutableRef[scoring.GameRecord | None] = ft.use_ref(None)  # the game drawn last
    drawn.current = at.record  # (before `saved` is read: see `close_when_shown`)
    opening = None if opened_last is saved.current else opened_last
    form, set_form = use_value(opened_last.kept.drafts.form if opened_last is not None else QUICK)
    always: ft.MutableRef[Opening[Q, C] | None] = ft.use_ref(None)  # a new round's, always open
    last: ft.MutableRef[KeptEntry | None] = ft.use_ref(None)  # the entry as it was last shown
    openings: ft.MutableRef[int] = ft.use_ref(0)  # entries opened on this screen so far
    scroller: ft.MutableRef[ft.Column | None] = ft.use_ref(None)
    editing = opening.editing if opening is not None else NO_ROUND

    def open_round(index: int) -> None:
        ask_name_if_wanted(at.app)  # the device's first scoring action on a shared table
        drafts, draft_id = opening_of(at, of, index)
        set_form(drafts.form)
        openings.current += 1
        set_opening(Opening(index, Kept(drafts, draft_id), openings.current))
        always.current = None  # after this round, the entry always open starts afresh

    def close() -> None:
        set_opening(None)

    def back() -> None:
        """Back while the entry is open: to the game's sheet, the draft kept (one tap on the
        round goes on with it, a note says so); while a stored game needs a correction, or in
        a game of one round not saved yet (Spywhere's end), Home."""
        if waits_for_first_round(at, of):  # no sheet to show: it would open again by itself
            at.app.go("/")
            return
        kept = kept_entry(at)
        entry_exits(at.app, at.fix_round, close, noop)[0]()
        if kept is not None and at.fix_round is None:
            index = len(at.rounds) if kept[0] == NEW else kept[0]
            said = at.t("{round} kept as a draft", round=at.round_name(index))
            at.app.say(said[:1].upper() + said[1:])

    # Back leaves the open entry first (the bar's and the system's: `AppState.back`). Flet sets
    # an effect's cleanup anew at every drawing, so it is given here, not returned by setup.
    is_open = opening is not None
    backing = use_latest(back)
    reopening = use_latest(open_round)  # the note's Undo of a Discard opens the entry again
    ft.use_effect(
        safe_effect(lambda: at.app.on_back(backing if is_open else None)),
        [is_open],
        cleanup=lambda: at.app.off_back(backing),
    )

    def open_by_itself() -> None:
        if editing is None and waits_for_first_round(at, of):
            open_round(NEW)

    # Closed after the first drawing (Discard, an undone save): open again, afresh.
    ft.use_effect(safe_effect(open_by_itself), [editing is None, len(at.rounds)])

    if opening is None and always_open_now(at, of):
        # Kept across saves (the same entry; a save sets its draft to the next round's
        # blank, `afresh`): a tap on the next round while the last one was being saved still
        # lands, on the next round's chips.
        if always.current is None:
            drafts = drafts_for(at, of, NEW, at.result)
            always.current = Opening(NEW, Kept(drafts, new_draft_id()))
        control = EntryShown(
            at,
            of,
            always.current,
            at.result,
            None,
            noop,
            scroller,
            set_form,
            reopening,
            key="always",
        )
        return RoundEntry(False, control, open_round, False, scroller)
    if opening is None:
        return RoundEntry(False, None, open_round, False, scroller, last.current)

    def close_when_shown() -> None:
        saved.current = opening
        if drawn.current is not at.record:  # the game with the change is drawn already
            close()

    leave, done = entry_exits(at.app, at.fix_round, close, close_when_shown)
    before = at.before(opening.editing)
    # Keyed by the round only: the next round's entry is the one kept from the last, its
    # controls set afresh where they differ rather than all made anew.
    key = f"{opening.editing}"
    control = EntryShown(
        at, of, opening, before, leave, done, scroller, set_form, reopening, key=key
    )
    shown = of.quick if form == QUICK or of.cards is None else of.cards
    fills = shown.pad is not None
    # Once closed, this very control stands under the sheet: not drawn again (the same
    # object, which Flet's diff passes over), until the next opening sets it afresh.
    last.current = KeptEntry([control], fills)
    return RoundEntry(True, control, open_round, fills, scroller)


def noop() -> None:
    pass


def always_open_now(at: AtTable, of: RoundEntryOf[Q, C]) -> bool:
    """Whether the game's new round's entry stands open: not once the game is over, nor for a
    guest who watches."""
    return of.always_open and not at.result.finished and not at.read_only


def blank_drafts(of: RoundEntryOf[Q, C], before: scoring.Replay, form: str) -> Drafts[Q, C]:
    cards = of.cards.blank(before) if of.cards is not None else None
    return Drafts(form, of.quick.blank(before), cards)


def drafts_for(
    at: AtTable, of: RoundEntryOf[Q, C], index: int, before: scoring.Replay
) -> Drafts[Q, C]:
    """A new round in the table's form; a saved one in the form it was entered, the other
    form reading what it holds of it too (a switch to correct it there starts from that)."""
    if index == NEW or index >= len(at.rounds):
        return blank_drafts(of, before, at.app.entry_mode(at.game_id, at.record["game"]))
    saved = at.rounds[index]
    form = QUICK if of.was_quick(saved) or of.cards is None else DETAILED
    cards = None if of.cards is None else of.cards.of_round(before, saved)
    return Drafts(form, of.quick.of_round(before, saved), cards)


def opening_of(at: AtTable, of: RoundEntryOf[Q, C], index: int) -> tuple[Drafts[Q, C], str]:
    """The drafts round `index`'s entry opens with, and their id: this device's draft of it
    (an entry left with Back), else a new round's or the saved round's."""
    kept = kept_entry(at)
    if kept is not None and kept[0] == index:
        try:
            return kept_drafts(of, at.before(index), kept[1]), kept[2]
        except UNREADABLE:  # a draft of another version: the round afresh
            pass
    return drafts_for(at, of, index, at.before(index)), new_draft_id()


def opened(at: AtTable, of: RoundEntryOf[Q, C]) -> tuple[int, Drafts[Q, C], str] | None:
    """Where the screen opens (worked out on its first drawing only), and the draft's id: the
    round a stored game must correct; else this device's draft; else a new round if the
    entry opens by itself; else nowhere (the sheet)."""
    if at.fix_round is not None:
        return at.fix_round, drafts_for(at, of, at.fix_round, at.result), new_draft_id()
    kept = kept_entry(at)
    if kept is None:
        if waits_for_first_round(at, of):
            return NEW, drafts_for(at, of, NEW, at.result), new_draft_id()
        return None
    index, entry, draft_id = kept
    before = at.before(index)
    try:
        return index, kept_drafts(of, before, entry), draft_id
    except UNREADABLE:  # a draft of another version: nothing to reopen
        return None


def kept_drafts(of: RoundEntryOf[Q, C], before: scoring.Replay, entry: Record) -> Drafts[Q, C]:
    """Both forms' drafts as this device kept them (a carried game keeps the form shown; the
    other is carried over from it). Raises one of UNREADABLE for a draft it cannot read."""
    form = entry.get("form")
    if form not in (QUICK, DETAILED):  # a draft kept before its form was
        form = of.carry.form_of_kept(entry) if of.carry is not None else DETAILED
    if of.carry is not None and of.cards is not None:
        if form == DETAILED:
            cards = of.cards.read_kept(before, entry)
            return Drafts(DETAILED, of.carry.to_quick(cards), cards)
        quick = of.quick.read_kept(before, entry)
        return Drafts(QUICK, quick, of.carry.to_cards(quick))
    cards_draft = of.cards.read_kept(before, entry) if of.cards is not None else None
    return Drafts(str(form), of.quick.read_kept(before, entry), cards_draft)


def waits_for_first_round(at: AtTable, of: RoundEntryOf[Q, C]) -> bool:
    """Whether the entry opens by itself: a game of one round with none saved, at the table."""
    return of.opens_by_itself and not at.rounds and not at.read_only


def kept_of(of: RoundEntryOf[Q, C], drafts: Drafts[Q, C]) -> Record:
    """What this device keeps of the entry: the form shown and both forms' drafts."""
    if of.carry is not None and of.cards is not None and drafts.cards is not None:
        shown = of.cards.kept(drafts.cards) if drafts.form == DETAILED else None
        return {"form": drafts.form, **(shown or of.quick.kept(drafts.quick))}
    kept: Record = {"form": drafts.form, **of.quick.kept(drafts.quick)}
    if of.cards is not None and drafts.cards is not None:
        kept.update(of.cards.kept(drafts.cards))
    return kept


@ft.component
def EntryShown(
    at: AtTable,
    of: RoundEntryOf[Q, C],
    opening: Opening[Q, C],
    before: scoring.Replay,
    leave: Callable[[], None] | None,
    saved: Callable[[], None],
    scroller: ft.MutableRef[ft.Column | None],
    on_form: Callable[[str], None],
    reopen: Callable[[int], None],
    key: str | None = None,
) -> ft.Control:
    """The entry in the form shown, each form drawn by a component of its own: what was
    touched and tried starts afresh for each round and form. It keeps the drafts of the round
    (from `opening`, and as this device's draft at each change). `leave` None: the entry never
    closes (always open for a new round). `on_form`: the form switched to."""
    editing, kept = opening.editing, opening.kept
    drafts = kept.drafts  # this opening's, as changed last (a new opening: its own)
    _, set_drawings = use_value(0)
    blank = kept_of(of, blank_drafts(of, before, drafts.form))
    use_kept(at, editing, kept_of(of, drafts), kept.draft_id, blank)

    def set_drafts(update: Callable[[Drafts[Q, C]], Drafts[Q, C]]) -> None:
        changed = update(kept.drafts)  # the drafts as they are when the change arrives
        if changed != kept.drafts:
            kept.drafts = changed
            set_drawings(lambda drawings: drawings + 1)

    def switched(form: str) -> None:
        set_drafts(lambda current: in_form(of, current, form))
        on_form(form)

    def renew() -> None:
        """The draft was saved and the entry stays open (always open): a new draft."""
        kept.draft_id = new_draft_id()
        set_drawings(lambda drawings: drawings + 1)

    switch = form_switch(at, drafts.form, switched) if of.cards is not None else None
    shown = Shown(
        at,
        of,
        editing,
        before,
        leave,
        saved,
        scroller,
        switch,
        kept.draft_id,
        renew,
        reopen,
        opening.count,
    )
    if drafts.form == DETAILED and of.cards is not None and drafts.cards is not None:

        def change_cards(update: Callable[[C], C]) -> None:
            set_drafts(lambda d: d if d.cards is None else replace(d, cards=update(d.cards)))

        return FormShown(shown, of.cards, drafts.cards, change_cards, key=f"{DETAILED}:{editing}")

    def change_quick(update: Callable[[Q], Q]) -> None:
        set_drafts(lambda d: replace(d, quick=update(d.quick)))

    return FormShown(shown, of.quick, drafts.quick, change_quick, key=f"{QUICK}:{editing}")


def in_form(of: RoundEntryOf[Q, C], drafts: Drafts[Q, C], form: str) -> Drafts[Q, C]:
    """The entry switched to `form`: its own draft, or (a carried game) the draft carried."""
    carry = of.carry
    if carry is None or drafts.form == form or drafts.cards is None:
        return replace(drafts, form=form)
    if form == DETAILED:
        return Drafts(form, drafts.quick, carry.to_cards(drafts.quick))
    return Drafts(form, carry.to_quick(drafts.cards), drafts.cards)


@dataclass(frozen=True)
class Shown(Generic[Q, C]):
    """What every form of an open entry shares."""

    at: AtTable
    of: RoundEntryOf[Q, C]
    editing: int
    before: scoring.Replay
    leave: Callable[[], None] | None  # None: always open, no Discard
    saved: Callable[[], None]
    scroller: ft.MutableRef[ft.Column | None]
    switch: ft.Control | None
    # Which draft is shown, as it was drawn: a Save (or Delete) names it, and the store saves
    # a draft once. A tap whose handler is one of an earlier drawing names that drawing's.
    draft_id: str
    renew: Callable[[], None]  # a new draft for an entry that stays open after its save
    reopen: Callable[[int], None]  # open round NEW or a saved round's index (`open_round`)
    opened: int = 0  # the opening shown (`Opening.count`): a new one starts afresh

    @property
    def index(self) -> int:
        return len(self.at.rounds) if self.editing == NEW else self.editing

    @property
    def correcting(self) -> int | None:
        return None if self.editing == NEW else self.editing


@ft.component
def FormShown(
    shown: Shown[Q, C], form: Form[D], draft: D, change: Change[D], key: str | None = None
) -> ft.Control:
    """One form of the entry: its fields, the problems not said in place and a refusal above
    Save, then Save, Discard and Delete (or the number pad, Save beside its Next key)."""
    at, t, of = shown.at, shown.at.t, shown.of
    change = use_latest(change)  # one function for the form's life: rows drawn once stay
    entered = form.entered(shown.before, draft)
    errors = at.check(entered, shown.index)
    conflict = at.app.conflict(at.game_id) if shown.leave is not None else None
    touched, set_touched = use_value_for(shown.opened, frozenset[str]())
    tried, set_tried = use_value_for(shown.opened, False)  # Save was tapped: all problems speak
    refused, report = use_refusal(entered, shown.opened)
    # The buttons stay the controls drawn last while they are as they were (every tap of the
    # entry draws the form again): their handlers call the latest drawing's.
    retained = use_retained(shown.opened)
    on_save = use_latest(lambda: save())
    on_discard = use_latest(partial(discard, shown))
    on_delete = use_latest(partial(delete, shown, report))

    def store(round_: Record) -> scoring.Replay:
        return at.app.save_round(at.game_id, shown.correcting, round_, shown.draft_id)

    def save() -> None:
        """The form's Save: refused, every problem of the entry speaks from now on. On the
        device's first scoring action at a shared table (an entry that opened by itself, say)
        the device is named first."""
        if not ask_name_if_wanted(at.app, then=save):
            listed = shown.index if form.pad is None else None  # (a pad has one line)
            done(save_checked(at, errors, set_tried, partial(store, entered), report, listed))

    def save_round(round_: Record) -> None:
        """A round an action of the form built: refused, the refusal alone says why (there
        is no Save whose problems could speak)."""
        if ask_name_if_wanted(at.app, then=partial(save_round, round_)):
            return  # SPY's first event: the device is named first
        problems = at.check(round_, shown.index)
        done(save_checked(at, problems, ignored, partial(store, round_), report))

    def choose(choice: str, conflict: Conflict) -> None:
        """The player's choice in a conflict: keep theirs (the entry closes), or save this
        entry in their round's place or as the next round."""
        if choice == KEEP:
            at.app.resolve(at.game_id, conflict, KEEP, entered)
            at.app.say(
                t(
                    "Your entry was dropped; {round} stays as it is.",
                    round=at.round_name(conflict.index),
                )
            )
            if shown.leave is not None:
                shown.leave()
            return
        index = len(at.rounds) if choice == NEXT else conflict.index
        resolve = partial(at.app.resolve, at.game_id, conflict, choice, entered, shown.draft_id)
        # Theirs replaced is a correction, and its undo says so ("Undo: correct deal 4"): so
        # does the note (it said "Deal 4 saved").
        replaced = choice == REPLACE and conflict.theirs is not None
        said = t("{round} corrected: yours replaced theirs.", round=at.round_name(index))
        done(
            save_checked(at, [], set_tried, resolve, report),
            index,
            capital(said) if replaced else "",
        )

    def done(after: scoring.Replay | None, index: int | None = None, said: str = "") -> None:
        if after is None:  # refused: said above the entry's buttons
            return
        at.app.say(said or of.saved(t, after, shown.index if index is None else index))
        if shown.leave is None:
            afresh(after)
        shown.saved()

    def afresh(after: scoring.Replay) -> None:
        """An entry always open goes on to the next round as the game after the save begins it
        (SPY: the next player's turn), a new draft, nothing touched, tried or refused (it is
        not made anew: see `use_round_entry`)."""
        shown.renew()
        change(lambda _: form.blank(after))
        set_touched(frozenset())
        set_tried(False)
        report([])

    def touch(part: str) -> None:
        set_touched(lambda parts: parts | {part})

    entering = Entering(
        at,
        shown.before,
        shown.index,
        shown.correcting is not None,
        draft,
        change,
        touch,
        errors,
        spoken_to(errors, touched, tried),
        save,
        shown.scroller,
        save_round,
        shown.opened,
    )
    drawn = form.fields(entering)
    # In a conflict, a new round keeps the number it was begun as: never renumbered unseen.
    number = conflict.index if conflict is not None else shown.index
    title_text = drawn.title or of.title(t, number, shown.correcting is not None)
    # In a conflict, no switch: the other form's own draft is not the entry typed.
    switch = shown.switch if conflict is None else None
    title = entry_title(title_text, switch)  # not retained: the switch is the browser's to flip
    deletes = conflict is None
    exits = (t, shown.leave is None, shown.correcting, deletes)  # what the exit buttons show

    def exit_row(*first: ft.Control) -> ft.Control:
        return ft.Row([*first, *exit_buttons(shown, on_discard, on_delete, deletes)], wrap=True)

    told = [] if conflict is None else [conflict_panel(shown, conflict, entered, choose)]
    if form.pad is not None:
        # A refused choice is said under the panel (the pad's line for it is put away).
        said_here = [error_box(refused)] if conflict is not None else []
        rows = [*told, *said_here, title, *drawn.controls, retained("exits", exits, exit_row)]
        said_now = (refused, tried)
        return pad_entry(entering, form.pad, rows, t(of.save_label), said_now, conflict is None)
    rest = [subject(at, e, shown.index) for e in entering.spoken if e not in drawn.said]
    if drawn.actions is not None:
        exit_rows = [retained("exits", exits, exit_row)] if shown.leave is not None else []
        actions = [*drawn.actions, *exit_rows]
    else:
        label = t(of.save_label)
        actions = [
            retained("actions", (label, *exits), lambda: exit_row(save_button(label, on_save)))
        ]
    controls: list[ft.Control] = [
        *told,
        title,
        *drawn.controls,
        error_box([*refused_with(t, refused, rest), *rest]),
        *actions,
    ]
    return ft.Column(controls, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def ignored(tried: bool) -> None:
    pass


def refused_with(t: Translator, refused: list[str], listed: list[str]) -> list[str]:
    """A refusal above the problems `listed` under it (each once); where every problem is said
    in its place in the entry, the refusal says so instead of heading an empty list."""
    if refused == [t(NOT_SAVED)] and not listed:
        return [t("Not saved: what to put right is said above.")]
    return refused


# What the other device did, by what is there now and how it was done.
TOLD: dict[tuple[str, str], Term] = {
    ("saved", "save"): N_("{who} saved {round}: {points}"),
    ("corrected", "change"): N_("{who} corrected {round}: {points}"),
    ("deleted", "delete"): N_("{who} deleted {round}."),
    ("saved", "undo"): N_("{who} undid a change: {round} is now {points}"),
    ("corrected", "undo"): N_("{who} undid a change: {round} is now {points}"),
    ("deleted", "undo"): N_("{who} undid a change: {round} is gone."),
    ("saved", "redo"): N_("{who} redid a change: {round} is now {points}"),
    ("corrected", "redo"): N_("{who} redid a change: {round} is now {points}"),
    ("deleted", "redo"): N_("{who} redid a change: {round} is gone."),
    ("finished", "finish"): N_("{who} put the game into the history: no more rounds."),
}


def how_told(conflict: Conflict) -> str:
    """The key of `TOLD` for what the other device did: its undo or redo, else its save,
    correction or delete as the round is now."""
    if conflict.what in ("undo", "redo", "finish"):
        return conflict.what
    return {SAVED: "save", CORRECTED: "change", DELETED: "delete"}[conflict.did]


SAME = N_("{who} saved {round} with the same numbers as yours.")


def conflict_panel(
    shown: Shown[Q, C],
    conflict: Conflict,
    entered: Record,
    choose: Callable[[str, Conflict], None],
) -> ft.Control:
    """Another device's round beside this entry, named and in numbers, with the choices:
    keep theirs (the default), put mine in its place, or save mine as the next round."""
    at, t = shown.at, shown.at.t
    who = t("Another tab") if conflict.same_device else conflict.who or t("Another device")
    round_word = at.round_name(conflict.index)
    before = at.before(conflict.index)
    same = conflict.theirs is not None and conflict.theirs == entered
    mine = round_in_words(t, before, entered)  # None: not a round (yet)
    if same:
        lines = [t(SAME, who=who, round=round_word)]
    else:
        told = TOLD[(conflict.did, how_told(conflict))]
        theirs = round_in_words(t, before, conflict.theirs) if conflict.theirs else None
        lines = [
            t(told, who=who, round=round_word, points=theirs or ""),
            t("Yours: {points}", points=mine)
            if mine is not None
            else t("Yours is not complete yet."),
        ]
    next_possible = not shown.of.opens_by_itself and not at.result.finished
    labels = choice_labels(at, conflict, same)
    choices = [KEEP] if same else conflict.choices(next_possible)
    complete = same or mine is not None
    choice_buttons: list[ft.Control] = [
        (buttons.FilledButton if choice == KEEP else buttons.OutlinedButton)(
            labels[choice],
            height=48,
            # Mine saved only once it is a round (else the save would only be refused).
            disabled=choice != KEEP and not complete,
            on_click=partial(choose, choice, conflict),
        )
        for choice in choices
    ]
    return info_box(
        [
            *[
                ft.Text(line, weight=ft.FontWeight.BOLD if i == 0 else None)
                for i, line in enumerate(lines)
            ],
            ft.Row(choice_buttons, wrap=True),
        ],
    )


def choice_labels(at: AtTable, conflict: Conflict, same: bool) -> dict[str, str]:
    """Each choice's button, as the round stands: theirs the same as mine (only OK), deleted
    (keep it so, or put mine back), or saved or corrected."""
    t = at.t
    deleted = conflict.theirs is None
    ok = same or conflict.did == FINISHED
    return {
        KEEP: t("OK") if ok else t("Keep it deleted") if deleted else t("Keep theirs"),
        REPLACE: t("Put mine back") if deleted else t("Replace theirs with mine"),
        NEXT: t("Save mine as {round}", round=at.round_name(len(at.rounds))),
    }


def save_button(label: str, save: Callable[[], None]) -> ft.Control:
    return buttons.FilledButton(label, icon=ft.Icons.SAVE, height=52, on_click=lambda: save())


def entry_title(text: str, switch: ft.Control | None) -> ft.Control:
    """The entry's title, and the switch between its forms if it has two."""
    return ft.Row(
        [heading(text), *([switch] if switch else [])],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        wrap=True,
    )


def discard(shown: Shown[Q, C]) -> None:
    """The entry given up: its draft goes, the entry closes, and the note's Undo brings it
    back as it was, the entry open on it (one tap beside Save must cost nothing)."""
    at = shown.at
    kept = at.app.draft(at.game_id)  # the newest (written or not): what the entry showed
    at.app.discard_draft(at.game_id)
    if shown.leave is not None:
        shown.leave()
    if kept is None or not isinstance(kept.get("entry"), dict):
        return  # nothing was entered: nothing to bring back
    index = kept.get("round")
    editing = index if isinstance(index, int) else NEW

    def undo() -> None:
        entry = kept["entry"]
        assert isinstance(entry, dict)
        at.app.keep_draft(at.game_id, None if editing == NEW else editing, entry, draft_id_of(kept))
        shown.reopen(editing)

    number = len(at.rounds) if editing == NEW else editing
    said = at.t("{round} discarded", round=at.round_name(number))
    at.app.say_undoable(said[:1].upper() + said[1:], undo)


def delete(shown: Shown[Q, C], report: Report) -> None:
    """The saved round being corrected deleted (refused: said above the buttons)."""
    at, of = shown.at, shown.of
    deleting = partial(at.app.delete_round, at.game_id, shown.editing, shown.draft_id)
    if delete_checked(at, deleting, report):
        # Undo on the note is the game bar's undo (of this device's last change).
        at.app.say_undoable(at.t(of.deleted, number=shown.editing + 1), lambda: swap(at, True))
        shown.saved()


def exit_buttons(
    shown: Shown[Q, C],
    on_discard: Callable[[], None],
    on_delete: Callable[[], None],
    deletes: bool = True,
) -> list[ft.Control]:
    """Discard (the draft goes, the entry closes) and, for a saved round, Delete (not while a
    conflict waits: the round may be gone). An entry always open for a new round has neither."""
    t, of = shown.at.t, shown.of
    if shown.leave is None:
        return []
    exits: list[ft.Control] = [
        buttons.OutlinedButton(t("Discard"), height=52, on_click=lambda: on_discard())
    ]
    if shown.correcting is not None and of.delete_label is not None and deletes:
        exits.append(
            buttons.TextButton(
                t(of.delete_label), icon=ft.Icons.DELETE_OUTLINE, on_click=lambda: on_delete()
            )
        )
    return exits


def pad_entry(
    entering: Entering[D],
    pad: Pad[D],
    rows: list[ft.Control],
    save_label: str,
    said_now: tuple[list[str], bool],
    typing: bool = True,
) -> ft.Control:
    """A form typed on the number pad: its rows scroll over the pad pinned to the bottom. The
    line above the keys says a refusal, else the first problem once Save was tapped or every
    row is typed (not while typing: a half-typed number is no mistake). Not `typing` (a
    conflict waits for the player's choice, at the top of the rows): no pad."""
    at, t, draft = entering.at, entering.t, entering.draft
    before = entering.before
    refused, tried = said_now
    complete = pad.active(draft) is None and pad.complete(draft)
    first = [
        pad.worded(t, before, draft, e) or subject(at, e, entering.index)
        for e in entering.errors[:1]
        if tried or complete
    ]
    said = refused or first
    keys = number_pad(
        t,
        use_latest(lambda key: entering.change(lambda current: pad.press(before, current, key))),
        t(pad.next_label),
        save_label,
        use_latest(entering.save),
        minus=pad.minus(before, draft),
        problem=problem_line(said) if said else None,
    )
    if not typing:
        return PinnedPad(rows, [], pad.rows(draft), None)
    return PinnedPad(rows, keys, pad.rows(draft), pad.active(draft))
