"""Small building blocks shared by the screens: big touch targets, phone first."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import TypedDict, Unpack

import flet as ft
from flet.messaging.session import Session

from . import buttons
from .hooks import memo, use_retained
from .i18n import Translator


class ToggleChipOptions(TypedDict, total=False):
    """What a toggle chip may set besides its label, state and change (Flet's `Chip` types)."""

    disabled: bool
    tooltip: ft.TooltipValue | None


class ChipOptions(ToggleChipOptions, total=False):
    """What a chip may set besides its label and state (Flet's `Chip` types)."""

    key: ft.KeyValue | None
    on_click: ft.ControlEventHandler[ft.Chip] | None
    on_select: ft.ControlEventHandler[ft.Chip] | None
    on_delete: ft.ControlEventHandler[ft.Chip] | None
    delete_icon_tooltip: str | None
    show_checkmark: bool
    leading: ft.Control | None


class SegmentedOptions(TypedDict, total=False):
    """What a segmented button may set (Flet's `SegmentedButton` types)."""

    segments: list[ft.Segment]
    selected: list[str]
    allow_empty_selection: bool
    on_change: ft.ControlEventHandler[ft.SegmentedButton] | None
    key: ft.KeyValue | None
    tooltip: ft.TooltipValue | None
    disabled: bool


def body(controls: list[ft.Control], spacing: int = 10) -> ft.Control:
    """A screen's content: the full width of a phone, a centred column on a wider window."""
    return ft.ResponsiveRow(
        alignment=ft.MainAxisAlignment.CENTER,
        controls=[
            ft.Column(
                controls,
                spacing=spacing,
                col={"xs": 12, "md": 9, "lg": 7, "xl": 6},
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ],
    )


# The smallest thing a finger is asked to tap, in px (Material's and WCAG 2.5.5's 48). Flutter
# pads to it only for a phone's user agent; the shared widgets size themselves to it.
TARGET = 48
CHIP_PADDING = ft.Padding.symmetric(horizontal=11, vertical=13)  # 48 × 48 px at least


def close(dialog: ft.DialogControl) -> None:
    """Close this dialog. Not Flet's `page.pop_dialog()`, which closes the newest open one:
    notes (SnackBars) share its stack, and a note that came while a dialog was open was closed
    in the dialog's place, leaving the dialog up."""
    dialog.open = False
    dialog.update()


def show_note(
    page: ft.Page,
    text: str,
    seconds: float,
    action: tuple[str, Callable[[], object]] | None = None,
) -> None:
    """A short note in a bar at the bottom of the screen, over the content: it moves nothing a
    finger is about to tap. `action`: a button on it (its label, what a tap does).

    Shown after the screen the tap changed is drawn, not before it: said in a tap's handler,
    the note went to the browser at once and the new screen a drawing later, so the page
    drew twice for one Save and showed the screen it answered last."""
    content: ft.Control = ft.Text(text)
    if action is not None:  # a finger's button (48 px) beside the words: see `NoteButton`
        label, act = action
        button = buttons.NoteButton(label, height=48, on_click=lambda: act())
        content = ft.Row([ft.Text(text, expand=True), button], spacing=8)
    note = ft.SnackBar(content, duration=int(seconds * 1000))

    def shown() -> None:
        page.show_dialog(note)
        _notes.setdefault(page.session, []).append(note)

    async def show() -> None:  # a task: it runs after the drawings the tap asked for
        shown()

    if page.session.connection is None:  # a tab that is away: kept for when it is back
        shown()
    else:
        page.run_task(show)


# The notes each session has shown, to put away those still up (`notes_up`, `put_away`).
_notes: weakref.WeakKeyDictionary[Session, list[ft.SnackBar]] = weakref.WeakKeyDictionary()
# The events of a player's tap (or typing) on a control: the player has moved on.
PLAYERS_STEPS = frozenset({"click", "select", "change", "submit", "delete"})


def notes_up(session: Session) -> list[ft.SnackBar]:
    """The notes this session shows now (or has waiting behind the one shown): a list of its
    own, which a note shown later does not join."""
    still = [note for note in _notes.get(session, []) if note.open]
    _notes[session] = still
    return list(still)


def put_away(page: ft.Page, notes: list[ft.SnackBar]) -> None:
    """Close `notes`, after the drawings of the tap that is being answered (a task, as
    `show_note` shows one): a note lies over the bottom of the screen, where the next deal's
    entry has its Save and Next pile, and a tap meant for them while it was up was lost. The
    player's next step is the note's end: the screen answers first, then the note goes."""

    async def close_them() -> None:
        for note in notes:
            if note.open:
                close(note)

    page.run_task(close_them)


def chip(label: ft.Control, selected: bool = False, **options: Unpack[ChipOptions]) -> ft.Control:
    """A chip a finger can hit on every platform, whose selected state stands out from any
    panel it sits on (drawn in the primary colour, not the panels' secondary container).

    A chip with `on_select` is flipped by the browser itself; that suits an on/off chip (the
    server flips it too, see `drawn_as`). One of several (a player, a count, a mission) takes
    `on_click`: a tap on the chosen one changes nothing, and an `on_select` chip would be drawn
    unchosen while the entry keeps it, the server having no change to draw."""
    if options.get("disabled"):
        return disabled_chip(label, selected, **options)
    return ft.Chip(
        label=label,
        selected=selected,
        padding=CHIP_PADDING,
        visual_density=ft.VisualDensity.STANDARD,
        selected_color=ft.Colors.PRIMARY,
        check_color=ft.Colors.ON_PRIMARY,
        label_text_style=ft.TextStyle(color=ft.Colors.ON_PRIMARY) if selected else None,
        **options,
    )


NO_EDGE = ft.BorderSide(1, ft.Colors.TRANSPARENT)  # nothing to tap; as wide as a chip's edge


def disabled_chip(label: ft.Control, selected: bool, **options: Unpack[ChipOptions]) -> ft.Control:
    """A chip that cannot be tapped, still readable: what it shows may be what the round
    holds (a pile filled in automatically). Flutter paints a disabled chip's label at 38 %
    opacity, 2:1 on a dark panel, whatever its colour; so the chip's own label is drawn
    transparent (its size and accessible name stay: a disabled checkbox to screen readers)
    and the text is drawn over it at full strength, in colours the theme pairs at AA
    (views/theme.py): the chosen one on the secondary container, the others on the panel."""
    if not isinstance(label, ft.Text) or label.value is None:
        return ft.Chip(label=label, selected=selected, padding=CHIP_PADDING, **options)
    colour = ft.Colors.ON_SECONDARY_CONTAINER if selected else ft.Colors.ON_SURFACE_VARIANT
    fill = ft.Colors.SECONDARY_CONTAINER if selected else ft.Colors.TRANSPARENT

    def text(color: str) -> ft.Text:
        return ft.Text(label.value, color=color, size=label.size, weight=label.weight)

    hidden = text(ft.Colors.TRANSPARENT)
    hidden.semantics_label = label.semantics_label or label.value
    chip = ft.Chip(
        label=hidden,
        selected=selected,
        padding=CHIP_PADDING,
        visual_density=ft.VisualDensity.STANDARD,
        color={ft.ControlState.DEFAULT: fill},
        border_side=NO_EDGE,
        **options,
    )
    chip.show_checkmark = False  # the fill says it is the chosen one
    shown = ft.Semantics(content=text(colour), exclude_semantics=True)  # said by the chip
    over = ft.Container(shown, left=0, top=0, right=0, bottom=0, alignment=ft.Alignment.CENTER)
    return ft.Stack([chip, over])


def toggle_chip(
    label: str, on: bool, on_change: Callable[[], object], **options: Unpack[ToggleChipOptions]
) -> ft.Control:
    """Something switched on or off (a variant, an item's effect): a chip, 48 px on every
    platform (a checkbox or switch is 40 px on a desktop, and a height stretches it)."""
    return ft.Row(
        [
            chip(
                label=ft.Text(label),
                selected=on,
                on_select=lambda e: on_change(),
                key=drawn_as(label, on),
                **options,
            )
        ]
    )


def chosen_segment(button: ft.SegmentedButton) -> str | None:
    """The segment a segmented button of single choice has chosen, as the browser drew it: with
    `allow_empty_selection`, a tap on the chosen segment leaves none."""
    return str(button.selected[0]) if button.selected else None


def segmented(**options: Unpack[SegmentedOptions]) -> ft.SegmentedButton:
    """A segmented button whose segments a finger can hit on every platform."""
    return ft.SegmentedButton(
        style=ft.ButtonStyle(
            padding=ft.Padding.symmetric(horizontal=12, vertical=14),
            visual_density=ft.VisualDensity.STANDARD,
        ),
        **options,
    )


@memo
@ft.component
def CountChips(
    label: str,
    shown: str,
    value: int,
    limit: int,
    on_count: Callable[[int], None],
    t: Translator,
    enabled: bool = True,
) -> ft.Control:
    """A small count (0 to `limit`) set with one tap on its number, not stepped up to: a pile's
    three black Spies are one tap, not three. Each chip is named "Anna: black Spies: 3" for
    screen readers and tests; `shown` is the shorter text on screen. Drawn again only when a
    prop changes: `on_count` should be equal from one drawing to the next (a frozen dataclass
    or `hooks.use_latest`)."""
    retained = use_retained()

    def count_chip(n: int) -> ft.Control:
        return chip(
            label=ft.Text(str(n), semantics_label=t("{label}: {number}", label=label, number=n)),
            selected=n == value,
            # Keyed by its state too: a chip whose choice moved is made anew in the browser (a
            # chip changed in place stayed drawn unchosen once in a full run).
            key=drawn_as(label, n, n == value),
            disabled=not enabled,
            on_click=lambda e: on_count(n),
            show_checkmark=False,  # a checkmark would widen the chip and move the ones after it
        )

    made_of = (label, t, on_count, enabled)  # the same for each chip; and each its own:
    chips = [
        retained(str(n), (*made_of, n == value), partial(count_chip, n)) for n in range(limit + 1)
    ]
    # 0–6 in one row on a 400 px phone: seven 48 px chips, 2 px apart.
    title = retained("title", shown, lambda: ft.Text(shown))
    return ft.Column([title, ft.Row(chips, spacing=2, wrap=True)], spacing=2)


def icon_button(
    icon: ft.IconData,
    label: str,
    on_click: ft.ControlEventHandler[ft.IconButton],
    disabled: bool = False,
    selected: bool | None = None,
) -> ft.IconButton:
    """An icon button whose accessible name is `label` (Flutter takes a button's name from its
    content; a tooltip alone only labels a separate node). `selected`: an on/off button, drawn
    filled while on."""
    return ft.IconButton(
        ft.Icon(icon, semantics_label=label),
        icon_size=28,
        on_click=on_click,
        disabled=disabled,
        width=TARGET,
        height=TARGET,
        selected=selected,
        bgcolor=ft.Colors.TERTIARY_CONTAINER if selected else None,
    )


def drawn_as(*state: object) -> str:
    """The key of a control the browser changes by itself when tapped (a chip, a checkbox, a
    switch, a segmented button): the state the server drew it in. When the server takes the
    change, the control is drawn anew under its new key, so the screen always shows what the
    server holds (a refused change springs back) and every such tap gets the server's answer.
    Keys are unique among siblings, so the state names the control too."""
    return ":".join(str(part) for part in state)


def choice_chips(
    label: str,
    options: list[tuple[str, str]],
    selected: str | None,
    on_pick: Callable[[str], object],
) -> ft.Control:
    """Pick one of a few options with one tap. Each chip is named "label: option" for screen
    readers (Flutter's dropdowns have no accessible name). Drawn again only when something
    changed, if `on_pick` is equal from one drawing to the next (`hooks.use_latest`)."""
    return ChoiceChips(label, tuple(options), selected, on_pick)


@memo
@ft.component
def ChoiceChips(
    label: str,
    options: tuple[tuple[str, str], ...],
    selected: str | None,
    on_pick: Callable[[str], object],
) -> ft.Control:
    """(See `choice_chips`.)"""
    return labelled_chips(
        label,
        [
            chip(
                ft.Text(text, semantics_label=f"{label}: {text}"),
                selected=key == selected,
                on_click=lambda e, k=key: on_pick(k),
                key=drawn_as(label, key, key == selected),
            )
            for key, text in options
        ],
    )


def labelled_chips(label: str, chips: list[ft.Control]) -> ft.Control:
    """A row of chips under what they choose, wrapped onto more lines as the width needs."""
    return ft.Column(
        spacing=4,
        controls=[ft.Text(label), ft.Row(wrap=True, spacing=6, run_spacing=6, controls=chips)],
    )


def heading(text: str) -> ft.Text:
    return ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)


def note(text: str, color: str | None = None) -> ft.Text:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL, color=color)


