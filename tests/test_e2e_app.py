"""The app around the games, in Chromium: nothing is lost on a restart; German and English."""

from __future__ import annotations

import json

import pytest
from builders import SCENARIOS
from playwright.sync_api import Browser, Page
from ui import EN, enter_deal, shown, start_game, tap_starting

import scoring
from tools.browser import AppServer, open_app, tap

pytestmark = pytest.mark.e2e


def test_the_game_survives_a_restart_and_reopens_where_the_table_was(
    browser: Browser, app: AppServer, page: Page
) -> None:
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [p["name"] for p in record["players"]]
    start_game(page, "Black Spy", names)
    tap(page, "Start Black Spy")
    enter_deal(page, 1, names, record["rounds"][0])
    page.close()
    app.stop()
    app.start()  # a new server process on the same data folder
    reopened = open_app(browser, app.url)
    try:
        first = scoring.standings({**record, "rounds": record["rounds"][:1]})
        for name, total in first["totals"].items():
            shown(reopened, f"{name}: total {EN.number(total)}")  # straight back to the sheet
        tap(reopened, "Back")
        tap_starting(reopened, "Black Spy · Anna, Ben, Carla, Dirk")  # on the home screen too
        shown(reopened, "Deal 2: Ben deals 15 cards each")
    finally:
        reopened.close()


def test_the_language_can_be_switched(browser: Browser, app: AppServer, page: Page) -> None:
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
    again = open_app(browser, app.url)
    try:
        shown(again, "Laufende Spiele")
        tap(again, "Einstellungen")
        tap(again, "English")
        shown(again, "Settings")
    finally:
        again.close()
