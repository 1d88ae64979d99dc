"""Playing the games through the app's screens, as a player would: in Chromium (a
Playwright `Page`, the browser tests) or in-process (a `screens.Screen`, the screen tests).

Each `enter_*` function takes a round as the game record writes it (e.g. from
tests/scenarios) and enters it with the same taps a player would make, on either.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from builders import SCENARIOS
from PIL import Image
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from screens import Screen

import scoring
from scoring import black_spy, kompromat, spywhere
from storage.colors import COLORS
from tools import browser
from tools.browser import AppServer, click_answered, css_string, messages_sent, where_it_went
from views.games.kompromat import effect_label
from views.i18n import Translator
from views.theme import player_color

EN = Translator("en")
# The `table` fixture: table(game, names, options=None, rounds=None, born=None) -> (app, page).
Seat = Callable[..., tuple[AppServer, Page]]
# The `on_phone` fixture: on_phone(folder, env=None) -> (app, page).
OnPhone = Callable[..., tuple[AppServer, Page]]
TARGETS = {
    "safe-1": "Safe 1",
    "safe-2": "Safe 2",
    "top-secret-1": "Top Secret 1",
    "top-secret-2": "Top Secret 2",
}


# A player's device: a browser test's page, or a screen test's screen.
Device = Page | Screen
Served = TypeVar("Served")  # what a game is seated at: a browser test's app, a screen test's table
OnDevice = TypeVar("OnDevice", Page, Screen)


def tap(page: Device, name: str, role: str = "button", timeout: float = 15_000) -> None:
    """Tap the control named `name` and wait for the app's answer."""
    if isinstance(page, Screen):
        page.tap(name, role)
    else:
        browser.tap(page, name, role, timeout)


def see(page: Device, text: str, timeout: float = 15_000) -> None:
    """Wait until the screen shows `text` (a screen has it at once, or not)."""
    if isinstance(page, Screen):
        page.see(text)
    else:
        browser.see(page, text, timeout)


def type_text(
    page: Device, field: str, text: str, submit: bool = False, drawn: bool = True
) -> None:
    """Type `text` into the field named `field` (and Enter, if `submit`)."""
    if isinstance(page, Screen):
        page.type_text(field, text, submit)
    else:
        browser.type_text(page, field, text, submit, drawn)


def checked_shown(page: Device, label: str, role: str = "checkbox") -> None:
    """Wait until the control named `label` is drawn checked."""
    if isinstance(page, Screen):
        assert page.checked(label, role), f"{label!r} is not checked; {page.texts()}"
    else:
        page.get_by_role(role, name=label, checked=True).first.wait_for()  # type: ignore[arg-type]


def gone(page: Device, text: str) -> None:
    """Wait until no control says `text`."""
    if isinstance(page, Screen):
        page.see_not(text)
    else:
        page.get_by_text(text).wait_for(state="detached", timeout=15_000)


def chip(page: Device, label: str, role: str = "checkbox", checked: bool = True) -> None:
    """Make the chip, checkbox or radio named `label` checked (or not), and wait for the app's
    answer."""
    if isinstance(page, Screen):
        page.chip(label, checked, role)
        return
    target = page.get_by_role(role, name=label, exact=True).first  # type: ignore[arg-type]
    target.wait_for(state="visible", timeout=15_000)
    want = "true" if checked else "false"
    if target.get_attribute("aria-checked") == want:
        return
    sent = messages_sent(page)
    click_answered(page, target, label)
    try:
        page.wait_for_function(
            "([label, want]) => [...document.querySelectorAll('flt-semantics[aria-checked]')]"
            ".some(e => e.getAttribute('aria-label') === label"
            " && e.getAttribute('aria-checked') === want)",
            arg=[label, want],
            timeout=15_000,
        )
    except PlaywrightTimeout:
        # Once seen in CI (a Kompromat mission card, 1 run in many): say which side lost it.
        raise AssertionError(
            f"chip {label!r}: tapped and answered, never drawn checked={want}; the page sent "
            f"{messages_sent(page) - sent} message(s) since; the accessibility tree has "
            f"{page.evaluate(CHIPS_NAMED, label)}; {where_it_went(page, target)}"
        ) from None


