"""The app's buttons: Flet's text, outlined, filled and tonal buttons, each with the app's style.

Each `style` makes a button a finger can hit everywhere, in the standard density (not a
desktop's compact one): Material 3's buttons are 40 px high, and 14 px above and below their
20 px of text make 48. A button that cannot be tapped yet stays readable: Material draws its
text at 38 % (2.3:1); here in colours the theme pairs at AA (views/theme.py's PAIRS), on a fill
that says it waits.

The style goes on each button, not into the page's theme. Flet's client parses the page's
themes again at every change to the page (each screen opened or left) and keeps the last parse
only if the new one compares equal, which a button style never does: each of its values that
can differ by state is parsed into a new object without equality. Flutter then animated the
whole app from the theme to its copy for 200 ms, every screen drawn anew on each frame: a visit
of a game (opened, then Back) cost the browser's main thread about 460 ms of work, and 155 ms
with the styles here (`bench/open_ab.py`'s `browser_work`)."""

from __future__ import annotations

from functools import partial

import flet as ft

WAITING = ft.ControlState.DISABLED
NORMAL = ft.ControlState.DEFAULT
TALL = ft.Padding.symmetric(horizontal=16, vertical=14)


def style(text: ft.Colors, fill: ft.Colors, padding: ft.Padding = TALL) -> ft.ButtonStyle:
    """A button's style: `text` on `fill` while it can be tapped (Material's own colours for
    its kind: Flet fills in its own for every state a button's style leaves out, the primary
    colour on the surface, so each is named), and the waiting colours while it cannot."""
    return ft.ButtonStyle(
        padding=padding,
        visual_density=ft.VisualDensity.STANDARD,
        color={WAITING: ft.Colors.ON_SURFACE_VARIANT, NORMAL: text},
        icon_color={WAITING: ft.Colors.ON_SURFACE_VARIANT, NORMAL: text},
        bgcolor={WAITING: ft.Colors.SURFACE_CONTAINER_HIGHEST, NORMAL: fill},
    )


PLAIN = style(ft.Colors.PRIMARY, ft.Colors.TRANSPARENT)  # text and outlined buttons
FILLED = style(ft.Colors.ON_PRIMARY, ft.Colors.PRIMARY)
TONAL = style(ft.Colors.ON_SECONDARY_CONTAINER, ft.Colors.SECONDARY_CONTAINER)
ON_NOTE = style(ft.Colors.INVERSE_PRIMARY, ft.Colors.TRANSPARENT)  # on a note's bar

TextButton = partial(ft.TextButton, style=PLAIN)
OutlinedButton = partial(ft.OutlinedButton, style=PLAIN)
# Flet gives a filled button's style its `elevation` (1 unless told): Material's is 0.
FilledButton = partial(ft.FilledButton, style=FILLED, elevation=0)
FilledTonalButton = partial(ft.FilledTonalButton, style=TONAL, elevation=0)
# A note's own button (its Undo): a snack bar's action is 36 px high and cannot be made
# taller, so the note holds a button of the app's height in its content instead.
NoteButton = partial(ft.TextButton, style=ON_NOTE)
