"""Entering a round at a table, through the app's screens in-process (tests/screens.py): undo
never costs a saved round, a half-entered round survives leaving, reloading and a server
restart (and stays on its device), errors wait until spoken to, corrections of a moon deal and
of a SPY event, and a one-of chip tapped again stays chosen. What needs Flutter stays in the
browser (tests/test_e2e_entry.py): the address a reload reopens, taps that must not be lost,
what a tap's answer draws and in how many drawings, a note that gives way to the next tap."""

from __future__ import annotations

import json
import re

from builders import SCENARIOS
from screens import Screen, Seated
from ui import (
    black_spy_after_one_deal,
    card_says,
    chip,
    choose_form,
    open_cards_entry,
    open_round_with_cards,
    pile_shows,
    see,
    shown,
    start_game,
    tap,
    tap_starting,
)

from views.state import LATER

BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
# The log's row of event 3 by Carla: as Playwright matches its name, the row's lines joined by
# white space ("3\nCarla found ...").
CARLAS_EVENT_3 = re.compile(r"^3\s+Carla\s")


def as_playwright_reads(name: str) -> str:
    """A name as Playwright matches a role's name that is not exact: its white space (a line
    break between merged texts) one space, in any case."""
    return " ".join(name.split()).casefold()


def absent(screen: Screen, name: str) -> None:
    """No control is named `name` (or starts with it) on the screen, and no button's name holds
    it (as Playwright's role name, not exact, matches)."""
    wanted = as_playwright_reads(name)
    for node in screen.nodes():
        assert not node.name.startswith(name), (name, node.name)
        held = wanted in as_playwright_reads(node.name)
        assert node.role != "button" or not held, (name, node.name)


def button_holding(screen: Screen, name: str) -> bool:
    """Whether a button's name holds `name` (as Playwright's role name, not exact, matches)."""
    wanted = as_playwright_reads(name)
    buttons = screen.find(re.compile(""), "button")
    return any(wanted in as_playwright_reads(node.name) for node in buttons)


def spies_shown(screen: Screen, name: str, count: int) -> None:
    """`name`'s pile card in the deal's entry shows `count` black Spies."""
    label = f"{name}: black Spies: {count}"
    assert screen.checked(label), f"{label!r} is not checked; {screen.texts()}"


def test_undo_never_removes_a_saved_deal_during_entry_and_redo_restores_it(seated: Seated) -> None:
    _, screen = black_spy_after_one_deal(seated, entered=True)
    open_cards_entry(screen, "Enter deal 2")
    chip(screen, "Anna: black Spies: 1")
    absent(screen, "Undo")  # during entry, undo would cost the saved deal: it is not offered
    tap(screen, "Discard")
    tap(screen, "Undo: save deal 1")
    shown(screen, "Enter deal 1")
    tap(screen, "Redo: save deal 1")
    shown(screen, "Enter deal 2")
    screen.reload()  # the history belongs to the device: it survives a reload
    tap(screen, "Undo: save deal 1")
    shown(screen, "Enter deal 1")


def test_a_half_entered_deal_survives_back_reload_and_a_restart(seated: Seated) -> None:
    table, screen = black_spy_after_one_deal(seated)
    open_cards_entry(screen, "Enter deal 2")
    chip(screen, "Anna: black Spies: 2")
    pile_shows(screen, "Anna", 20)
    tap(screen, "Back")  # the game's sheet
    tap(screen, "Back")  # Home
    see(screen, "Deal 2 kept as a draft")
    tap_starting(screen, "Black Spy · Anna, Ben, Carla, Dirk")
    pile_shows(screen, "Anna", 20)  # the entry reopens on the draft
    screen.reload()
    pile_shows(screen, "Anna", 20)
    LATER.submit(lambda: None).result()  # where to reopen is written after the screen
    other_device = table.screen()  # drafts belong to the device that typed them
    shown(other_device, "Enter deal 2")
    open_cards_entry(other_device, "Enter deal 2")
    spies_shown(other_device, "Anna", 0)  # a blank entry, not the other device's draft
    screen.close()
    table = table.restart()
    again = table.screen(device=screen)  # the same device after a server restart
    pile_shows(again, "Anna", 20)
    tap(again, "Discard")
    shown(again, "Enter deal 2")
    again.reload()
    shown(again, "Enter deal 2")  # discarded for good


