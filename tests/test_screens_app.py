"""The app around the games, through its screens in-process (tests/screens.py): nothing is
lost on a restart (the app's store closed and opened again from the disk); German and English.
The browser keeps what needs it: a page load and a reload in Chromium (tests/test_e2e_entry.py,
tests/test_e2e_phone.py)."""

from __future__ import annotations

import dataclasses
import json

import flet as ft
from builders import SCENARIOS
from screens import Screen
from ui import (
    EN,
    enter_deal,
    open_cards_entry,
    shown,
    start_game,
    tap,
    tap_starting,
    type_text,
)

import scoring


def test_the_game_survives_a_restart_and_reopens_where_the_table_was(screen: Screen) -> None:
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [p["name"] for p in record["players"]]
    start_game(screen, "Black Spy", names)
    tap(screen, "Start Black Spy")
    enter_deal(screen, 1, names, record["rounds"][0])
    table = screen.table.restart()  # this device's tab closed; the app served again
    reopened = table.screen()  # as a new device: nothing of the tab's is left
    first = scoring.standings({**record, "rounds": record["rounds"][:1]})
    for name, total in first["totals"].items():
        shown(reopened, f"{name}: total {EN.number(total)}")  # straight back to the sheet
    tap(reopened, "Back")
    tap_starting(reopened, "Black Spy · Anna, Ben, Carla, Dirk")  # on the home screen too
    shown(reopened, "Deal 2: Ben deals 15 cards each")


def test_the_language_can_be_switched(screen: Screen) -> None:
    page = screen
    shown(page, "Games in progress")
    tap(page, "Settings")
    tap(page, "Deutsch")
    shown(page, "Einstellungen")
    tap(page, "Zurück")
    shown(page, "Laufende Spiele")
    tap(page, "Neues Spiel")
    tap_starting(page, "Kompromat")
    shown(page, "Tippe die Spieler in Sitzreihenfolge an, im Uhrzeigersinn. Kompromat: 2 Spieler.")
    page.reload()  # the choice is kept
    again = page.table.screen()  # another tab, as a new device
    shown(again, "Laufende Spiele")
    tap(again, "Einstellungen")
    tap(again, "English")
    shown(again, "Settings")


def test_screens_change_at_once_but_on_iphones(screen: Screen) -> None:
    """The page's themes (light and dark) as the app sets them: a screen opened or left is
    there at once on Android, Linux, macOS and Windows (no zoom or fade a player waits through);
    an iPhone keeps Flutter's default slide, which carries its swipe back from the left edge."""
    page = screen.page
    for theme in (page.theme, page.dark_theme):
        assert theme is not None
        transitions = theme.page_transitions
        instant = [transitions.android, transitions.linux, transitions.macos, transitions.windows]
        assert instant == [ft.PageTransitionTheme.NONE] * 4
        assert transitions.ios is None


def held_values(value: object) -> list[object]:
    """Every value in a theme, its nested settings walked down."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found: list[object] = [value]
        for field in dataclasses.fields(value):
            found += held_values(getattr(value, field.name))
        return found
    return [value]


def test_the_page_themes_hold_only_values_flutter_finds_equal_when_parsed_again(
    screen: Screen,
) -> None:
    """Flet's client parses the page's themes again whenever the page changes (a screen opened or
    left, a note shown) and keeps the last parse only if the new one compares equal. A button
    style never does: each of its values that can differ by state (a padding, colours by state)
    is parsed into a new object without equality. Flutter then animated the whole app from the
    theme to its copy for 200 ms after every screen change, drawing every screen anew on each
    frame: a visit of a game cost the browser about 460 ms of work instead of 155."""
    page = screen.page
    for theme in (page.theme, page.dark_theme):
        held = held_values(theme)
        assert not [value for value in held if isinstance(value, ft.ButtonStyle | dict)]


BUTTONS = (ft.TextButton, ft.OutlinedButton, ft.FilledButton, ft.FilledTonalButton)


def test_every_button_is_tall_and_readable_while_it_waits(screen: Screen) -> None:
    """The app's button style, on each button since the themes cannot hold it: 48 px high
    everywhere (the desktop's compact density is not theirs), and a button that cannot be tapped
    yet drawn in colours that pass AA (tests/test_e2e_contrast.py measures them drawn)."""
    page = screen
    seen: list[ft.Control] = []

    def look() -> None:
        seen.extend(n.control for n in page.nodes() if isinstance(n.control, BUTTONS))

    look()  # Home
    start_game(page, "Black Spy", ["Anna", "Ben"])
    look()  # Start waits for a third player
    type_text(page, "New player", "Carla", submit=True)
    tap(page, "Start Black Spy")
    look()
    open_cards_entry(page, "Enter deal 1")
    look()  # Save waits for the deal
    assert len(seen) >= 5 and any(button.disabled for button in seen)
    for button in seen:
        style = button.style
        assert style is not None, f"{button.__class__.__name__} {button.content!r} has no style"
        assert style.visual_density == ft.VisualDensity.STANDARD
        assert style.padding is not None
        # Both states named: where a style leaves one out, Flet fills in the primary colour on
        # the surface (a filled button drawn white, an outlined one on a panel filled in).
        states = {ft.ControlState.DISABLED, ft.ControlState.DEFAULT}
        assert isinstance(style.color, dict) and set(style.color) == states
        assert isinstance(style.bgcolor, dict) and set(style.bgcolor) == states
