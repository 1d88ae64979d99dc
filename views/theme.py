"""Debrief's colours, written out rather than derived at run time, so their contrast can be
checked (tests/test_contrast.py): every text and control colour on every background it is drawn
on meets WCAG AA (4.5:1 for text, 3:1 for controls and chart lines), in light and dark.

The palette is Material 3's tonal-spot scheme from indigo (what `color_scheme_seed` made
before), so the app looks as it did; selected chips are now drawn in `primary`, apart from the
panels (`secondary_container`) they sit on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import flet as ft

from storage.colors import COLORS
from storage.store import Player

Palette = dict[str, str]

LIGHT: Final[Palette] = {
    "primary": "#515B92",
    "on_primary": "#FFFFFF",
    "primary_container": "#DEE0FF",
    "on_primary_container": "#394379",
    "secondary": "#5B5D72",
    "on_secondary": "#FFFFFF",
    "secondary_container": "#E0E1F9",
    "on_secondary_container": "#434659",
    "tertiary": "#77536D",
    "on_tertiary": "#FFFFFF",
    "tertiary_container": "#FFD7F1",
    "on_tertiary_container": "#5D3C55",
    "error": "#BA1A1A",
    "on_error": "#FFFFFF",
    "error_container": "#FFDAD6",
    "on_error_container": "#93000A",
    "surface": "#FBF8FF",
    "on_surface": "#1B1B21",
    "on_surface_variant": "#46464F",
    "surface_container_lowest": "#FFFFFF",
    "surface_container_low": "#F5F2FA",
    "surface_container": "#EFEDF4",
    "surface_container_high": "#E9E7EF",
    "surface_container_highest": "#E4E1E9",
    "outline": "#767680",
    "outline_variant": "#C7C5D0",
    "inverse_surface": "#303036",
    "on_inverse_surface": "#F2EFF7",
    "inverse_primary": "#BAC3FF",
    "shadow": "#000000",
    "scrim": "#000000",
    "surface_tint": "#515B92",
}

DARK: Final[Palette] = {
    "primary": "#BAC3FF",
    "on_primary": "#222C61",
    "primary_container": "#394379",
    "on_primary_container": "#DEE0FF",
    "secondary": "#C3C5DD",
    "on_secondary": "#2D2F42",
    "secondary_container": "#434659",
    "on_secondary_container": "#E0E1F9",
    "tertiary": "#E6BAD7",
    "on_tertiary": "#44263D",
    "tertiary_container": "#5D3C55",
    "on_tertiary_container": "#FFD7F1",
    "error": "#FFB4AB",
    "on_error": "#690005",
    "error_container": "#93000A",
    "on_error_container": "#FFDAD6",
    "surface": "#121318",
    "on_surface": "#E4E1E9",
    "on_surface_variant": "#C7C5D0",
    "surface_container_lowest": "#0D0E13",
    "surface_container_low": "#1B1B21",
    "surface_container": "#1F1F25",
    "surface_container_high": "#29292F",
    "surface_container_highest": "#34343A",
    "outline": "#9A9AA4",  # #90909A in the scheme: 2.9:1 on secondary_container
    "outline_variant": "#46464F",
    "inverse_surface": "#E4E1E9",
    "on_inverse_surface": "#303036",
    "inverse_primary": "#515B92",
    "shadow": "#000000",
    "scrim": "#000000",
    "surface_tint": "#BAC3FF",
}

# The players' colours (storage/colors.py names them), a shade for each theme: at least 3:1
# against every panel they are drawn on, and apart from each other also as eyes that see
# fewer colours see them (tests/test_contrast.py: CIEDE2000 of Machado's simulations of the
# three kinds of colour blindness). The darker shades are the light theme's.
PLAYER_COLORS: Final[dict[str, tuple[str, str]]] = {
    "blue": ("#1F2AAE", "#5C9DF6"),
    "orange": ("#944000", "#EC7C0E"),
    "green": ("#267B4C", "#3DDC84"),
    "pink": ("#C7287F", "#EC98C0"),
    "yellow": ("#857A00", "#E8CF23"),
    "sky": ("#0A80BA", "#9EE3FF"),
}
# Where the players' colours are drawn: the screens' backgrounds and their cards.
PLAYER_PANELS = (
    "surface",
    "surface_container_lowest",
    "surface_container_low",
    "surface_container",
    "surface_container_high",
    "secondary_container",
    "primary_container",  # a guest's scoreboard tile of the leader
    "tertiary_container",  # the result's card (and its picture)
)


def drawn_apart(wanted: Sequence[str | None]) -> list[str]:
    """The colour each player at a table is drawn in, in seating order: their own (None: in
    no roster, given in turn), unless a player before them has it already; then the
    palette's first colour nobody at the table has. Six players, six colours: all apart."""
    drawn: list[str] = []
    for color in wanted:
        if color is None or color in drawn:
            free = [c for c in COLORS if c not in drawn and c not in wanted]
            color = (free or [c for c in COLORS if c not in drawn] or list(COLORS))[0]
        drawn.append(color)
    return drawn