def stepper(
    label: str,
    value: int,
    low: int,
    high: int,
    on_step: Callable[[int], None],
    t: Translator,
    enabled: bool = True,
    shown: str | None = None,
) -> ft.Row:
    """− value + with big buttons; `on_step` gets −1 or +1 (a step, not a value, so two quick
    taps count twice). The buttons' names say what they change, for screen readers and tests
    ("End value plus"); `shown` is the shorter text on screen."""
    return ft.Row(
        spacing=0,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        controls=[
            ft.Text(shown or label, expand=True),
            icon_button(
                ft.Icons.REMOVE_CIRCLE_OUTLINE,
                t("{label} minus", label=label),
                lambda: on_step(-1),
                disabled=not enabled or value <= low,
            ),
            ft.Container(
                ft.Text(
                    str(value), size=20, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER
                ),
                width=36,
                alignment=ft.Alignment.CENTER,
            ),
            icon_button(
                ft.Icons.ADD_CIRCLE_OUTLINE,
                t("{label} plus", label=label),
                lambda: on_step(1),
                disabled=not enabled or value >= high,
            ),
        ],
    )


def error_box(messages: list[str]) -> ft.Control:
    """What is wrong, said plainly, where Save is."""
    if not messages:
        return ft.Container()
    return ft.Container(
        bgcolor=ft.Colors.ERROR_CONTAINER,
        border_radius=8,
        padding=10,
        content=ft.Column(
            spacing=4,
            controls=[
                ft.Text(m, color=ft.Colors.ON_ERROR_CONTAINER) for m in dict.fromkeys(messages)
            ],
        ),
    )


