"""Black Spy's scoresheet as the screen builds it: the controls of the last deals
only, whatever the game's length; the same arguments for the same game revision (so the
memoized sheet is not drawn again); names that fit a phone's narrow columns."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import flet as ft
from flet.components.component import Component, Renderer
from generators import black_spy_deal

import scoring
from scoring import black_spy
from views.games.black_spy import (
    LATEST_DEALS,
    SHEETS_KEPT,
    SheetShown,
    SheetTaps,
    clusters,
    sheet_of,
    short_names,
)
from views.games.black_spy import scoresheet as drawn_scoresheet
from views.i18n import Translator

NAMES = ["Maximilian", "Anna", "Alexandra", "Christopher", "Ben", "Katharina"]
EN = Translator("en")


def record(deals: int, names: list[str] = NAMES) -> dict[str, Any]:
    rng = random.Random(deals)
    return {
        "format": "game-record/1",
        "game": "black-spy",
        "players": [{"name": name} for name in names],
        "options": {"first_dealer": names[0], "variants": [], "end_value": 100_000},
        "rounds": [black_spy_deal(rng, names, False, 0.05) for _ in range(deals)],
    }


def shown_of(game: dict[str, Any], earlier: bool = False, language: str = "en") -> SheetShown:
    """What the table screen makes of the game (views/games/black_spy.py, `sheet`)."""
    result = scoring.replay(game)
    state = scoring.state_as(result, black_spy.State)
    pad = black_spy.RULES.sheet(state, tuple(result.leaders))
    return SheetShown(pad, tuple(result.table.names), language, False, earlier)


TAPS = SheetTaps(lambda number: None, lambda shown: None)


def scoresheet(t: Translator, shown: SheetShown, taps: SheetTaps) -> ft.Control:
    """The sheet as the screen draws it (its rows are components: drawn in `controls`)."""
    sheet: ft.Control = Renderer().render(drawn_scoresheet, t, shown, taps)
    return sheet


def controls(control: ft.BaseControl) -> Iterator[ft.BaseControl]:
    """`control` and every control in it, a component's as it draws them."""
    if isinstance(control, Component):
        yield from controls(Renderer(control).render(control.fn, *control.args, **control.kwargs))
        return
    yield control
    for field in dataclasses.fields(control):
        if field.name.startswith("_") or field.name == "parent":
            continue
        value = getattr(control, field.name, None)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ft.BaseControl):
                yield from controls(item)


def deal_rows(sheet: ft.Control) -> list[ft.Container]:
    return [c for c in controls(sheet) if isinstance(c, ft.Container) and c.on_click is not None]


def test_a_long_game_builds_no_more_controls_than_a_short_one() -> None:
    """The sheet holds the last deals; at deal 40 it builds as many controls as at deal 10, and
    the earlier deals are drawn only once asked for. One deal more than it holds is shown
    rather than a button to show it."""
    one_more = scoresheet(EN, shown_of(record(LATEST_DEALS + 1)), TAPS)
    assert len(deal_rows(one_more)) == LATEST_DEALS + 1
    short = scoresheet(EN, shown_of(record(LATEST_DEALS + 2)), TAPS)
    long = scoresheet(EN, shown_of(record(40)), TAPS)
    assert len(deal_rows(long)) == LATEST_DEALS
    # Moons and halvings add an icon or a line to a cell: the games differ by those at most.
    assert abs(len(list(controls(long))) - len(list(controls(short)))) <= 6
    assert len(list(controls(long))) < 200
    every = scoresheet(EN, shown_of(record(40), earlier=True), TAPS)
    assert len(deal_rows(every)) == 40


def test_the_earlier_deals_are_a_tap_away_and_every_row_opens_its_deal() -> None:
    opened: list[int] = []
    shown: list[bool] = []
    taps = SheetTaps(opened.append, shown.append)
    sheet = scoresheet(EN, shown_of(record(40)), taps)
    for row in deal_rows(sheet):
        row.on_click()  # type: ignore[misc, operator]
    assert opened == list(range(40 - LATEST_DEALS + 1, 41))
    button = next(c for c in controls(sheet) if isinstance(c, ft.TextButton))
    assert button.content == EN.plural(
        "{count} earlier deal", "{count} earlier deals", 40 - LATEST_DEALS
    )
    button.on_click()  # type: ignore[misc, operator, call-arg]
    assert shown == [True]
    opened.clear()
    for row in deal_rows(scoresheet(EN, shown_of(record(40), earlier=True), taps)):
        row.on_click()  # type: ignore[misc, operator]
    assert opened == list(range(1, 41))


def test_the_sheet_is_the_same_for_the_same_game_revision() -> None:
    """`ft.memo` draws the sheet again only when its arguments differ (==, shallowly): two
    replays of one record (a screen drawn again for another reason) give equal arguments; a
    deal more, the earlier deals shown or another language do not."""
    game = record(12)
    assert shown_of(game) == shown_of(game)
    assert shown_of(game) != shown_of({**game, "rounds": game["rounds"][:-1]})
    assert shown_of(game) != shown_of(game, earlier=True)
    assert shown_of(game) != shown_of(game, language="de")


def test_a_revisions_sheet_is_worked_out_once_and_each_revision_has_its_own() -> None:
    """The screen and a Save's note read the sheet of one replay: the same object, worked out
    once. Another replay (the next revision) has its own, right for it; old ones make room."""
    replays = [scoring.replay(record(deals)) for deals in range(1, SHEETS_KEPT + 3)]
    first = sheet_of(replays[0])
    assert sheet_of(replays[0]) is first
    assert len(first.deals) == 1
    for deals, replay in enumerate(replays, start=1):
        assert len(sheet_of(replay).deals) == deals
    again = sheet_of(replays[0])  # made room for the later ones: worked out anew, the same
    assert again is not first and again == first


def test_names_are_cut_to_fit_a_narrow_column_and_stay_apart() -> None:
    assert short_names(tuple(NAMES), 6) == ("Maxim…", "Anna", "Alexa…", "Chris…", "Ben", "Katha…")
    # Names alike at the cut keep letters until they differ.
    assert short_names(("Alexandra", "Alexander", "Ben"), 6) == ("Alexandra", "Alexander", "Ben")
    assert short_names(("Christina", "Christopher"), 6) == ("Christi…", "Christo…")
    # An emoji is one letter, never cut apart: 👩‍💻 is a woman, a joiner and a computer.
    coder = "\U0001f469\u200d\U0001f4bb"
    assert clusters(f"{coder}Kimberley") == [coder, *"Kimberley"]
    assert short_names((f"{coder}Kimberley", "Anna"), 6) == (f"{coder}Kimb…", "Anna")
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert clusters(f"{scotland}\U0001f1e9\U0001f1eaé") == [scotland, "\U0001f1e9\U0001f1ea", "é"]
