"""Several tabs and devices on one game, played in-process (tests/screens.py): each follows every
save at once, no change made from an old state overwrites a newer one, and undo undoes only what
this tab did.

A tab is another screen of the same device (it shares the device's preferences, so its device id
and drafts); a device is a screen of a new one. Where a refusal is drawn on the screen (above
Save) is the browser's to see: tests/test_e2e_devices.py."""

from __future__ import annotations

import json
import re

from builders import SCENARIOS
from screens import Screen, Seated
from ui import (
    chip,
    enter_deal,
    enter_spy_event,
    open_cards_entry,
    pile_shows,
    see,
    shown,
    tap,
)

import scoring

BLACK_SPY = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
NAMES = [p["name"] for p in BLACK_SPY["players"]]
SPY = json.loads((SCENARIOS / "spy-three-players.json").read_text())
SPY_NAMES = [p["name"] for p in SPY["players"]]
SPY_EVENTS = SPY["rounds"] + [{"event": "target", "by": "Ben", "base": "Carla"}] * 3
UNDO = re.compile(r"^Undo")


def event_row(screen: Screen, number: int, by: str) -> None:
    """SPY's event log lists event `number`, made by `by`."""
    row = re.compile(rf"^{number}\s+{re.escape(by)} ")  # its lines, as Playwright joins them
    assert screen.find(row, "button"), screen.texts()


def undo_buttons(screen: Screen) -> int:
    return len(screen.find(UNDO, "button"))


def test_a_second_tab_follows_each_save_and_cannot_undo_the_first_tabs(seated: Seated) -> None:
    table, screen = seated("spy", SPY_NAMES)
    enter_spy_event(screen, SPY_EVENTS[0], 1)
    second = table.screen(device=screen)  # the same device, another tab: opens the game
    event_row(second, 1, SPY_EVENTS[0]["by"])
    enter_spy_event(second, SPY_EVENTS[1], 2)
    event_row(screen, 2, SPY_EVENTS[1]["by"])  # the first tab follows, with no reload
    # The last change is the second tab's: the first may not undo it (nor its own, which
    # is no longer the latest).
    assert undo_buttons(screen) == 0, screen.texts()
    assert undo_buttons(second) == 1, second.texts()


def test_a_stale_tab_cannot_finish_a_game_that_is_no_longer_over(seated: Seated) -> None:
    table, screen = seated("spy", SPY_NAMES, rounds=SPY_EVENTS[:-1])
    enter_spy_event(screen, SPY_EVENTS[-1], len(SPY_EVENTS))  # the last, which this device undoes
    stale = table.screen(device=screen)
    stale.see("Finish and save to history")
    # Both taps leave before either is answered: the stale tab's Finish reaches the app after
    # the Undo, from a screen that still showed the game over.
    screen.press(f"Undo: save event {len(SPY_EVENTS)}")  # the game is not over any more
    stale.press("Finish and save to history")
    table.settle()
    tap(screen, "Back")
    shown(screen, "Games in progress")
    see(screen, "SPY · Anna, Ben, Carla")  # still at the table, not in the history
    stale.see_not("Finish and save to history")


def test_a_save_from_an_old_state_is_refused_and_the_entry_kept(seated: Seated) -> None:
    table, screen = seated("black-spy", NAMES)
    other = table.screen()  # another device: it opens on the game at the table
    open_cards_entry(other, "Enter deal 1")
    chip(other, "Anna: black Spies: 1")
    pile_shows(other, "Anna", 10)
    enter_deal(screen, 1, NAMES, BLACK_SPY["rounds"][0])  # meanwhile, on the first device
    see(other, "saved deal 1: ")  # at once, named, in numbers, beside the entry
    tap(other, "Save deal")  # typed as deal 1, which is taken: refused, nothing lost
    see(other, "Choose above what becomes of your entry.")
    pile_shows(other, "Anna", 10)
    first = scoring.standings({**BLACK_SPY, "rounds": BLACK_SPY["rounds"][:1]})
    shown(screen, f"Anna: total {first['totals']['Anna']}")
    tap(other, "Save mine as deal 2")  # seen, saved on purpose as the next deal
    see(other, "Deal 2 saved")
    shown(screen, "Enter deal 3")