def color_dot(color: str, size: int = 14, ring: str | None = None) -> ft.Control:
    """A player's colour beside their name (the name says who; the dot only helps the eye
    find them in the chart, the sheet and the lists). Not spoken. `ring`: a line around it,
    where it sits on a fill of its own (a chosen chip's)."""
    return ft.Container(
        width=size,
        height=size,
        bgcolor=color,
        border_radius=size / 2,
        border=ft.Border.all(2, ring) if ring else None,
    )


def color_chip(
    label: ft.Text,
    selected: bool,
    color: str,
    on_click: ft.ControlEventHandler[ft.Chip],
) -> ft.Control:
    """A chip that names a player (or a colour) with the colour's dot in front; chosen, the
    chip is filled with the theme's primary colour and the dot ringed in the colour drawn on
    it (a dot alone on that fill: 1.1:1 to 1.7:1)."""
    ring = ft.Colors.ON_PRIMARY if selected else None
    dot = color_dot(color, 18, ring)
    return chip(label, selected, leading=dot, show_checkmark=False, on_click=on_click)


def info_box(
    content: list[ft.Control], color: str = ft.Colors.SECONDARY_CONTAINER, spacing: int = 6
) -> ft.Container:
    return ft.Container(
        bgcolor=color,
        border_radius=12,
        padding=12,
        content=ft.Column(spacing=spacing, controls=content),
    )


