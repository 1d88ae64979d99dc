"""Regenerate the phone-size screenshots in docs/screenshots/ (shown in docs/manual.md and the
README).

    python tools/screenshots.py [--out FOLDER]

Serves the app from a temporary data folder, plays the shared scenarios through the screens
(as the browser tests do) and photographs each main screen at 400 x 800.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from builders import BASIC_ENDING, SCENARIOS  # noqa: E402
from damaged import games_in_progress  # noqa: E402
from ui import (  # noqa: E402
    chip,
    enter_deal,
    enter_kompromat_round,
    enter_spy_event,
    enter_spywhere_ending,
    name_device,
    open_round_with_cards,
    seat_table,
    start_game,
    tap_starting,
)

from scoring import black_spy  # noqa: E402
from storage import Store  # noqa: E402
from storage.backup import apply_import, plan_import  # noqa: E402
from tools import seed  # noqa: E402
from tools.browser import AppServer, chromium, open_app, see, shot, tap  # noqa: E402
from views.i18n import Translator  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def scenario(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def main() -> int:
    global OUT
    if "--out" in sys.argv:
        OUT = Path(sys.argv[sys.argv.index("--out") + 1]).resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        server = AppServer(Path(folder) / "data").start()
        try:
            page = open_app(browser, server.url)
            try:
                take(page)
            except Exception:
                page.screenshot(path=str(OUT.parent / "screenshots-failed.png"), full_page=True)
                raise
            finally:
                page.context.close()  # each open page holds a WebGL context; a few too many
                # and a new page draws nothing
        finally:
            server.stop()
        seeded = Path(folder) / "seeded"
        store = Store.open(seeded)
        apply_import(store, plan_import(store, seed.generated(1000), "generated"))
        store.close()
        server = AppServer(seeded).start()
        page = open_app(browser, server.url)
        try:
            take_history(page)
        finally:
            page.context.close()
            server.stop()
        for language, scheme in (("de", "light"), ("en", "dark")):
            at_table = Path(folder) / f"{language}-{scheme}"
            games_in_progress(at_table, language)
            server = AppServer(at_table).start()
            try:
                context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
                take_every_screen(open_app(context, server.url), f"{language}-{scheme}")
            finally:
                context.close()
                server.stop()
        take_shared(browser, Path(folder) / "shared")
        for language in ("en", "de"):
            take_conflict(browser, Path(folder) / f"conflict-{language}", language)
            take_result(browser, Path(folder) / f"result-{language}", language)
        take_table_result(browser, Path(folder) / "table-result")
    print(f"screenshots written to {OUT}/")
    return 0


def take(page) -> None:  # type: ignore[no-untyped-def]
    black_spy = scenario("black-spy-basic")
    names = [p["name"] for p in black_spy["players"]]
    shot(page, OUT / "01-home-empty.png")
    start_game(page, "Black Spy", names)
    chip(page, "The Mole")
    shot(page, OUT / "02-new-game.png")
    tap(page, "Start Black Spy")
    for number, deal in enumerate(black_spy["rounds"][:2], start=1):
        enter_deal(page, number, names, deal)
    shot(page, OUT / "03-black-spy-sheet.png")
    tap(page, "Enter deal 3")  # the game remembers the cards entry chosen for deal 1
    chip(page, "Anna: black Spies: 1")
    chip(page, "Anna: coloured Spies: 1")
    shot(page, OUT / "04-black-spy-deal.png")
    tap(page, "Discard")
    tap(page, "Back")

    kompromat = scenario("kompromat-first-round")
    start_game(page, "Kompromat", [p["name"] for p in kompromat["players"]])
    tap(page, "Start Kompromat")
    enter_kompromat_round(page, 1, ["Anna", "Ben"], kompromat["rounds"][0])
    shot(page, OUT / "05-kompromat.png")
    open_round_with_cards(page, 2)
    chip(page, "Mission card: Target (5 VP)")
    tap(page, "Anna plays 10")
    tap(page, "Anna plays 1/11")
    tap(page, "Ben plays 9")
    shot(page, OUT / "06-kompromat-mission.png")
    tap(page, "Quick")  # the same mission by its outcome
    chip(page, "Ben: above 21")
    shot(page, OUT / "06-kompromat-quick.png")
    tap(page, "Discard")
    tap(page, "Back")

    spy = scenario("spy-three-players")
    start_game(page, "SPY", [p["name"] for p in spy["players"]])
    tap(page, "Start SPY")
    for number, event in enumerate(spy["rounds"], start=1):
        enter_spy_event(page, event, number)
    shot(page, OUT / "07-spy.png")
    tap(page, "Back")

    spywhere = scenario("spywhere-four-players")
    start_game(page, "Spywhere", [p["name"] for p in spywhere["players"]])
    tap(page, "Start Spywhere")
    for key in "53":
        tap(page, key)
    chip(page, "Anna named 2 right")
    shot(page, OUT / "08-spywhere-quick.png")
    tap(page, "Cards")
    shot(page, OUT / "08-spywhere-wizard.png")
    enter_spywhere_ending(page, [p["name"] for p in spywhere["players"]], spywhere["rounds"][0])
    shot(page, OUT / "09-spywhere-result.png")
    tap(page, "Back")
    see(page, "Games in progress")
    shot(page, OUT / "10-home.png")
    tap(page, "Settings")
    tap(page, "Deutsch")
    tap(page, "Zurück")
    see(page, "Laufende Spiele")
    shot(page, OUT / "11-home-deutsch.png")


def take_history(page) -> None:  # type: ignore[no-untyped-def]
    """History, a game's page and a player's statistics over a thousand games."""
    tap(page, "History")
    see(page, "1000 games")
    page.wait_for_timeout(2000)  # the first page of the list is painted after it is announced
    shot(page, OUT / "12-history.png")
    chip(page, "Game: Black Spy")
    tap_starting(page, "Black Spy")
    see(page, "Totals over the deals")
    shot(page, OUT / "13-game-page.png")
    tap(page, "Back")
    tap(page, "Back")
    tap(page, "Players")
    tap_starting(page, "Anna")
    see(page, "Statistics")
    shot(page, OUT / "14-player.png")
    tap(page, "Back")
    tap(page, "Back")
    tap(page, "Statistics")
    see(page, "Rival: ")
    shot(page, OUT / "29-statistics.png")
    tap(page, "Year in review")
    see(page, "Best game of the year")
    shot(page, OUT / "30-year-in-review.png")
    tap(page, "Back")
    tap(page, "Back")
    tap(page, "Settings")
    shot(page, OUT / "15-settings.png")


def take_every_screen(page, prefix: str) -> None:  # type: ignore[no-untyped-def]
    """Every screen with four games at the table, in the app's language and colour scheme
    (German light and English dark: each word must fit, each colour must read)."""
    language = prefix.split("-")[0]
    t = Translator(language)
    see(page, t("Games in progress"))
    shot(page, OUT / f"{prefix}-01-home.png")
    for number, (title, entry) in enumerate(
        [
            ("Black Spy", t("Enter deal {number}", number=4)),
            ("Kompromat", None),
            ("SPY", None),
            ("Spywhere", None),
        ],
        start=2,
    ):
        page.get_by_role("button", name=re.compile(rf"^{re.escape(title)} · ")).first.click()
        page.get_by_role("button", name=t("Back"), exact=True).first.wait_for()
        see(page, title)
        shot(page, OUT / f"{prefix}-{number:02}-{title.lower().replace(' ', '-')}.png")
        if title == "Kompromat":
            entry_button = t(
                "Enter round {number} of {rounds} ({name} starts)", number=2, rounds=6, name="Anna"
            )
            tap(page, entry_button)
            see(page, t("Mission card"))
            shot(page, OUT / f"{prefix}-{number:02}-kompromat-entry.png")
            tap(page, t("Discard"))
        if entry is not None:
            tap(page, entry)
            shot(page, OUT / f"{prefix}-{number:02}-black-spy-entry.png")
            tap(page, t("Discard"))
        tap(page, t("Back"))
    tap(page, t("New game"))
    tap_starting(page, "Black Spy")
    shot(page, OUT / f"{prefix}-06-new-game.png")
    tap(page, t("Back"))
    for number, screen in enumerate(("History", "Players", "Settings"), start=7):
        tap(page, t(screen))
        see(page, t(screen))
        shot(page, OUT / f"{prefix}-{number:02}-{screen.lower()}.png")
        tap(page, t("Back"))


def take_shared(browser, folder: Path) -> None:  # type: ignore[no-untyped-def]
    """A shared table: the host's share panel, and a viewer's phone in light and dark."""
    games_in_progress(folder, "en")
    server = AppServer(folder, args=["--share"]).start()
    contexts = []
    try:
        host = open_app(browser, server.url)
        contexts.append(host.context)
        page_of_game = re.compile(r"^Black Spy · ")
        host.get_by_role("button", name=page_of_game).first.click()
        tap(host, "Sharing this table")  # --share: shared from the start
        shot(host, OUT / "16-share-this-table.png")
        for scheme in ("light", "dark"):
            context = browser.new_context(color_scheme=scheme)
            contexts.append(context)
            viewer = open_app(context, server.printed("Guests open:"))
            see(viewer, "Scoresheet")
            shot(viewer, OUT / f"17-viewer-{scheme}.png")
    finally:
        for context in contexts:
            context.close()
        server.stop()


@contextmanager
def host_and_guest(browser, folder: Path) -> Iterator[tuple[AppServer, Any, Any]]:  # type: ignore[no-untyped-def]
    """The app shared from `folder`, a host's page and a guest's (each a device of its own),
    closed and stopped after."""
    server = AppServer(folder, args=["--share"]).start()
    contexts = []
    try:
        host = open_app(browser, server.url)
        contexts.append(host.context)
        guest = open_app(browser, server.printed("Guests open:"))
        contexts.append(guest.context)
        yield server, host, guest
    finally:
        for context in contexts:
            context.close()
        server.stop()


def take_conflict(browser, folder: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """Two scorers, one deal: a host and a phone enter deal 4, the phone saves first; the host
    (in `language`) is asked its name, then sees the phone's deal beside its own; the share
    panel lists the phone."""
    names = ["Anna", "Ben", "Carla", "Dirk"]
    seat_table(folder, "black-spy", names, rounds=[{"points": dict.fromkeys(names, 15)}] * 3)
    if language == "de":
        store = Store.open(folder)
        store.set_setting("language", "de")
        store.close()
    t = Translator(language)
    with host_and_guest(browser, folder) as (server, host, phone):
        tap(phone, "Score")
        for digit in server.printed("Scorers' PIN:"):
            tap(phone, digit)
        tap(phone, "Enter deal 4")
        name_device(phone, "Ben's phone" if language == "en" else "Bens Handy")
        tap(host, t("Enter deal {number}", number=4))
        see(host, t("Whose phone is this?"))
        shot(host, OUT / f"19-whose-phone-{language}.png")
        tap(host, t("Save name"))
        limits = black_spy.pile_limits(black_spy.Options(names[0], frozenset(), 150), moon=False)
        for page, points in ((phone, [18, 20, 20]), (host, [10, 20, 20])):
            for value in points:
                for digit in str(value):
                    tap(page, digit)
                if black_spy.can_grow(value, False, *limits):
                    tap(page, t("Next pile"))
        tap(phone, "Save deal")
        see(host, t("Yours: {points}", points=""))
        shot(host, OUT / f"18-conflict-{language}.png")
        host.get_by_role("button", name=re.compile("^" + t("Sharing this table"))).first.click()
        see(host, t("Phones connected"))
        shot(host, OUT / f"20-phones-connected-{language}.png")


def take_result(browser, folder: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """A game of Black Spy that took an hour and a quarter: its result, on its page in the
    history (as at the table when it ended, but for Finish)."""
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    record["rounds"].append(BASIC_ENDING)
    record["meta"] = {
        "id": "result",
        "started": "2026-11-27T20:00:00+01:00",
        "ended": "2026-11-27T21:14:00+01:00",
    }
    store = Store.open(folder)
    try:
        store.add_games([record])
        store.set_setting("language", language)
    finally:
        store.close()
    t = Translator(language)
    server = AppServer(folder).start()
    try:
        page = open_app(browser, server.url)
        tap(page, t("History"))
        page.get_by_role("button", name=re.compile("^Black Spy · ")).first.click()
        see(page, t("Play again"))
        shot(page, OUT / f"21-result-{language}.png")
        page.context.close()
    finally:
        server.stop()


def take_table_result(browser, folder: Path) -> None:  # type: ignore[no-untyped-def]
    """A shared table's last deal: the result on the host and a guest's phone, the picture a
    guest shares, the next game after Play again (and the guest told of it, its result kept),
    and the guest's phone when the host stops sharing."""
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [p["name"] for p in record["players"]]
    seat_table(folder, "black-spy", names, options=record["options"], rounds=record["rounds"])
    with host_and_guest(browser, folder) as (_, host, guest):
        see(guest, "Scoresheet")
        enter_deal(host, len(record["rounds"]) + 1, names, BASIC_ENDING, device="Host")
        see(guest, "Share as picture")
        shot(host, OUT / "23-result-host.png")
        shot(guest, OUT / "24-result-guest.png")
        with guest.expect_download() as caught:
            tap(guest, "Share as picture")
        caught.value.save_as(OUT / "25-result-picture.png")
        tap(host, "Play again")
        see(host, "Enter deal 1")
        shot(host, OUT / "26-next-game.png")
        see(guest, "The host started a new game")
        shot(guest, OUT / "27-guest-next-game.png")
        tap(host, "Sharing this table")
        tap(host, "Stop sharing")
        see(guest, "The host stopped sharing.")
        shot(guest, OUT / "28-guest-sharing-stopped.png")


if __name__ == "__main__":
    sys.exit(main())
