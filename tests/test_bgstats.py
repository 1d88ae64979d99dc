"""A finished game logged in BG Stats (storage/bgstats.py): the createPlay link of each game,
decoded and checked field by field against the game; the same game and the same people keep
their ids; unfinished, deleted and unknown games have no link."""

from __future__ import annotations

import datetime as dt
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from builders import BASIC_ENDING, ROOT, SCENARIOS
from generators import black_spy_record

import scoring
from scoring import black_spy
from storage import errors as err
from storage.bgstats import CREATE_PLAY, link_of, stored_play
from storage.store import Store

STARTED = "2026-11-20T19:30:00+01:00"
ENDED = "2026-11-20T21:05:30+01:00"  # 20:05:30 in UTC, 95.5 minutes after the start
# What each game is to BG Stats, written out here (not read from the rules).
GAME_FACTS = {
    "black-spy": ("Black Spy", False, False),  # name, highestWins, noPoints
    "kompromat": ("Kompromat", True, False),
    "spy": ("SPY", False, True),
    "spywhere": ("Spywhere", True, False),
}
FINISHED_SCENARIOS = [
    "kompromat-short-final-round-cards",
    "kompromat-short-final-round-mixed",
    "spy-emoji-names",
    "spywhere-four-players",
]


def scenario(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = json.loads((SCENARIOS / f"{name}.json").read_text())
    expected = json.loads((SCENARIOS / f"{name}.expected.json").read_text())
    return record, expected


def black_spy_ended() -> tuple[dict[str, Any], dict[str, Any]]:
    record, _ = scenario("black-spy-basic")
    record["rounds"].append(BASIC_ENDING)
    return record, scoring.standings(record)


def stored(store: Store, record: dict[str, Any]) -> str:
    """`record` in the store, started and ended at STARTED and ENDED; its id."""
    record = {**record, "meta": {"id": "", "started": STARTED, "ended": ENDED, "notes": ""}}
    record["meta"]["id"] = f"game-{len(store.summaries()) + 1}"
    store.add_games([record])
    return str(record["meta"]["id"])


def decoded(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CREATE_PLAY
    data = parse_qs(parts.query)["data"]
    assert len(data) == 1
    return dict(json.loads(data[0]))


def check_play(play: dict[str, Any], record: dict[str, Any], expected: dict[str, Any]) -> None:
    """Every field of `play` against the game: `expected` is its standings (totals, winners)."""
    game = record["game"]
    name, highest_wins, no_points = GAME_FACTS[game]
    assert play["sourceName"] == "Debrief"
    assert play["sourcePlayId"] == record["meta"]["id"]
    assert play["playDate"] == "2026-11-20 20:05:30" and play["durationMin"] == 96  # nearest
    assert play["game"] == {
        "name": name,
        "sourceGameId": game,
        "highestWins": highest_wins,
        "noPoints": no_points,
    }
    assert "bggId" not in play["game"]
    places = scoring.replay(record).places
    starter = {
        "black-spy": record["options"].get("first_dealer"),
        "kompromat": record["options"].get("first_player"),
    }.get(game, record["players"][0]["name"])
    assert [p["name"] for p in play["players"]] == [p["name"] for p in record["players"]]
    for player in play["players"]:
        who = player["name"]
        assert player["rank"] == places[who]
        assert player["winner"] == (who in expected["winners"])
        assert player["startPlayer"] == (who == starter)
        if no_points:
            assert "score" not in player
        else:
            assert player["score"] == expected["totals"][who]
    assert play["comments"].endswith(f"Debrief game {record['meta']['id']}")
    for value in record["options"].values():
        for part in value if isinstance(value, list) else [value]:
            assert str(part) in play["comments"]


@pytest.mark.parametrize("name", FINISHED_SCENARIOS)
def test_the_link_of_each_finished_game_says_the_game(store: Store, name: str) -> None:
    record, expected = scenario(name)
    game_id = stored(store, record)
    play = decoded(link_of(stored_play(store, game_id)))
    check_play(play, {**record, "meta": {"id": game_id}}, expected)


def test_black_spy_where_the_lowest_total_wins(store: Store) -> None:
    record, expected = black_spy_ended()
    game_id = stored(store, record)
    play = decoded(link_of(stored_play(store, game_id)))
    check_play(play, {**record, "meta": {"id": game_id}}, expected)
    assert [p["name"] for p in play["players"] if p["winner"]] == ["Carla"]


@pytest.mark.parametrize("variant", sorted(black_spy.VARIANTS))
def test_each_black_spy_variant(store: Store, variant: str) -> None:
    """A finished game with each variant: its halves (Going Back) as exact halves."""
    for seed in range(500):
        record = black_spy_record(random.Random(seed))
        result = scoring.replay(record)
        if variant in record["options"]["variants"] and result.finished:
            break
    else:
        pytest.fail(f"no finished game with {variant}")
    game_id = stored(store, record)
    play = decoded(link_of(stored_play(store, game_id)))
    check_play(play, {**record, "meta": {"id": game_id}}, scoring.standings(record))


def test_the_same_game_and_the_same_people_keep_their_ids(store: Store) -> None:
    """Sent twice, a game is the same play with the same players; another game with the same
    person gives them the same id, also under a name they had before (the roster's)."""
    record, _ = scenario("spywhere-four-players")
    roster = {p["name"]: store.add_player(p["name"])["id"] for p in record["players"]}
    first = stored(store, record)
    once, again = stored_play(store, first), stored_play(store, first)
    assert once == again and link_of(once) == link_of(again)
    anna = roster["Anna"]
    store.rename_player(anna, "Annabel")
    renamed = json.loads(json.dumps(record).replace('"Anna"', '"Annabel"'))
    second = stored(store, renamed)
    ids = {
        game: {p["name"]: p["sourcePlayerId"] for p in stored_play(store, game)["players"]}
        for game in (first, second)
    }
    assert ids[first]["Anna"] == ids[second]["Annabel"] == anna
    assert ids[first] == roster  # each the roster player's id
    assert stored_play(store, stored(store, scenario("spy-emoji-names")[0]))["players"][0][
        "sourcePlayerId"
    ].startswith("name:")  # a name in no roster stands for itself
    assert stored_play(store, second)["sourcePlayId"] != once["sourcePlayId"]


def test_unfinished_deleted_and_unknown_games_have_no_link(store: Store) -> None:
    going_on = stored(store, scenario("black-spy-basic")[0])
    with pytest.raises(err.GameNotFinished):
        stored_play(store, going_on)
    over = stored(store, scenario("spy-emoji-names")[0])
    store.delete_game(over)
    with pytest.raises(err.GameInBin):
        stored_play(store, over)
    with pytest.raises(err.GameNotFound):
        stored_play(store, "no-such-game")


def test_the_command_line_prints_the_link_or_the_play_or_one_line(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    over = stored(store, scenario("spywhere-four-players")[0])
    going_on = stored(store, scenario("black-spy-basic")[0])
    store.close()

    def bgstats(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "storage", "--data-dir", str(tmp_path / "data")]
        return subprocess.run(
            [*command, "bgstats", *args], cwd=ROOT, capture_output=True, text=True, check=False
        )

    link = bgstats(over)
    assert link.returncode == 0 and decoded(link.stdout.strip())["sourcePlayId"] == over
    play = bgstats(over, "--json")
    assert json.loads(play.stdout)["game"]["sourceGameId"] == "spywhere"
    for game_id, said in ((going_on, "still in progress"), ("nope", "there is no game nope")):
        refused = bgstats(game_id)
        assert refused.returncode == 1 and refused.stdout == ""
        assert said in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


def test_a_time_without_an_offset_gives_no_date_rather_than_a_wrong_one() -> None:
    """A game imported with a local time that names no offset cannot be put in UTC."""
    from storage.bgstats import moment

    assert moment("2026-11-20T19:30:00") is None
    assert moment(STARTED) == dt.datetime(2026, 11, 20, 18, 30, tzinfo=dt.UTC)


def test_names_with_the_links_own_characters_come_through_whole(store: Store) -> None:
    """A name with &, #, +, % or quotes is the same name in BG Stats."""
    record, _ = scenario("spywhere-four-players")
    odd = 'Ben & "Jerry" #1+50%'
    renamed = json.loads(json.dumps(record).replace('"Ben"', json.dumps(odd)))
    game_id = stored(store, renamed)
    link = link_of(stored_play(store, game_id))
    assert " " not in link and "#" not in link and "&" not in link.split("?", 1)[1]
    assert odd in [p["name"] for p in decoded(link)["players"]]
