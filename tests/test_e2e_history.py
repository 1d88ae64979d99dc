"""History, a game's page, player statistics and backups, in Chromium, on a seeded data folder.

Expected figures are worked out here from the records with `scoring`, independently of the
statistics code the app uses.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from builders import ROOT, SCENARIOS
from playwright.sync_api import Browser, Page
from ui import EN, OnPhone, chip, drawn_colors, exported_everything, shown, tap_starting

import scoring
from storage import Store
from storage.backup import apply_import, plan_import
from storage.bgstats import CREATE_PLAY
from tools.browser import AppServer, click_answered, open_app, see, settled, tap
from views.theme import player_color

sys.path.insert(0, str(ROOT / "tools"))
import seed

pytestmark = pytest.mark.e2e
GENERATED = 60  # more than a page of the history (40)


def scenarios() -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text())
        for p in sorted(SCENARIOS.glob("*.json"))
        if not p.name.endswith(".expected.json")
    ]


@pytest.fixture
def records() -> list[dict[str, Any]]:
    return [*scenarios(), *seed.generated(GENERATED, seed=11)]


@pytest.fixture
def seeded(
    tmp_path: Path, records: list[dict[str, Any]], on_phone: OnPhone
) -> tuple[AppServer, Page]:
    """The app on a data folder that holds `records`, and the phone's page on it."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    apply_import(store, plan_import(store, records, "test"))
    store.close()
    return on_phone(folder)


@pytest.fixture
def history_page(seeded: tuple[AppServer, Page]) -> Page:
    return seeded[1]


def plays(record: dict[str, Any], name: str) -> bool:
    return name in [p["name"] for p in record["players"]]


def test_history_lists_every_game_and_filters_by_game_and_player(
    history_page: Page, records: list[dict[str, Any]]
) -> None:
    page = history_page
    tap(page, "History")
    shown(page, f"{len(records)} games")
    more = f"Show more ({len(records) - 40} left)"  # a page of the history holds 40
    assert page.get_by_role("button", name=more).count() == 1
    chip(page, "Game: Spywhere")
    shown(page, f"{sum(r['game'] == 'spywhere' for r in records)} games")
    chip(page, "Player: Anna")
    expected = sum(r["game"] == "spywhere" and plays(r, "Anna") for r in records)
    shown(page, f"{expected} games")
    chip(page, "Game: All games")
    shown(page, f"{sum(plays(r, 'Anna') for r in records)} games")


def test_a_games_page_shows_its_chart_and_totals(history_page: Page) -> None:
    page = history_page
    spywhere = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    tap(page, "History")
    chip(page, "Game: Spywhere")
    chip(page, "Player: Carla")  # the generated games (fixed seed) never seat these four so
    tap_starting(page, "Spywhere · Anna, Ben, Carla, Dirk")
    shown(page, "Totals over the rounds")
    shown(page, "Chart: Totals over the rounds")
    standings = scoring.standings(spywhere)
    for name, total in standings["totals"].items():  # the result: place, name, total
        place = standings["places"][name]
        shown(page, EN("{place}. {name}: {score}", place=place, name=name, score=EN.number(total)))
    logged_in_bgstats(page, standings)
    # Deleted at one tap, and undone from the note that says so.
    tap(page, "Delete game")
    see(page, "Game deleted; History lists it under Deleted games to restore.")
    assert (
        page.get_by_role("button", name=re.compile("^Spywhere · Anna, Ben, Carla, Dirk")).count()
        == 0
    )
    tap(page, "Undo")
    see(page, "Game restored.")
    tap_starting(page, "Spywhere · Anna, Ben, Carla, Dirk")  # listed again, and it opens
    shown(page, "Totals over the rounds")


def logged_in_bgstats(page: Page, standings: dict[str, Any]) -> None:
    """ "Log in BG Stats" shows the link's code and opens BG Stats' createPlay link with the
    game as its play (BG Stats itself answered here by the test: this machine has no
    internet)."""
    page.context.route(f"{CREATE_PLAY}*", lambda route: route.fulfill(body="BG Stats"))
    tap(page, "Log in BG Stats")
    see(page, "Code of the BG Stats link")
    with page.context.expect_page() as opened:
        tap(page, "Open BG Stats here")
    url = opened.value.url
    assert url.startswith(f"{CREATE_PLAY}?data=")
    play = json.loads(parse_qs(urlsplit(url).query)["data"][0])
    assert play["game"]["sourceGameId"] == "spywhere" and play["sourceName"] == "Debrief"
    scores = {player["name"]: player["score"] for player in play["players"]}
    assert scores == {name: int(total) for name, total in standings["totals"].items()}
    assert [p["name"] for p in play["players"] if p["winner"]] == standings["winners"]
    opened.value.close()


def test_statistics_count_the_games_of_a_period_and_a_group(
    history_page: Page, records: list[dict[str, Any]]
) -> None:
    """The statistics screen counts the finished games, and for a group those that all of
    them played (counted here from the records themselves)."""
    page = history_page
    over = [r for r in records if scoring.replay(r).finished]
    both = [r for r in over if plays(r, "Anna") and plays(r, "Ben")]
    tap(page, "Statistics")
    see(page, EN.plural("{count} game", "{count} games", len(over)))
    for name in ("Anna", "Ben"):
        click_answered(page, page.get_by_role("checkbox", name=name, exact=True).first, name)
    see(page, EN.plural("{count} game", "{count} games", len(both)))
    see(page, "Rival: ")
    tap(page, "Year in review")  # the latest year with games, on one card
    see(page, " at the table")
    see(page, "Best game of the year")
    tap(page, "Back")
    tap_starting(page, "Spywhere: Most correct identifications")  # a record opens its game
    shown(page, "Totals over the rounds")


