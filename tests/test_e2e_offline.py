"""Fully offline: a whole game asks nothing of any other host, and nothing it asks is missing.

Every request of the page is recorded from its first load (the app, Flutter's runtime, its
fonts, the fallback font Flutter fetches for a glyph Roboto lacks such as the Mole draft's "→")
to the winner's line.

The game is also Black Spy's whole game in the card entry: the totals after the scenario's
deals, the next deal's dealer and cards, the ending deal, the final totals and the winner, each
as `scoring` says (it was played a second time for these in tests/test_e2e_games.py).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from builders import BASIC_ENDING, SCENARIOS
from playwright.sync_api import Browser
from traffic import Traffic
from ui import EN, chip, enter_deal, shown, start_game

import scoring
from tools.browser import AppServer, open_app, tap

pytestmark = pytest.mark.e2e


@pytest.mark.long
def test_a_whole_game_asks_no_other_host_and_finds_every_file(
    browser: Browser, app: AppServer
) -> None:
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    record["options"]["variants"] = ["mole"]
    names = [player["name"] for player in record["players"]]
    ending = BASIC_ENDING

    context = browser.new_context(viewport={"width": 400, "height": 800})
    traffic = Traffic().watch(context)
    page = open_app(context, app.url)
    try:
        start_game(page, "Black Spy", names)
        chip(page, "The Mole")
        tap(page, "Start Black Spy")
        for number, deal in enumerate(record["rounds"], start=1):
            enter_deal(page, number, names, deal)
        so_far = scoring.standings(record)
        for name, total in so_far["totals"].items():
            shown(page, f"{name}: total {EN.number(total)}")
        after = so_far["next_deal"]
        shown(
            page,
            EN(
                "Deal {number}: {dealer} deals {cards} cards each",
                number=after["number"],
                dealer=after["dealer"],
                cards=after["cards_each"],
            ),
        )
        draft = EN.plural(
            "The Mole: {count} card set aside first. Draft: {order}",
            "The Mole: {count} cards set aside first. Draft: {order}",
            after["mole_cards"],
            order=" → ".join(after["mole_draft_order"]),
        )
        shown(page, draft)
        enter_deal(page, 4, names, ending)
        final = scoring.standings({**record, "rounds": [*record["rounds"], ending]})
        assert final["finished"]
        for name, total in final["totals"].items():
            shown(page, f"{name}: total {EN.number(total)}")
        shown(page, EN("Game over: {names} won!", names=" & ".join(final["winners"])))
    finally:
        context.close()

    host = urlsplit(app.url).netloc
    assert traffic.requested, "no request was recorded"
    assert traffic.elsewhere(host) == []
    assert traffic.refused == []
    assert traffic.failed == []