# Every node named `label` with its checked state, and what is focused.
CHIPS_NAMED = """(label) => [...document.querySelectorAll('flt-semantics')]
    .filter(e => e.getAttribute('aria-label') === label)
    .map(e => `${e.getAttribute('role')} checked=${e.getAttribute('aria-checked')}`)"""


def drawn_colors(page: Page, clip: dict[str, float] | None = None) -> set[str]:
    """Every colour the page shows (in `clip`, if given), as "#RRGGBB"."""
    pixels = Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("RGB")  # type: ignore[arg-type]
    found = pixels.getcolors(pixels.width * pixels.height) or []
    return {"#{:02X}{:02X}{:02X}".format(*rgb) for _, rgb in found}


def players_colors_drawn(page: Page, count: int, dark: bool = False) -> None:
    """The screen shows the first `count` colours of the palette, each exactly (a table whose
    players were added to the roster in seating order: each was given the next colour)."""
    wanted = {player_color(color, dark) for color in COLORS[:count]}
    assert wanted <= drawn_colors(page), f"not all of {sorted(wanted)} drawn"


def choose_form(page: Device, form: str) -> None:
    """Have the entry just opened in `form` (the switch's "Quick" or "Cards"): wait until the
    entry is drawn (its switch is there), then tap `form` unless it is the selected segment
    (Flutter marks it aria-current). Guessing the form from a control of one of them raced
    the drawing: looked for before the entry was drawn, it was missed."""
    if isinstance(page, Screen):
        if not page.checked(form, "button"):
            page.tap(form)
        return
    segment = page.get_by_role("button", name=form, exact=True).first
    segment.wait_for(state="attached", timeout=15_000)
    if segment.get_attribute("aria-current") != "true":
        tap(page, form)


def shown(page: Device, text: str, timeout: float = 15_000) -> None:
    """Wait until a control says `text`: its whole label, or a whole line of its text (Flutter
    merges the texts of a card or a list row into one node, a line each)."""
    if isinstance(page, Screen):
        page.shown(text)
        return
    line = re.compile(rf"(^|\n){re.escape(text)}(\n|$)")
    label = page.locator(f"flt-semantics[aria-label={css_string(text)}]")
    target = label.or_(page.get_by_text(line))
    target.first.wait_for(state="attached", timeout=timeout)


def scrolled_into_view(page: Device, label: str, bottom: float | None = None) -> None:
    """Wait until the control named `label` is wholly on the screen (above `bottom`, if
    given): the app has scrolled it there."""
    if isinstance(page, Screen):
        page.see(label)  # nothing scrolls here: that the app scrolls it is the browser's to see
        return
    height = page.viewport_size["height"] if page.viewport_size else 0
    page.wait_for_function(
        """([label, limit]) => [...document.querySelectorAll('flt-semantics')].some(e => {
            const name = e.getAttribute('aria-label') || e.textContent.trim();  // or its text
            const box = e.getBoundingClientRect();
            return name === label && box.top >= 0 && box.bottom <= limit;
        })""",
        arg=[label, height if bottom is None else bottom],
        timeout=15_000,
    )


def tap_starting(page: Device, prefix: str) -> None:
    """Tap the button whose name starts with `prefix` (a row whose texts are merged), and wait
    for the app's answer."""
    if isinstance(page, Screen):
        page.tap_starting(prefix)
        return
    target = page.get_by_role("button", name=re.compile(rf"^{re.escape(prefix)}\b")).first
    target.wait_for(state="visible", timeout=15_000)
    click_answered(page, target, prefix)


def save(page: Device, button: str, result: str) -> None:
    """Tap a save button and wait for what it says when saved."""
    tap(page, button)
    see(page, result)


