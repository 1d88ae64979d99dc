"""Readable at a dim table: every text and control colour on every background it is drawn on
meets WCAG 2.1 AA, in the light and the dark theme (views/theme.py lists where each is drawn)."""

from __future__ import annotations

from itertools import combinations

import pytest
from coloraide import Color

from storage.colors import COLORS
from views.theme import (
    CONTROL,
    DARK,
    LIGHT,
    PAIRS,
    PLAYER_COLORS,
    PLAYER_PANELS,
    Palette,
    player_color,
    theme,
)


def luminance(colour: str) -> float:
    """WCAG's relative luminance of "#RRGGBB"."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_contrast_formula_gives_wcags_known_values() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # just fails AA
    assert contrast("#FFFFFF", "#FFFFFF") == pytest.approx(1)


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_text_and_control_colour_is_readable_where_it_is_drawn(palette: Palette) -> None:
    too_faint = [
        f"{fore} on {back}: {contrast(palette[fore], palette[back]):.2f} < {minimum}"
        for fore, back, minimum in PAIRS
        if contrast(palette[fore], palette[back]) < minimum
    ]
    assert too_faint == []


THEMES = [(LIGHT, False), (DARK, True)]


@pytest.mark.parametrize(("palette", "dark"), THEMES, ids=["light", "dark"])
def test_every_player_colour_stands_out_from_every_panel_it_is_drawn_on(
    palette: Palette, dark: bool
) -> None:
    too_faint = [
        f"{color} on {panel}: {contrast(player_color(color, dark), palette[panel]):.2f}"
        for color in COLORS
        for panel in PLAYER_PANELS
        if contrast(player_color(color, dark), palette[panel]) < CONTROL
    ]
    assert too_faint == []


# How far apart (CIEDE2000) any two players' colours stay, as seen with full colour vision and
# with each kind of colour blindness at its strongest (Machado, Oliveira and Fernandes 2009:
# protanopia, deuteranopia, tritanopia). About 2 is the least difference anyone notices side
# by side; 10 and more tells two small marks apart at a glance.
FAR_APART = 10
VISIONS = [None, "protan", "deutan", "tritan"]


def seen(color: str, vision: str | None) -> Color:
    shade = Color(color)
    return shade if vision is None else shade.filter(vision, method="machado")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("vision", VISIONS, ids=["full", "protan", "deutan", "tritan"])
def test_any_two_player_colours_stay_apart_for_colour_blind_eyes(
    dark: bool, vision: str | None
) -> None:
    shades = {color: seen(player_color(color, dark), vision) for color in COLORS}
    too_close = [
        f"{first} and {second}: {shades[first].delta_e(shades[second], method='2000'):.1f}"
        for first, second in combinations(COLORS, 2)
        if shades[first].delta_e(shades[second], method="2000") < FAR_APART
    ]
    assert too_close == []


def test_the_simulation_merges_what_colour_blind_eyes_cannot_tell_apart() -> None:
    """The check above can fail: red and green, far apart for full colour vision, are one
    colour to a deuteranope."""
    red, green = "#C0504D", "#8A9A3B"
    assert seen(red, None).delta_e(seen(green, None), method="2000") > 30
    assert seen(red, "deutan").delta_e(seen(green, "deutan"), method="2000") < FAR_APART


def test_every_colour_the_roster_keeps_has_a_shade_in_each_theme() -> None:
    assert set(PLAYER_COLORS) == set(COLORS)


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_the_palette_makes_a_theme(palette: Palette) -> None:
    assert theme(palette).color_scheme is not None  # every name is one of Flet's colour roles
