"""What a tap draws again, counted in the app's own process (tests/screens.py): only the screen
on top follows a change; a screen under it, and the app's stack of screens, are not drawn again
for a change they do not show (a Save once drew the home screen under the game, and the
whole app, again). Each component drawn is counted by its function's name, as Flet's renderer
runs it."""

from __future__ import annotations

import collections
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from builders import SCENARIOS
from flet.components import component
from flet.messaging.protocol import MessageAction
from screens import Screen, Seated
from ui import chip, open_cards_entry, shown

from scoring import black_spy

BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
ROW = "Black Spy · Anna, Ben, Carla, Dirk"

Drawings = collections.Counter[str]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawings:
    """Every component drawn from now on, by name (Flet's `Renderer.render` runs each)."""
    counts: Drawings = collections.Counter()
    render = component.Renderer.render

    def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        counts[getattr(fn, "__name__", repr(fn))] += 1
        return render(self, fn, *args, **kwargs)

    monkeypatch.setattr(component.Renderer, "render", counted)
    return counts


@pytest.fixture
def game(seated: Seated) -> Iterator[Screen]:
    """A Black Spy game after three deals; the tab opens on it."""
    _, screen = seated("black-spy", NAMES, rounds=BLACK_SPY["rounds"][:3])
    shown(screen, "Enter deal 4")
    yield screen


def during(drawn: Drawings, action: Callable[[], object]) -> Drawings:
    """The drawings `action` (a tap, answered once it returns) set off."""
    before = drawn.copy()
    action()
    return drawn - before


def test_a_save_draws_only_the_game_screen_again_once(game: Screen, drawn: Drawings) -> None:
    open_cards_entry(game, "Enter deal 4")
    chip(game, "Anna: black Spies: 1")

    def save() -> None:
        game.tap("Save deal")
        game.see("Edit deal 4")

    saved = during(drawn, save)
    # Once, with the saved deal: the entry closes in the drawing that shows the game with it
    # (closed at once, the screen was drawn first with the sheet as it was, then again).
    assert saved["GameScreen"] == 1 and saved["BlackSpyScreen"] == 1, saved
    assert saved["App"] == 0 and saved["HomeView"] == 0 and saved["GameCard"] == 0, saved


def test_opening_a_game_leaves_home_beneath_as_drawn_and_back_draws_it_afresh(
    game: Screen, drawn: Drawings
) -> None:
    back = during(drawn, lambda: (game.tap("Back"), shown(game, "New game")))
    assert back["HomeView"] == 1, back  # it was drawn under the game: now it catches up

    def open_game() -> None:
        game.tap_starting(ROW)
        shown(game, "Enter deal 4")

    opened = during(drawn, open_game)
    assert opened["GameScreen"] == 1 and opened["App"] == 1, opened
    assert opened["HomeView"] == 0 and opened["GameCard"] == 0, opened


def test_a_count_tap_makes_anew_the_two_chips_whose_choice_moved_and_no_other(
    game: Screen,
) -> None:
    """A count tap moves a pile's choice from one chip to another, and so the choice of the
    pile filled in with what is left: those chips are made anew (keyed by their state, so the
    browser draws them afresh), and every other chip of the two piles is the very control
    drawn before, which Flet's diff skips."""
    open_cards_entry(game, "Enter deal 4")
    labels = [
        f"{name}: black Spies: {count}"
        for name in ("Anna", "Dirk")  # Dirk's pile fills itself in
        for count in range(black_spy.PART_LIMITS["black_spies"] + 1)
    ]
    before = {label: game.find(label, "checkbox")[0] for label in labels}
    chip(game, "Anna: black Spies: 1")
    after = {label: game.find(label, "checkbox")[0] for label in labels}

    changed = sorted(label for label in labels if after[label].checked != before[label].checked)
    assert changed == [
        "Anna: black Spies: 0",
        "Anna: black Spies: 1",
        "Dirk: black Spies: 5",
        "Dirk: black Spies: 6",
    ], changed
    kept = [label for label in labels if label not in changed]
    assert all(after[label].control is before[label].control for label in kept)
    assert all(after[label].control._i != before[label].control._i for label in changed)