def seat_table(
    folder: Path,
    game: str,
    names: list[str],
    options: dict[str, Any] | None = None,
    rounds: list[dict[str, Any]] | None = None,
    born: dict[str, str] | None = None,
) -> str:
    """What New game makes of `names` seated in this order, with the game's default options or
    those its form set (`options`) and the birth dates typed there (`born`): the players in the
    roster, the game started (with `rounds` saved) and the app reopening on it. Written to
    `folder` before the app is served from it (the `table` fixture), for tests whose point
    comes after New game: drawing that screen and typing the names cost more than most of
    them (tests of its own drive it). Returns the game's id."""
    from storage import Store
    from views import games

    options_of = games.view_of(game).options_of
    store = Store.open(folder)
    try:
        born = born or {}
        for name in names:
            store.add_player(name, born.get(name))
        players = [
            {"name": name, **({"born": born[name]} if name in born else {})} for name in names
        ]
        record = store.create_game(game, players, options_of(tuple(names), options or {}))
        for round_ in rounds or []:
            store.append_round(record["meta"]["id"], round_)
        store.set_setting("last_route", f"/game/{record['meta']['id']}")
        return str(record["meta"]["id"])
    finally:
        store.close()


def start_game(page: Device, title: str, names: list[str], known: bool = False) -> None:
    """New game of `title` with `names` seated in this order: typed as new players, or, when
    they are `known` (in the roster), tapped on their chips."""
    tap(page, "New game")
    tap_starting(page, title)
    for name in names:
        if known:
            chip(page, name)
        else:
            type_text(page, "New player", name, submit=True)
        see(page, f"Move {name} up")


# --- Black Spy ---------------------------------------------------------------------------------


def open_cards_entry(
    page: Device, label: str, cards: str = "Cards", device: str | None = None
) -> None:
    """Open a deal's entry (`label`, e.g. "Enter deal 2") with the cards: a table's first entry
    is the quick one (the number pad's keys are there), which "Cards" switches for this game.
    `device`: the device's first scoring action at a shared table, which names it so."""
    tap(page, label)
    if device is not None:
        name_device(page, device)
    choose_form(page, cards)


def name_device(page: Device, name: str) -> None:
    """Answer "Whose phone is this?" (asked on a device's first scoring action at a shared
    table) with `name`."""
    see(page, "Whose phone is this?")
    type_text(page, "Device name", name, drawn=False)
    tap(page, "Save name")
    gone(page, "Whose phone is this?")


def enter_deal(
    page: Device, number: int, names: list[str], deal: dict[str, Any], device: str | None = None
) -> None:
    """All players but the last, whose pile the app fills in with what is left. `device`: see
    `open_cards_entry`."""
    open_cards_entry(page, f"Enter deal {number}", device=device)
    for name in names[:-1]:
        pile = deal["cards"][name]
        for part, label in (("black_spies", "black Spies"), ("black_low", "black 1–6")):
            if pile[part]:  # a count is one tap on its number (0 is where a pile starts)
                chip(page, f"{name}: {label}: {pile[part]}")
        for rank in pile["black_high"]:
            chip(page, f"{name}: black {rank}")
        if pile["colored_spies"]:
            chip(page, f"{name}: coloured Spies: {pile['colored_spies']}")
    if "moon_choice" in deal:
        text = "Give 60 to everyone else" if deal["moon_choice"] == "give" else "Release"
        tap_starting(page, text)
    save(page, "Save deal", f"Deal {number} saved")


def black_spy_after_one_deal(
    seat: Callable[..., tuple[Served, OnDevice]], entered: bool = False
) -> tuple[Served, OnDevice]:
    """A Black Spy game at the table (`seat`: the `table` or `seated` fixture) after the basic
    scenario's first deal: saved before the app starts, or `entered` on its device (so that
    this device can undo it)."""
    scenario = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [player["name"] for player in scenario["players"]]
    if not entered:
        return seat("black-spy", names, rounds=scenario["rounds"][:1])
    served, device = seat("black-spy", names)
    enter_deal(device, 1, names, scenario["rounds"][0])
    return served, device


