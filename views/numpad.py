"""A big on-screen number pad: quick entry types numbers with it, never the system keyboard.

Its keys never move: every key is drawn in every state (a key that does nothing now is
disabled, not removed), so a finger that taps quickly always lands on the key it aimed at.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .i18n import Translator
from .widgets import TARGET

DIGITS = "1234567890"
MINUS, DELETE, NEXT = "minus", "delete", "next"
KEY_HEIGHT = TARGET + 8  # 56 px: a thumb at the table hits it


def number_pad(
    t: Translator,
    press: Callable[[str], None],
    minus: bool = True,
    next_label: str | None = None,
    beside_next: ft.Control | None = None,
) -> ft.Control:
    """1–9, then minus (when `minus`), 0 and delete; a "next" key under them, with
    `beside_next` (the entry's Save) in the same row, so the whole pad and Save fit on a
    phone's screen. `press` gets a digit, MINUS, DELETE or NEXT."""

    def key(face: ft.Control, value: str, enabled: bool = True) -> ft.Control:
        return ft.Container(
            ft.FilledTonalButton(
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
                    [ft.Text(next_label or t("Next"), size=18), ft.Icon(ft.Icons.ARROW_DOWNWARD)],
                    alignment=ft.MainAxisAlignment.CENTER,
                    tight=True,
                ),
                NEXT,
            ),
            *([ft.Container(beside_next, expand=True)] if beside_next is not None else []),
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
