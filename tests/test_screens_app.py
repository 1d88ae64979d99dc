"""The app around the games, through its screens in-process (tests/screens.py): nothing is
lost on a restart (the app's store closed and opened again from the disk); German and English.
The browser keeps what needs it: a page load and a reload in Chromium (tests/test_e2e_entry.py,
tests/test_e2e_phone.py)."""

from __future__ import annotations

import json

import flet as ft
from builders import SCENARIOS
from screens import Screen
from ui import EN, enter_deal, shown, start_game, tap, tap_starting

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