def pile_shows(page: Device, name: str, points: int) -> None:
    """Wait until `name`'s pile card in the deal's entry says `points`."""
    if isinstance(page, Screen):
        assert page.says(f"{name}\n{points} points\n"), page.texts()
        return
    page.wait_for_function(
        "start => [...document.querySelectorAll('flt-semantics[aria-label]')]"
        ".some(e => e.getAttribute('aria-label').startsWith(start))",
        arg=f"{name}\n{points} points\n",
        timeout=15_000,
    )


def card_says(page: Device, name: str, text: str) -> None:
    """Wait until `name`'s pile card in the deal's entry says `text` (its texts are merged)."""
    if isinstance(page, Screen):
        assert page.says(f"{name}\n", text), page.texts()
        return
    page.wait_for_function(
        "([start, text]) => [...document.querySelectorAll('flt-semantics[aria-label]')]"
        ".some(e => e.getAttribute('aria-label').startsWith(start)"
        " && e.getAttribute('aria-label').includes(text))",
        arg=[f"{name}\n", text],
        timeout=15_000,
    )


# --- SPY ---------------------------------------------------------------------------------------


def enter_spy_event(page: Device, event: dict[str, Any], number: int) -> None:
    chip(page, f"Who spied?: {event['by']}")
    chip(page, f"On whose base?: {event['base']}")
    if event["event"] == "target":
        tap_starting(page, "Found")
    else:
        tap(page, "Lit a bomb" if event["event"] == "bomb-lit" else "Lit bomb exploded")
    logged = re.compile(rf"^{number} {re.escape(event['by'])} ")
    if isinstance(page, Screen):
        # The row's texts are lines of its name here; Playwright matches them joined by spaces.
        row = re.compile(rf"^{number}\s+{re.escape(event['by'])} ")
        assert page.find(row, "button"), page.texts()
        return
    page.get_by_role("button", name=logged).first.wait_for(state="attached", timeout=15_000)


# --- Spywhere ----------------------------------------------------------------------------------

NATIONALITIES = {
    "italy": "Italy",
    "england": "England",
    "france": "France",
    "spain": "Spain",
    "belgium": "Belgium",
    "germany": "Germany",
}


def enter_spywhere_counts(page: Device, names: list[str], ending: dict[str, Any]) -> None:
    """The end in counts form, as a table enters it quickly: each player's own cards on the
    pad (it moves on by itself, or by "Next player" after a number that could grow), how many
    they named right (0 needs no tap), who ended the game (the pile running out needs none)."""
    choose_form(page, "Quick")
    limit = spywhere.own_cards_limit(len(names))
    for name in names:
        own = ending["counts"][name]["own_cards"]
        for digit in str(own):
            tap(page, digit)
        if own > 0 and own * 10 <= limit:
            tap(page, "Next player")
    for name in names:
        if correct := ending["counts"][name]["correct"]:
            chip(page, f"{name} named {correct} right")
    if ending["ended_by"]:
        chip(page, f"Who ended the game?: {ending['ended_by']}")
    save(page, "Save scores", "Scores saved")


def enter_spywhere_ending(page: Device, names: list[str], ending: dict[str, Any]) -> None:
    """The end as laid open, in the wizard ("Cards": the first entry of a table is quick)."""
    choose_form(page, "Cards")
    two = len(names) == 2
    for name in names:
        for slot, nationality in enumerate(ending["passports"][name]):
            label = f"{name}'s passport {slot + 1}" if two else f"{name}'s passport"
            chip(page, f"{label}: {NATIONALITIES[nationality]}")
    tap(page, "Next")
    for name in names:
        for _ in range(ending["own_cards"][name]):
            tap(page, f"{name}: own cards plus")
    tap(page, "Next")
    for guesser, made in ending["identifications"].items():
        for opponent, guesses in made.items():
            for guess in guesses:
                chip(page, f"{guesser} on {opponent}: {NATIONALITIES[guess]}")
    tap(page, "Next")
    if ending["ended_by"]:
        chip(page, f"{ending['ended_by']} tried everyone", role="radio")
    save(page, "Save scores", "Scores saved")


