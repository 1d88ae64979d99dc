"""Readable at a dim table: every text and control colour on every background it is drawn on
meets WCAG 2.1 AA, in the light and the dark theme (views/theme.py lists where each is drawn)."""

from __future__ import annotations

import pytest

from views.theme import CONTROL, DARK, LIGHT, LINE_COLORS, PAIRS, Palette, theme


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


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_chart_line_stands_out_from_the_surface(palette: Palette) -> None:
    for colour in LINE_COLORS:
        assert contrast(colour, palette["surface"]) >= CONTROL, colour


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_the_palette_makes_a_theme(palette: Palette) -> None:
    assert theme(palette).color_scheme is not None  # every name is one of Flet's colour roles