def test_a_spywhere_ending_reopens_on_its_step_and_discard_starts_it_afresh(
    seated: Seated,
) -> None:
    """Spywhere's end opens by itself while it is not saved: a draft reopens on the wizard's
    step after a reload; Discard (it has no sheet to go back to) starts the end afresh."""
    _, screen = seated("spywhere", ["Anna", "Ben", "Carla"])
    choose_form(screen, "Cards")
    chip(screen, "Anna's passport: Italy")
    tap(screen, "Next")
    second_step = "End of the game · step 2 of 4: Cards of their own nationality"
    shown(screen, second_step)
    screen.reload()
    shown(screen, second_step)
    choose_form(screen, "Quick")
    tap(screen, "5")
    shown(screen, "Anna's own cards: 5")
    tap(screen, "Discard")
    shown(screen, "Anna's own cards: nothing yet")
    choose_form(screen, "Cards")
    shown(screen, "End of the game · step 1 of 4: Passports")
    italy = screen.find("Anna's passport: Italy", "checkbox")
    assert italy, screen.texts()
    assert not italy[0].checked  # the draft went with Discard


def test_a_logged_spy_event_is_corrected_in_the_shared_entry(seated: Seated) -> None:
    """A logged event opens its correction where the next event's panel was: a correction that
    breaks a later event is refused in the entry, Discard leaves it, Delete event deletes (the
    note saying so has Undo), and the panel for the next event is back."""
    events = [
        {"event": "bomb-lit", "by": "Anna", "base": "Ben"},
        {"event": "target", "by": "Carla", "base": "Ben"},
        {"event": "target", "by": "Carla", "base": "Anna"},
    ]
    _, screen = seated("spy", ["Anna", "Ben", "Carla"], rounds=events)
    shown(screen, "What happened?")
    tap_starting(screen, "2 Carla")
    shown(screen, "Correct event 2")
    tap(screen, "Lit bomb exploded")  # Carla out at event 2: her event 3 cannot stand
    shown(screen, "Not saved: Event 3: Carla is already out of the game")
    tap(screen, "Discard")
    shown(screen, "What happened?")
    tap_starting(screen, "3 Carla")
    shown(screen, "Correct event 3")
    tap(screen, "Delete event")
    assert not screen.find(CARLAS_EVENT_3, "button"), screen.texts()
    shown(screen, "What happened?")
    tap(screen, "Undo")  # on the note that says it was deleted: the same undo as the bar's
    assert screen.find(CARLAS_EVENT_3, "button"), screen.texts()
    see(screen, "Undone: delete event 3")
    assert button_holding(screen, "Redo: delete event 3"), screen.texts()


def test_an_untouched_entry_shows_no_error_and_a_save_attempt_names_each_problem(
    seated: Seated,
) -> None:
    _, screen = seated("kompromat", ["Anna", "Ben"])
    open_round_with_cards(screen, 1)
    see(screen, "Mission card")
    screen.see_not("is missing")
    tap(screen, "Save round")  # refused: now every problem speaks, with what it is about
    see(screen, "Mission 1 has no card yet.")
    tap(screen, "Back")  # the game's sheet
    tap(screen, "Back")  # Home
    start_game(screen, "Spywhere", ["Dora", "Emil", "Fritz"])
    tap(screen, "Start Spywhere")
    see(screen, "End of the game")  # quick entry: nothing typed, nothing wrong yet
    screen.see_not("is missing")
    tap(screen, "Cards")
    see(screen, "Everyone shows their passport.")
    screen.see_not("must hold")