# --- Kompromat ---------------------------------------------------------------------------------

ITEMS = {item: str(name) for item, name in scoring.kompromat.ITEM_NAMES.items()}


def mission_card_text(card: dict[str, Any]) -> str:
    if card["kind"] == "target":
        return f"Target ({card['vp']} VP)"
    if card["kind"] == "item":
        return ITEMS[card["item"]]
    return card["kind"].capitalize()


def open_round_with_cards(page: Device, number: int) -> None:
    """Open Kompromat's round `number` with the cards: a table's first entry is the quick one
    (its missions' outcomes; no keypad of cards), which "Cards" switches for this game."""
    tap_starting(page, f"Enter round {number} of 6")
    choose_form(page, "Cards")


def enter_kompromat_round(page: Device, number: int, names: list[str], rnd: dict[str, Any]) -> None:
    """A round by its cards, as the table reads each mission: the cards each player laid, the
    "!" marks, a perfect 21's token back, and the mission card last, which opens the next
    mission by itself once everyone has laid cards there (or has none left)."""
    open_round_with_cards(page, number)
    laid: dict[str, int] = dict.fromkeys(names, 0)  # cards each player laid this round so far
    for index, mission in enumerate(rnd["missions"]):
        if index:  # the mission opened by itself, or (nobody laid cards there) by its tab
            chip(page, f"Mission {index + 1}")
        plays = mission.get("plays", {})
        for name in names:
            for card in plays.get(name, []):
                tap(page, f"{name} plays {'0.5' if card == 0.5 else card}")
            laid[name] += len(plays.get(name, []))
        if mission.get("alarm"):
            tap(page, "!" * mission["alarm"])
        for name in mission.get("perfect_return", []):
            chip(page, f"Perfect 21: {name} returns a token")
        card = f"Mission card: {mission_card_text(mission['card'])}"
        everyone_laid = all(plays.get(name) or laid[name] == kompromat.DECK_SIZE for name in names)
        if index == len(rnd["missions"]) - 1 or not everyone_laid:
            chip(page, card)
        else:  # the next mission opens: this chip is not there to be seen checked
            tap(page, card, role="checkbox")
            checked_shown(page, f"Mission {index + 2}")
    save(page, "Save round", f"Round {number} saved")


MARKS = {"busts": "above 21", "perfect": "21", "no_cards": "no cards"}


def effect_chip(effect: dict[str, Any]) -> str:
    """The chip that uses an item, named as the entry names it ("Newspaper: +3 for Ben")."""
    used = kompromat.Effect(
        effect["item"],
        effect["by"],
        effect.get("as", effect["item"]),
        effect.get("on"),
        effect.get("adjust", 0),
    )
    return effect_label(EN, used)


def enter_kompromat_outcomes(
    page: Device, number: int, names: list[str], rnd: dict[str, Any], then_save: bool = True
) -> None:
    """A round in outcome form, as a table enters it quickly (`mission_outcome_taps`), each
    mission once it has opened by itself (not after the mission that ended the game by 9
    tokens: the round's last in the record). `then_save`: tap Save round (else the entry stays
    open)."""
    tap_starting(page, f"Enter round {number} of 6")
    choose_form(page, "Quick")
    missions = rnd["missions"]
    for index, mission in enumerate(missions):
        mission_opened(page, index)
        for _, tapped in mission_outcome_taps(page, mission, names, index == len(missions) - 1):
            tapped()
    if then_save:
        save(page, "Save round", f"Round {number} saved")


