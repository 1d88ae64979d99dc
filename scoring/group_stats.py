"""What a group argues about after its games: over a period and for a group of players, who
won, their places and average place, winning streaks, rivals and favourite victims, hours
played, the games most played and the most frequent opponents. From the games' summaries
(scoring/stats.py's `Summary`, with when each game started and ended), no records needed.

The definitions (docs/manual.md, "Statistics"):

- **Counted**: finished games that are not deleted (nor waiting for a correction). A player is
  everyone who played under any of their names (a renamed player's former names count).
- **Group**: a chosen set of players; a game counts for it when all of them played it (others
  may have played too). **Period**: this month, this year, all time, or a chosen range of days,
  by each game's start in its own time zone (the day its own clock showed).
- **Place**: by the game's rules, ties sharing the better place; the **average place** over
  the games counted.
- **Winning streak**: consecutive games of that player (among those counted) with a first
  place; a shared first place continues it, anything else ends it. The current streak runs up
  to the player's latest game.
- **Rival**: the player who finished ahead of you most often in the games you both played
  (ties broken by fewer games together, then by name); **favourite victim** the reverse.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

from .base import RecordKind
from .registry import GAMES
from .stats import Seating, Summary, finished


class TimedSummary(Summary, Protocol):
    """A summary that says which game it is, when it started and when it ended (ISO 8601)."""

    @property
    def id(self) -> str: ...
    @property
    def rounds(self) -> int: ...

    @property
    def started(self) -> str | None: ...
    @property
    def ended(self) -> str | None: ...


@dataclass(frozen=True)
class Period:
    """Days from `first` to `last`, both included (None: open on that side)."""

    first: dt.date | None = None
    last: dt.date | None = None

    @classmethod
    def month_of(cls, day: dt.date) -> Period:
        following = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        return cls(day.replace(day=1), following - dt.timedelta(days=1))

    @classmethod
    def year_of(cls, day: dt.date) -> Period:
        return cls(dt.date(day.year, 1, 1), dt.date(day.year, 12, 31))

    def holds(self, started: str | None) -> bool:
        """Whether a game that started at `started` falls in the period, by the day its own
        clock showed (a game at 23:30 on 31 December in Berlin is in that year, whatever the
        time in UTC). A game without a readable start falls only in an open period."""
        if self.first is None and self.last is None:
            return True
        day = local_day(started)
        if day is None:
            return False
        return (self.first is None or day >= self.first) and (self.last is None or day <= self.last)


ALL_TIME = Period()


def local_day(started: str | None) -> dt.date | None:
    """The day of an ISO 8601 time on its own clock (its offset, not UTC's)."""
    if not started:
        return None
    try:
        return dt.datetime.fromisoformat(started).date()
    except ValueError:
        return None


@lru_cache(maxsize=4096, typed=True)
def seconds_between(started: str | None, ended: str | None) -> float | None:
    """Seconds from one ISO 8601 time to a later one; None when either is missing or
    unreadable, or they cannot be compared (one without its UTC offset) or run backwards."""
    try:
        start = dt.datetime.fromisoformat(started) if started else None
        end = dt.datetime.fromisoformat(ended) if ended else None
    except ValueError:
        return None
    if start is None or end is None or (start.tzinfo is None) != (end.tzinfo is None):
        return None
    return (end - start).total_seconds() if end >= start else None


def in_minutes(seconds: float) -> int:
    """Seconds as the minutes a player reads, rounded once: 2 min 59 s is 3 min, and time
    played at all is at least a minute (50 seconds read "0 min")."""
    return max(1, round(seconds / 60)) if seconds > 0 else 0


def minutes_between(started: str | None, ended: str | None) -> int | None:
    """`seconds_between` in minutes (`in_minutes`)."""
    seconds = seconds_between(started, ended)
    return None if seconds is None else in_minutes(seconds)


def seconds_played(summary: TimedSummary) -> float:
    """From the game's start to its end (0 where either is unknown)."""
    return seconds_between(summary.started, summary.ended) or 0.0


# A player's id -> every name they played under, their name now first (it breaks ties).
People = Mapping[str, Sequence[str]]


def counted(
    summaries: Iterable[TimedSummary],
    people: People,
    period: Period = ALL_TIME,
    group: Collection[str] = (),
    game: str | None = None,
) -> list[TimedSummary]:
    """The games that count, oldest first: finished and not deleted, started in `period`,
    of `game` (None: every game), and played by every player of `group` (ids of `people`)."""
    members = Seating({member: people[member] for member in group})
    chosen = [
        s
        for s in finished(summaries)
        if period.holds(s.started)
        and (game is None or s.game == game)
        and len(members.seated(s.players)) == len(members.keys)
    ]
    return sorted(chosen, key=lambda s: started_at(s.started))


def started_at(started: str | None) -> dt.datetime:
    """A game's start as a moment to order by (UTC; unknown starts first)."""
    try:
        moment = dt.datetime.fromisoformat(started or "")
    except ValueError:
        return dt.datetime.min.replace(tzinfo=dt.UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


@dataclass
class PlayerRecord:
    """One player's statistics over the games counted."""

    games: int = 0
    wins: int = 0  # games with a first place (shared ones too)
    places: list[int] = field(default_factory=list)
    current_streak: int = 0
    longest_streak: int = 0
    ahead_of: Counter[str] = field(default_factory=Counter)  # who they finished ahead of
    behind: Counter[str] = field(default_factory=Counter)  # who finished ahead of them
    together: Counter[str] = field(default_factory=Counter)  # games with each other player
    rival: str | None = None
    favourite_victim: str | None = None

    @property
    def average_place(self) -> Fraction | None:
        return Fraction(sum(self.places), len(self.places)) if self.places else None


@dataclass
class GroupStats:
    """What the games counted say: in all, and per player (by id)."""

    games: int
    minutes: int
    most_played: list[tuple[str, int]]  # game ids, most games first (then by id)
    players: dict[str, PlayerRecord]
    opponents: dict[str, list[tuple[str, int]]]  # per player, the others by games together


def group_stats(games: Sequence[TimedSummary], people: People) -> GroupStats:
    """The statistics of `games` (as `counted` gives them, oldest first) for `people`."""
    records = {person: PlayerRecord() for person in people}
    seating = Seating(people)
    for summary in games:
        places = summary.places  # (a summary makes its mappings anew at each read)
        present = {p: places[name] for p, name in seating.seated(summary.players).items()}
        for person, place in present.items():
            _count_game(records[person], place)
        for person, mine in present.items():
            record = records[person]
            for other, theirs in present.items():
                if other == person:
                    continue
                record.together[other] += 1
                if mine < theirs:
                    record.ahead_of[other] += 1
                elif theirs < mine:
                    record.behind[other] += 1
    for record in records.values():
        record.rival = _most(record.behind, record.together, people)
        record.favourite_victim = _most(record.ahead_of, record.together, people)
    played = Counter(s.game for s in games)
    return GroupStats(
        games=len(games),
        minutes=in_minutes(sum(seconds_played(s) for s in games)),  # rounded once
        most_played=sorted(played.items(), key=lambda item: (-item[1], item[0])),
        players=records,
        opponents={
            person: sorted(record.together.items(), key=lambda item: (-item[1], item[0]))
            for person, record in records.items()
        },
    )


MOST_PLAYED_SHOWN = 3


def most_played_shown(
    most_played: Sequence[tuple[str, int]], shown: int = MOST_PLAYED_SHOWN
) -> list[tuple[str, int]]:
    """The games most played, the first `shown` of them and every game tied with the last of
    those: a tie at the cut is no reason to leave a game out."""
    if len(most_played) <= shown:
        return list(most_played)
    cut = most_played[shown - 1][1]
    return [(game, count) for game, count in most_played if count >= cut]


def most_played_of(most_played: Sequence[tuple[str, int]]) -> tuple[tuple[str, ...], int] | None:
    """The game most played, or the games tied for it, and how many times each."""
    if not most_played:
        return None
    top = most_played[0][1]
    return tuple(game for game, count in most_played if count == top), top


def _count_game(record: PlayerRecord, place: int) -> None:
    record.games += 1
    record.places.append(place)
    if place == 1:
        record.wins += 1
        record.current_streak += 1
        record.longest_streak = max(record.longest_streak, record.current_streak)
    else:
        record.current_streak = 0


def _most(times: Counter[str], together: Counter[str], people: People) -> str | None:
    """Who has the most `times` (at least one): ties go to fewer games together, then to the
    name that comes first."""
    if not times:
        return None
    return min(times, key=lambda other: (-times[other], together[other], people[other][0]))


@dataclass(frozen=True)
class Feat:
    """A record and the game it happened in (the first game to reach it: a tie later does not
    take it; players level in that game share it); for a "count" record, how many games, and
    the latest of them."""

    game: str  # the game's id ("black-spy")
    kind: RecordKind
    value: int | float
    holders: tuple[str, ...]  # the players' names in that game, in seating order
    game_id: str

    @property
    def holder(self) -> str:
        """Who holds it, as the screens name winners ("Clara & Anna")."""
        return " & ".join(self.holders)


def records(games: Sequence[TimedSummary]) -> list[Feat]:
    """Each game's records among `games` (oldest first, as `counted` gives them), in the
    order the games list them; a record no game set is left out."""
    feats: list[Feat] = []
    by_game: dict[str, list[TimedSummary]] = {}
    for summary in games:
        by_game.setdefault(summary.game, []).append(summary)
    for rules in GAMES.values():
        played = by_game.get(rules.id, [])
        for kind in rules.records:
            feat = _feat(played, kind)
            if feat is not None:
                feats.append(feat)
    return feats


def _feat(games: Sequence[TimedSummary], kind: RecordKind) -> Feat | None:
    best: Feat | None = None
    count = 0
    for summary in games:
        for name, value in _measured(summary, kind):
            if kind.best == "count":
                if value:
                    count += 1
                    best = Feat(summary.game, kind, count, (name,), summary.id)
                continue
            better = best is None or (
                value < best.value if kind.best == "lowest" else value > best.value
            )
            if better and (value or kind.best == "lowest"):
                best = Feat(summary.game, kind, value, (name,), summary.id)
            elif best is not None and best.game_id == summary.id and value == best.value:
                best = replace(best, holders=(*best.holders, name))  # level in that game
    return best


def _measured(summary: TimedSummary, kind: RecordKind) -> list[tuple[str, int | float]]:
    """What `kind` measures in one game: each player's value (the winner's rounds)."""
    if kind.measure == "rounds":
        return [(winner, summary.rounds) for winner in summary.winners[:1]]
    if kind.measure == "total":  # (a player who lost by a rule has points, but no result)
        lost = GAMES[summary.game].loss_fact
        facts = summary.facts
        return [
            (name, total)
            for name, total in summary.totals.items()
            if lost is None or not facts.get(name, {}).get(lost)
        ]
    fact = kind.measure.removeprefix("fact:")
    facts = summary.facts
    return [(name, facts.get(name, {}).get(fact, 0)) for name in summary.players]


@dataclass(frozen=True)
class BestGame:
    """A player's best game: their best place, with the widest margin over the next player
    behind (in points, the game's way round), the earliest of equals. `margin` None: no points
    to measure it in (SPY: places only; nobody behind); `lost_by_rule`: the next player
    behind lost by the game's rule (Kompromat's 9 tokens), whatever the points."""

    game: str
    game_id: str
    started: str | None
    place: int
    margin: int | float | None
    lost_by_rule: str | None = None

    @property
    def wide(self) -> int | float:
        """How wide the win is, for choosing the best of equal places: a win by the other's
        rule loss is the widest there is."""
        if self.lost_by_rule is not None:
            return float("inf")
        return self.margin or 0


@dataclass
class YearInReview:
    year: int
    games: int
    minutes: int
    most_played: tuple[tuple[str, ...], int] | None  # the game (games tied) and its count
    best_games: dict[str, BestGame]  # per person who played that year
    records: list[Feat]  # set that year: standing at its end, held by a game of the year


def year_in_review(games: Sequence[TimedSummary], people: People, year: int) -> YearInReview:
    """The year `year` of `games` (every counted game, oldest first)."""
    period = Period.year_of(dt.date(year, 1, 1))
    this_year = [s for s in games if period.holds(s.started)]
    until_its_end = [s for s in games if Period(last=period.last).holds(s.started)]
    held = {s.id for s in this_year}
    stats = group_stats(this_year, people)
    seating = Seating(people)
    best: dict[str, BestGame] = {}
    for summary in this_year:
        for person, name in seating.seated(summary.players).items():
            candidate = _best_game(summary, name)
            kept = best.get(person)
            if kept is None or (candidate.place, -candidate.wide) < (kept.place, -kept.wide):
                best[person] = candidate
    return YearInReview(
        year=year,
        games=stats.games,
        minutes=stats.minutes,
        most_played=most_played_of(stats.most_played),
        best_games=best,
        # (a count, such as Kompromat's games lost by 9 tokens, is no record a game sets)
        records=[
            feat
            for feat in records(until_its_end)
            if feat.game_id in held and feat.kind.best != "count"
        ],
    )


def _best_game(summary: TimedSummary, name: str) -> BestGame:
    """`name`'s game as a best game: their place, and how far ahead of the next player
    behind, as the game's rules measure it (see `BestGame`)."""
    rules = GAMES[summary.game]
    places, totals, facts = summary.places, summary.totals, summary.facts
    place = places[name]
    behind = [other for other in places if places[other] > place]
    game = BestGame(summary.game, summary.id, summary.started, place, None)
    if not behind or rules.places_only:
        return game
    nearest = min(places[other] for other in behind)
    next_ones = [other for other in behind if places[other] == nearest]
    lost = rules.loss_fact
    if lost is not None and all(facts.get(other, {}).get(lost) for other in next_ones):
        return replace(game, lost_by_rule=" & ".join(next_ones))
    gaps = [
        (totals[other] - totals[name]) if rules.lower_is_better else (totals[name] - totals[other])
        for other in behind
    ]
    return replace(game, margin=max(0, min(gaps)))
