"""History, a game's page, player statistics and backups through the app's screens in-process
(tests/screens.py), on a seeded data folder.

Expected figures are worked out here from the records with `scoring`, independently of the
statistics code the app uses. The browser keeps what needs it: a backup's real download and a
file chosen in Chromium's file chooser (tests/test_e2e_names.py, tests/test_e2e_resources.py,
tests/test_e2e_site.py), the colours players are drawn in (tests/test_e2e_share.py).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import flet as ft
import pytest
from builders import ROOT, SCENARIOS
from screens import Screen, Table
from ui import EN, chip, exported_everything, see, shown, tap, tap_starting

import scoring
from storage import Store
from storage.backup import apply_import, plan_import
from storage.bgstats import CREATE_PLAY
from views.theme import player_color

sys.path.insert(0, str(ROOT / "tools"))
import seed

GENERATED = 60  # more than a page of the history (40)


def scenarios() -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text())
        for p in sorted(SCENARIOS.glob("*.json"))
        if not p.name.endswith(".expected.json")
    ]


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return [*scenarios(), *seed.generated(GENERATED, seed=11)]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, records: list[dict[str, Any]]) -> Path:
    """A data folder that holds `records`, made once for this file's tests (generating and
    importing them took 0.6 CPU-s, twice what a test here takes); each test has a copy."""
    folder = tmp_path_factory.mktemp("seeded") / "data"
    store = Store.open(folder)
    apply_import(store, plan_import(store, records, "test"))
    store.close()
    return folder


@pytest.fixture
def history_page(tmp_path: Path, seeded: Path, screen_tables: Callable[..., Table]) -> Screen:
    """The app on a copy of the `seeded` data folder, and a phone's tab on it."""
    folder = shutil.copytree(seeded, tmp_path / "data")
    return screen_tables(folder).screen()


def plays(record: dict[str, Any], name: str) -> bool:
    return name in [p["name"] for p in record["players"]]


def test_history_lists_every_game_and_filters_by_game_and_player(
    history_page: Screen, records: list[dict[str, Any]]
) -> None:
    page = history_page
    tap(page, "History")
    shown(page, f"{len(records)} games")
    more = f"Show more ({len(records) - 40} left)"  # a page of the history holds 40
    assert len(page.find(more, "button")) == 1
    chip(page, "Game: Spywhere")
    shown(page, f"{sum(r['game'] == 'spywhere' for r in records)} games")
    chip(page, "Player: Anna")
    expected = sum(r["game"] == "spywhere" and plays(r, "Anna") for r in records)
    shown(page, f"{expected} games")
    chip(page, "Game: All games")
    shown(page, f"{sum(plays(r, 'Anna') for r in records)} games")


def test_a_games_page_shows_its_chart_and_totals(history_page: Screen) -> None:
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
    assert not page.find(re.compile("^Spywhere · Anna, Ben, Carla, Dirk"), "button")
    tap(page, "Undo")
    see(page, "Game restored.")
    tap_starting(page, "Spywhere · Anna, Ben, Carla, Dirk")  # listed again, and it opens
    shown(page, "Totals over the rounds")


def logged_in_bgstats(page: Screen, standings: dict[str, Any]) -> None:
    """ "Log in BG Stats" shows the link's code and opens BG Stats' createPlay link with the
    game as its play (outside the app: the address the app asked the device to open)."""
    tap(page, "Log in BG Stats")
    see(page, "Code of the BG Stats link")
    tap(page, "Open BG Stats here")
    [url] = page.launched
    assert url.startswith(f"{CREATE_PLAY}?data=")
    play = json.loads(parse_qs(urlsplit(url).query)["data"][0])
    assert play["game"]["sourceGameId"] == "spywhere" and play["sourceName"] == "Debrief"
    scores = {player["name"]: player["score"] for player in play["players"]}
    assert scores == {name: int(total) for name, total in standings["totals"].items()}
    assert [p["name"] for p in play["players"] if p["winner"]] == standings["winners"]