def mission_opened(page: Device, index: int) -> None:
    """Wait until mission `index` (from 0) is the one shown (its tab the selected one)."""
    checked_shown(page, f"Mission {index + 1}")


def mission_outcome_taps(
    page: Device, mission: dict[str, Any], names: list[str], last: bool
) -> list[tuple[str, Callable[[], None]]]:
    """The taps that enter `mission` in outcome form, each named, in a table's order: its
    marks (above 21, 21, no cards), a perfect 21's token back, the "!" marks, the items used,
    who won unless the marks decided it, and its card, after which the next mission opens by
    itself unless it is the `last`."""
    outcome = mission["outcome"]
    marks = {mark: frozenset(outcome.get(mark, [])) for mark in MARKS}
    chips = [
        f"{name}: {label}"
        for mark, label in MARKS.items()
        for name in sorted(marks[mark], key=names.index)
    ]
    chips += [f"Perfect 21: {name} returns a token" for name in mission.get("perfect_return", [])]
    taps: list[tuple[str, Callable[[], None]]] = [
        (label, lambda label=label: chip(page, label)) for label in chips
    ]
    if mission.get("alarm"):
        alarm = "!" * mission["alarm"]
        taps.append((alarm, lambda: tap(page, alarm)))
    for effect in mission.get("effects", []):
        used = effect_chip(effect)
        taps.append((used, lambda used=used: chip(page, used)))
    if kompromat.decided_by_marks(names, marks) != (True, outcome["winner"]):
        winner = f"{outcome['winner']} wins" if outcome["winner"] else "Nobody wins"
        taps.append((winner, lambda: tap(page, winner)))
    card = f"Mission card: {mission_card_text(mission['card'])}"
    if last:
        taps.append((card, lambda: chip(page, card)))
    else:  # the next mission opens: this chip is not there to be seen checked
        taps.append((card, lambda: tap(page, card, role="checkbox")))
    return taps


def type_pile(page: Device, value: int, low: int, high: int) -> None:
    """Type one pile's points on the number pad; "Next pile" only where the pad cannot know
    the number is whole (a 2 may become 20)."""
    if value < 0:
        tap(page, "Minus")
    for digit in str(abs(value)):
        tap(page, digit)
    if black_spy.can_grow(abs(value), value < 0, low, high):
        tap(page, "Next pile")


def enter_deal_quickly(
    page: Device, number: int, names: list[str], deal: dict[str, Any], options: dict[str, Any]
) -> None:
    """A deal in points form as a table types it: each pile but the last (which fills itself
    in), a tap on the moon of who took all 16 black cards, the choice, Save."""
    rules = black_spy.Options(names[0], frozenset(options.get("variants", [])), 150)
    tap(page, f"Enter deal {number}")
    taker = deal.get("moon_taker")
    for name in names[:-1]:
        if name == taker:
            tap(page, f"{name} took all 16 black cards")
        low, high = black_spy.pile_limits(rules, moon=name == taker)
        type_pile(page, deal["points"][name], low, high)
    if taker == names[-1]:
        tap(page, f"{taker} took all 16 black cards")
    if "moon_choice" in deal:
        text = "Give 60 to everyone else" if deal["moon_choice"] == "give" else "Release"
        tap_starting(page, text)
    save(page, "Save deal", f"Deal {number} saved")


def exported_everything(page: Device, folder: Path) -> tuple[Path, dict[str, Any]]:
    """On Settings: "Export everything", its download kept as `folder`/backup.json; the file
    and the backup it holds."""
    saved = folder / "backup.json"
    if isinstance(page, Screen):
        before = len(page.downloads)
        tap(page, "Export everything")
        assert len(page.downloads) == before + 1, "Export everything saved no file"
        saved.write_bytes(page.downloads[-1][1])
        return saved, json.loads(saved.read_text(encoding="utf-8"))
    with page.expect_download(timeout=30_000) as download:
        tap(page, "Export everything")
    download.value.save_as(saved)
    return saved, json.loads(saved.read_text(encoding="utf-8"))