def back_bar(
    title: str,
    on_back: Callable[[], object],
    t: Translator,
    actions: list[ft.Control] | None = None,
) -> ft.AppBar:
    return ft.AppBar(
        leading=icon_button(ft.Icons.ARROW_BACK, t("Back"), lambda: on_back()),
        title=ft.Text(title),
        actions=actions or [],
    )


def problem_line(problems: list[str]) -> ft.Control:
    """Problems in one line of their own (a pile's under its name, a quick entry's above its
    pad), two lines at most: the rest is said on Save."""
    return ft.Row(
        spacing=6,
        controls=[
            ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=20),
            ft.Text(
                " ".join(problem[:1].upper() + problem[1:] for problem in problems),
                color=ft.Colors.ERROR,
                size=13,
                max_lines=2,
                overflow=ft.TextOverflow.ELLIPSIS,
                expand=True,
            ),
        ],
    )


def qr_code(text: str, error: str, scale: int) -> str:
    """`text` as a QR code (error correction `error`: "l", "m"), a PNG data URI at `scale`
    pixels a module. Segno is imported here, not with the app: it brings XML, HTTP and email
    parsing with it (about 35 ms of every start, the static site's on a phone included), and
    only sharing a table or a game's play draws a code."""
    import segno

    return str(segno.make(text, error=error).png_data_uri(scale=scale, border=2))
