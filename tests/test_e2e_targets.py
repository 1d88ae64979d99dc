"""Every screen, in a new browser: made for fingers, and fully offline.

- Everything a player can tap is at least 48×48 px, measured from Flutter's accessibility tree,
  on every screen, in a desktop browser (whose user agent gets Flutter's compact sizes; a
  phone's gets the 48 px padding by itself).
- The page asks nothing of any other host, and nothing it asks is missing: every request is
  recorded from its first load in a device with nothing cached (the app, Flutter's runtime, its
  fonts, the fallback font Flutter fetches for a glyph Roboto lacks such as the Mole draft's
  "→") to the last screen. (A game's rules through these screens are the screen tests'.)"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page
from traffic import Traffic
from ui import (
    chip,
    enter_deal,
    enter_spy_event,
    open_cards_entry,
    open_round_with_cards,
    start_game,
    tap_starting,
)

from tools.browser import AppServer, open_app, see, tap

pytestmark = pytest.mark.e2e

SMALLEST = 48
TAPPABLE_ROLES = ("button", "checkbox", "radio", "switch", "slider", "textbox", "tab", "link")
SMALL_TARGETS = """([smallest, roles]) => [...document.querySelectorAll('flt-semantics')]
    .filter(node => node.hasAttribute('flt-tappable') || roles.includes(node.getAttribute('role')))
    .map(node => {
        const box = node.getBoundingClientRect();
        return {name: node.getAttribute('aria-label') || node.textContent.trim().slice(0, 40),
                width: Math.round(box.width), height: Math.round(box.height)};
    })
    .filter(target => target.width > 0 && (target.width < smallest || target.height < smallest))
"""


class Survey:
    """The targets smaller than a finger, screen by screen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.small: list[str] = []

    def look(self, screen: str) -> None:
        found: list[dict[str, Any]] = self.page.evaluate(
            SMALL_TARGETS, [SMALLEST, list(TAPPABLE_ROLES)]
        )
        self.small += [f"{screen}: {t['name']} {t['width']}×{t['height']}" for t in found]


# A phone's width, and tall enough that no screen scrolls: Flutter clips a target that is
# scrolled half out of view, and half a target is not what is measured here.
TALL_PHONE = {"width": 400, "height": 3000}


@pytest.mark.long
def test_every_screen_has_targets_of_48_px_and_asks_nothing_of_another_host(
    browser: Browser, app: AppServer
) -> None:
    context = browser.new_context(viewport=TALL_PHONE)  # nothing cached: every request seen
    traffic = Traffic().watch(context)
    try:
        every_screen_surveyed(open_app(context, app.url, size=TALL_PHONE))
    finally:
        context.close()
    assert traffic.requested, "no request was recorded"
    assert traffic.elsewhere(urlsplit(app.url).netloc) == []
    assert traffic.refused == []
    assert traffic.failed == []


def every_screen_surveyed(page: Page) -> None:
    """Every screen of the app visited; none has a target smaller than a finger."""
    survey = Survey(page)
    survey.look("home")
    names = ["Anna", "Ben", "Carla"]
    start_game(page, "Black Spy", names)
    chip(page, "Going Back")
    chip(page, "The Mole")
    survey.look("new Black Spy game")
    tap(page, "Start Black Spy")
    open_cards_entry(page, "Enter deal 1")
    survey.look("deal entry")
    tap(page, "Discard")
    pile = {"black_spies": 2, "black_low": 0, "black_high": [], "colored_spies": 0}
    enter_deal(page, 1, names, {"cards": {name: pile for name in names}})
    survey.look("Black Spy sheet")
    see(page, " → ")  # the Mole's draft: a glyph from Flutter's fallback font
    tap(page, "Share this table")
    see(page, "Start sharing")
    survey.look("Share this table")
    tap(page, "Cancel")
    tap(page, "Back")

    start_game(page, "Kompromat", ["Anna", "Ben"], known=True)
    survey.look("new Kompromat game")
    tap(page, "Start Kompromat")
    tap_starting(page, "Enter round 1 of 6")
    survey.look("Kompromat entry, quick")
    tap(page, "Discard")
    open_round_with_cards(page, 1)
    chip(page, "Mission card: Target (5 VP)")
    tap(page, "Anna plays 10")
    survey.look("Kompromat entry")
    tap(page, "Discard")
    see(page, "Round 1 discarded")
    survey.look("a note with Undo")
    tap(page, "Back")

    start_game(page, "SPY", names, known=True)
    tap(page, "Start SPY")
    enter_spy_event(page, {"by": "Anna", "base": "Ben", "event": "target"}, 1)
    survey.look("SPY table")
    tap(page, "Back")

    start_game(page, "Spywhere", names, known=True)
    survey.look("new Spywhere game")
    tap(page, "Start Spywhere")
    survey.look("Spywhere ending, quick")
    tap(page, "Cards")
    survey.look("Spywhere ending, the wizard")
    tap(page, "Back")

    for screen in ("History", "Players", "Settings"):
        tap(page, screen)
        survey.look(screen)
        if screen == "History":  # a game's own page
            tap_starting(page, "SPY · Anna, Ben, Carla")
            survey.look("a game's page")
            tap(page, "Back")
        if screen == "Players":  # a player's page
            tap_starting(page, "Anna")
            survey.look("a player's page")
            tap(page, "Back")
        tap(page, "Back")
    tap(page, "Statistics")
    survey.look("Statistics")
    tap(page, "Year in review")
    survey.look("Year in review")
    tap(page, "Back")
    tap(page, "Back")
    assert survey.small == [], "\n".join(survey.small)