def test_a_game_opens_in_one_round_trip_and_the_page_saying_its_address_draws_nothing(
    game: Screen, drawn: Drawings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a game gives the browser the game's address and draws its screen in the same
    answer (the address first, `AppState.go`): it does not wait a round trip for the page to
    say its route changed, which, when it comes, draws nothing."""
    game.tap("Back")
    shown(game, "New game")
    said: list[str] = []
    monkeypatch.setattr(game, "_route_changed", said.append)  # on its way: not there yet
    game.tap_starting(ROW)
    shown(game, "Enter deal 4")
    assert len(said) == 1 and said[0].startswith("/game/"), said
    monkeypatch.undo()
    arrived = during(drawn, lambda: page_says(game, said[0]))
    assert not arrived, arrived
    shown(game, "Enter deal 4")
    # Back and into the game again before the page has said either address: when it says
    # them, in order, the first does not take the screen back home.
    said.clear()
    monkeypatch.setattr(game, "_route_changed", said.append)
    game.tap("Back")
    game.tap_starting(ROW)
    assert [route == "/" for route in said] == [True, False], said
    monkeypatch.undo()
    for route in said:
        arrived = during(drawn, lambda route=route: page_says(game, route))
        assert not arrived, (route, arrived)
        shown(game, "Enter deal 4")


def page_says(screen: Screen, route: str) -> None:
    """The page's route change to `route` arrives, and is answered."""
    screen._route_changed(route)
    screen.table.settle()


def test_a_game_opened_again_sends_its_address_its_screen_and_the_wake_lock_only(
    game: Screen,
) -> None:
    """Each message is work for the browser around the game's screen. A game opened again (a
    tap has come since the first opening) sends the address, the screen and the wake lock's
    call: no page patch (the page's handlers are the same functions at every drawing) and no
    service added or let go (the session keeps one wake lock)."""
    game.tap("Back")
    shown(game, "New game")
    game.tap_starting(ROW)
    shown(game, "Enter deal 4")
    game.tap("Back")
    shown(game, "New game")
    before = len(game.sent)
    game.tap_starting(ROW)
    shown(game, "Enter deal 4")
    game.table.settle()
    sent = [described(message) for message in game.sent[before:]]
    assert sent == ["call push_route", "patch of the views", "call enable"], sent


def described(message: Any) -> str:
    """A message the app sent, in short: a method it called, or which control it patched."""
    body = message.body
    if message.action == MessageAction.INVOKE_METHOD:
        return f"call {body.name}"
    paths = body.patch[0]  # the table of the patch's paths: [0, {name: [index, ...]}]
    patched = list(paths[1]) if len(paths) > 1 else []
    if patched == ["_b"]:
        return "patch of the views"
    return f"patch of control {body.id} at {patched}"


def test_where_to_reopen_is_handed_to_its_writer_after_the_screen_is_sent(
    game: Screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The route to reopen the app at is written by a thread of its own. Handed to it while
    the screen was being drawn, that thread took turns with the drawing for Python's lock and
    held the data's lock through its fsync, which the drawing then waited for (a Back took
    100 ms more at a slow fsync): it is handed over once the screen's message has gone."""
    from views import state

    events: list[str] = []
    submit = state.LATER.submit

    def noted_submit(fn: Any, *args: Any) -> Any:
        if getattr(fn, "__name__", "") == "remember_route":
            events.append(f"write {args[0]}")
        return submit(fn, *args)

    monkeypatch.setattr(state.LATER, "submit", noted_submit)
    send = game.send_message

    def noted_send(message: Any) -> None:
        events.append(described(message))
        send(message)

    monkeypatch.setattr(game, "send_message", noted_send)
    game.tap("Back")
    shown(game, "New game")
    game.table.settle()
    views = events.index("patch of the views")
    assert "write /" in events[views:], events
    assert not any(event.startswith("write") for event in events[:views]), events
