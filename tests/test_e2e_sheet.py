"""Black Spy's scoresheet on a phone: six players with long names fit 400 px, every
total and name readable and apart; German words stay whole. (That a long game shows its last
deals, the earlier ones a tap away and each still correctable is the app's, not the browser's:
tests/test_screens_sheet.py.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from generators import black_spy_deal
from playwright.sync_api import Page
from test_e2e_german import WORDS_WIDER_THAN_THEIR_BOX
from ui import EN, OnPhone, seat_table, shown

import scoring
from scoring import black_spy
from storage import Store
from views.games.black_spy import LATEST_DEALS, short_names
from views.i18n import Translator

pytestmark = pytest.mark.e2e

NAMES = ["Maximilian", "Anna", "Alexandra", "Christopher", "Ben", "Katharina"]
DE = Translator("de")


def going_back_game(
    names: list[str], deals: int, end: int, seed: int
) -> tuple[list[dict[str, Any]], scoring.Replay]:
    """`deals` generated deals of a Going Back game to `end` that does not end, with a halving
    wherever one of a few tries makes one; and the game played through."""
    rng = random.Random(seed)
    options = {"first_dealer": names[0], "variants": ["going-back"], "end_value": end}
    game = {
        "format": "game-record/1",
        "game": "black-spy",
        "players": [{"name": name} for name in names],
        "options": {**options, "halves": "exact"},
        "rounds": [],
    }
    rounds: list[dict[str, Any]] = []
    while len(rounds) < deals:
        chosen = None
        for _ in range(40):
            deal = black_spy_deal(rng, names, False, 0.05)
            replay = scoring.replay({**game, "rounds": [*rounds, deal]})
            if replay.finished:
                continue
            state = scoring.state_as(replay, black_spy.State)
            chosen = chosen or deal
            if state.deals[-1].halved:
                chosen = deal
                break
        assert chosen is not None
        rounds.append(chosen)
    return rounds, scoring.replay({**game, "rounds": rounds})


def seated(folder: Path, rounds: list[dict[str, Any]], end: int, language: str = "en") -> None:
    options = {"first_dealer": NAMES[0], "variants": ["going-back"], "end_value": end}
    seat_table(folder, "black-spy", NAMES, options, rounds)
    store = Store.open(folder)
    try:
        store.set_setting("language", language)
    finally:
        store.close()


# For each [spoken label, text drawn, size]: the box of the one node that speaks the label
# (null if none or more than one are drawn), and the width of the text in bold Roboto.
BOXES_AND_WIDTHS = r"""async (wanted) => {
    if (!window.__roboto) {
        const roboto = new FontFace("TestRoboto", "url(/assets/fonts/roboto.woff2)");
        document.fonts.add(await roboto.load());
        window.__roboto = true;
    }
    const context = document.createElement("canvas").getContext("2d");
    return wanted.map(([label, text, size]) => {
        const nodes = [...document.querySelectorAll("flt-semantics")].filter(e =>
            !e.querySelector("flt-semantics")
            && (e.getAttribute("aria-label") || e.textContent.trim()) === label
            && e.getBoundingClientRect().width > 0);
        context.font = `bold ${size}px TestRoboto`;
        const width = context.measureText(text).width;
        if (nodes.length !== 1) return {label, count: nodes.length, width};
        const box = nodes[0].getBoundingClientRect();
        return {label, count: 1, width, box: [box.left, box.top, box.right, box.bottom]};
    });
}"""


def readable(page: Page, wanted: list[tuple[str, str, int]]) -> list[list[float]]:
    """Each label's node: drawn once, inside the screen, wide enough for its text (so not cut
    by an ellipsis), apart from the others. Returns the boxes."""
    found = page.evaluate(BOXES_AND_WIDTHS, [list(w) for w in wanted])
    boxes = []
    for item in found:
        assert item["count"] == 1, f"{item['label']!r} is drawn {item['count']} times"
        left, _, right, _ = item["box"]
        assert left >= 0 and right <= 400, f"{item['label']!r} is not wholly on the screen"
        assert item["width"] <= right - left + 1, f"{item['label']!r} is cut: {item}"
        boxes.append(item["box"])
    for i, first in enumerate(boxes):
        for second in boxes[i + 1 :]:
            apart = first[2] <= second[0] or second[2] <= first[0]
            assert apart or first[3] <= second[1] or second[3] <= first[1], (first, second)
    return boxes


def test_six_long_names_fit_a_phone_each_total_readable(on_phone: OnPhone, tmp_path: Path) -> None:
    """At 400 px each column heads with as much of its name as fits (the whole name spoken)
    and shows its total whole; no two overlap; no word of the sheet is cut."""
    rounds, replay = going_back_game(NAMES, 12, 140, seed=6)
    sheet = black_spy.RULES.sheet(scoring.state_as(replay, black_spy.State), ())
    assert any(deal.halved_to for deal in sheet.deals[-LATEST_DEALS:])  # a halving is shown
    folder = tmp_path / "data"
    seated(folder, rounds, 140)
    _, page = on_phone(folder)
    # Tall enough to hold the whole sheet: nothing is scrolled out of view.
    page.set_viewport_size({"width": 400, "height": 2000})
    totals = replay.totals
    short = short_names(tuple(NAMES), 6)
    assert short != tuple(NAMES)  # the names are cut on a phone
    shown(page, EN("{name}: total {total}", name=NAMES[0], total=EN.number(totals[NAMES[0]])))
    heads = readable(page, [(name, text, 13) for name, text in zip(NAMES, short, strict=True)])
    numbers = {name: EN.number(totals[name]) for name in NAMES}
    spoken = [EN("{name}: total {total}", name=n, total=numbers[n]) for n in NAMES]
    sums = readable(page, [(label, numbers[n], 14) for label, n in zip(spoken, NAMES, strict=True)])
    for head, total in zip(heads, sums, strict=True):  # each total under its own name
        assert head[0] < (total[0] + total[2]) / 2 < head[2] + 4
    assert page.get_by_role("button", name=earlier(12 - LATEST_DEALS)).count() == 1
    assert words_cut(page) == []


def earlier(count: int) -> str:
    """The button that shows the deals before the last ones."""
    return EN.plural("{count} earlier deal", "{count} earlier deals", count)


def words_cut(page: Page) -> list[str]:
    """The words the sheet draws wider than their box (`WORDS_WIDER_THAN_THEIR_BOX`), but for
    the names a column speaks whole and draws cut ("Alexandra" on "Alexa…", seen above)."""
    short = short_names(tuple(NAMES), 6)
    cut = {name for name, text in zip(NAMES, short, strict=True) if text != name}
    found: list[str] = page.evaluate(WORDS_WIDER_THAN_THEIR_BOX)
    return [word for word in found if word.split(" (")[0] not in cut]


def test_a_german_sheet_of_six_breaks_no_word(on_phone: OnPhone, tmp_path: Path) -> None:
    rounds, _ = going_back_game(NAMES, 10, 140, seed=7)
    folder = tmp_path / "data"
    seated(folder, rounds, 140, "de")
    _, page = on_phone(folder)
    page.set_viewport_size({"width": 400, "height": 2000})
    shown(page, DE("Scoresheet"))
    assert words_cut(page) == []