def test_a_correction_that_breaks_a_moon_deal_shows_no_moon_and_its_error_at_the_pile(
    seated: Seated,
) -> None:
    # The scenario's three deals; in deal 3 Carla takes all 16 black cards.
    _, screen = seated("black-spy", NAMES, rounds=BLACK_SPY["rounds"])
    # Dirk's pile, filled automatically, holds every card so far:
    open_cards_entry(screen, "Enter deal 4")
    spies_shown(screen, "Dirk", 6)
    screen.see_not("took all 16 black cards")  # no moon before any input
    screen.see_not("60 points")
    chip(screen, "Anna: black Spies: 1")
    pile_shows(screen, "Anna", 10)
    tap(screen, "Discard")
    tap_starting(screen, "Edit deal 3")
    shown(screen, "Correct deal 3")
    moon = "Carla took all 16 black cards: 0 for them, 60 for everyone else."
    shown(screen, moon)
    chip(screen, "Anna: black Spies: 1")  # 7 black Spies: the deal no longer adds up
    card_says(screen, "Anna", "The black Spies add up to 7, but a deal has 6")
    screen.see_not(moon)  # no moon while the piles contradict it


def test_a_tap_on_the_chosen_chip_keeps_it_chosen(seated: Seated) -> None:
    """Tapping the chosen "Who spied?" chip once drew it unchosen while the entry kept
    it (the browser flipped the chip by itself and the server, holding no change, drew
    nothing). A one-of choice stays as the entry holds it. (The screen's finger flips a chip
    that has `on_select` as the browser does, `Screen._tap`.)"""
    _, screen = seated("spy", ["Anna", "Ben", "Carla"])
    chip(screen, "Who spied?: Ben")
    assert screen.checked("Who spied?: Ben")
    screen.tap("Who spied?: Ben", role="checkbox")  # chosen already: a tap changes nothing
    assert screen.checked("Who spied?: Ben"), screen.texts()
    tap(screen, "Found Safe 1")  # the event is Ben's, on Anna's base
    shown(screen, "Ben found Anna's Safe 1")


def test_the_chosen_moon_choice_tapped_again_is_taken_back_in_the_entry_too(
    seated: Seated,
) -> None:
    """With Capture or Release the moon's choice is made on a segmented button that shows no
    choice until the taker chooses; Flutter takes a tap on the chosen segment as no choice and
    draws it so. The entry must hold no choice then either: a Save asks for it (it saved the
    deal with the choice the screen no longer showed)."""
    options = {"first_dealer": "Anna", "variants": ["capture-or-release"], "end_value": 150}
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla", "Dirk"], options)
    open_cards_entry(screen, "Enter deal 1")
    chip(screen, "Anna: black Spies: 6")
    chip(screen, "Anna: black 1–6: 6")
    for rank in (8, 9, 10, 11):
        chip(screen, f"Anna: black {rank}")
    give = "Give 60 to everyone else"
    screen.tap(give)
    assert screen.checked(give, "button")
    screen.tap(give)  # taken back
    assert not screen.checked(give, "button")
    screen.tap("Save deal")
    screen.see("Anna took all 16 black cards: choose give (60 for everyone else) or release")
    shown(screen, "Save deal")  # the entry stays open: nothing was saved


