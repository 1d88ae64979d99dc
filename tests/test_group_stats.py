"""A group's statistics over a period (scoring/group_stats.py), each derived from games built
for it: streaks, rivals, places, periods by each game's own clock, renamed players, deleted
games, groups."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from scoring.group_stats import ALL_TIME, Period, counted, group_stats, records

PEOPLE = {"a": ["Anna"], "b": ["Ben"], "c": ["Carla"], "d": ["Dirk"]}
clock = iter(range(1, 10_000))


def game(
    places: dict[str, int],
    kind: str = "spywhere",
    started: str | None = None,
    minutes: int = 60,
    deleted: bool = False,
    totals: dict[str, float] | None = None,
    facts: dict[str, dict[str, int]] | None = None,
    rounds: int = 5,
) -> Any:
    """A finished game's summary with these places (1 = first), started at `started` (else
    one day after the one before)."""
    if started is None:
        started = (
            dt.datetime(2026, 1, 1, 20, tzinfo=dt.UTC) + dt.timedelta(days=next(clock))
        ).isoformat()
    ended = (dt.datetime.fromisoformat(started) + dt.timedelta(minutes=minutes)).isoformat()
    return SimpleNamespace(
        id=f"g{next(clock)}",
        rounds=rounds,
        game=kind,
        players=list(places),
        finished=True,
        winners=[name for name, place in places.items() if place == 1],
        totals=totals or {name: 10 - place for name, place in places.items()},
        places=places,
        facts=facts or {},
        needs_correction=None,
        deleted_at="2026-12-01T10:00:00+00:00" if deleted else None,
        started=started,
        ended=ended,
    )


def stats_of(games: list[Any], people: Any = PEOPLE, **chosen: Any) -> Any:
    return group_stats(counted(games, people, **chosen), people)


def test_a_shared_first_place_continues_a_streak_and_a_second_place_ends_it() -> None:
    games = [
        game({"Anna": 1, "Ben": 2}),
        game({"Anna": 1, "Ben": 1}),  # shared first: goes on
        game({"Anna": 1, "Ben": 2}),
        game({"Anna": 2, "Ben": 1}),  # second: ends it
        game({"Anna": 1, "Ben": 2}),
    ]
    anna = stats_of(games).players["a"]
    assert (anna.longest_streak, anna.current_streak, anna.wins, anna.games) == (3, 1, 4, 5)
    assert anna.average_place == Fraction(6, 5)
    ben = stats_of(games).players["b"]
    assert (ben.longest_streak, ben.current_streak) == (1, 0)


def test_the_rival_is_who_finished_ahead_most_ties_to_fewer_games_then_the_name() -> None:
    games = [
        game({"Anna": 3, "Ben": 1, "Carla": 2}),
        game({"Anna": 3, "Ben": 1, "Carla": 2}),  # Ben and Carla ahead of Anna twice each
        game({"Anna": 1, "Ben": 2}),  # but Anna played Ben once more: Carla is her rival
    ]
    anna = stats_of(games).players["a"]
    assert anna.rival == "c"
    # Ben finished ahead of Anna twice and of Carla twice, and played Carla less often.
    assert stats_of(games).players["b"].favourite_victim == "c"
    level = [game({"Anna": 2, "Ben": 1, "Dirk": 1})]  # the same games, the same count: the name
    assert stats_of(level).players["a"].rival == "b"
    assert stats_of(level).players["b"].rival is None  # nobody finished ahead of Ben


def test_a_period_follows_each_games_own_clock_at_midnight() -> None:
    """23:30 on New Year's Eve in Berlin is last year, 00:10 on New Year's Day is the new one,
    whatever the time in UTC (both are 2026 there)."""
    late = game({"Anna": 1, "Ben": 2}, started="2026-12-31T23:30:00+01:00")
    early = game({"Anna": 2, "Ben": 1}, started="2027-01-01T00:10:00+01:00")
    year_2026 = Period.year_of(dt.date(2026, 6, 1))
    assert counted([late, early], PEOPLE, period=year_2026) == [late]
    assert counted([late, early], PEOPLE, period=Period.year_of(dt.date(2027, 1, 1))) == [early]
    january = Period.month_of(dt.date(2027, 1, 15))
    assert (january.first, january.last) == (dt.date(2027, 1, 1), dt.date(2027, 1, 31))
    assert Period.month_of(dt.date(2028, 2, 10)).last == dt.date(2028, 2, 29)


def test_a_renamed_player_is_one_player_and_a_deleted_game_counts_nowhere() -> None:
    people = {**PEOPLE, "a": ["Annabel", "Anna"]}
    games = [
        game({"Anna": 1, "Ben": 2}),
        game({"Annabel": 1, "Ben": 2}),
        game({"Annabel": 1, "Ben": 2}, deleted=True),
    ]
    stats = stats_of(games, people)
    assert stats.games == 2 and stats.players["a"].wins == 2
    assert stats.players["a"].longest_streak == 2


def test_a_group_counts_the_games_all_of_them_played_and_the_totals_follow() -> None:
    games = [
        game({"Anna": 1, "Ben": 2, "Carla": 3}, kind="black-spy", minutes=90),
        game({"Anna": 2, "Ben": 1}, kind="kompromat", minutes=30),
        game({"Anna": 1, "Carla": 2}, kind="spy", minutes=15),
        game({"Anna": 1, "Ben": 2}, kind="kompromat", minutes=45),
    ]
    group = stats_of(games, group=["a", "b"])
    assert group.games == 3 and group.minutes == 90 + 30 + 45
    assert group.most_played == [("kompromat", 2), ("black-spy", 1)]
    assert group.opponents["a"] == [("b", 3), ("c", 1)]
    assert stats_of(games, group=["b", "c"]).games == 1
    assert stats_of(games, game="kompromat").players["b"].places == [1, 2]
    assert stats_of(games, period=ALL_TIME).games == 4


def test_each_record_is_held_by_the_first_game_to_reach_it() -> None:
    black = [
        game({"Anna": 1, "Ben": 2}, "black-spy", totals={"Anna": 23, "Ben": 160}),
        game(
            {"Anna": 2, "Ben": 1},
            "black-spy",
            totals={"Anna": 151, "Ben": 23},
            facts={"Ben": {"moons": 2}},
        ),  # the same lowest total, later: Anna keeps it
    ]
    kompromat = [
        game(
            {"Anna": 1, "Ben": 2},
            "kompromat",
            totals={"Anna": 7.5, "Ben": 3},
            facts={"Anna": {"perfect": 1, "token_losses": 0}, "Ben": {"token_losses": 1}},
        ),
        game(
            {"Anna": 1, "Ben": 2},
            "kompromat",
            totals={"Anna": 6, "Ben": 2},
            facts={"Ben": {"token_losses": 1}},
        ),
    ]
    spy = [
        game({"Anna": 1, "Ben": 2}, "spy", rounds=9),
        game({"Anna": 2, "Ben": 1}, "spy", rounds=4),
    ]
    spywhere = [game({"Anna": 1, "Ben": 2}, "spywhere", facts={"Ben": {"correct": 3}})]
    games = [*black, *kompromat, *spy, *spywhere]
    found = {feat.kind.title: (feat.value, feat.holder, feat.game_id) for feat in records(games)}
    assert found == {
        "Lowest final total": (23, "Anna", black[0].id),
        "Most moons shot in a game": (2, "Ben", black[1].id),
        "Highest victory points": (7.5, "Anna", kompromat[0].id),
        "Most perfect 21s in a game": (1, "Anna", kompromat[0].id),
        "Games lost by 9 tokens": (2, "Ben", kompromat[1].id),  # how many; the latest
        "Fewest events to a win": (4, "Ben", spy[1].id),
        "Most correct identifications": (3, "Ben", spywhere[0].id),
    }
    assert records(black[:1]) and all(f.game == "black-spy" for f in records(black[:1]))
    assert "Most moons shot in a game" not in {f.kind.title for f in records(black[:1])}  # none


def test_a_record_two_players_set_in_the_same_game_names_both() -> None:
    """Found by a new player: "Most perfect 21s in a game: 1 · Clara", where Anna had one in
    the same game too. Players level in the game that set a record share it; a later game
    that only equals it still takes nothing."""
    first = game(
        {"Clara": 1, "Anna": 2},
        "kompromat",
        facts={"Clara": {"perfect": 1}, "Anna": {"perfect": 1}},
    )
    later = game({"Ben": 1, "Anna": 2}, "kompromat", facts={"Ben": {"perfect": 1}})
    found = {feat.kind.title: feat for feat in records([first, later])}
    perfect = found["Most perfect 21s in a game"]
    assert (perfect.value, perfect.holders, perfect.game_id) == (1, ("Clara", "Anna"), first.id)
    assert perfect.holder == "Clara & Anna"
    assert found["Highest victory points"].holders == ("Clara",)  # 9 against 8: no tie


def test_a_year_in_review_counts_its_own_games_and_the_records_it_set() -> None:
    from scoring.group_stats import year_in_review

    before = game(
        {"Anna": 1, "Ben": 2},
        "kompromat",
        started="2025-12-31T23:00:00+01:00",
        totals={"Anna": 9, "Ben": 2},
    )  # a record of 2025: the highest points
    narrow = game(
        {"Anna": 1, "Ben": 2},
        "black-spy",
        started="2026-03-01T20:00:00+01:00",
        minutes=90,
        totals={"Anna": 40, "Ben": 45},
    )
    wide = game(
        {"Anna": 1, "Ben": 2},
        "black-spy",
        started="2026-06-01T20:00:00+02:00",
        minutes=60,
        totals={"Anna": 20, "Ben": 90},
    )  # first by 70: Anna's best game
    beaten = game({"Anna": 2, "Ben": 1}, "spy", started="2026-07-01T20:00:00+02:00", rounds=3)
    after = game({"Anna": 2, "Ben": 1}, "black-spy", started="2027-01-01T00:30:00+01:00")
    review = year_in_review(counted([before, narrow, wide, beaten, after], PEOPLE), PEOPLE, 2026)
    assert (review.games, review.minutes, review.most_played) == (
        3,
        90 + 60 + 60,
        (("black-spy",), 2),
    )
    assert (review.best_games["a"].game_id, review.best_games["a"].margin) == (wide.id, 70)
    assert (review.best_games["b"].game_id, review.best_games["b"].place) == (beaten.id, 1)
    set_this_year = {(feat.kind.title, feat.game_id) for feat in review.records}
    assert ("Lowest final total", wide.id) in set_this_year
    assert ("Fewest events to a win", beaten.id) in set_this_year
    assert all(feat.game_id != before.id for feat in review.records)  # 2025's stays 2025's


def test_a_margin_and_a_record_say_what_the_games_own_rules_make_of_them() -> None:
    """Issue: "ahead by 0" for a Kompromat game won 17 to 26 on a 9-token loss, "ahead by 1" in
    SPY (places, no points), and the record "Highest victory points: 26, Ben" from a game Ben
    lost by 9 tokens. A win by the other's 9-token loss says so; SPY says only its place; a
    player who lost by 9 tokens sets no victory-point record."""
    from scoring.group_stats import year_in_review

    by_tokens = game(
        {"Anna": 1, "Ben": 2},
        kind="kompromat",
        started="2026-03-01T20:00:00+00:00",
        totals={"Anna": 17, "Ben": 26},
        facts={"Ben": {"token_losses": 1}},
    )
    spy = game(
        {"Carla": 1, "Dirk": 2, "Anna": 3},
        kind="spy",
        started="2026-03-02T20:00:00+00:00",
        totals={"Carla": 1, "Dirk": 2, "Anna": 3},
    )
    games = counted([by_tokens, spy], PEOPLE)
    review = year_in_review(games, PEOPLE, 2026)
    anna, carla = review.best_games["a"], review.best_games["c"]
    assert (anna.game, anna.margin, anna.lost_by_rule) == ("kompromat", None, "Ben")
    assert (carla.game, carla.margin, carla.lost_by_rule) == ("spy", None, None)
    highest = [f for f in records(games) if f.kind.title == "Highest victory points"]
    assert [(f.value, f.holders) for f in highest] == [(17, ("Anna",))]


def test_the_year_card_says_each_best_game_in_its_games_words() -> None:
    from scoring.group_stats import year_in_review
    from views.i18n import Translator
    from views.year import review_card

    by_tokens = game(
        {"Anna": 1, "Ben": 2},
        kind="kompromat",
        started="2026-03-01T20:00:00+00:00",
        totals={"Anna": 17, "Ben": 26},
        facts={"Ben": {"token_losses": 1}},
    )
    spy = game({"Carla": 1, "Dirk": 2}, kind="spy", started="2026-03-02T20:00:00+00:00")
    black_spy = game(
        {"Dirk": 1, "Ben": 2},
        kind="black-spy",
        started="2026-03-03T20:00:00+00:00",
        totals={"Dirk": 90, "Ben": 152},
    )
    review = year_in_review(counted([by_tokens, spy, black_spy], PEOPLE), PEOPLE, 2026)
    names = {person: names[0] for person, names in PEOPLE.items()}
    card = review_card(Translator("en"), names, review, dict.fromkeys(PEOPLE, "#000000"))
    texts: list[str] = []

    def walk(control: Any) -> None:
        if isinstance(getattr(control, "value", None), str):
            texts.append(control.value)
        for child in getattr(control, "controls", None) or []:
            walk(child)
        content = getattr(control, "content", None)
        if content is not None and not isinstance(content, str):
            walk(content)

    walk(card)
    assert "Anna: Kompromat, 1 Mar: place 1, Ben lost by 9 tokens" in texts, texts
    assert "Carla: SPY, 2 Mar: place 1" in texts, texts
    assert "Dirk: Black Spy, 3 Mar: place 1, ahead by 62 points" in texts, texts
    assert not any("ahead by 0" in text for text in texts), texts


def test_games_tied_for_most_played_are_named_as_a_tie() -> None:
    """Four games played once each: the statistics dropped one ("Most played" showed three),
    and the year in review named one of them."""
    from scoring.group_stats import most_played_shown, year_in_review

    played = [
        game({"Anna": 1, "Ben": 2}, kind=kind, started=f"2026-04-0{day}T20:00:00+00:00")
        for day, kind in enumerate(("black-spy", "kompromat", "spy", "spywhere"), start=1)
    ]
    games = counted(played, PEOPLE)
    stats = group_stats(games, PEOPLE)
    assert len(most_played_shown(stats.most_played)) == 4  # a tie at the cut is all shown
    review = year_in_review(games, PEOPLE, 2026)
    assert review.most_played == (("black-spy", "kompromat", "spy", "spywhere"), 1)


def test_time_played_adds_the_seconds_and_rounds_once() -> None:
    """Four games of 2 min 59 s: 12 minutes of play (each game's minutes were rounded down
    before adding: "4 games · 8 min"); a 50-second game took a minute, not "0 min"."""
    from scoring.group_stats import minutes_between

    start = dt.datetime(2026, 5, 1, 20, tzinfo=dt.UTC)
    played = []
    for day in range(4):
        began = start + dt.timedelta(days=day)
        summary = game({"Anna": 1, "Ben": 2}, started=began.isoformat())
        summary.ended = (began + dt.timedelta(minutes=2, seconds=59)).isoformat()
        played.append(summary)
    assert group_stats(counted(played, PEOPLE), PEOPLE).minutes == 12
    began = start.isoformat()
    assert minutes_between(began, (start + dt.timedelta(seconds=50)).isoformat()) == 1
