"""Black Spy at the table: the scoresheet, who deals next, and entering a deal."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial

import flet as ft

import scoring
from scoring import JSON, Record, black_spy
from scoring.black_spy import Deal, Pile
from scoring.errors import N_
from scoring.reader import as_whole, child

from .. import buttons
from ..entry import (
    NEW,
    opener,
    part_of,
)
from ..frame import (
    asked_first,
    correction_banner,
    game_over_panel,
    screen,
)
from ..hooks import NO_TEXT, memo, use_latest, use_retained, use_value, use_value_for
from ..i18n import Translator, translator
from ..numpad import DELETE, MINUS, NEXT, pad_field, pad_row_key
from ..round_entry import Drawn, Entering, Form, Pad, RoundEntryOf, use_round_entry
from ..widgets import (
    TARGET,
    CountChips,
    chip,
    choice_chips,
    chosen_segment,
    drawn_as,
    heading,
    icon_button,
    info_box,
    note,
    problem_line,
    segmented,
    stepper,
    toggle_chip,
)
from . import AtTable, GameView, NewGameForm

MOON_ICON = ft.Icons.NIGHTLIGHT_ROUND
LEADER_ICON = ft.Icons.STAR
PASS_ICONS = {
    "left": ft.Icons.ARROW_BACK,
    "right": ft.Icons.ARROW_FORWARD,
    "across": ft.Icons.SWAP_VERT,
}
PASS_TEXT = {
    "left": N_("Pass 3 cards to the left"),
    "right": N_("Pass 3 cards to the right"),
    "across": N_("Pass 3 cards across"),
}
VARIANT_TEXT = {
    "no-good-spies": (N_("No Good Spies"), N_("Coloured Spies count 0; a deal totals 80.")),
    "capture-or-release": (
        N_("Capture or Release"),
        N_("Whoever takes all 16 black cards may take −60 instead of giving 60."),
    ),
    "mole": (
        N_("The Mole"),
        N_("From deal 2, 3 cards per player are drafted, highest total first."),
    ),
    "calling-color": (
        N_("Calling Color"),
        N_("The dealer calls a colour; the player to the left leads."),
    ),
    "following-rank": (
        N_("Following Rank"),
        N_("You may also follow the rank of the card before yours."),
    ),
    "going-back": (
        N_("Going Back"),
        N_("Exceed the end value to end; exactly it, or half of it, is halved."),
    ),
}
HALVES_TEXT = {"exact": N_("Exact"), "down": N_("Round down"), "up": N_("Round up")}
# The same choice with what it makes of this end value's uneven halving (105 → 52.5, 52, 53).
HALVES_RESULT = {"exact": N_("Exact {half}"), "down": N_("Down {half}"), "up": N_("Up {half}")}
END_VALUE_STEP = 10
END_VALUE_RANGE = (10, 1000)


@ft.component
def BlackSpyScreen(at: AtTable, key: str | None = None) -> ft.View:
    """`at.fix_round`: the game was stored before a rule it breaks; only that deal's correction
    is open (`at.result` is the game up to it)."""
    entry = use_round_entry(at, ENTRY)
    earlier, set_earlier = use_value(False)  # the sheet shows the deals before its last ones

    def open_deal(number: int) -> None:
        correct = asked_first(at, opener(entry.open_round, number - 1))
        if correct is not None:
            correct()

    def show_earlier(shown: bool) -> None:
        set_earlier(shown)

    def enter_new() -> None:
        entry.open_round(NEW)

    # The same functions at every drawing, calling this drawing's (the sheet is drawn again
    # only when what it shows changed, `SheetPart`).
    taps = SheetTaps(use_latest(open_deal), use_latest(show_earlier))
    controls: list[ft.Control] = []
    if entry.control is not None:
        controls = [*correction_banner(at.t, at.fix_round), entry.control]
    # A stored game to correct shows only that deal's entry, no sheet.
    shown = (
        None if at.fix_round is not None else [SheetPart(at, use_latest(enter_new), taps, earlier)]
    )
    return screen(
        at,
        black_spy.RULES.title,
        controls,
        entering=entry.open,
        fills=entry.fills,
        sheet=shown,
        kept=entry.kept,
    )


# --- the sheet ---------------------------------------------------------------------------------


@memo
@ft.component
def SheetPart(
    at: AtTable, enter_new: Callable[[], None], taps: SheetTaps, earlier: bool
) -> ft.Control:
    """The game's sheet with what goes with it (the next deal, its button), drawn again only
    when the game or what it shows changed (not at each key of an entry over it)."""
    return ft.Column(
        sheet(at, enter_new, taps, earlier),
        spacing=10,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def sheet(
    at: AtTable, enter_new: Callable[[], None], taps: SheetTaps, earlier: bool
) -> list[ft.Control]:
    t, result = at.t, at.result
    pad = sheet_of(result)
    controls: list[ft.Control] = [game_over_panel(at)] if result.finished else []
    if pad.next_deal is not None:
        controls.append(next_deal_panel(t, pad, pad.next_deal))
    if pad.next_deal is not None and not at.read_only:
        controls.append(
            buttons.FilledButton(
                t("Enter deal {number}", number=pad.next_deal.number),
                icon=ft.Icons.EDIT_NOTE,
                height=56,
                on_click=lambda: enter_new(),
            )
        )
    shown = SheetShown(pad, tuple(result.table.names), t.language, at.read_only, earlier, at.colors)
    controls.append(Scoresheet(shown, taps))
    if pad.deals and not at.read_only:
        controls.append(note(t("Tap a deal to correct or delete it.")))
    return controls


def sheet_of(result: scoring.Replay) -> black_spy.Sheet:
    """The sheet of the game `result` replays, worked out once per revision of a game: the
    screen and the note of a Save both read it (`SHEETS_KEPT` games' last revisions kept).
    Keyed by the replay's id: each entry holds its replay, so no other object takes that id
    while the entry is kept."""
    kept = _SHEETS.pop(id(result), None)
    if kept is None:
        state = scoring.state_as(result, black_spy.State)
        kept = (result, black_spy.RULES.sheet(state, tuple(result.leaders)))
    _SHEETS[id(result)] = kept  # the newest last
    while len(_SHEETS) > SHEETS_KEPT:
        del _SHEETS[next(iter(_SHEETS))]
    return kept[1]


SHEETS_KEPT = 8
_SHEETS: dict[int, tuple[scoring.Replay, black_spy.Sheet]] = {}


def next_deal_panel(t: Translator, pad: black_spy.Sheet, deal: black_spy.NextDeal) -> ft.Control:
    direction = deal.pass_direction
    lines: list[ft.Control] = [
        ft.Text(
            t(
                "Deal {number}: {dealer} deals {cards} cards each",
                number=deal.number,
                dealer=deal.dealer,
                cards=deal.cards_each,
            ),
            weight=ft.FontWeight.BOLD,
        ),
        ft.Row([ft.Icon(PASS_ICONS[direction]), ft.Text(t(PASS_TEXT[direction]))]),
    ]
    if deal.mole_draft is not None and deal.mole_cards is not None:
        lines.append(
            ft.Text(
                t.plural(
                    "The Mole: {count} card set aside first. Draft: {order}",
                    "The Mole: {count} cards set aside first. Draft: {order}",
                    deal.mole_cards,
                    order=" → ".join(deal.mole_draft.order),
                )
            )
        )
        lines += [note(tie_text(t, tie, deal.mole_draft.dealer)) for tie in deal.mole_draft.ties]
    if deal.caller is not None:
        lines.append(
            ft.Text(
                t(
                    "{caller} calls a colour after the pass; {leader} leads it",
                    caller=deal.caller,
                    leader=deal.leader,
                )
            )
        )
    else:
        lines.append(note(t("The red 1 leads the first trick (no black lead).")))
    end = pad.end_value
    if pad.going_back:
        lines.append(
            note(
                t(
                    "Going Back: exceed {end} to end; exactly {end} or {half} is halved.",
                    end=end,
                    half=t.number(pad.half),
                )
            )
        )
    else:
        lines.append(note(t("The game ends at {end}; lowest total wins.", end=end)))
    variants = [v for v in black_spy.VARIANTS if v in pad.variants]
    reminders = [t(VARIANT_TEXT[v][0]) for v in variants if v != "going-back"]
    if reminders:
        lines.append(note(t("Variants: {names}", names=", ".join(reminders))))
    if "following-rank" in pad.variants:
        following_rank = VARIANT_TEXT["following-rank"][1]
        lines.append(note(t(following_rank)))
    return info_box(lines)


# Why one of two players equal on a total drafts first (`black_spy.Younger.by`).
YOUNGER_TEXT = {
    black_spy.BIRTH_DATE: N_("{first} is younger than {second}"),
    black_spy.BIRTH_YEAR: N_("{second}'s birth year counts as 1 January, so {first} is younger"),
    black_spy.NO_DATE: N_("{second} has no birth date, counted as older"),
}
# Why players of one age draft in seating order (`black_spy.Seated.by`).
SEATED_TEXT = {
    black_spy.SAME_DATE: N_("{names} share a birth date, so seating order from {dealer}'s left"),
    black_spy.BIRTH_YEAR: N_(
        "{names} count as born the same 1 January, so seating order from {dealer}'s left"
    ),
    black_spy.NO_DATE: N_("no birth date for {names}, so seating order from {dealer}'s left"),
}


def tie_text(t: Translator, tie: black_spy.MoleTie, dealer: str) -> str:
    """The engine's reasons for a tie in words: "Equal on 20: Ben is younger than Carla"."""
    reasons = []
    for reason in tie.broken_by:
        if isinstance(reason, black_spy.Younger):
            words = YOUNGER_TEXT[reason.by]
            reasons.append(t(words, first=reason.first, second=reason.second))
        else:
            words = SEATED_TEXT[reason.by]
            reasons.append(t(words, names=names_list(reason.players), dealer=dealer))
    return t("Equal on {total}: {reasons}", total=tie.total, reasons="; ".join(reasons))


def names_list(names: tuple[str, ...]) -> str:
    """Names joined as the app joins winners' names: "Carla, Anna & Ben"."""
    return " & ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def distance_to_end(t: Translator, pad: black_spy.Sheet, name: str) -> str:
    """How far from the end value; past it (Going Back), by how much."""
    over = pad.over_by(name)
    if over > 0:
        return t("over by {points}", points=t.number(over))
    return t.number(pad.to_end(name))


# The deals a sheet shows of a longer game: the last ones, as many as leave the totals and
# the distance to the end in view under the next deal's panel on a phone (400×800) without
# scrolling; the earlier ones are one tap away ("34 earlier deals"). A sheet draws the same
# number of controls at deal 40 as at deal 8 (eight deals hid the totals below the screen,
# and drew 24 controls more at every opening and Save).
LATEST_DEALS = 5
# A sheet of five or six players on a phone: a narrower first column and smaller headings.
CROWDED = 5
# The letters of a name a column heads a phone's sheet with (more: cut, "Maxim…"); a wider
# window shows each name whole.
LETTERS = {2: 20, 3: 13, 4: 8, 5: 7, 6: 6}
Columns = dict[str | ft.ResponsiveRowBreakpoint, int | float]
PHONE_ONLY: Columns = {"xs": 12, "sm": 0}  # (`ft.ResponsiveRow`: < 576 px wide)
WIDER_ONLY: Columns = {"xs": 0, "sm": 12}


@dataclass(frozen=True)
class SheetShown:
    """What the scoresheet shows: equal (==) for the same game revision in the same language,
    however often the screen is drawn, so that `Scoresheet` is drawn again only when it
    changed (`ft.memo` compares its arguments with ==)."""

    pad: black_spy.Sheet
    names: tuple[str, ...]
    language: str
    read_only: bool  # a guest who watches: no deal is a button
    earlier: bool  # the deals before the last `LATEST_DEALS` are shown too
    colors: tuple[str, ...] = ()  # each player's colour (a bar under their name)

    @property
    def crowded(self) -> bool:
        return len(self.names) >= CROWDED

    @property
    def deals(self) -> tuple[black_spy.SheetDeal, ...]:
        """The deals shown: the last ones, or all of them (also when only one would be left
        out: its row takes no more room than the button that would show it)."""
        if self.earlier or len(self.pad.deals) <= LATEST_DEALS + 1:
            return self.pad.deals
        return self.pad.deals[-LATEST_DEALS:]

    @property
    def hidden(self) -> int:
        """How many earlier deals are not shown."""
        return len(self.pad.deals) - len(self.deals)


@dataclass(frozen=True)
class SheetTaps:
    """The sheet's taps, the same functions from one drawing of the screen to the next (a new
    function would make `Scoresheet` draw again): open deal `number`'s correction, show or
    hide the earlier deals."""

    open_deal: Callable[[int], None]
    show_earlier: Callable[[bool], None]


@memo
@ft.component
def Scoresheet(shown: SheetShown, taps: SheetTaps) -> ft.Control:
    """The sheet, drawn again only when what it shows changed (the same game revision draws
    nothing anew when the screen is drawn for another reason). The names over the columns stay
    the controls drawn last (a Save adds a deal, not them)."""
    t = translator(shown.language)
    looks = (t, shown.names, shown.crowded, shown.colors)
    names_row = use_retained()("names", looks, lambda: heading_row(t, shown))
    return scoresheet(t, shown, taps, names_row)


def clusters(text: str) -> list[str]:
    """`text` as the characters a reader sees: a letter with its accents, an emoji with its
    skin tone, joined parts and tags, a flag's two letters, each one piece.

    >>> clusters("Zoë") == ["Z", "o", "ë"] and len(clusters("\U0001f469\u200d\U0001f4bb Kim")) == 5
    True
    """
    pieces: list[str] = []
    joined = False  # the last character was a zero-width joiner: the next one joins it
    for char in text:
        code = ord(char)
        extends = (
            unicodedata.category(char) in ("Mn", "Mc", "Me")
            or char == ZWJ
            or 0xFE00 <= code <= 0xFE0F  # variation selectors
            or 0x1F3FB <= code <= 0x1F3FF  # skin tones
            or 0xE0020 <= code <= 0xE007F  # tags (🏴 of Scotland)
        )
        flag = 0x1F1E6 <= code <= 0x1F1FF and len(pieces) > 0 and is_single_flag_letter(pieces[-1])
        if pieces and (joined or extends or flag):
            pieces[-1] += char
        else:
            pieces.append(char)
        joined = char == ZWJ
    return pieces


ZWJ = "\u200d"


def is_single_flag_letter(piece: str) -> bool:
    return len(piece) == 1 and 0x1F1E6 <= ord(piece) <= 0x1F1FF


def short_names(names: tuple[str, ...], letters: int) -> tuple[str, ...]:
    """Each name as a narrow column heads it: whole if it has at most `letters` characters,
    else its first ones and "…"; names that would look the same keep more until they differ.

    >>> short_names(("Maximilian", "Anna", "Alexandra", "Alexander"), 6)
    ('Maxim…', 'Anna', 'Alexandra', 'Alexander')
    """

    def cut(name: str, keep: int) -> str:
        pieces = clusters(name)
        return name if len(pieces) <= keep else "".join(pieces[: keep - 1]).rstrip() + "…"

    shown = {name: cut(name, letters) for name in names}
    for more in range(1, max(len(clusters(name)) for name in names) + 1):
        alike = [name for name in names if list(shown.values()).count(shown[name]) > 1]
        if not alike:
            break
        shown.update({name: cut(name, letters + more) for name in alike})
    return tuple(shown[name] for name in names)


def cell(
    text: str,
    icon: ft.IconData | None = None,
    bold: bool = False,
    spoken: str | None = None,
    size: int | None = None,
    below: str | None = None,
) -> ft.Control:
    """A number of the sheet at the end of its column, with an icon before it and a line of
    small print under it (`below`). A text that does not fit breaks between its words."""
    text_control = ft.Text(
        text,
        semantics_label=spoken,
        weight=ft.FontWeight.BOLD if bold else None,
        size=size,
        text_align=ft.TextAlign.END,
    )
    if icon is None and below is None:
        text_control.expand = 1
        return text_control
    shown: ft.Control = text_control
    if icon is not None:
        shown = ft.Row(
            [ft.Icon(icon, size=14), text_control], spacing=2, alignment=ft.MainAxisAlignment.END
        )
    if below is None:
        shown.expand = 1
        return shown
    return ft.Column(
        [shown, ft.Text(below, size=12, text_align=ft.TextAlign.END)],
        spacing=0,
        horizontal_alignment=ft.CrossAxisAlignment.END,
        expand=1,
    )


def row(
    label: str,
    cells: list[ft.Control],
    on_click: Callable[[], None] | None = None,
    spoken: str | None = None,
    crowded: bool = False,
) -> ft.Control:
    return ft.Container(
        content=ft.Row(
            [
                # Wide enough for the German "Summe" in one piece ("Bis Ende" may take two
                # lines); with five or six players narrower, in smaller type.
                ft.Text(
                    label,
                    width=LABEL_CROWDED if crowded else LABEL_WIDTH,
                    size=13 if crowded else None,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=spoken,
                ),
                *cells,
            ],
            spacing=4,
        ),
        padding=ft.Padding.symmetric(vertical=14, horizontal=4),  # 48 px high: a finger hits a row
        border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
        on_click=on_click,
        ink=on_click is not None,
    )


LABEL_WIDTH = 64
LABEL_CROWDED = 48


def heading_row(t: Translator, shown: SheetShown) -> ft.Control:
    """The players' names over their columns: on a phone's sheet as many letters as fit (the
    full name spoken), on a wider one whole."""
    names, crowded = shown.names, shown.crowded
    size = 13 if crowded else None

    colors = shown.colors or (ft.Colors.TRANSPARENT,) * len(names)

    def names_row(texts: tuple[str, ...]) -> ft.Control:
        return row(
            t("Deal"),
            [
                # The player's colour as the heading's bottom border: a bar under the name.
                ft.Container(
                    ft.Text(
                        text,
                        semantics_label=name if text != name else None,
                        weight=ft.FontWeight.BOLD,
                        size=size,
                        no_wrap=True,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        text_align=ft.TextAlign.END,
                    ),
                    border=ft.Border.only(bottom=ft.BorderSide(4, color)),
                    padding=ft.Padding.only(bottom=2),
                    expand=1,
                )
                for name, text, color in zip(names, texts, colors, strict=True)
            ],
            crowded=crowded,
        )

    short = short_names(names, LETTERS.get(len(names), 6))
    if short == names:
        return names_row(names)
    return ft.ResponsiveRow(
        [
            ft.Container(names_row(short), col=PHONE_ONLY),
            ft.Container(names_row(names), col=WIDER_ONLY),
        ],
        spacing=0,
        run_spacing=0,
    )


def halving_line(t: Translator, reached: Fraction, became: Fraction) -> str:
    """ "75 ÷ 2 = 37.5", broken (where a column is narrow) only before "="."""
    return f"{t.number(reached)}\u00a0÷\u00a02 =\u00a0{t.number(became)}"


def scoresheet(
    t: Translator, shown: SheetShown, taps: SheetTaps, names_row: ft.Control | None = None
) -> ft.Control:
    """Like the paper pad: a row per deal (the last ones; the earlier ones a tap away), a column
    per player, totals and the distance to the end; the leader is marked. `names_row`: the
    names over the columns (`heading_row`), if drawn already."""
    pad, names, crowded = shown.pad, shown.names, shown.crowded
    rows: list[ft.Control] = [names_row or heading_row(t, shown)]
    if len(pad.deals) > LATEST_DEALS + 1:
        rows.append(earlier_deals(t, shown, taps))
    looks = (names, shown.language, shown.read_only)
    for deal in shown.deals:
        # Keyed by its number: when the last deals shown move on by one, the others are kept.
        rows.append(DealRow(deal, *looks, taps, key=f"deal {deal.number}"))
    rows.append(
        row(
            t("Total"),
            [
                cell(
                    t.number(pad.totals[n]),
                    LEADER_ICON if n in pad.leaders else None,
                    bold=True,
                    spoken=t("{name}: total {total}", name=n, total=t.number(pad.totals[n])),
                )
                for n in names
            ],
            crowded=crowded,
        )
    )
    to_end_size = 12 if crowded else None  # "12 darüber" in two lines of a narrow column
    rows.append(
        row(
            t("To end"),
            [cell(distance_to_end(t, pad, n), size=to_end_size) for n in names],
            crowded=crowded,
        )
    )
    keys: list[ft.Control] = []
    if pad.going_back:  # the row counts to above the end value, not to it: say so
        keys.append(
            note(
                t(
                    "To end: the points that take a total above {end} (Going Back).",
                    end=pad.end_value,
                )
            )
        )
    halvings = [halved for deal in shown.deals for halved in deal.halved_to.values()]
    if halvings:  # explained with the first halving shown
        reached, became = halvings[0]
        keys.append(
            note(
                t(
                    "{reached} ÷ 2 = {became}: the total reached, halved (Going Back)",
                    reached=t.number(reached),
                    became=t.number(became),
                )
            )
        )
    symbols = [(LEADER_ICON, t("leading"))]
    if any(deal.moon for deal in shown.deals):  # each key only for a symbol shown
        symbols.insert(0, (MOON_ICON, t("took all 16 black cards")))
    for icon, meaning in symbols:
        keys.append(ft.Row([ft.Icon(icon, size=14), note(meaning)], spacing=2))
    legend = keys[0] if len(keys) == 1 else ft.Row(wrap=True, spacing=8, controls=keys)
    return ft.Column([heading(t("Scoresheet")), ft.Column(rows, spacing=0), legend], spacing=6)


@memo
@ft.component
def DealRow(
    deal: black_spy.SheetDeal,
    names: tuple[str, ...],
    language: str,
    read_only: bool,
    taps: SheetTaps,
    key: str | None = None,
) -> ft.Control:
    """A deal's row, drawn again only when it changed (a Save adds a row: the others stay)."""
    t = translator(language)
    cells = []
    for name in names:
        below = None
        if name in deal.halved_to:  # "10" over "75 ÷ 2 = 37.5": what the total became
            below = halving_line(t, *deal.halved_to[name])
        moon = MOON_ICON if deal.moon == name else None
        cells.append(cell(t.number(deal.points[name]), moon, below=below))
    return row(
        str(deal.number),
        cells,
        on_click=None if read_only else opens(taps, deal.number),
        spoken=None if read_only else t("Edit deal {number}", number=deal.number),
        crowded=len(names) >= CROWDED,
    )


def opens(taps: SheetTaps, number: int) -> Callable[[], None]:
    """A tap on deal `number`'s row."""
    return lambda: taps.open_deal(number)


def earlier_deals(t: Translator, shown: SheetShown, taps: SheetTaps) -> ft.Control:
    """The switch between the last deals and all of them, above the deals."""
    if shown.earlier:
        label, icon = t("Hide earlier deals"), ft.Icons.EXPAND_LESS
    else:
        label = t.plural("{count} earlier deal", "{count} earlier deals", shown.hidden)
        icon = ft.Icons.EXPAND_MORE
    return buttons.TextButton(
        label, icon=icon, height=TARGET, on_click=lambda: taps.show_earlier(not shown.earlier)
    )


# --- entering a deal ---------------------------------------------------------------------------

Change = Callable[[Callable[[Deal], Deal], str | None], None]


@dataclass(frozen=True)
class Dealt:
    """A deal entered with the cards: each pile, and whose pile fills itself in with what the
    others leave (None once that player's own pile was entered)."""

    deal: Deal
    auto: str | None

    def changed(self, modify: Callable[[Deal], Deal], automatic: str | None) -> Dealt:
        """`modify` applied, `automatic` the pile filled in from the rest."""
        deal = modify(self.deal)
        return Dealt(deal if automatic is None else deal.completed(automatic), automatic)


def blank_dealt(before: scoring.Replay) -> Dealt:
    last = before.table.names[-1]
    return Dealt(Deal.blank(before.table).completed(last), last)


def kept_dealt(before: scoring.Replay, entry: Record) -> Dealt:
    auto = entry.get("auto")
    deal = Deal.from_json(entry["deal"], before.table)
    return Dealt(deal, auto if isinstance(auto, str) else None)


def dealt_fields(entering: Entering[Dealt]) -> Drawn:
    """Each player's pile by its cards, the last filled in with what is left; a moon's choice
    once the piles add up. A problem of a pile stands in the card of the pile changed last."""
    t, draft, auto = entering.t, entering.draft.deal, entering.draft.auto
    names = list(entering.before.table.names)
    options = scoring.options_as(entering.before, black_spy.Options)
    # Until a pile besides the automatic one is entered, the automatic one holds every card,
    # a moon only on paper: no points and no moon box yet.
    blank = auto is not None and all(draft.piles[n] == Pile() for n in names if n != auto)
    before_state = scoring.state_as(entering.before, black_spy.State)
    points = {} if blank else black_spy.RULES.deal_points_so_far(before_state, draft)
    # The pile changed last: its card speaks.
    last_pile, set_last_pile = use_value_for(entering.opened, NO_TEXT)

    def change(modify: Callable[[Deal], Deal], automatic: str | None) -> None:
        """Apply `modify` to the draft as it is when the change arrives (two quick taps on
        "plus" count twice), then work out the automatic player's pile again."""
        entering.change(lambda current: current.changed(modify, automatic))

    def make_automatic(name: str) -> None:
        """Make `name`'s pile the one filled in with what the others leave."""
        change(lambda current: current, name)

    def modify_pile(name: str, modify: Callable[[Deal], Deal]) -> None:
        """A change to `name`'s pile; the automatic pile stays automatic unless it is this."""
        entering.touch(f"cards.{name}")
        set_last_pile(name)
        entering.change(
            lambda current: current.changed(modify, current.auto if current.auto != name else None)
        )

    # The same functions at every drawing: a pile's card is drawn again only when it changes.
    actions = PileActions(use_latest(make_automatic), use_latest(modify_pile))

    def choose_moon(modify: Callable[[Deal], Deal], automatic: str | None) -> None:
        entering.touch("moon_choice")
        change(modify, automatic)

    help_text = t("Count each player's tricks. The last one is filled in with what is left.")
    controls: list[ft.Control] = [use_retained()("help", help_text, lambda: note(help_text))]
    at_piles, _ = by_pile(entering.spoken, names, last_pile)
    for name in names:
        controls.append(
            PileCard(
                t,
                name,
                draft.piles[name],
                points.get(name),
                auto == name,
                actions,
                black_spy.colored_spy_points(options),
                tuple(t.problem(error) for error in at_piles.get(name, [])),
                key=name,
            )
        )
    preview = black_spy.RULES.preview(before_state, draft.to_json())
    if not blank and not any(found.part.startswith("cards") for found in preview.problems):
        # Piles that do not add up contradict any moon: it is said once they do.
        controls += moon_panel(t, draft, preview, choose_moon, auto)
    said = [error for errors in at_piles.values() for error in errors]
    return Drawn(controls, said)


def deal_title(t: Translator, index: int, correcting: bool) -> str:
    if correcting:
        return t("Correct deal {number}", number=index + 1)
    return t("Deal {number}", number=index + 1)


def moon_panel(
    t: Translator, draft: Deal, preview: black_spy.DealPreview, change: Change, auto: str | None
) -> list[ft.Control]:
    """Who took all 16 black cards, and their choice when the rules ask for one (Capture or
    Release), as the engine's preview of the deal says."""
    taker = preview.moon_taker
    if taker is None:
        return []
    if not preview.may_choose_moon:
        return [
            info_box(
                [
                    ft.Text(
                        t(
                            "{name} took all 16 black cards: 0 for them, 60 for everyone else.",
                            name=taker,
                        )
                    )
                ],
                ft.Colors.TERTIARY_CONTAINER,
            )
        ]

    def choose(choice: str | None) -> None:
        change(lambda current: current.with_moon_choice(choice), auto)

    return [
        info_box(
            [
                ft.Text(
                    t("{name} took all 16 black cards! Their choice:", name=taker),
                    weight=ft.FontWeight.BOLD,
                ),
                segmented(
                    selected=[draft.moon_choice] if draft.moon_choice else [],
                    key=drawn_as("moon", draft.moon_choice),
                    allow_empty_selection=True,
                    segments=[
                        ft.Segment(value="give", label=ft.Text(t("Give 60 to everyone else"))),
                        ft.Segment(
                            value="release",
                            label=ft.Text(t("Release: −60 for {name}", name=taker)),
                        ),
                    ],
                    # A tap on the chosen one takes it back (Flutter draws it so): no choice.
                    on_change=lambda e: choose(chosen_segment(e.control)),
                ),
            ],
            ft.Colors.TERTIARY_CONTAINER,
        )
    ]


@dataclass(frozen=True)
class PileActions:
    """What a pile's card does, for every pile: the same at every drawing."""

    make_automatic: Callable[[str], None]  # the player's pile is filled in from the rest
    modify: Callable[[str, Callable[[Deal], Deal]], None]  # a change to the player's pile


@dataclass(frozen=True)
class CountOf:
    """Sets one count of a player's pile (equal at every drawing: its chips stay drawn)."""

    modify: Callable[[str, Callable[[Deal], Deal]], None]
    name: str
    part: str

    def __call__(self, count: int) -> None:
        name, part = self.name, self.part
        self.modify(name, lambda current: current.with_count(name, part, count))


@dataclass(frozen=True)
class HighCardOf:
    """Takes or gives back one of the 8–11 for a player's pile (equal at every drawing)."""

    modify: Callable[[str, Callable[[Deal], Deal]], None]
    name: str

    def __call__(self, rank: int) -> None:
        name = self.name
        self.modify(name, lambda current: current.with_high_card(name, rank))


@memo
@ft.component
def HighCards(
    t: Translator, name: str, taken: frozenset[int], enabled: bool, take: HighCardOf
) -> ft.Control:
    """A pile's black 8–11, one chip each, drawn again only when they change."""
    return ft.Row(
        wrap=True,
        spacing=6,
        controls=[
            ft.Text(t("Black"), no_wrap=True),  # its own width: "Schwarz" in one piece
            *[
                chip(
                    label=ft.Text(
                        str(rank),
                        semantics_label=t("{name}: black {rank}", name=name, rank=rank),
                    ),
                    selected=rank in taken,
                    key=drawn_as(name, rank, rank in taken),
                    disabled=not enabled,
                    on_select=lambda e, r=rank: take(r),
                    show_checkmark=False,  # it would move the ranks after it
                )
                for rank in black_spy.HIGH_RANKS
            ],
        ],
    )


@memo
@ft.component
def PileCard(
    t: Translator,
    name: str,
    pile: Pile,
    points: Fraction | None,
    automatic: bool,
    actions: PileActions,
    colored_points: int,
    problems: tuple[str, ...],
    key: str | None = None,  # the component's own (Flet takes it; never given here)
) -> ft.Control:
    """A player's pile by its cards, drawn again only when something it shows changes: then
    what stays as it was is the control drawn last (`use_retained`)."""
    retained = use_retained()
    said = t("{points} points", points=t.number(points)) if points is not None else ""
    header = retained("header", (name, said), lambda: pile_header(name, said))
    # One height whatever the line says, so no count moves when a problem comes or goes or
    # another pile becomes the automatic one.
    sub = retained(
        "line",
        (t, name, problems, automatic, actions),
        lambda: ft.Container(
            pile_line(t, name, problems, automatic, actions),
            height=TARGET,
            alignment=ft.Alignment.CENTER_LEFT,
        ),
    )
    enabled = not automatic

    def counted(part: str, label: str, shown: str) -> ft.Control:
        limit = black_spy.PART_LIMITS[part]
        on_count = CountOf(actions.modify, name, part)
        return CountChips(label, shown, getattr(pile, part), limit, on_count, t, enabled)

    return ft.Card(
        content=ft.Container(
            padding=10,
            content=ft.Column(
                spacing=2,
                controls=[
                    header,
                    sub,
                    counted(
                        "black_spies",
                        t("{name}: black Spies", name=name),
                        t("Black Spies ({points})", points=black_spy.SPY_POINTS),
                    ),
                    counted(
                        "black_low",
                        t("{name}: black 1–6", name=name),
                        t("Black 1–6 ({points} each)", points=black_spy.LOW_POINTS),
                    ),
                    HighCards(t, name, pile.black_high, enabled, HighCardOf(actions.modify, name)),
                    counted(
                        "colored_spies",
                        t("{name}: coloured Spies", name=name),
                        t("Coloured Spies ({points})", points=t.number(colored_points)),
                    ),
                ],
            ),
        )
    )


def pile_header(name: str, points: str) -> ft.Control:
    return ft.Row(
        [
            ft.Text(name, weight=ft.FontWeight.BOLD, size=16, expand=True),
            ft.Text(points, weight=ft.FontWeight.BOLD),
        ]
    )


def pile_line(
    t: Translator, name: str, problems: tuple[str, ...], automatic: bool, actions: PileActions
) -> ft.Control:
    """Under a pile's name: its problems, else that it fills itself in, else the button that
    makes it do so."""
    if problems:
        return problem_line(list(problems))
    if automatic:
        return note(t("Filled in automatically: what the others did not take."))
    make_auto = partial(actions.make_automatic, name)
    return buttons.TextButton(
        t("Fill {name} automatically", name=name), on_click=lambda: make_auto()
    )


def by_pile(
    errors: list[scoring.RecordError], names: list[str], last_pile: str | None
) -> tuple[dict[str, list[scoring.RecordError]], list[scoring.RecordError]]:
    """Where each error is shown: one about a pile in that pile's card; one about all the
    cards (they do not add up) in the card of the pile changed last, under the finger; the rest
    below the piles."""
    at_piles: dict[str, list[scoring.RecordError]] = {}
    elsewhere: list[scoring.RecordError] = []
    for error in errors:
        part = part_of(error).split(".")
        if part[0] == "cards" and len(part) > 1 and part[1] in names:
            at_piles.setdefault(part[1], []).append(error)
        elif part == ["cards"] and last_pile in names:
            at_piles.setdefault(last_pile, []).append(error)
        else:
            elsewhere.append(error)
    return at_piles, elsewhere


def deal_saved_message(t: Translator, result: scoring.Replay, index: int) -> str:
    pad = sheet_of(result)
    parts = [t("Deal {number} saved.", number=index + 1)]
    for name in sorted(pad.deals[index].halved, key=result.table.seat):
        parts.append(
            t(
                "{name} hit the value exactly and is halved to {total}.",
                name=name,
                total=t.number(result.totals[name]),
            )
        )
    if result.finished and result.winners:
        names, count = " & ".join(result.winners), len(result.winners)
        parts.append(
            t.plural("Game over: {names} won!", "Game over: {names} won!", count, names=names)
        )
    return " ".join(parts)


# --- a new game's options ----------------------------------------------------------------------


def options_form(form: NewGameForm) -> list[ft.Control]:
    t, seats = form.t, list(form.seats)
    options = form.options
    first = str(options.get("first_dealer") or seats[0])
    first = first if first in seats else seats[0]
    variants = set(variants_of(options))
    default_end = black_spy.default_end_value(len(seats))
    end_value = scoring.as_int(options.get("end_value") or default_end)
    halves = str(options.get("halves") or "exact")

    def update(**changes: scoring.JSON) -> None:
        form.set_options(lambda current: {**current, **changes})

    def toggle(variant: str) -> None:
        form.set_options(
            lambda current: {
                **current,
                "variants": list[scoring.JSON](sorted(set(variants_of(current)) ^ {variant})),
            }
        )

    def step_end(step: int) -> None:
        def stepped(current: scoring.Record) -> scoring.Record:
            value = scoring.as_int(current.get("end_value") or default_end) + END_VALUE_STEP * step
            low, high = END_VALUE_RANGE
            return {**current, "end_value": min(high, max(low, value))}

        form.set_options(stepped)

    controls: list[ft.Control] = [
        heading(t("Options")),
        choice_chips(
            t("First dealer"),
            [(name, name) for name in seats],
            first,
            lambda name: update(first_dealer=name),
        ),
    ]
    for variant, (title, explanation) in VARIANT_TEXT.items():
        controls.append(
            toggle_chip(t(title), variant in variants, lambda v=variant: toggle(v))  # type: ignore[misc]
        )
        controls.append(ft.Container(note(t(explanation)), padding=ft.Padding.only(left=4)))
    controls.append(stepper(t("End value"), end_value, *END_VALUE_RANGE, step_end, t))
    # With Going Back the game ends above the end value (exactly it is halved).
    ends = (
        N_("The game ends above {value} ({players} players: {default} by the rules).")
        if "going-back" in variants
        else N_("The game ends at {value} ({players} players: {default} by the rules).")
    )
    controls.append(note(t(ends, value=end_value, players=len(seats), default=default_end)))
    if "going-back" in variants:
        controls += halving_choice(t, end_value, halves, lambda chosen: update(halves=chosen))
    if "mole" in variants:
        controls.append(
            ft.Text(t("Birth dates (for The Mole: on equal totals the youngest picks first)"))
        )
        for name in seats:
            controls.append(
                ft.TextField(
                    label=t("{name}: born (YYYY-MM-DD or year)", name=name),
                    value=form.born.get(name, ""),
                    keyboard_type=ft.KeyboardType.DATETIME,
                    on_change=lambda e, n=name: form.set_born(n, e.control.value.strip()),
                )
            )
    return controls


def halving_choice(
    t: Translator, end_value: int, halves: str, choose: Callable[[str], None]
) -> list[ft.Control]:
    """Going Back's halving, exact or rounded, shown on the halving this end value makes
    uneven ("Halving 105 ÷ 2": Exact 52.5, Down 52, Up 53); when every halving is whole the
    choice stays, with a note that it changes nothing."""
    uneven = black_spy.uneven_halving(end_value)
    if uneven is None:
        title = t("Halving")
        labels = {mode: t(text) for mode, text in HALVES_TEXT.items()}
        # Each halving on its own ("200 ÷ 2 = 100, 100 ÷ 2 = 50"): one arrow after another
        # read like a cascade, which the rules exclude (a halved total is not halved again).
        steps = ", ".join(
            f"{t.number(total)} ÷ 2 = {t.number(total / 2)}"
            for total in black_spy.halvings(end_value)
        )
        explained: list[ft.Control] = [
            note(
                t(
                    "With the end value {end} every halving is whole ({steps}): the choice "
                    "changes nothing.",
                    end=end_value,
                    steps=steps,
                )
            )
        ]
    else:
        title = t("Halving {reached} ÷ 2", reached=t.number(uneven))
        labels = {
            mode: t(text, half=t.number(black_spy.halve(uneven, mode)))
            for mode, text in HALVES_RESULT.items()
        }
        explained = []
    return [
        ft.Text(title),
        segmented(
            selected=[halves],
            key=drawn_as("halves", halves),
            segments=[
                ft.Segment(value=mode, label=ft.Text(label)) for mode, label in labels.items()
            ],
            on_change=lambda e: choose(e.control.selected[0]),
        ),
        *explained,
    ]


def options_of(seats: tuple[str, ...], options: scoring.Record) -> scoring.Record:
    """The options as the record writes them: a first dealer who is seated, halving only with
    Going Back, the end value only when changed."""
    first = options.get("first_dealer")
    variants = sorted(variants_of(options))
    complete: scoring.Record = {
        "first_dealer": first if first in seats else seats[0],
        "variants": list[scoring.JSON](variants),
    }
    if options.get("end_value") is not None:
        complete["end_value"] = options["end_value"]
    if "going-back" in variants:
        complete["halves"] = options.get("halves") or "exact"
    return complete


def variants_of(options: scoring.Record) -> list[str]:
    """The variants `options` names (none when it names none)."""
    variants = options.get("variants")
    return [v for v in variants if isinstance(v, str)] if isinstance(variants, list) else []


def made_of(t: Translator, result: scoring.Replay) -> dict[str, str]:
    """The moons each player shot and the times Going Back halved them."""
    halvings = black_spy.RULES.halvings(scoring.state_as(result, black_spy.State))
    said: dict[str, str] = {}
    for name, facts in result.player_facts.items():
        parts = []
        if facts["moons"]:
            parts.append(
                t.plural("Shot the moon once", "Shot the moon {count} times", facts["moons"])
            )
        if halvings[name]:
            parts.append(
                t.plural("halved once", "halved {count} times", halvings[name])
                if parts
                else t.plural("Halved once", "Halved {count} times", halvings[name])
            )
        if parts:
            said[name] = ", ".join(parts)
    return said


def options_said(t: Translator, seats: tuple[str, ...], options: scoring.Record) -> str:
    """The variants played ("The Mole + Going Back"), and an end value other than usual."""
    said = " + ".join(
        t(VARIANT_TEXT[v][0]) for v in black_spy.VARIANTS if v in variants_of(options)
    )
    end = options.get("end_value")
    if isinstance(end, int) and end != black_spy.default_end_value(len(seats)):
        said = " · ".join(part for part in (said, t("to {end}", end=end)) if part)
    return said


VIEW = GameView(
    rules=black_spy.RULES,
    icon=ft.Icons.STYLE,
    screen=BlackSpyScreen,
    options_form=options_form,
    options_of=options_of,
    facts={"moons": N_("Moons shot")},
    round_name=N_("deal {number}"),
    made_of=made_of,
    options_said=options_said,
    counted=lambda t, count: t.plural("{count} deal", "{count} deals", count),
    chart_title=N_("Totals over the deals"),
)


# --- quick entry: each pile's points, as the paper pad keeps them -------------------------------


@dataclass(frozen=True)
class Counted:
    """A deal being entered in points form: the text typed for each pile ("−1" while typing),
    the pile the number pad types into (a tap on a pile chooses it; its next key starts it
    afresh), and the moon. The one pile left untyped fills itself in from the deal's total.
    `moved`: the pad has just moved on to `active` by itself (see `pressed`)."""

    typed: dict[str, str]  # every player, seating order; "" when nothing is typed
    active: str | None
    fresh: bool = True
    moon_taker: str | None = None
    moon_choice: str | None = None
    moved: bool = False

    @classmethod
    def blank(cls, names: list[str]) -> Counted:
        return cls(dict.fromkeys(names, ""), names[0])

    @classmethod
    def of_round(cls, raw: object, names: list[str]) -> Counted:
        """A saved deal in points form, to correct as a new one is entered: the pad on the
        first pile (its first key starts it afresh), the last pile filled in from the rest."""
        fields = raw if isinstance(raw, dict) else {}
        points = fields.get("points")
        points = points if isinstance(points, dict) else {}
        typed = {n: minus_sign(points[n]) if n in points else "" for n in names[:-1]}
        taker, choice = fields.get("moon_taker"), fields.get("moon_choice")
        return cls(
            {**typed, names[-1]: ""},
            names[0],
            moon_taker=taker if taker in names else None,
            moon_choice=choice if choice in black_spy.MOON_CHOICES else None,
        )

    @classmethod
    def from_json(cls, raw: object, names: list[str]) -> Counted:
        if not isinstance(raw, dict) or not isinstance(raw.get("typed"), dict):
            return cls.blank(names)
        typed = {n: str(raw["typed"].get(n, "")) for n in names}
        active = raw.get("active") if raw.get("active") in names else None
        taker = raw.get("moon_taker") if raw.get("moon_taker") in names else None
        choice = (
            raw.get("moon_choice") if raw.get("moon_choice") in black_spy.MOON_CHOICES else None
        )
        fresh, moved = bool(raw.get("fresh", True)), bool(raw.get("moved", False))
        return cls(typed, active, fresh, taker, choice, moved)

    def to_json(self) -> Record:
        return {
            "typed": dict[str, scoring.JSON](self.typed),
            "active": self.active,
            "fresh": self.fresh,
            "moon_taker": self.moon_taker,
            "moon_choice": self.moon_choice,
            "moved": self.moved,
        }

    def value(self, name: str) -> int | None:
        try:
            return int(self.typed[name].replace("−", "-"))
        except ValueError:
            return None

    @property
    def untyped(self) -> list[str]:
        return [name for name in self.typed if self.value(name) is None]

    @property
    def auto(self) -> str | None:
        """The pile that fills itself in: the only one not typed. A pile where only "−" is
        typed so far is being typed: it shows its "−", not the points that would fill it."""
        left = self.untyped
        return left[0] if len(left) == 1 and not self.typed[left[0]] else None

    def piles(self, options: black_spy.Options) -> dict[str, int]:
        """Each pile's points so far: as typed, the last one filled in."""
        points = {name: v for name in self.typed if (v := self.value(name)) is not None}
        if self.auto is not None:
            points[self.auto] = black_spy.counted_rest(options, points)
        return {name: points[name] for name in self.typed if name in points}

    def to_round(self, options: black_spy.Options) -> Record:
        """The deal as the record writes it (FORMAT.md's points form)."""
        deal: Record = {"points": dict[str, scoring.JSON](self.piles(options))}
        if self.moon_taker is not None:
            deal["moon_taker"] = self.moon_taker
            if self.moon_choice is not None:
                deal["moon_choice"] = self.moon_choice
        return deal

    def chosen(self, name: str) -> Counted:
        return replace(self, active=name, fresh=True, moved=False)

    def with_moon(self, name: str) -> Counted:
        """`name` took all 16 black cards (a second tap takes it back); their pile is next."""
        taker = None if self.moon_taker == name else name
        return replace(
            self, moon_taker=taker, moon_choice=None, active=name, fresh=True, moved=False
        )

    def with_moon_choice(self, choice: str | None) -> Counted:
        return replace(self, moon_choice=choice, moved=False)

    def pressed(self, key: str, options: black_spy.Options) -> Counted:
        """A key of the number pad. A pile moves on to the next by itself once no digit could
        follow (18; 8, since 80 is only a moon; −5, since −50 is below −20); else by Next.
        A Next right after it moved on by itself keeps it there (views/numpad.py)."""
        name = self.active
        if name is None:
            return self
        if key == NEXT:
            return replace(self, moved=False) if self.moved else self.advanced()
        text = "" if self.fresh else self.typed[name]
        if key == DELETE:
            return self.typing(name, self.typed[name][:-1])
        if key == MINUS:
            return self.typing(name, text[1:] if text.startswith("−") else "−" + text)
        negative = text.startswith("−")
        digits = text.removeprefix("−") + key
        if len(digits) > 2:  # no pile has three digits: the key starts the number again
            digits = key
        typed = self.typing(name, ("−" if negative else "") + digits)
        low, high = black_spy.pile_limits(options, moon=name == self.moon_taker)
        if black_spy.can_grow(int(digits), negative, low, high):
            return typed
        return replace(typed.advanced(), moved=True)

    def typing(self, name: str, text: str) -> Counted:
        return replace(self, typed={**self.typed, name: text}, fresh=False, moved=False)

    def advanced(self) -> Counted:
        """On to the next pile not typed yet, in seating order. When only the pile that fills
        itself in is left untyped (a deal being corrected), on to the next typed pile after
        this one, as on paper; none after the last."""
        names = list(self.typed)
        waiting = [n for n in self.untyped if n != self.active]
        just_typed = self.active not in self.untyped
        start = names.index(self.active) + 1 if self.active in names else 0
        if not waiting or (just_typed and len(waiting) == 1):  # that one fills itself in
            filler = waiting[0] if waiting else None
            later = [n for n in names[start:] if n != filler]
            return replace(self, active=later[0] if later else None, fresh=True, moved=False)
        following = names[start:] + names[:start]
        active = next(n for n in following if n in waiting)
        return replace(self, active=active, fresh=True, moved=False)


def minus_sign(value: object) -> str:
    """A stored number as the pad shows it: "−10" with a real minus sign."""
    number = as_whole(value)
    if number is None:
        return ""
    return f"−{-number}" if number < 0 else str(number)


QuickChange = Callable[[Callable[[Counted], Counted]], None]


def counted_fields(entering: Entering[Counted]) -> Drawn:
    """Each pile's points as typed on the pad, the last filled in; a moon is one tap on its
    taker's moon."""
    t, counted = entering.t, entering.draft
    names = list(entering.before.table.names)
    options = scoring.options_as(entering.before, black_spy.Options)
    piles = counted.piles(options)
    before_state = scoring.state_as(entering.before, black_spy.State)
    points = black_spy.RULES.draft_points(before_state, counted.to_round(options))
    change = entering.change
    return Drawn(
        [
            note(t("Type each pile's points; the last pile fills itself in.")),
            *[
                pile_row(t, counted, options, name, piles.get(name), points.get(name), change)
                for name in names
            ],
            moon_choice_line(t, counted, options, change),
        ]
    )


def pad_minus(before: scoring.Replay, counted: Counted) -> bool:
    """Whether the pile typed into can be below 0 (with a moon, or Capture or Release)."""
    options = scoring.options_as(before, black_spy.Options)
    active = counted.active
    moon = active is not None and active == counted.moon_taker
    low, _ = black_spy.pile_limits(options, moon=moon)
    return low < 0


def was_counted(deal: JSON) -> bool:
    """Whether a saved deal was entered as each pile's points (quick entry)."""
    return isinstance(deal, dict) and "points" in deal


def filled_in_wrong(
    t: Translator, before: scoring.Replay, counted: Counted, error: scoring.RecordError
) -> str | None:
    """A pile that filled itself in from piles typed wrong is not the one to check: the piles
    typed are ("The piles typed add up to 86, more than the 60 of a deal: check them.")."""
    auto = counted.auto
    if auto is None or not error.path.endswith(child("points", auto)):  # ("Anna Lena": quoted)
        return None
    options = scoring.options_as(before, black_spy.Options)
    typed = sum(value for name in counted.typed if (value := counted.value(name)) is not None)
    total = black_spy.deal_total(options)
    if typed > total:
        return t(
            "The piles typed add up to {typed}, more than the {total} of a deal: check them.",
            typed=typed,
            total=total,
        )
    return t(
        "The piles typed add up to only {typed} of the {total} of a deal: check them.",
        typed=typed,
        total=total,
    )


def pile_names(before: scoring.Replay) -> list[str]:
    return list(before.table.names)


ENTRY = RoundEntryOf(
    quick=Form(
        blank=lambda before: Counted.blank(pile_names(before)),
        of_round=lambda before, deal: Counted.of_round(deal, pile_names(before)),
        read_kept=lambda before, entry: Counted.from_json(entry.get("counted"), pile_names(before)),
        kept=lambda counted: {"counted": counted.to_json()},
        entered=lambda before, counted: counted.to_round(
            scoring.options_as(before, black_spy.Options)
        ),
        fields=counted_fields,
        pad=Pad(
            next_label=N_("Next pile"),
            press=lambda before, counted, key: counted.pressed(
                key, scoring.options_as(before, black_spy.Options)
            ),
            active=lambda counted: counted.active,
            rows=lambda counted: list(counted.typed),
            minus=pad_minus,
            complete=lambda counted: not counted.untyped or counted.auto is not None,
            worded=filled_in_wrong,
        ),
    ),
    cards=Form(
        blank=blank_dealt,
        of_round=lambda before, deal: Dealt(Deal.from_json(deal, before.table), None),
        read_kept=kept_dealt,
        kept=lambda dealt: {"deal": dealt.deal.to_json(), "auto": dealt.auto},
        entered=lambda before, dealt: dealt.deal.to_json(),
        fields=dealt_fields,
    ),
    was_quick=was_counted,
    title=deal_title,
    save_label=N_("Save deal"),
    saved=lambda t, after, index: deal_saved_message(t, after, index),
    delete_label=N_("Delete deal"),
    deleted=N_("Deal {number} deleted"),
)


def pile_row(
    t: Translator,
    counted: Counted,
    options: black_spy.Options,
    name: str,
    pile: int | None,
    result: Fraction | None,
    change: QuickChange,
) -> ft.Control:
    """A pile: its player, what is typed (or filled in), the deal's points for it when a moon
    makes them differ, and the moon; a tap chooses it for the pad."""
    filled = counted.auto == name
    shown = minus_sign(pile) if filled else counted.typed[name]
    scored = moon_score(t, counted, pile, result)
    hint = pile_hint(t, counted, name, options)
    pile_shown = PileShown(name, shown, hint, scored, counted.active == name)
    moon = counted.moon_taker == name
    return PileRow(t, pile_shown, moon, change, pad_row_key(name), key=name)


def pile_hint(t: Translator, counted: Counted, name: str, options: black_spy.Options) -> str:
    """The small words beside a pile's points: "filled in" for the pile that fills itself in;
    for a moon's taker, until their pile is typed, that it takes its points as counted ("as
    counted: 60–80"), not what the moon makes of them (then the name has its room again)."""
    if counted.moon_taker == name and not counted.typed[name]:
        low, high = black_spy.pile_limits(options, moon=True)
        span = t.number(high) if low == high else f"{t.number(low)}–{t.number(high)}"
        return t("as counted: {points}", points=span)
    if counted.auto == name:
        return t("filled in")
    return ""


def moon_score(t: Translator, counted: Counted, pile: int | None, result: Fraction | None) -> str:
    """What a pile scores where a moon makes it differ from its points ("→ −5", with the
    minus sign the piles show), else nothing."""
    if counted.moon_taker is None or result is None or result == pile:
        return ""
    return "→ " + t.number(result)


@dataclass(frozen=True)
class PileShown:
    """What a pile's row shows (equal from one key to the next unless the key changed it)."""

    name: str
    shown: str  # typed, or filled in
    hint: str  # "filled in", a moon's "as counted: 60–80", else ""
    scored: str  # "→ −5" with a moon, else ""
    active: bool  # the pad types into it


@memo
@ft.component
def PileRow(
    t: Translator,
    pile: PileShown,
    moon: bool,
    change: QuickChange,
    row_key: ft.ScrollKey,
    key: str | None = None,  # the component's own (Flet takes it; never given here)
) -> ft.Control:
    """One pile (see `pile_row`), drawn again only when what it shows changes."""
    name = pile.name
    face = ft.Row(
        [
            # A long name is cut at a whole letter, "Maximiliane v…" (clipped, it was cut
            # mid-letter and crowded the words beside it), as the sheet cuts its headings.
            ft.Text(
                name,
                weight=ft.FontWeight.BOLD,
                size=16,
                expand=True,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            ft.Text(pile.hint, italic=True, size=12, no_wrap=True),
            ft.Text(
                pile.shown,
                size=26,
                weight=ft.FontWeight.BOLD,
                width=64,
                text_align=ft.TextAlign.END,
            ),
            ft.Text(pile.scored, size=14, width=52),
        ],
        spacing=6,
    )
    label = t("{name}'s pile: {points}", name=name, points=pile.shown or t("nothing yet"))
    choose = lambda: change(lambda current: current.chosen(name))  # noqa: E731
    row = pad_field(face, label, pile.active, choose)
    moon_button = icon_button(
        MOON_ICON,
        t("{name} took all 16 black cards", name=name),
        lambda: change(lambda current: current.with_moon(name)),
        selected=moon,
    )
    return ft.Row([row, moon_button], spacing=4, key=row_key)


def moon_choice_line(
    t: Translator, counted: Counted, options: black_spy.Options, change: QuickChange
) -> ft.Control:
    """With Capture or Release, the moon's choice; its place is kept while there is no moon,
    so nothing under it moves when one is marked."""
    if not options.has("capture-or-release"):
        return ft.Container()
    taker = counted.moon_taker
    choice: ft.Control | None = None
    if taker is not None:
        choice = segmented(
            selected=[counted.moon_choice] if counted.moon_choice else [],
            key=drawn_as("quick-moon", taker, counted.moon_choice),
            allow_empty_selection=True,
            segments=[
                ft.Segment(value="give", label=ft.Text(t("Give 60 to everyone else"))),
                ft.Segment(
                    value="release", label=ft.Text(t("Release: −60 for {name}", name=taker))
                ),
            ],
            # A tap on the chosen one takes it back (Flutter draws it so): no choice.
            on_change=lambda e: change(
                lambda current: current.with_moon_choice(chosen_segment(e.control))
            ),
        )
    return ft.Container(choice, height=TARGET + 8)
