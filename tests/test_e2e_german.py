"""German fits a phone: on every screen at 400 px, no word is wider than the box it is drawn in
(Flutter breaks such a word in the middle: "Summ/e", "Schwa/rz").

Flutter draws text on a canvas, so the words are measured the way it draws them: in Roboto, the
app's font, loaded from the app's own server, bold (the wider cut), at 14 px (body text) or
12 px (small print).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from damaged import games_in_progress, scenario
from playwright.sync_api import Page
from ui import OnPhone, shown

from storage import Store
from tools.browser import tap
from views.i18n import Translator

pytestmark = pytest.mark.e2e

DE = Translator("de")
WORDS_WIDER_THAN_THEIR_BOX = r"""async () => {
    if (!window.__roboto) {
        const roboto = new FontFace("TestRoboto", "url(/assets/fonts/roboto.woff2)");
        document.fonts.add(await roboto.load());
        window.__roboto = true;
    }
    const context = document.createElement("canvas").getContext("2d");
    let size = 14;
    const measure = text => {
        context.font = `bold ${size}px TestRoboto`;
        return context.measureText(text).width;
    };
    const found = [];
    for (const node of document.querySelectorAll("flt-semantics")) {
        // A text of its own (a control's name may be other than what it shows).
        if (node.hasAttribute("role") || node.hasAttribute("flt-tappable")) continue;
        if (node.querySelector("flt-semantics")) continue;
        const text = node.getAttribute("aria-label") || node.textContent;
        const box = node.getBoundingClientRect();
        if (!text.trim() || box.width === 0) continue;
        // A spoken name longer than what the box shows ("Anna: total 63" on "63") is not
        // what is drawn: it would need more lines than the box has.
        size = box.height < 18 ? 12 : 14;  // a line of small print is 16 px high, of body 20
        const lines = Math.max(1, Math.round(box.height / 20));
        if (measure(text.replace(/\s+/g, " ")) > lines * box.width * 1.25) continue;
        for (const word of text.split(/\s+/)) {
            if (measure(word) > box.width + 0.5) {
                found.push(`${word} (${Math.round(measure(word))} px in ${Math.round(box.width)})`);
            }
        }
    }
    return found;
}"""


class Survey:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.broken: list[str] = []

    def look(self, screen: str) -> None:
        found: list[Any] = self.page.evaluate(WORDS_WIDER_THAN_THEIR_BOX)
        self.broken += [f"{screen}: {word}" for word in found]


ENDED = "2026-11-01T21:12:00+01:00"  # 1 h 12 min after the scenarios' start (tests/damaged.py)


def open_game(page: Page, title: str) -> None:
    target = page.get_by_role("button", name=re.compile(rf"^{re.escape(title)} · ")).first
    target.click()
    page.get_by_role("button", name=DE("Back"), exact=True).first.wait_for()


def test_no_german_word_is_broken_on_any_screen(on_phone: OnPhone, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    games_in_progress(folder, "de")
    finished = scenario("kompromat-short-final-round-cards", "kompromat-over", ENDED)
    store = Store.open(folder)
    try:
        store.add_games([finished])  # in the history: its page shows the result
    finally:
        store.close()
    _, page = on_phone(folder)
    # Tall enough that no screen scrolls (a box scrolled half out of view is clipped).
    page.set_viewport_size({"width": 400, "height": 3000})
    survey = Survey(page)
    shown(page, DE("Games in progress"))
    survey.look("Start")
    open_game(page, "Black Spy")
    survey.look("Black Spy")
    tap(page, DE("Enter deal {number}", number=4))
    survey.look("Black Spy, Runde eintragen")
    tap(page, DE("Discard"))
    tap(page, DE("Back"))
    open_game(page, "Kompromat")
    survey.look("Kompromat")
    page.get_by_role("button", name=re.compile(r"^Runde 2 von 6 eintragen")).first.click()
    shown(page, DE("Mission card"))
    survey.look("Kompromat, Runde eintragen")
    tap(page, DE("Discard"))
    tap(page, DE("Back"))
    for title in ("SPY", "Spywhere"):
        open_game(page, title)
        survey.look(title)
        tap(page, DE("Back"))
    tap(page, DE("New game"))
    survey.look("Neues Spiel")
    tap(page, DE("Back"))
    for screen in ("History", "Players", "Settings"):
        tap(page, DE(screen))
        survey.look(DE(screen))
        if screen == "History":
            open_game(page, "Kompromat")
            shown(page, DE("Played in {duration}", duration="1 Std. 12 Min."))
            shown(page, DE("{name} reached 9 tokens and lost at once.", name="Anna"))  # why
            survey.look("Kompromat, Ergebnis")
            tap(page, DE("Back"))
        tap(page, DE("Back"))
    assert survey.broken == [], "\n".join(survey.broken)
