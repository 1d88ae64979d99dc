"""Disabled is not unreadable: a chip that cannot be tapped (the counts of a pile filled in
automatically, which still say what the pile holds) and a button that cannot be tapped yet
are drawn at WCAG AA contrast, measured from the colours Chromium renders, in the dark and the
light theme."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page
from test_contrast import contrast
from ui import OnPhone, choose_form, seat_table, tap_starting

from storage import Store
from tools.browser import settled, tap

pytestmark = pytest.mark.e2e

AA_TEXT = 4.5


def rendered_contrast(page: Page, name: str, role: str = "checkbox") -> float:
    """The contrast of a control's label on its own background, as drawn: the background is
    the colour most of the control's inside has, the label the pixel that differs from it
    most."""
    control = page.get_by_role(role, name=name, exact=True).first  # type: ignore[arg-type]
    box = control.bounding_box()
    assert box is not None
    inside = {  # the middle of the chip, clear of its border
        "x": box["x"] + box["width"] * 0.25,
        "y": box["y"] + box["height"] * 0.25,
        "width": box["width"] * 0.5,
        "height": box["height"] * 0.5,
    }
    pixels = Image.open(io.BytesIO(page.screenshot(clip=inside))).convert("RGB")
    colours = pixels.getcolors(pixels.width * pixels.height) or []
    background = max(colours)[1]
    hex_of = "#{:02X}{:02X}{:02X}".format
    return max(contrast(hex_of(*background), hex_of(*colour)) for _, colour in colours)


def test_disabled_chips_and_buttons_are_readable_in_both_themes(
    on_phone: OnPhone, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    seat_table(folder, "black-spy", ["Anna", "Ben", "Carla", "Dirk"])
    store = Store.open(folder)
    try:
        store.set_setting("theme", "dark")
    finally:
        store.close()
    _, page = on_phone(folder)
    tap(page, "Enter deal 1")
    choose_form(page, "Cards")
    tap(page, "Fill Anna automatically")  # her counts: what the others leave, not tappable
    for theme in ("dark", "light"):
        if theme == "light":
            tap(page, "Back")  # the game's sheet, the deal kept as a draft
            tap(page, "Back")  # home
            tap(page, "Settings")
            choose_form(page, "Light")
            tap(page, "Back")
            tap_starting(page, "Black Spy · Anna, Ben, Carla, Dirk")  # the entry as it was left
        # The entry's chips shown, then still: a busy server may send the entry after the page
        # has gone quiet, and a chip measured as it appears is on its way there.
        page.get_by_role("checkbox", name="Anna: black Spies: 0", exact=True).first.wait_for()
        settled(page)  # the chips drawn as they stay, not on their way there
        chosen = rendered_contrast(page, "Anna: black Spies: 0")
        other = rendered_contrast(page, "Anna: black Spies: 3")
        assert chosen >= AA_TEXT, f"{theme}: the chosen count, disabled: {chosen:.2f}"
        assert other >= AA_TEXT, f"{theme}: a count not chosen, disabled: {other:.2f}"
    # A button that cannot be tapped yet: New game's Start before enough players are seated.
    tap(page, "Back")  # the game's sheet
    tap(page, "Back")  # home
    tap(page, "New game")
    tap_starting(page, "Black Spy")
    for theme in ("light", "dark"):
        if theme == "dark":
            tap(page, "Back")
            tap(page, "Settings")
            choose_form(page, "Dark")
            tap(page, "Back")
            tap(page, "New game")
            tap_starting(page, "Black Spy")
        settled(page)
        start = rendered_contrast(page, "Start Black Spy", role="button")
        assert start >= AA_TEXT, f"{theme}: a disabled button: {start:.2f}"