def test_the_next_deals_entry_is_the_last_one_kept_and_starts_afresh(seated: Seated) -> None:
    """A Save (or Discard) keeps the entry under the sheet instead of removing it, and the next
    deal's entry is that one again (removing it cost most of a Save, adding it again
    most of an opening): the same controls, with nothing of the last opening in them — no
    pile, no problem spoken, no refusal, the automatic pile the last one's again."""
    _, screen = seated("black-spy", NAMES, rounds=BLACK_SPY["rounds"][:1])
    session = screen.session
    assert session is not None

    def save_button() -> int:
        """Flet's id of the entry's Save button (a control made anew gets a new one)."""
        return int(screen._one("Save deal", "button").control._i)

    open_cards_entry(screen, "Enter deal 2")
    tap(screen, "Fill Anna automatically")  # Dirk keeps every card as his own pile ...
    chip(screen, "Ben: black Spies: 1")  # ... so this one is a 7th black Spy
    tap(screen, "Save deal")  # refused: from now on every problem of this opening speaks
    see(screen, "Not saved:")
    kept = save_button()
    tap(screen, "Discard")
    see(screen, "Enter deal 2")
    assert session.index.get(kept) is not None  # kept under the sheet, not removed
    open_cards_entry(screen, "Enter deal 2")
    assert save_button() == kept  # the same entry again ...
    screen.see_not("Not saved:")  # ... afresh
    screen.see_not("add up to")
    assert screen.checked("Ben: black Spies: 0")  # nothing of the last opening's piles
    spies_shown(screen, "Dirk", 6)  # as a new deal opens: every card in the last pile
    assert screen.shows("Fill Anna automatically")  # Dirk's is the pile filled in again
    chip(screen, "Anna: black Spies: 1")
    pile_shows(screen, "Anna", 10)
    kept = save_button()
    tap(screen, "Save deal")
    see(screen, "Deal 2 saved")
    assert session.index.get(kept) is not None
    open_cards_entry(screen, "Enter deal 3")
    assert save_button() == kept
    shown(screen, "Deal 3")
    assert screen.checked("Anna: black Spies: 0")
    spies_shown(screen, "Dirk", 6)


def test_kompromats_next_entry_is_the_last_one_kept_and_nothing_it_was_told_stays(
    seated: Seated,
) -> None:
    """Kompromat keeps its entry under the rounds too: opened again, it is the same entry, and
    a Save refused in the last opening (which makes every problem speak) is forgotten."""
    _, screen = seated("kompromat", ["Anna", "Ben"])
    session = screen.session
    assert session is not None
    open_round_with_cards(screen, 1)
    tap(screen, "Save round")  # refused: from now on every problem of this opening speaks
    see(screen, "Mission 1 has no card yet.")
    kept = int(screen._one("Save round", "button").control._i)
    tap(screen, "Discard")
    assert session.index.get(kept) is not None  # kept under the rounds, not removed
    open_round_with_cards(screen, 1)
    assert int(screen._one("Save round", "button").control._i) == kept
    see(screen, "Mission card")
    screen.see_not("is missing")  # untouched and not tried in this opening: nothing spoken
    screen.see_not("Not saved:")


def test_a_correction_opened_again_answers_its_mission_tabs(seated: Seated) -> None:
    """The mission tabs a correction leaves as they were are the controls drawn last
    (`hooks.use_retained`), but never those of the last opening: their taps went to that
    opening's mission (`hooks.use_value_for`), which drops them. Opened again exactly as it
    was left (round 1 correction, mission 1), a tap on mission 2 opens mission 2."""
    record = json.loads((SCENARIOS / "kompromat-first-round.json").read_text())
    names = [p["name"] for p in record["players"]]
    _, screen = seated("kompromat", names, record["options"], rounds=record["rounds"][:1])
    for _ in range(2):
        tap_starting(screen, "1 Round 1")
        see(screen, "Correct round 1")
        chip(screen, "Mission 2")
        chip(screen, "Mission 1")
        tap(screen, "Discard")


def test_back_from_an_entry_shows_the_sheet_with_the_draft_kept_and_back_again_goes_home(
    seated: Seated,
) -> None:
    """In the middle of a deal the table looks up the totals, the dealer, the Mole order:
    Back leaves the entry for the game's sheet (it went Home), the draft kept; one tap goes
    on with it; Back on the sheet goes Home. Android's Back (a page's view popped) too."""
    _, screen = black_spy_after_one_deal(seated)
    open_cards_entry(screen, "Enter deal 2")
    chip(screen, "Anna: black Spies: 2")
    tap(screen, "Back")
    shown(screen, "Scoresheet")
    shown(screen, "Enter deal 2")
    see(screen, "Deal 2 kept as a draft")
    tap(screen, "Enter deal 2")
    pile_shows(screen, "Anna", 20)  # the draft, one tap on
    screen.pop_view()  # Android's Back
    shown(screen, "Scoresheet")
    tap(screen, "Back")
    shown(screen, "New game")  # Home
    see(screen, "Deal 2 kept as a draft")