def test_statistics_count_the_games_of_a_period_and_a_group(
    history_page: Screen, records: list[dict[str, Any]]
) -> None:
    """The statistics screen counts the finished games, and for a group those that all of
    them played (counted here from the records themselves)."""
    page = history_page
    over = [r for r in records if scoring.replay(r).finished]
    both = [r for r in over if plays(r, "Anna") and plays(r, "Ben")]
    tap(page, "Statistics")
    see(page, EN.plural("{count} game", "{count} games", len(over)))
    for name in ("Anna", "Ben"):
        tap(page, name, role="checkbox")
    see(page, EN.plural("{count} game", "{count} games", len(both)))
    see(page, "Rival: ")
    tap(page, "Year in review")  # the latest year with games, on one card
    see(page, " at the table")
    see(page, "Best game of the year")
    tap(page, "Back")
    tap_starting(page, "Spywhere: Most correct identifications")  # a record opens its game
    shown(page, "Totals over the rounds")


def test_a_spy_game_is_told_in_events_and_places(history_page: Screen) -> None:
    """SPY has events, not rounds, and places, not points: its page says so."""
    page = history_page
    spy = json.loads((SCENARIOS / "spy-three-players.json").read_text())
    events = len(spy["rounds"])
    tap(page, "History")
    chip(page, "Game: SPY")
    row = page.find(re.compile(rf"SPY · Anna, Ben, Carla.*\b{events} events\b", re.S), "button")
    assert row, f"the scenario's SPY game is not listed; the screen shows {page.texts()}"
    tap(page, row[0].name)  # the row found, by its whole name
    shown(page, "Places over the events")
    rounds = re.compile(r"\brounds?\b")
    assert not [text for text in page.texts() if rounds.search(text)]


def test_player_statistics_match_the_records(
    history_page: Screen, records: list[dict[str, Any]]
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
    # Her colour, chosen on her page, is hers in the roster from then on (her line's icon; that
    # Flutter draws a player's colour is the browser's to see: tests/test_e2e_share.py).
    chip(page, "Colour: Pink")
    tap(page, "Back")
    [line, *_] = page.find(re.compile(r"^Anna\b"), "button")
    drawn = {icon.color for icon in icons_in(line.control)}
    assert player_color("pink", dark=False) in drawn
    assert player_color("blue", dark=False) not in drawn  # given her first, in turn


def icons_in(control: Any) -> list[ft.Icon]:
    """The icons of a roster line (a ListTile: the one before its name, the one after)."""
    return [part for part in (control.leading, control.trailing) if isinstance(part, ft.Icon)]


def test_export_and_import_through_the_app(
    screen_tables: Callable[..., Table],
    history_page: Screen,
    tmp_path: Path,
    records: list[dict[str, Any]],
) -> None:
    page = history_page
    tap(page, "Settings")
    backup_file, exported = exported_everything(page, tmp_path)
    assert exported["format"] == "debrief-backup/1" and len(exported["games"]) == len(records)

    fresh = screen_tables(tmp_path / "empty").screen()  # another device, on an empty folder
    tap(fresh, "Settings")
    fresh.files_to_pick = [(backup_file.name, backup_file.read_bytes())]
    tap(fresh, "Import a file")
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
    fresh.table.close()  # the folder released, as the browser test's server stopped
    store = Store.open(tmp_path / "empty")
    try:
        again = {r["meta"]["id"]: r for r in store.all_records()}
        assert again == {g["meta"]["id"]: g for g in exported["games"]}
    finally:
        store.close()


def test_a_bad_file_is_refused_with_the_reason_and_nothing_changes(
    history_page: Screen, tmp_path: Path, records: list[dict[str, Any]]
) -> None:
    page = history_page
    bad = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    bad["rounds"][2]["cards"]["Ben"]["black_spies"] = 7
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    tap(page, "Settings")
    page.files_to_pick = [(path.name, path.read_bytes())]
    tap(page, "Import a file")
    shown(page, "bad.json was not imported; nothing was changed:")
    shown(page, "rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal")
    tap(page, "Back")
    tap(page, "History")
    shown(page, f"{len(records)} games")


def test_a_finished_game_opens_read_only_and_a_correction_asks_first(
    history_page: Screen,
) -> None:
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
    listed = page.find(re.compile(r"^Spywhere · Anna, Ben, Carla, Dirk"), "button")
    assert not listed  # still in the history, not back at the table
