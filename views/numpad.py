"""A big on-screen number pad: quick entry types numbers with it, never the system keyboard.

Its keys never move: every key is drawn in every state (a key that does nothing now is
disabled, not removed), so a finger that taps quickly always lands on the key it aimed at.

A pad moves on to the next pile by itself once no digit could follow what was typed; a Next
tapped right after that keeps the pad where it moved to. A table types "15, Next, 20, Next" out
of habit: the Next after 15 skipped a pile, and 20 went on the pile after it (the last pile
filled itself in, so the deal still added up and nothing warned). Such a Next confirms the pile
just typed; a Next of its own still moves on (a pile left for later).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from . import buttons
from .hooks import memo
from .i18n import Translator
from .safe import safe_effect, scrolled
from .widgets import TARGET, body

DIGITS = "1234567890"
MINUS, DELETE, NEXT = "minus", "delete", "next"
KEY_HEIGHT = TARGET + 8  # 56 px: a thumb at the table hits it


def number_pad(
    t: Translator,
    press: Callable[[str], None],
    next_label: str,
    save_label: str,
    save: Callable[[], None],
    minus: bool = True,
    problem: ft.Control | None = None,
) -> list[ft.Control]:
    """One line for the entry's `problem`, always there (a problem that comes never pushes a
    key under a finger); 1–9, then minus (when `minus`), 0 and delete; a "next" key under them
    with Save beside it, so the whole pad and Save fit on a phone's screen. `press` gets a
    digit, MINUS, DELETE or NEXT. `press` and `save` should be the same functions at every
    drawing (`hooks.use_latest`): the keys are then drawn once, not at every key."""
    problem_row = ft.Container(problem, height=40, alignment=ft.Alignment.CENTER_LEFT)
    return [problem_row, PadKeys(t, press, next_label, save_label, save, minus)]


@memo
@ft.component
def PadKeys(
    t: Translator,
    press: Callable[[str], None],
    next_label: str,
    save_label: str,
    save: Callable[[], None],
    minus: bool,
) -> ft.Control:
    """The pad's keys (see `number_pad`)."""

    def key(face: ft.Control, value: str, enabled: bool = True) -> ft.Control:
        return ft.Container(
            buttons.FilledTonalButton(
                content=face,
                height=KEY_HEIGHT,
                disabled=not enabled,
                on_click=lambda: press(value),
            ),
            expand=True,
        )

    def digit(d: str) -> ft.Control:
        return key(ft.Text(d, size=24), d)

    rows = [
        [digit(d) for d in DIGITS[0:3]],
        [digit(d) for d in DIGITS[3:6]],
        [digit(d) for d in DIGITS[6:9]],
        [
            key(ft.Text("−", size=24, semantics_label=t("Minus")), MINUS, minus),
            digit("0"),
            key(ft.Icon(ft.Icons.BACKSPACE_OUTLINED, semantics_label=t("Delete a digit")), DELETE),
        ],
        [
            key(
                ft.Row(
                    [ft.Text(next_label, size=18), ft.Icon(ft.Icons.ARROW_DOWNWARD)],
                    alignment=ft.MainAxisAlignment.CENTER,
                    tight=True,
                ),
                NEXT,
            ),
            ft.Container(
                buttons.FilledButton(
                    save_label, icon=ft.Icons.SAVE, height=KEY_HEIGHT, on_click=lambda: save()
                ),
                expand=True,
            ),
        ],
    ]
    return ft.Column([ft.Row(r, spacing=8) for r in rows], spacing=8)


def pad_field(face: ft.Control, label: str, active: bool, choose: Callable[[], None]) -> ft.Control:
    """What the pad types into (a pile, a player's own cards): `face` in a box that stands out
    while the pad types there; a tap chooses it. Screen readers hear `label`, one button."""
    box = ft.Container(
        ft.Semantics(content=face, exclude_semantics=True),  # the label says it all
        height=KEY_HEIGHT,
        padding=ft.Padding.symmetric(horizontal=10),
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if active else None,
        border=ft.Border.all(
            2 if active else 1, ft.Colors.PRIMARY if active else ft.Colors.OUTLINE_VARIANT
        ),
        on_click=lambda: choose(),
        ink=True,
    )
    return ft.Semantics(content=box, label=label, button=True, container=True, expand=True)


def pad_row_key(name: str) -> ft.ScrollKey:
    """The key of the row the pad types into for `name` (PinnedPad scrolls to it)."""
    # Flet's keys are dataclasses made by a decorator that mypy does not follow.
    return ft.ScrollKey(f"pad-row-{name}")  # type: ignore[call-arg]


@ft.component
def PinnedPad(
    rows: list[ft.Control], pad: list[ft.Control], names: list[str], active: str | None
) -> ft.Control:
    """An entry typed on the number pad, filling the screen: its rows scroll over the pad,
    which stays at the bottom like a phone's keyboard, so every key (and Save beside Next)
    is in reach whatever the number of players (below the rows it left the screen with six
    Black Spy piles or four Spywhere players). When the pad moves on, the rows scroll so the
    one it types into (`active`) is the second in view, under the one just typed; at the
    first player's row they are at their top (the title and the form's switch in view)."""
    scroller: ft.MutableRef[ft.Column | None] = ft.use_ref(None)

    def show_active() -> None:
        column = scroller.current
        if active is None or active not in names or column is None:
            return
        index = names.index(active)
        page = ft.context.page
        if index == 0:
            page.run_task(scrolled, column, offset=0, duration=150)
        else:
            above = pad_row_key(names[index - 1]).value
            page.run_task(scrolled, column, scroll_key=above, duration=150)

    ft.use_effect(safe_effect(show_active), [active])
    rows_area = ft.Column(
        [body(rows)], scroll=ft.ScrollMode.AUTO, expand=True, key="entry", ref=scroller
    )
    return ft.Column([rows_area, body(pad, spacing=8)], expand=True, spacing=8)