def test_back_from_spywheres_end_goes_home(seated: Seated) -> None:
    """A game of one round not saved yet has no sheet to go back to (its entry opens by
    itself): Back goes Home, the draft kept."""
    _, screen = seated("spywhere", ["Anna", "Ben", "Carla"])
    tap(screen, "5")
    tap(screen, "Back")
    shown(screen, "New game")


def test_discard_can_be_undone(seated: Seated) -> None:
    """Discard sits beside Save: a half-entered round thrown away by one tap comes back with
    the note's Undo, the entry open on it as it was (deleting a whole game had Undo; this did
    not)."""
    _, screen = black_spy_after_one_deal(seated)
    open_cards_entry(screen, "Enter deal 2")
    chip(screen, "Anna: black Spies: 2")
    tap(screen, "Discard")
    shown(screen, "Enter deal 2")
    see(screen, "Deal 2 discarded")
    tap(screen, "Undo")
    pile_shows(screen, "Anna", 20)
    spies_shown(screen, "Anna", 2)


def test_a_refusal_is_said_once_as_a_player_would_say_it(seated: Seated) -> None:
    """It read like a validator's path, twice: "Not saved: Round 1, mission 1, mission card: is
    missing (3 more problems)" and the same list again below it. Each problem once, in the
    words of the table, the round entered not named again (its title says it)."""
    _, screen = seated("kompromat", ["Anna", "Ben"])
    open_round_with_cards(screen, 1)
    tap(screen, "Save round")
    texts = screen.texts()
    assert texts.count("Mission 1 has no card yet.") == 1, texts
    assert not any("more problem" in text or "Round 1," in text for text in texts), texts
    assert not any(": is missing" in text for text in texts), texts


def test_a_pile_filled_in_from_piles_typed_wrong_says_what_was_typed(seated: Seated) -> None:
    """18, 20 and 48 leave −26 for the last pile, which fills itself in: the line says the
    piles typed add up to more than a deal has, not that the filled-in pile is wrong (it is
    not the one typed wrong), and with the sheet's minus sign."""
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla", "Dirk Lena"])  # (a quoted key)
    tap(screen, "Enter deal 1")
    for key in ("1", "8", "2", "0", "4", "8"):
        tap(screen, key)
    see(screen, "The piles typed add up to 86, more than the 60 of a deal")
    assert not any("-26" in text or "-20" in text for text in screen.texts()), screen.texts()


def test_a_long_name_in_a_pile_row_is_cut_at_a_letter_with_an_ellipsis(seated: Seated) -> None:
    """ "Maximiliane von Hohenstein" was cut mid-letter ("Maximiliane von H") and crowded the
    "filled in" beside it: the row cuts it as the sheet does, with "…" (Flutter's ellipsis,
    at a whole letter), and the words beside it keep their room."""
    import flet as ft

    long_name = "Maximiliane von Hohenstein"
    _, screen = seated("black-spy", ["Anna", "Ben", "Carla", long_name])
    tap(screen, "Enter deal 1")
    from screens import _children

    found: list[ft.Text] = []
    waiting: list[object] = [screen.page]
    while waiting:
        control = waiting.pop()
        if isinstance(control, ft.Text) and control.value == long_name and control.size == 16:
            found.append(control)
        waiting += list(_children(control))
    assert found, "no pile row names the player"
    assert all(text.overflow == ft.TextOverflow.ELLIPSIS for text in found)