def test_a_spy_game_is_told_in_events_and_places(history_page: Page) -> None:
    """SPY has events, not rounds, and places, not points: its page says so."""
    page = history_page
    spy = json.loads((SCENARIOS / "spy-three-players.json").read_text())
    events = len(spy["rounds"])
    tap(page, "History")
    chip(page, "Game: SPY")
    row = page.get_by_role(
        "button", name=re.compile(rf"SPY · Anna, Ben, Carla.*\b{events} events\b")
    )
    click_answered(page, row.first, "the scenario's SPY game")
    shown(page, "Places over the events")
    assert page.get_by_text(re.compile(r"\brounds?\b")).count() == 0


def test_player_statistics_match_the_records(
    history_page: Page, records: list[dict[str, Any]]
) -> None:
    page = history_page
    tap(page, "Players")
    tap_starting(page, "Anna")
    see(page, "Statistics")
    for game, title in (
        ("spywhere", "Spywhere"),
        ("black-spy", "Black Spy"),
        ("spy", "SPY"),
        ("kompromat", "Kompromat"),
    ):
        played = [
            r
            for r in records
            if r["game"] == game and plays(r, "Anna") and scoring.replay(r).finished
        ]
        if not played:
            continue
        wins = sum("Anna" in scoring.replay(r).winners for r in played)
        totals = [scoring.replay(r).totals["Anna"] for r in played]
        average = round(float(sum(totals, Fraction(0)) / len(totals)), 1)
        shown(page, f"{title} Games: {len(played)}")
        shown(page, f"{title} Wins: {wins}")
        average_of = "Average place" if game == "spy" else "Average"  # SPY ranks, no points
        shown(page, f"{title} {average_of}: {EN.number(average)}")
        if game == "black-spy":
            moons = sum(d["moon"] == "Anna" for r in played for d in scoring.standings(r)["deals"])
            shown(page, f"{title} Moons shot: {moons}")
    # Her colour, chosen on her page, is hers in the roster from then on (her line's icon).
    chip(page, "Colour: Pink")
    tap(page, "Back")
    line = page.get_by_role("button", name=re.compile(r"^Anna\b")).first
    line.wait_for()
    settled(page)
    drawn = drawn_colors(page, line.bounding_box())
    assert player_color("pink", dark=False) in drawn
    assert player_color("blue", dark=False) not in drawn  # given her first, in turn


def test_export_and_import_through_the_app(
    browser: Browser, history_page: Page, tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    page = history_page
    tap(page, "Settings")
    backup_file, exported = exported_everything(page, tmp_path)
    assert exported["format"] == "debrief-backup/1" and len(exported["games"]) == len(records)

    empty = AppServer(tmp_path / "empty").start()
    try:
        fresh = open_app(browser, empty.url)
        tap(fresh, "Settings")
        with fresh.expect_file_chooser(timeout=30_000) as chooser:
            tap(fresh, "Import a file")
        chooser.value.set_files(str(backup_file))
        players = len(exported["players"])
        shown(
            fresh,
            f"backup.json: adds {len(records)} games and {players} players; "
            "0 games are already here and are skipped.",
        )
        tap(fresh, "Import")
        see(fresh, f"Imported {len(records)} games")
        tap(fresh, "Back")
        tap(fresh, "History")
        shown(fresh, f"{len(records)} games")
        fresh.close()
    finally:
        empty.stop()
    store = Store.open(tmp_path / "empty")
    try:
        again = {r["meta"]["id"]: r for r in store.all_records()}
        assert again == {g["meta"]["id"]: g for g in exported["games"]}
    finally:
        store.close()


def test_a_bad_file_is_refused_with_the_reason_and_nothing_changes(
    history_page: Page, tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    page = history_page
    bad = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    bad["rounds"][2]["cards"]["Ben"]["black_spies"] = 7
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    tap(page, "Settings")
    with page.expect_file_chooser(timeout=30_000) as chooser:
        tap(page, "Import a file")
    chooser.value.set_files(str(path))
    shown(page, "bad.json was not imported; nothing was changed:")
    shown(page, "rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal")
    tap(page, "Back")
    tap(page, "History")
    shown(page, f"{len(records)} games")


def test_a_finished_game_opens_read_only_and_a_correction_asks_first(history_page: Page) -> None:
    page = history_page
    spywhere = json.loads((SCENARIOS / "spywhere-four-players.json").read_text())
    tap(page, "History")
    chip(page, "Game: Spywhere")
    chip(page, "Player: Carla")
    tap_starting(page, "Spywhere · Anna, Ben, Carla, Dirk")
    tap(page, "Open at the table")
    winner = " & ".join(scoring.standings(spywhere)["winners"])
    shown(page, EN("Game over: {names} won!", names=winner))
    shown(page, "This game is in the history.")
    tap(page, "Correct the end of the game")
    see(page, "This game is finished. Correct it anyway?")  # asked first
    tap(page, "Cancel")
    tap(page, "Back")
    shown(page, "Games in progress")
    listed = page.get_by_role("button", name=re.compile(r"^Spywhere · Anna, Ben, Carla, Dirk"))
    assert listed.count() == 0  # still in the history, not back at the table