def shades_of(roster: Iterable[Player], dark: bool) -> dict[str, str]:
    """Each roster player's shade in the theme shown, by their id."""
    return {p["id"]: player_color(p["color"], dark) for p in roster}


def player_color(color: str, dark: bool) -> str:
    """The shade of a player's colour (a key of `PLAYER_COLORS`) in the theme shown."""
    light_shade, dark_shade = PLAYER_COLORS.get(color, PLAYER_COLORS["blue"])
    return dark_shade if dark else light_shade


# Where each text and control colour is drawn (foreground, background, minimum contrast).
PANELS = ("surface", "surface_container_low", "secondary_container")
TEXT = 4.5
CONTROL = 3.0
PAIRS: Final[list[tuple[str, str, float]]] = [
    *[
        (text, panel, TEXT)
        for text in ("on_surface", "on_surface_variant", "error", "primary")
        for panel in PANELS
    ],
    ("on_secondary_container", "secondary_container", TEXT),
    ("on_primary", "primary", TEXT),  # filled buttons, selected chips
    ("on_primary_container", "primary_container", TEXT),
    ("on_tertiary_container", "tertiary_container", TEXT),
    ("on_error_container", "error_container", TEXT),
    ("on_surface", "surface_container_highest", TEXT),
    ("on_inverse_surface", "inverse_surface", TEXT),  # the note bar at the bottom
    ("inverse_primary", "inverse_surface", TEXT),
    *[(control, panel, CONTROL) for control in ("outline", "primary", "error") for panel in PANELS],
    ("primary", "secondary_container", CONTROL),  # a selected chip on its panel
]


# A screen opened or left is there at once: no zoom or fade that a player waits through (on a
# 2-core machine the zoom also drew 18 frames that competed with the next tap). iPhones keep
# their slide: it carries the swipe from the left edge that goes back there.
INSTANT_SCREENS = ft.PageTransitionsTheme(
    android=ft.PageTransitionTheme.NONE,
    linux=ft.PageTransitionTheme.NONE,
    macos=ft.PageTransitionTheme.NONE,
    windows=ft.PageTransitionTheme.NONE,
)


def theme(palette: Palette) -> ft.Theme:
    """The app's theme: these colours, and screens that change at once. It holds nothing Flet's
    client parses into a value that compares unequal to its last parse (a button style: see
    views/buttons.py), or Flutter animates the whole app from the theme to its copy after every
    change to the page. The whole theme's density stays as Flutter chooses: set to standard, a
    desktop browser's text field sometimes lost the keyboard after Enter (1 start in 8; none in
    10 without it)."""
    return ft.Theme(color_scheme=ft.ColorScheme(**palette), page_transitions=INSTANT_SCREENS)
