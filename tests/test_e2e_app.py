"""The app around the games, in Chromium: nothing is lost on a restart; German and English."""

from __future__ import annotations

import json

import pytest
from builders import SCENARIOS
from conftest import open_on_phone
from playwright.sync_api import BrowserContext, Page
from ui import EN, enter_deal, shown, start_game, tap_starting

import scoring
from tools.browser import AppServer, tap

pytestmark = pytest.mark.e2e


def test_the_game_survives_a_restart_and_reopens_where_the_table_was(
    phone: BrowserContext, app: AppServer, page: Page
) -> None:
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [p["name"] for p in record["players"]]
    start_game(page, "Black Spy", names)
    tap(page, "Start Black Spy")
    enter_deal(page, 1, names, record["rounds"][0])
    page.goto("about:blank")  # this device leaves the app (put away after the test)
    app.stop()
    app.start()  # a new server process on the same data folder
    reopened = open_on_phone(phone, app)  # as a new device: nothing of the page's is left
    first = scoring.standings({**record, "rounds": record["rounds"][:1]})
    for name, total in first["totals"].items():
        shown(reopened, f"{name}: total {EN.number(total)}")  # straight back to the sheet
    tap(reopened, "Back")
    tap_starting(reopened, "Black Spy · Anna, Ben, Carla, Dirk")  # on the home screen too
    shown(reopened, "Deal 2: Ben deals 15 cards each")


def test_the_language_can_be_switched(phone: BrowserContext, app: AppServer, page: Page) -> None:
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
    again = open_on_phone(phone, app)  # another tab, as a new device
    shown(again, "Laufende Spiele")
    tap(again, "Einstellungen")
    tap(again, "English")
    shown(again, "Settings")
