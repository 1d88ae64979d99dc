"""Entering a round at a real table, in Chromium: undo never costs a saved round, a half-entered
round survives leaving, reloading and a server restart, and errors wait until spoken to."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import generators
import pytest
from builders import SCENARIOS
from playwright.sync_api import Page, expect
from ui import (
    Seat,
    card_says,
    chip,
    choose_form,
    enter_deal,
    enter_kompromat_outcomes,
    mission_opened,
    mission_outcome_taps,
    open_cards_entry,
    open_round_with_cards,
    pile_shows,
    save,
    scrolled_into_view,
    shown,
    start_game,
    tap_starting,
)

from tools.browser import (
    AppServer,
    address_held,
    gone_up,
    held_address,
    held_answers,
    keeping_answers,
    kept_answers,
    messages_sent,
    open_app,
    painted,
    received,
    released_address,
    released_answers,
    reload,
    see,
    settled,
    showing,
    tap,
    type_text,
)

pytestmark = pytest.mark.e2e
BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]


def absent(page: Page, name: str) -> None:
    """No control is named `name` (or starts with it) on the screen."""
    assert page.locator(f'flt-semantics[aria-label^="{name}"]').count() == 0, name
    assert page.get_by_role("button", name=name).count() == 0, name


def spies_shown(page: Page, name: str, count: int) -> None:
    """Wait until `name`'s pile card in the deal's entry shows `count` black Spies."""
    page.get_by_role("checkbox", name=f"{name}: black Spies: {count}", checked=True).wait_for()


def black_spy_after_one_deal(table: Seat, entered: bool = False) -> tuple[AppServer, Page]:
    """A Black Spy game at the table after the scenario's first deal: saved before the app
    starts, or `entered` on this page (so that this device can undo it)."""
    if not entered:
        return table("black-spy", NAMES, rounds=BLACK_SPY["rounds"][:1])
    app, page = table("black-spy", NAMES)
    enter_deal(page, 1, NAMES, BLACK_SPY["rounds"][0])
    return app, page


@pytest.mark.long
def test_undo_never_removes_a_saved_deal_during_entry_and_redo_restores_it(table: Seat) -> None:
    _, page = black_spy_after_one_deal(table, entered=True)
    open_cards_entry(page, "Enter deal 2")
    chip(page, "Anna: black Spies: 1")
    absent(page, "Undo")  # during entry, undo would cost the saved deal: it is not offered
    tap(page, "Discard")
    tap(page, "Undo: save deal 1")
    shown(page, "Enter deal 1")
    tap(page, "Redo: save deal 1")
    shown(page, "Enter deal 2")
    reload(page)  # the history belongs to the device: it survives a reload
    tap(page, "Undo: save deal 1")
    shown(page, "Enter deal 1")


def test_a_game_opens_only_once_the_address_says_so_and_a_reload_at_once_keeps_it(
    table: Seat,
) -> None:
    """The browser's address, not the screen, is what a reload reopens. A screen drawn before
    its address arrived was lost by a reload at that moment (the full run's failure: a draft
    reopened, then a reload showed the home screen)."""
    _, page = black_spy_after_one_deal(table)
    tap(page, "Back")
    held_address(page)
    page.get_by_role("button", name="Black Spy · Anna, Ben, Carla, Dirk", exact=False).first.click()
    address_held(page)  # the server asked the browser to show the game's address ...
    assert page.url.endswith("/")
    absent(page, "Enter deal 2")  # ... and the screen waits for it
    shown(page, "New game")
    released_address(page)
    shown(page, "Enter deal 2")
    assert "/game/" in page.url
    reload(page)
    shown(page, "Enter deal 2")


@pytest.mark.long
def test_a_half_entered_deal_survives_back_reload_and_a_restart(
    table: Seat, guest_phone: Callable[[str], Page]
) -> None:
    app, page = black_spy_after_one_deal(table)
    open_cards_entry(page, "Enter deal 2")
    chip(page, "Anna: black Spies: 2")
    pile_shows(page, "Anna", 20)
    tap(page, "Back")
    see(page, "Deal 2 kept as a draft")
    page.get_by_role("button", name="Black Spy · Anna, Ben, Carla, Dirk", exact=False).first.click()
    pile_shows(page, "Anna", 20)  # the entry reopens on the draft
    reload(page)
    pile_shows(page, "Anna", 20)
    other_device = guest_phone(app.url)  # drafts belong to the device that typed them
    shown(other_device, "Enter deal 2")
    open_cards_entry(other_device, "Enter deal 2")
    spies_shown(other_device, "Anna", 0)  # a blank entry, not the other device's draft
    context = page.context
    page.close()
    app.stop()
    app.start()
    again = open_app(context, app.url)  # the same device after a server restart
    try:
        pile_shows(again, "Anna", 20)
        tap(again, "Discard")
        shown(again, "Enter deal 2")
        reload(again)
        shown(again, "Enter deal 2")  # discarded for good
    finally:
        again.close()


def test_a_spywhere_ending_reopens_on_its_step_and_discard_starts_it_afresh(
    table: Seat,
) -> None:
    """Spywhere's end opens by itself while it is not saved: a draft reopens on the wizard's
    step after a reload; Discard (it has no sheet to go back to) starts the end afresh."""
    _, page = table("spywhere", ["Anna", "Ben", "Carla"])
    choose_form(page, "Cards")
    chip(page, "Anna's passport: Italy")
    tap(page, "Next")
    second_step = "End of the game · step 2 of 4: Cards of their own nationality"
    shown(page, second_step)
    reload(page)
    shown(page, second_step)
    choose_form(page, "Quick")
    tap(page, "5")
    shown(page, "Anna's own cards: 5")
    tap(page, "Discard")
    shown(page, "Anna's own cards: nothing yet")
    choose_form(page, "Cards")
    shown(page, "End of the game · step 1 of 4: Passports")
    italy = page.get_by_role("checkbox", name="Anna's passport: Italy", exact=True).first
    expect(italy).to_have_attribute("aria-checked", "false")  # the draft went with Discard


def test_quick_taps_on_the_kompromat_keypad_all_land(table: Seat) -> None:
    """A finger does not re-aim between quick taps: the keys are where they were before the
    first tap (played cards, totals and messages take reserved space)."""
    _, page = table("kompromat", ["Anna", "Ben"])
    open_round_with_cards(page, 1)
    chip(page, "Mission card: Target (5 VP)")
    keys = ["2", "3", "4", "5", "6"]
    # The keypad is below the mission cards: scrolled into view first, as a player would.
    page.get_by_role("button", name="Anna plays 10", exact=True).scroll_into_view_if_needed()
    painted(page)
    boxes = []
    for key in keys:
        box = page.get_by_role("button", name=f"Anna plays {key}", exact=True).bounding_box()
        assert box is not None
        boxes.append(box)
    for box in boxes:  # as fast as the browser takes them, without waiting for the app
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    shown(page, "Anna: total 20")
    for key, box in zip(keys, boxes, strict=True):
        after = page.get_by_role("button", name=f"Anna plays {key}", exact=True).bounding_box()
        assert after is not None and abs(after["y"] - box["y"]) < 1, key


def test_a_mission_card_chosen_last_opens_the_next_mission_at_its_keypads(table: Seat) -> None:
    """Cards entry: the mission card, chosen once both players have laid cards, opens the next
    mission scrolled to its keypads (no tap to move on) and says how the last one ended; a card
    chosen first moves nothing. The card tapped before the app has answered the last played
    card still counts that card."""
    _, page = table("kompromat", ["Anna", "Ben"])
    open_round_with_cards(page, 1)
    tap(page, "Anna plays 10")
    tap(page, "Anna plays 9")
    last_card = page.get_by_role("button", name="Ben plays 10", exact=True)
    mission_card = page.get_by_role("checkbox", name="Mission card: Code", exact=True)
    page.mouse.move(200, 400)
    page.mouse.wheel(0, 3000)  # down to the mission cards, as a thumb scrolls
    scrolled_into_view(page, "Mission card: Code")
    held_answers(page)  # Ben's card is still being answered when the mission card is tapped
    last_card.click()
    mission_card.click()
    released_answers(page)
    page.get_by_role("checkbox", name="Mission 2", checked=True).wait_for()
    shown(page, "Mission 1: Anna wins. Tokens: Anna 0, Ben 0")  # 19 against 10
    scrolled_into_view(page, "Anna plays 8")  # up to the next mission's keypads
    # On mission 2 the card comes first: the entry stays there until the cards are laid.
    chip(page, "Mission card: Document")
    tap(page, "Anna plays 8")
    page.get_by_role("checkbox", name="Mission 2", checked=True).wait_for()
    shown(page, "Anna: total 8")


def test_a_tap_on_the_next_spy_while_the_last_event_is_saved_is_not_lost(table: Seat) -> None:
    """At the table: "Found" for Anna, and at once "Ben" for the next event, before the app
    has answered the first tap. The second tap must choose Ben (it once went nowhere and the
    next event was saved for Anna)."""
    _, page = table("spy", ["Anna", "Ben", "Carla"])
    chip(page, "Who spied?: Anna")
    chip(page, "On whose base?: Carla")
    found = page.get_by_role("button", name=re.compile(r"^Found ")).first
    ben = page.get_by_role("checkbox", name="Who spied?: Ben", exact=True).first
    ben.wait_for(state="visible")
    held_answers(page)  # the answer to "Found" is still on its way when Ben is tapped
    found.click()
    ben.click()
    released_answers(page)
    shown(page, "Anna found Carla's Safe 1")
    chip_state = page.get_by_role("checkbox", name="Who spied?: Ben", exact=True).first
    expect(chip_state).to_have_attribute("aria-checked", "true")


def test_a_logged_spy_event_is_corrected_in_the_shared_entry(table: Seat) -> None:
    """A logged event opens its correction where the next event's panel was: a correction that
    breaks a later event is refused in the entry, Discard leaves it, Delete event deletes (the
    note saying so has Undo), and the panel for the next event is back."""
    events = [
        {"event": "bomb-lit", "by": "Anna", "base": "Ben"},
        {"event": "target", "by": "Carla", "base": "Ben"},
        {"event": "target", "by": "Carla", "base": "Anna"},
    ]
    _, page = table("spy", ["Anna", "Ben", "Carla"], rounds=events)
    shown(page, "What happened?")
    page.get_by_role("button", name=re.compile(r"^2 Carla ")).first.click()
    shown(page, "Correct event 2")
    tap(page, "Lit bomb exploded")  # Carla out at event 2: her event 3 cannot stand
    shown(page, "Not saved: Event 3: Carla is already out of the game")
    tap(page, "Discard")
    shown(page, "What happened?")
    page.get_by_role("button", name=re.compile(r"^3 Carla ")).first.click()
    shown(page, "Correct event 3")
    tap(page, "Delete event")
    page.get_by_role("button", name=re.compile(r"^3 Carla ")).wait_for(state="detached")
    shown(page, "What happened?")
    tap(page, "Undo")  # on the note that says it was deleted: the same undo as the bar's
    page.get_by_role("button", name=re.compile(r"^3 Carla ")).first.wait_for(state="attached")
    see(page, "Undone: delete event 3")
    page.get_by_role("button", name="Redo: delete event 3").wait_for(state="attached")


def test_an_untouched_entry_shows_no_error_and_a_save_attempt_names_each_problem(
    table: Seat,
) -> None:
    _, page = table("kompromat", ["Anna", "Ben"])
    open_round_with_cards(page, 1)
    see(page, "Mission card")
    assert page.get_by_text("is missing").count() == 0
    tap(page, "Save round")  # refused: now every problem speaks, with what it is about
    see(page, "Round 1, mission 1, mission card: is missing")
    tap(page, "Back")
    start_game(page, "Spywhere", ["Dora", "Emil", "Fritz"])
    tap(page, "Start Spywhere")
    see(page, "End of the game")  # quick entry: nothing typed, nothing wrong yet
    assert page.get_by_text("is missing").count() == 0
    tap(page, "Cards")
    see(page, "Everyone shows their passport.")
    assert page.get_by_text("must hold").count() == 0


def test_a_correction_that_breaks_a_moon_deal_shows_no_moon_and_its_error_at_the_pile(
    table: Seat,
) -> None:
    # The scenario's three deals; in deal 3 Carla takes all 16 black cards.
    _, page = table("black-spy", NAMES, rounds=BLACK_SPY["rounds"])
    # Dirk's pile, filled automatically, holds every card so far:
    open_cards_entry(page, "Enter deal 4")
    spies_shown(page, "Dirk", 6)
    assert page.get_by_text("took all 16 black cards").count() == 0  # no moon before any input
    assert page.get_by_text("60 points").count() == 0
    chip(page, "Anna: black Spies: 1")
    pile_shows(page, "Anna", 10)
    tap(page, "Discard")
    tap_starting(page, "Edit deal 3")
    shown(page, "Correct deal 3")
    moon = "Carla took all 16 black cards: 0 for them, 60 for everyone else."
    shown(page, moon)
    chip(page, "Anna: black Spies: 1")  # 7 black Spies: the deal no longer adds up
    card_says(page, "Anna", "The black Spies add up to 7, but a deal has 6")
    assert page.get_by_text(moon).count() == 0  # no moon while the piles contradict it


def test_adding_a_new_player_does_not_move_the_name_field(page: Page) -> None:
    """The next name is typed where the last one was: a new player's chip appearing above the
    field pushed it down while the finger came back to it, and the tap (or the keyboard) was
    lost — one start in ten in the browser tests."""
    tap(page, "New game")
    tap_starting(page, "Black Spy")
    field = page.get_by_role("textbox", name="New player", exact=True).first
    field.wait_for()
    where = field.bounding_box()
    for name in ("Anna", "Ben"):
        type_text(page, "New player", name, submit=True)
        page.get_by_role("button", name=f"Move {name} up").wait_for()
        painted(page)
        assert field.bounding_box() == where, name


def tap_chosen(page: Page, label: str) -> None:
    """Tap a chip that is chosen already, and wait until the page has sent the tap and drawn
    what followed (such a tap changes nothing, so the server has nothing to answer)."""
    target = page.get_by_role("checkbox", name=label, exact=True).first
    expect(target).to_have_attribute("aria-checked", "true")
    sent = messages_sent(page)
    target.click()
    gone_up(page, sent, timeout=30_000)  # Playwright's own wait, as before
    painted(page)


def test_a_tap_on_the_chosen_chip_keeps_it_chosen(table: Seat) -> None:
    """Issue 24: tapping the chosen "Who spied?" chip drew it unchosen while the entry kept
    it (the browser flipped the chip by itself and the server, holding no change, drew
    nothing). A one-of choice stays as the entry holds it."""
    _, page = table("spy", ["Anna", "Ben", "Carla"])
    chip(page, "Who spied?: Ben")
    tap_chosen(page, "Who spied?: Ben")
    ben = page.get_by_role("checkbox", name="Who spied?: Ben")
    assert ben.get_attribute("aria-checked") == "true"
    tap(page, "Found Safe 1")  # the event is Ben's, on Anna's base
    shown(page, "Ben found Anna's Safe 1")


KOMPROMAT_NAMES = ["Anna", "Ben"]


def kompromat_before_round_3(table: Seat) -> tuple[Page, dict[str, Any]]:
    """A generated Kompromat game in outcome form ("!" marks, marks that decide, items) at the
    table with its first two rounds saved; the page and the whole record."""
    record = generators.in_outcome_form(
        generators.kompromat_record(random.Random(20261122), names=KOMPROMAT_NAMES)
    )
    _, page = table("kompromat", KOMPROMAT_NAMES, record["options"], record["rounds"][:2])
    return page, record


def test_each_tap_on_a_kompromat_mission_is_answered_in_one_drawing(table: Seat) -> None:
    """A tap that changes the round's draft and the mission shown (a mission's card opens the
    next one; who won, tapped after the card) comes back as one drawing of the whole screen.
    In two, the first was half drawn (the next mission without the line on how the last one
    ended) and the second moved what the next tap was aimed at: under load a winner tapped
    was lost and the round could not be saved. (One round only: after a Save, its note goes
    away by itself a few seconds later, a drawing of its own that no tap asked for.)"""
    page, record = kompromat_before_round_3(table)
    tap_starting(page, "Enter round 3 of 6")
    choose_form(page, "Quick")
    missions = record["rounds"][2]["missions"]
    for index, mission in enumerate(missions):
        mission_opened(page, index)
        for name, tapped in mission_outcome_taps(
            page, mission, KOMPROMAT_NAMES, index == len(missions) - 1
        ):
            before = received(page)
            tapped()
            settled(page)
            assert received(page) - before == 1, (index + 1, name)
    save(page, "Save round", "Round 3 saved")


def test_a_saves_note_gives_way_to_the_next_tap(table: Seat) -> None:
    """Save's note ("Deal 1 saved.") lies over the bottom of the screen, where the next deal's
    entry has its Save and Next pile: a table that types a deal in less than the note's four
    seconds tapped the note instead, and the tap was lost. The next tap puts it away: the app
    closes it, the page does not wait for its time to run out (and then tell the app so)."""
    _, page = black_spy_after_one_deal(table, entered=True)
    see(page, "Deal 1 saved")
    tap(page, "Enter deal 2")
    sent = messages_sent(page)
    showing(page, "Deal 1 saved").first.wait_for(state="detached", timeout=15_000)
    assert messages_sent(page) == sent, "the note stayed over the entry until its time ran out"


def test_a_save_is_drawn_before_its_note(table: Seat) -> None:
    """Save's note ("Round 3 saved") comes after the screen it is about: sent at once from the
    tap's handler, it reached the page before the new screen, which came a drawing later (two
    drawings for one Save, the screen that answers it last)."""
    page, record = kompromat_before_round_3(table)
    enter_kompromat_outcomes(page, 3, KOMPROMAT_NAMES, record["rounds"][2], then_save=False)
    keeping_answers(page)
    save(page, "Save round", "Round 3 saved")
    drawings = kept_answers(page)
    notes = [index for index, opening in enumerate(drawings) if "SnackBar" in opening]
    assert notes, "the note was not among the drawings"
    assert notes[0] > 0, "the note came before the screen"
