"""Black Spy (3 to 6 players): RULES.md section 1.

Lowest total wins. A deal records which black cards and coloured Spies each player took;
the deal's points, the moon, Going Back halving, the end, the next dealer, pass direction and
The Mole's draft order are all derived here.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import ClassVar

from . import errors as e
from .base import JSON, GameRules, Record, RecordKind, RoundScore, Setup, left_of
from .drafts import Answers, DraftProblem, check_draft
from .errors import N_
from .numbers import to_json
from .reader import Reader, as_whole, child, show
from .table import Table, read_player_map, read_player_ref

VARIANTS = (
    "no-good-spies",
    "capture-or-release",
    "mole",
    "calling-color",
    "following-rank",
    "going-back",
)
HALVES = ("exact", "down", "up")
MOON_CHOICES = ("give", "release")

SPY_POINTS = 10  # a black 7
LOW_POINTS = 1  # a black 1 to 6
COLORED_SPY_POINTS = -5  # a blue, yellow, red or green 7 (0 with No Good Spies)
BLACK_SPIES = 6  # black 7s
BLACK_LOW = 6  # black 1 to 6
HIGH_POINTS = {8: 2, 9: 3, 10: 4, 11: 5}  # black 8, 9, 10, 11
COLORED_SPIES = 4
BLACK_CARDS = BLACK_SPIES + BLACK_LOW + len(HIGH_POINTS)  # 16
DECK = 60
MOLE_CARDS_PER_PLAYER = 3
MOON_POINTS = Fraction(60)
END_VALUES = {3: 200, 4: 150, 5: 120, 6: 100}
PILE_KEYS = ("black_spies", "black_low", "black_high", "colored_spies")
# The counted parts of a pile and how many of each a deal holds (the steppers' ends).
PART_LIMITS = {"black_spies": BLACK_SPIES, "black_low": BLACK_LOW, "colored_spies": COLORED_SPIES}
HIGH_RANKS = tuple(HIGH_POINTS)
BLACK_POINTS = SPY_POINTS * BLACK_SPIES + LOW_POINTS * BLACK_LOW + sum(HIGH_POINTS.values())  # 80
ALL_HIGH = (1 << len(HIGH_RANKS)) - 1  # the black 8 to 11 as a bit mask, all taken


@dataclass(frozen=True)
class Options:
    first_dealer: str
    variants: frozenset[str]
    end_value: int
    halves: str = "exact"

    def has(self, variant: str) -> bool:
        return variant in self.variants


@dataclass(frozen=True)
class Pile:
    """What one player took in one deal."""

    black_spies: int = 0
    black_low: int = 0
    black_high: frozenset[int] = frozenset()
    colored_spies: int = 0

    @property
    def black_cards(self) -> int:
        return self.black_spies + self.black_low + len(self.black_high)

    @property
    def black_points(self) -> int:
        high = sum(HIGH_POINTS[r] for r in self.black_high)
        return SPY_POINTS * self.black_spies + LOW_POINTS * self.black_low + high

    @property
    def is_moon(self) -> bool:
        """All 16 black cards."""
        return self.black_cards == BLACK_CARDS

    def with_count(self, part: str, count: int) -> Pile:
        """A counted part as the player counts it, kept within what a deal holds."""
        counted = max(0, min(PART_LIMITS[part], count))
        return replace(
            self,
            black_spies=counted if part == "black_spies" else self.black_spies,
            black_low=counted if part == "black_low" else self.black_low,
            colored_spies=counted if part == "colored_spies" else self.colored_spies,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "black_spies": self.black_spies,
            "black_low": self.black_low,
            "black_high": list[JSON](sorted(self.black_high)),
            "colored_spies": self.colored_spies,
        }


@dataclass(frozen=True)
class Deal:
    """A deal; also the draft the entry screen edits (it may not add up yet)."""

    piles: dict[str, Pile]  # every player, seating order
    moon_choice: str | None = None

    @property
    def moon_taker(self) -> str | None:
        """The player who took all 16 black cards, if any."""
        for name, pile in self.piles.items():
            if pile.is_moon:
                return name
        return None

    @classmethod
    def blank(cls, table: Table) -> Deal:
        return cls({name: Pile() for name in table.names})

    @classmethod
    def from_json(cls, raw: object, table: Table) -> Deal:
        """A stored deal as far as it can be read (a draft starts from it)."""
        fields = raw if isinstance(raw, dict) else {}
        cards = fields.get("cards") if isinstance(fields.get("cards"), dict) else {}
        piles = dict(cls.blank(table).piles)
        for name, pile in (cards or {}).items():
            seated = table.resolve(str(name))
            read = read_pile(Reader(), pile, "") if seated else None
            if seated and read is not None:
                piles[seated] = read
        choice = fields.get("moon_choice")
        return cls(piles, choice if choice in MOON_CHOICES else None)

    def to_json(self) -> dict[str, JSON]:
        deal: dict[str, JSON] = {"cards": {n: pile.to_json() for n, pile in self.piles.items()}}
        if self.moon_choice is not None:
            deal["moon_choice"] = self.moon_choice
        return deal

    def with_pile(self, name: str, pile: Pile) -> Deal:
        return replace(self, piles={**self.piles, name: pile})

    def with_count(self, name: str, part: str, count: int) -> Deal:
        return self.with_pile(name, self.piles[name].with_count(part, count))

    def with_high_card(self, name: str, rank: int) -> Deal:
        """`name` took the black `rank` (from whoever had it), or gives it back."""
        if rank in self.piles[name].black_high:
            mine = replace(self.piles[name], black_high=self.piles[name].black_high - {rank})
            return self.with_pile(name, mine)
        piles = {n: replace(p, black_high=p.black_high - {rank}) for n, p in self.piles.items()}
        piles[name] = replace(piles[name], black_high=piles[name].black_high | {rank})
        return replace(self, piles=piles)

    def with_moon_choice(self, choice: str | None) -> Deal:
        return replace(self, moon_choice=choice)

    def completed(self, player: str) -> Deal:
        """`player`'s pile is what the other piles leave over: none of a part the others
        already hold more of than a deal has (so the count that is wrong shows as theirs)."""
        others = {n: p for n, p in self.piles.items() if n != player}
        return self.with_pile(player, left_over(others))


@dataclass(frozen=True)
class CountedDeal:
    """A deal in points form (FORMAT.md): each pile's counted points, the way a paper pad keeps
    them. Whether a pile was a moon is the table's word (`moon_taker`), not the cards'."""

    points: dict[str, int]  # every player, seating order
    moon_taker: str | None = None
    moon_choice: str | None = None

    def to_json(self) -> dict[str, JSON]:
        deal: dict[str, JSON] = {"points": dict(self.points)}
        if self.moon_taker is not None:
            deal["moon_taker"] = self.moon_taker
        if self.moon_choice is not None:
            deal["moon_choice"] = self.moon_choice
        return deal


AnyDeal = Deal | CountedDeal


@dataclass(frozen=True)
class DealPreview(Answers):
    """A deal being entered (its JSON so far, in either form), answered by the rules: what the
    entry screen shows, enables and warns from, so that it decides no rule itself."""

    form: str  # "cards" or "points" (FORMAT.md): how the deal is being entered
    # Each pile's points so far (`draft_points`): the deal's, moon included, once it can be
    # saved; before that each readable pile's own.
    points: dict[str, Fraction]
    left_out: tuple[str, ...]  # players whose pile is not in the draft yet
    # Whose pile the other piles settle: every other pile is entered, readable and leaves a
    # pile a player can hold (cards: `complete_round` fills it in; points: the rest of the
    # deal's total, within what one pile can be).
    may_fill: dict[str, bool]
    rests: dict[str, Pile | int]  # for each pile that may be filled: what the others leave
    # Who took all 16 black cards: by the piles (cards), as marked (points); None: nobody yet.
    moon_taker: str | None
    # The moon's choice (Capture or Release and a moon): its options, () when it is not asked.
    moon_choices: tuple[str, ...]
    missing: tuple[DraftProblem, ...]
    problems: tuple[DraftProblem, ...]
    # Once the deal can be saved: the totals after it (Going Back's halving done), who was
    # halved, whether it ends the game and who then won.
    totals: dict[str, Fraction] | None = None
    halved: tuple[str, ...] = ()
    ends_game: bool = False
    winners: tuple[str, ...] = ()

    @property
    def may_choose_moon(self) -> bool:
        """Whether the screen asks the moon's taker to choose give or release."""
        return bool(self.moon_choices)


# Why players equal on a total draft from the Mole in the order they do (RULES.md 1).
BIRTH_DATE = "birth-date"  # the younger by birth date
BIRTH_YEAR = "birth-year"  # **Decision:** a bare birth year counts as 1 January of that year
NO_DATE = "no-date"  # **Decision:** no birth date counts as older than everyone with one
SAME_DATE = "same-date"  # the same birth date: seating order from the dealer's left


@dataclass(frozen=True)
class Younger:
    """`first` picks before `second`, equal on a total, as the younger: by their birth dates
    (`by` BIRTH_DATE); because `second`'s bare birth year counts as 1 January, which decided
    it (BIRTH_YEAR: the same year, `first` born after 1 January); or because `second` has no
    birth date and counts as older (NO_DATE)."""

    first: str
    second: str
    by: str


@dataclass(frozen=True)
class Seated:
    """`players` (two or more, equal on a total) are of the same age as far as is known: they
    pick in seating order starting left of the dealer. `by`: SAME_DATE (the same birth date),
    BIRTH_YEAR (the same day because a bare birth year counts as 1 January) or NO_DATE (none
    of them has a birth date)."""

    players: tuple[str, ...]
    by: str


TieBreak = Younger | Seated


@dataclass(frozen=True)
class MoleTie:
    """Players equal on `total`, in the order they draft, and what set that order: a
    `Younger` between two of them, a `Seated` for each run of the same age."""

    total: Fraction
    players: tuple[str, ...]
    broken_by: tuple[TieBreak, ...]


@dataclass(frozen=True)
class MoleDraft:
    """Who takes 3 cards from the Mole, first to last, and why those equal on a total are in
    their order (`ties`, highest total first; none when every total differs)."""

    order: tuple[str, ...]
    ties: tuple[MoleTie, ...]
    dealer: str  # of the deal drafted for: seating order starts left of them


@dataclass(frozen=True)
class NextDeal:
    """What the table needs before the next deal."""

    number: int
    dealer: str
    pass_direction: str  # left, right, across
    cards_each: int
    mole_cards: int | None  # with The Mole from deal 2 on
    mole_draft: MoleDraft | None
    caller: str | None  # with Calling Color
    leader: str | None

    @property
    def mole_draft_order(self) -> tuple[str, ...] | None:
        return None if self.mole_draft is None else self.mole_draft.order


@dataclass(frozen=True)
class SheetDeal:
    """One row of the scoresheet."""

    number: int
    points: dict[str, Fraction]
    moon: str | None
    halved: frozenset[str]
    # Going Back: for each player halved in this deal, the total the deal reached and the total
    # it became (75 → 37.5), so the column visibly leads to the Total.
    halved_to: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)


@dataclass(frozen=True)
class Sheet:
    """The paper pad: a row per deal, the totals, the distance to the end, the next deal."""

    deals: tuple[SheetDeal, ...]
    totals: dict[str, Fraction]
    leaders: tuple[str, ...]
    end_value: int
    going_back: bool
    variants: frozenset[str]
    next_deal: NextDeal | None

    @property
    def half(self) -> Fraction:
        return Fraction(self.end_value, 2)

    def to_end(self, name: str) -> Fraction:
        """The points a total still needs to end the game: to reach the end value, or with
        Going Back to go above it (deals score whole points, so from 91 that is 10, from an
        exact half of 37.5 it is 63). Never below 0: past the end, see `over_by`."""
        left = self.end_value - self.totals[name]
        if self.going_back:
            return Fraction(math.floor(left) + 1) if left >= 0 else Fraction(0)
        return max(Fraction(0), left)

    def over_by(self, name: str) -> Fraction:
        """How far a total went past the end value (0 when it did not)."""
        return max(Fraction(0), self.totals[name] - self.end_value)


@dataclass(frozen=True)
class DealResult:
    points: dict[str, Fraction]
    moon_taker: str | None
    halved: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "points": {name: to_json(p) for name, p in self.points.items()},
            "moon": self.moon_taker,
            "halved": list(self.halved),
        }


@dataclass(frozen=True)
class State:
    setup: Setup[Options]
    totals: dict[str, Fraction]
    deals: tuple[DealResult, ...] = ()
    over: bool = False

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def options(self) -> Options:
        return self.setup.options


# --- the rules as functions ----------------------------------------------------------------


def default_end_value(players: int) -> int:
    """200 for 3 players, 150 for 4, 120 for 5, 100 for 6."""
    return END_VALUES[players]


def cards_each(players: int, deal_number: int, mole: bool) -> int:
    """Cards the dealer deals to each player; with The Mole from deal 2 on, 3 per player are set
    aside first (before the draft).

    >>> cards_each(4, 1, mole=True), cards_each(4, 2, mole=True), cards_each(5, 2, mole=False)
    (15, 12, 12)
    """
    if mole and deal_number >= 2:
        return (DECK - MOLE_CARDS_PER_PLAYER * players) // players
    return DECK // players


def pass_direction(players: int, deal_number: int) -> str:
    """Left, right, left, ...; with exactly 4 players left, right, across, left, ...

    >>> [pass_direction(4, n) for n in range(1, 5)], pass_direction(3, 4)
    (['left', 'right', 'across', 'left'], 'right')
    """
    cycle = ("left", "right", "across") if players == 4 else ("left", "right")
    return cycle[(deal_number - 1) % len(cycle)]


def dealer_of(table: Table, first_dealer: str, deal_number: int) -> str:
    """The deal passes one seat clockwise after every deal."""
    return table.left_of(first_dealer, deal_number - 1)


def colored_spy_points(options: Options) -> int:
    """A coloured Spy's points: −5, or 0 with No Good Spies."""
    return 0 if options.has("no-good-spies") else COLORED_SPY_POINTS


def pile_points(pile: Pile, options: Options) -> Fraction:
    """A player's points for a deal without a moon: black card points, −5 per coloured Spy
    (0 with No Good Spies)."""
    colored = colored_spy_points(options)
    return Fraction(pile.black_points + colored * pile.colored_spies)


def deal_total(options: Options) -> int:
    """What a deal's piles add up to: 60 (80 with No Good Spies)."""
    return BLACK_POINTS + colored_spy_points(options) * COLORED_SPIES


def deal_points(deal: AnyDeal, options: Options) -> dict[str, Fraction]:
    """Each player's points for one complete deal, moon included.

    Moon (one player took all 16 black cards): the taker scores 0 and everyone else 60, the
    coloured Spies still count; with Capture or Release the coloured Spies count 0 and the
    taker may instead choose -60 for themself and 0 for the others ("release").
    """
    if isinstance(deal, CountedDeal):
        return counted_deal_points(deal, options)
    taker = deal.moon_taker
    if taker is None:
        return {name: pile_points(pile, options) for name, pile in deal.piles.items()}
    capture = options.has("capture-or-release")
    colored = 0 if capture else colored_spy_points(options)
    points: dict[str, Fraction] = {}
    for name, pile in deal.piles.items():
        spies = Fraction(colored * pile.colored_spies)
        if capture and deal.moon_choice == "release":
            points[name] = -MOON_POINTS if name == taker else Fraction(0)
        else:
            points[name] = (Fraction(0) if name == taker else MOON_POINTS) + spies
    return points


def pile_limits(options: Options, moon: bool) -> tuple[int, int]:
    """The points one counted pile can have: a moon pile 60 to 80 (exactly 80 with No Good
    Spies); any other −20 (0 with No Good Spies) to 79 (all black cards but a 1–6)."""
    colored = colored_spy_points(options) * COLORED_SPIES
    if moon:
        return BLACK_POINTS + colored, BLACK_POINTS
    return colored, BLACK_POINTS - LOW_POINTS


def can_grow(value: int, negative: bool, low: int, high: int) -> bool:
    """Whether typing another digit after `value` (its digits so far, `negative` with a minus
    typed first) can still give a number in [low, high]: the number pad moves on when not.

    >>> can_grow(2, False, -20, 79), can_grow(8, False, -20, 79), can_grow(1, True, -20, 79)
    (True, False, True)
    """
    if value == 0 and not negative:
        return False  # a leading 0 is the whole number
    sign = -1 if negative else 1
    return any(low <= sign * (value * 10 + digit) <= high for digit in range(10))


def counted_rest(options: Options, others: Mapping[str, int]) -> int:
    """The last pile of a deal in points form: what the others leave of the deal's total."""
    return deal_total(options) - sum(others.values())


def counted_deal_points(deal: CountedDeal, options: Options) -> dict[str, Fraction]:
    """A deal in points form scored as `deal_points` scores cards: the piles as counted; after
    a moon the taker keeps only their coloured Spies (pile − 80) and everyone else gets 60 plus
    theirs (pile + 60), or Capture or Release's choice.

    >>> o = Options("Anna", frozenset(), 150)
    >>> counted_deal_points(CountedDeal({"Anna": 75, "Ben": -15, "Carla": 0}, "Anna"), o)
    {'Anna': Fraction(-5, 1), 'Ben': Fraction(45, 1), 'Carla': Fraction(60, 1)}
    """
    taker = deal.moon_taker
    if taker is None:
        return {name: Fraction(points) for name, points in deal.points.items()}
    if options.has("capture-or-release"):
        release = deal.moon_choice == "release"
        taker_gets, others_get = (-MOON_POINTS, Fraction(0)) if release else (0, MOON_POINTS)
        return {name: Fraction(taker_gets if name == taker else others_get) for name in deal.points}
    return {
        name: Fraction(points - BLACK_POINTS) if name == taker else points + MOON_POINTS
        for name, points in deal.points.items()
    }


@functools.cache
def _piles_by_points(no_good_spies: bool) -> dict[int, tuple[tuple[int, int, int, int], ...]]:
    """Every pile a player can take but all 16 black cards (a moon, which the table marks),
    by its points: (black Spies, black 1–6, mask of the black 8–11, coloured Spies)."""
    colored = 0 if no_good_spies else COLORED_SPY_POINTS
    found: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for spies in range(BLACK_SPIES + 1):
        for low in range(BLACK_LOW + 1):
            for mask in range(1 << len(HIGH_RANKS)):
                if spies == BLACK_SPIES and low == BLACK_LOW and mask == ALL_HIGH:
                    continue
                high = sum(HIGH_POINTS[r] for i, r in enumerate(HIGH_RANKS) if mask >> i & 1)
                for spied in range(COLORED_SPIES + 1):
                    points = SPY_POINTS * spies + LOW_POINTS * low + high + colored * spied
                    found[points].append((spies, low, mask, spied))
    return {points: tuple(piles) for points, piles in found.items()}


@functools.lru_cache(maxsize=4096)
def piles_possible(piles: tuple[int, ...], no_good_spies: bool) -> bool:
    """Whether some split of the deck's scoring cards among the players gives piles of these
    points (adding up to the deal's total), none of them all 16 black cards.

    Players are filled one after another, keeping every set of cards that can still be left;
    the last player takes the rest (its points follow from the total).

    >>> piles_possible((0, 0, 0, 60), False), piles_possible((-20, -20, 50, 50), False)
    (True, False)
    """
    by_points = _piles_by_points(no_good_spies)
    left = {(BLACK_SPIES, BLACK_LOW, ALL_HIGH, COLORED_SPIES)}
    for target in sorted(piles, key=lambda p: len(by_points.get(p, ())))[:-1]:
        left = {
            (spies - s, low - lo, mask & ~m, colored - c)
            for spies, low, mask, colored in left
            for s, lo, m, c in by_points.get(target, ())
            if s <= spies and lo <= low and not m & ~mask and c <= colored
        }
        if not left:
            return False
    return any(rest[:3] != (BLACK_SPIES, BLACK_LOW, ALL_HIGH) for rest in left)


def halve(total: Fraction, halves: str) -> Fraction:
    """Half a total, exact or rounded as the house rule says.

    >>> halve(Fraction(75), "exact"), halve(Fraction(75), "down"), halve(Fraction(75), "up")
    (Fraction(75, 2), Fraction(37, 1), Fraction(38, 1))
    """
    half = total / 2
    if halves == "down":
        return Fraction(math.floor(half))
    if halves == "up":
        return Fraction(math.ceil(half))
    return half


def halvings(end_value: int) -> list[Fraction]:
    """The totals Going Back halves with this end value, each reached by scoring: the end
    value and, when it is whole, its half (points are whole, so only then can a deal reach it).

    >>> halvings(200), halvings(150)
    ([Fraction(200, 1), Fraction(100, 1)], [Fraction(150, 1), Fraction(75, 1)])
    >>> halvings(75)
    [Fraction(75, 1)]
    """
    end = Fraction(end_value)
    return [total for total in (end, end / 2) if total.denominator == 1]


def uneven_halving(end_value: int) -> Fraction | None:
    """The first total this end value halves to a half (150: 75 → 37.5), the one the house
    rule rounds; None when every halving is whole and rounding changes nothing (200 → 100 → 50).

    >>> uneven_halving(150), uneven_halving(210), uneven_halving(200)
    (Fraction(75, 1), Fraction(105, 1), None)
    """
    return next((total for total in halvings(end_value) if total % 2 == 1), None)


def going_back(before: Fraction, points: Fraction, options: Options) -> tuple[Fraction, bool]:
    """The total after a deal with Going Back, and whether it was halved.

    A total that reaches exactly the end value, or exactly half of it, is halved once (no
    cascade: 200 → 100, not 50). **Decision:** a player only "reaches" a value by scoring in
    that deal; a player who was halved onto half the end value and then scores 0 stays there.
    """
    total = before + points
    end = Fraction(options.end_value)
    if points != 0 and total in (end, end / 2):
        return halve(total, options.halves), True
    return total, False


def game_over(totals: Mapping[str, Fraction], options: Options) -> bool:
    """Over when a total reaches the end value (with Going Back: exceeds it)."""
    end = options.end_value
    if options.has("going-back"):
        return any(t > end for t in totals.values())
    return any(t >= end for t in totals.values())


def mole_draft(table: Table, totals: Mapping[str, Fraction], dealer: str) -> MoleDraft:
    """The Mole's draft: highest total first; equal totals youngest first, and why.

    **Decision:** a bare birth year counts as 1 January of that year; a player without a birth
    date counts as older than everyone with one; players still equal pick in seating order
    starting left of the dealer (the order they were dealt to).
    """

    def key(name: str) -> tuple[Fraction, bool, tuple[int, ...], int]:
        born = table.born(name)
        younger_first = tuple(-part for part in born.day_of_birth) if born else ()
        seat_from_dealer = (table.seat(name) - table.seat(dealer) - 1) % len(table)
        return (-totals[name], born is None, younger_first, seat_from_dealer)

    order = tuple(sorted(table.names, key=key))
    ties = []
    for total in sorted(set(totals.values()), reverse=True):
        equal = tuple(name for name in order if totals[name] == total)
        if len(equal) > 1:
            ties.append(MoleTie(total, equal, tie_breaks(table, equal)))
    return MoleDraft(order, tuple(ties), dealer)


def tie_breaks(table: Table, equal: tuple[str, ...]) -> tuple[TieBreak, ...]:
    """What set the order of `equal` (players equal on a total, in draft order): between two
    neighbours of different ages who is younger and by what; each run of the same age in
    seating order."""

    def age(name: str) -> tuple[int, int, int] | None:
        born = table.born(name)
        return born.day_of_birth if born else None

    runs: list[list[str]] = []
    for name in equal:
        if runs and age(runs[-1][-1]) == age(name):
            runs[-1].append(name)
        else:
            runs.append([name])
    breaks: list[TieBreak] = []
    for index, run in enumerate(runs):
        if index:
            breaks.append(younger(table, runs[index - 1][-1], run[0]))
        if len(run) > 1:
            breaks.append(Seated(tuple(run), same_age_by(table, run)))
    return tuple(breaks)


def younger(table: Table, first: str, second: str) -> Younger:
    """Why `first` (of a different age) picks before `second`."""
    born, other = table.born(first), table.born(second)
    if other is None:
        return Younger(first, second, NO_DATE)
    year_decided = born is not None and other.month == 0 and born.year == other.year
    return Younger(first, second, BIRTH_YEAR if year_decided else BIRTH_DATE)


def same_age_by(table: Table, run: list[str]) -> str:
    """Why players of one age are that: no birth dates, or the same day (a bare year's)."""
    births = [table.born(name) for name in run]
    if any(born is None for born in births):
        return NO_DATE
    return BIRTH_YEAR if any(born is not None and born.month == 0 for born in births) else SAME_DATE


def rest_of_deal(piles: Mapping[str, Pile]) -> Pile | None:
    """What the last player of a deal took: every card the others' piles leave over.

    None when the others already account for more than a deal holds.

    >>> rest_of_deal({"Anna": Pile(6, 2, frozenset({8}), 1), "Ben": Pile(0, 3, frozenset(), 2)})
    Pile(black_spies=0, black_low=1, black_high=frozenset({9, 10, 11}), colored_spies=1)
    """
    return None if over_a_deal(piles) else left_over(piles)


def over_a_deal(piles: Mapping[str, Pile]) -> bool:
    """Whether the piles hold more of a part than a deal has, or a black 8 to 11 twice."""
    taken = [rank for p in piles.values() for rank in p.black_high]
    too_many = any(
        sum(getattr(p, part) for p in piles.values()) > limit for part, limit in PART_LIMITS.items()
    )
    return too_many or len(taken) != len(set(taken))


def left_over(piles: Mapping[str, Pile]) -> Pile:
    """Every card the piles leave over, none of a part they hold too many of.

    >>> left_over({"Anna": Pile(4, 0, frozenset({8}), 0), "Ben": Pile(3, 6, frozenset(), 1)})
    Pile(black_spies=0, black_low=0, black_high=frozenset({9, 10, 11}), colored_spies=3)
    """
    spies = BLACK_SPIES - sum(p.black_spies for p in piles.values())
    low = BLACK_LOW - sum(p.black_low for p in piles.values())
    colored = COLORED_SPIES - sum(p.colored_spies for p in piles.values())
    taken = {rank for p in piles.values() for rank in p.black_high}
    return Pile(max(0, spies), max(0, low), frozenset(HIGH_POINTS) - taken, max(0, colored))


# --- reading -------------------------------------------------------------------------------


def read_pile(reader: Reader, raw: object, path: str) -> Pile | None:
    fields = reader.obj(raw, path, required=PILE_KEYS)
    if fields is None or any(key not in fields for key in PILE_KEYS):
        return None
    spies = reader.whole(
        fields["black_spies"],
        child(path, "black_spies"),
        0,
        BLACK_SPIES,
        N_("black Spies in one deal"),
    )
    low = reader.whole(
        fields["black_low"],
        child(path, "black_low"),
        0,
        BLACK_LOW,
        N_("black 1 to 6 in one deal"),
    )
    colored = reader.whole(
        fields["colored_spies"],
        child(path, "colored_spies"),
        0,
        COLORED_SPIES,
        N_("coloured Spies in one deal"),
    )
    high = read_high_cards(reader, fields["black_high"], child(path, "black_high"))
    if spies is None or low is None or colored is None or high is None:
        return None
    return Pile(spies, low, high, colored)


def read_high_cards(reader: Reader, raw: object, path: str) -> frozenset[int] | None:
    items = reader.list(raw, path)
    if items is None:
        return None
    ranks: set[int] = set()
    ok = True
    for index, item in enumerate(items):
        rank = as_whole(item)
        if rank not in HIGH_POINTS:
            reader.add(e.NotOneOf(child(path, index), value=show(item), choices="8, 9, 10, 11"))
            ok = False
        elif rank in ranks:
            reader.add(e.ListedTwice(child(path, index), value=rank))
            ok = False
        else:
            ranks.add(rank)
    return frozenset(ranks) if ok else None


def check_deal_adds_up(reader: Reader, piles: Mapping[str, Pile], path: str) -> bool:
    """Across all players a deal holds exactly 6 black Spies, 6 black 1–6, each of the black
    8 to 11 once, and 4 coloured Spies."""
    before = len(reader.errors)
    sums = (
        (N_("black Spies"), sum(p.black_spies for p in piles.values()), BLACK_SPIES),
        (N_("black 1 to 6"), sum(p.black_low for p in piles.values()), BLACK_LOW),
        (N_("coloured Spies"), sum(p.colored_spies for p in piles.values()), COLORED_SPIES),
    )
    for what, total, expected in sums:
        if total != expected:
            reader.add(e.DealDoesNotAddUp(path, what=what, total=total, expected=expected))
    holder: dict[int, str] = {}
    for name, pile in piles.items():
        for rank in sorted(pile.black_high):
            if rank in holder:
                reader.add(
                    e.HighCardTwice(
                        child(child(path, name), "black_high"),
                        rank=rank,
                        first=holder[rank],
                        second=name,
                    )
                )
            else:
                holder[rank] = name
    for rank in HIGH_POINTS:
        if rank not in holder:
            reader.add(e.HighCardMissing(path, rank=rank))
    return len(reader.errors) == before


def check_piles(reader: Reader, options: Options, deal: CountedDeal, path: str) -> bool:
    """A deal in points form: the piles add up to the deal's total and some split of the cards
    gives them; after a moon the taker's pile is 80 less their coloured Spies, and every other
    pile only coloured Spies."""
    points_path = child(path, "points")
    total, expected = sum(deal.points.values()), deal_total(options)
    if total != expected:
        reader.add(e.PilesDoNotAddUp(points_path, total=total, expected=expected))
        return False
    taker = deal.moon_taker
    if taker is None:
        full = [name for name, points in deal.points.items() if points == BLACK_POINTS]
        if full:
            reader.add(e.MoonTakerRequired(child(path, "moon_taker"), name=full[0]))
            return False
        piles = tuple(sorted(deal.points.values()))
        if not piles_possible(piles, options.has("no-good-spies")):
            shown = ", ".join(str(points) for points in deal.points.values())
            reader.add(e.PilesNotPossible(points_path, piles=shown))
            return False
        return True
    colored = colored_spy_points(options)
    spied = sorted({colored * count for count in range(COLORED_SPIES + 1)}, reverse=True)
    before = len(reader.errors)
    for name, points in deal.points.items():
        allowed = [BLACK_POINTS + p for p in spied] if name == taker else spied
        if points in allowed:
            continue
        words = ", ".join(str(p) for p in allowed)
        where = child(points_path, name)
        if name == taker:
            reader.add(e.MoonPileNotPossible(where, name=name, allowed=words, points=points))
        else:
            reader.add(
                e.PileBesideMoonNotPossible(
                    where, taker=taker, name=name, allowed=words, points=points
                )
            )
    return len(reader.errors) == before


HALVED_TO = N_("halved to {total}")  # what Going Back made of a total a deal reached


class BlackSpy(GameRules[Options, AnyDeal, State]):
    id: ClassVar[str] = "black-spy"
    title: ClassVar[str] = "Black Spy"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    lower_is_better: ClassVar[bool] = True
    records: ClassVar[tuple[RecordKind, ...]] = (
        RecordKind(N_("Lowest final total"), "total", "lowest"),
        RecordKind(N_("Most moons shot in a game"), "fact:moons", "highest"),
    )

    def read_options(self, reader: Reader, table: Table, raw: object) -> Options | None:
        path = "options"
        fields = reader.obj(
            raw, path, required=["first_dealer", "variants"], optional=["end_value", "halves"]
        )
        if fields is None:
            return None
        before = len(reader.errors)
        dealer = None
        if "first_dealer" in fields:
            dealer = read_player_ref(
                reader, table, fields["first_dealer"], child(path, "first_dealer")
            )
        variants = self._read_variants(reader, fields.get("variants", []), child(path, "variants"))
        end_value: int | None = default_end_value(len(table))
        if "end_value" in fields:
            end_value = reader.whole(fields["end_value"], child(path, "end_value"), 1, None)
        halves = reader.choice(fields.get("halves", "exact"), child(path, "halves"), HALVES)
        if len(reader.errors) > before or dealer is None or end_value is None or halves is None:
            return None
        return Options(dealer, variants, end_value, halves)

    @staticmethod
    def _read_variants(reader: Reader, raw: object, path: str) -> frozenset[str]:
        items = reader.list(raw, path) or []
        variants: set[str] = set()
        for index, item in enumerate(items):
            variant = reader.choice(item, child(path, index), VARIANTS)
            if variant in variants:
                reader.add(e.ListedTwice(child(path, index), value=variant))
            elif variant is not None:
                variants.add(variant)
        return frozenset(variants)

    def read_round(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> AnyDeal | None:
        """A deal: which cards each player took, or each pile's counted points."""
        if isinstance(raw, dict) and "points" in raw:
            if "cards" in raw:
                reader.add(e.BothForms(path, one="cards", other="points"))
                return None
            return self._read_counted_deal(reader, setup, raw, path)
        fields = reader.obj(raw, path, required=["cards"], optional=["moon_choice"])
        if fields is None or "cards" not in fields:
            return None
        cards_path = child(path, "cards")
        raw_piles = read_player_map(
            reader, setup.table, fields["cards"], cards_path, require_all=True
        )
        if raw_piles is None:
            return None
        piles = {name: read_pile(reader, value, p) for name, (p, value) in raw_piles.items()}
        complete = {name: pile for name, pile in piles.items() if pile is not None}
        if len(complete) < len(piles) or not check_deal_adds_up(reader, complete, cards_path):
            return None
        deal = Deal(complete)
        ok, moon_choice = self._read_moon_choice(reader, setup.options, deal, fields, path)
        return replace(deal, moon_choice=moon_choice) if ok else None

    def _read_counted_deal(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> CountedDeal | None:
        fields = reader.obj(raw, path, required=["points"], optional=["moon_taker", "moon_choice"])
        if fields is None or "points" not in fields:
            return None
        options = setup.options
        points_path = child(path, "points")
        raw_points = read_player_map(
            reader, setup.table, fields["points"], points_path, require_all=True
        )
        if raw_points is None:
            return None
        lowest = colored_spy_points(options) * COLORED_SPIES  # a pile of every coloured Spy
        read = {
            name: reader.whole(value, p, lowest, BLACK_POINTS, N_("points in one pile"))
            for name, (p, value) in raw_points.items()
        }
        points = {name: value for name, value in read.items() if value is not None}
        if len(points) < len(read):
            return None
        taker = None
        if "moon_taker" in fields:
            taker = read_player_ref(
                reader, setup.table, fields["moon_taker"], child(path, "moon_taker")
            )
            if taker is None:
                return None
        deal = CountedDeal(points, taker)
        if not check_piles(reader, options, deal, path):
            return None
        ok, moon_choice = self._read_moon_choice(reader, options, deal, fields, path)
        return replace(deal, moon_choice=moon_choice) if ok else None

    @staticmethod
    def _read_moon_choice(
        reader: Reader, options: Options, deal: AnyDeal, fields: dict[str, object], path: str
    ) -> tuple[bool, str | None]:
        """(readable, choice): the choice is asked exactly when Capture or Release is on and one
        player took all 16 black cards."""
        needed = options.has("capture-or-release") and deal.moon_taker is not None
        choice_path = child(path, "moon_choice")
        if not needed:
            if "moon_choice" in fields:
                reader.add(e.MoonChoiceNotAllowed(choice_path))
                return False, None
            return True, None
        if "moon_choice" not in fields:
            reader.add(e.MoonChoiceRequired(choice_path, name=deal.moon_taker))
            return False, None
        choice = reader.choice(fields["moon_choice"], choice_path, MOON_CHOICES)
        return choice is not None, choice

    def start(self, setup: Setup[Options]) -> State:
        return State(setup, {name: Fraction(0) for name in setup.table.names})

    def play(self, reader: Reader, state: State, rnd: AnyDeal, path: str) -> State | None:
        options = state.options
        points = deal_points(rnd, options)
        totals: dict[str, Fraction] = {}
        halved: list[str] = []
        for name in state.table.names:
            if options.has("going-back"):
                totals[name], was_halved = going_back(state.totals[name], points[name], options)
                if was_halved:
                    halved.append(name)
            else:
                totals[name] = state.totals[name] + points[name]
        result = DealResult(points, rnd.moon_taker, tuple(halved))
        return State(state.setup, totals, (*state.deals, result), game_over(totals, options))

    def totals(self, state: State) -> dict[str, Fraction]:
        return dict(state.totals)

    def finished(self, state: State) -> bool:
        return state.over

    def winners(self, state: State) -> list[str]:
        """Lowest total wins; **Decision:** equal lowest totals share the win."""
        if not state.over:
            return []
        lowest = min(state.totals.values())
        return [name for name, total in state.totals.items() if total == lowest]

    def next_deal(self, state: State) -> NextDeal | None:
        """Who deals next, which way to pass, how many cards, the Mole and the caller."""
        if state.over:
            return None
        table, options = state.table, state.options
        number = len(state.deals) + 1
        dealer = dealer_of(table, options.first_dealer, number)
        mole = options.has("mole") and number >= 2
        calling = options.has("calling-color")
        return NextDeal(
            number=number,
            dealer=dealer,
            pass_direction=pass_direction(len(table), number),
            cards_each=cards_each(len(table), number, options.has("mole")),
            mole_cards=MOLE_CARDS_PER_PLAYER * len(table) if mole else None,
            mole_draft=mole_draft(table, state.totals, dealer) if mole else None,
            caller=dealer if calling else None,
            leader=table.left_of(dealer) if calling else None,
        )

    @staticmethod
    def _next_deal_json(deal: NextDeal | None) -> dict[str, JSON] | None:
        if deal is None:
            return None
        info: dict[str, JSON] = {
            "number": deal.number,
            "dealer": deal.dealer,
            "pass": deal.pass_direction,
            "cards_each": deal.cards_each,
        }
        if deal.mole_draft_order is not None:
            info["mole_cards"] = deal.mole_cards
            info["mole_draft_order"] = list(deal.mole_draft_order)
        if deal.caller is not None:
            info["caller"] = deal.caller
            info["leader"] = deal.leader
        return info

    def sheet(self, state: State, leaders: tuple[str, ...]) -> Sheet:
        """The scoresheet of the table screen."""
        options = state.options
        running = dict.fromkeys(state.totals, Fraction(0))
        rows = []
        for number, deal in enumerate(state.deals, start=1):
            halved_to = {}
            for name, points in deal.points.items():
                reached = running[name] + points
                running[name] = reached
                if name in deal.halved:
                    running[name] = going_back(running[name] - points, points, options)[0]
                    halved_to[name] = (reached, running[name])
            rows.append(
                SheetDeal(
                    number, dict(deal.points), deal.moon_taker, frozenset(deal.halved), halved_to
                )
            )
        deals = tuple(rows)
        return Sheet(
            deals=deals,
            totals=dict(state.totals),
            leaders=leaders,
            end_value=options.end_value,
            going_back=options.has("going-back"),
            variants=options.variants,
            next_deal=self.next_deal(state),
        )

    def deal_points_so_far(self, state: State, draft: Deal) -> dict[str, Fraction]:
        """Each player's points for a deal being entered: the deal's once it adds up (moon
        included), before that each pile's own."""
        if check_deal_adds_up(Reader(), draft.piles, "draft"):
            return deal_points(draft, state.options)
        return {name: pile_points(pile, state.options) for name, pile in draft.piles.items()}

    def end_value(self, state: State) -> int | None:
        return state.options.end_value

    def player_facts(self, state: State) -> dict[str, dict[str, int]]:
        """Moons shot: deals in which the player took all 16 black cards."""
        return {
            name: {"moons": sum(deal.moon_taker == name for deal in state.deals)}
            for name in state.table.names
        }

    def halvings(self, state: State) -> dict[str, int]:
        """Per player, the deals after which Going Back halved their total."""
        return {
            name: sum(name in deal.halved for deal in state.deals) for name in state.table.names
        }

    def starter(self, players: list[JSON], options: Record) -> str:
        return str(options["first_dealer"])

    def next_game(self, players: list[JSON], options: Record) -> tuple[list[JSON], Record]:
        """The same seats; the first dealer is the one to the left of this game's."""
        return list(players), {**options, "first_dealer": left_of(players, options["first_dealer"])}

    def details(self, state: State) -> dict[str, JSON]:
        return {
            "next_deal": self._next_deal_json(self.next_deal(state)),
            "end_value": state.options.end_value,
            "deals": [deal.to_json() for deal in state.deals],
        }

    def blank_round(self, state: State) -> dict[str, JSON]:
        return {"cards": {name: Pile().to_json() for name in state.table.names}}

    def round_scores(self, before: State, after: State) -> dict[str, RoundScore]:
        """A deal's points as the piles (and a moon) scored them; a total Going Back halved is
        said apart: "35, halved to 75", not the change in the total (−40)."""
        deal = after.deals[-1]
        return {
            name: RoundScore(deal.points[name], after.totals[name], HALVED_TO)
            if name in deal.halved
            else RoundScore(deal.points[name])
            for name in after.totals
        }

    def draft_points(self, state: State, draft: object) -> dict[str, Fraction]:
        """The deal's points once it adds up (moon included); before that, each readable pile's
        own points."""
        reader = Reader()
        deal = self.read_round(reader, state.setup, draft, "draft")
        if deal is not None:
            return deal_points(deal, state.options)
        counted = draft.get("points") if isinstance(draft, dict) else None
        if isinstance(counted, dict):  # the points form: each pile as typed so far
            return {
                seated: Fraction(value)
                for name, value in counted.items()
                if (seated := state.table.resolve(name)) is not None and as_whole(value) is not None
            }
        cards = draft.get("cards") if isinstance(draft, dict) else None
        points: dict[str, Fraction] = {}
        for name, raw in (cards if isinstance(cards, dict) else {}).items():
            pile = read_pile(Reader(), raw, name)
            seated = state.table.resolve(name)
            if pile is not None and seated is not None:
                points[seated] = pile_points(pile, state.options)
        return points

    def preview(self, state: State, draft: object) -> DealPreview:
        """A deal being entered after `state`, answered as saving it would: its points so far,
        which pile the others settle, the moon and its choice, what is missing and wrong (the
        replay's own errors, keyed by player and part) and, once it can be saved, what it does
        to the totals and whether it ends the game."""
        checked = check_draft(self, state.setup, state, draft, len(state.deals))
        fields = draft if isinstance(draft, dict) else {}
        form = "points" if "points" in fields else "cards"
        entered = fields.get(form)
        piles = entered if isinstance(entered, dict) else {}
        taker = self._moon_taker(state.table, form, fields, piles)
        rests = self._rests(state, form, piles, taker)
        preview = DealPreview(
            form=form,
            points=self.draft_points(state, draft),
            left_out=tuple(n for n in state.table.names if n not in _seated(state.table, piles)),
            may_fill={name: name in rests for name in state.table.names},
            rests=rests,
            moon_taker=taker,
            moon_choices=(),
            missing=checked.missing,
            problems=checked.problems,
        )
        if state.options.has("capture-or-release") and preview.moon_taker is not None:
            preview = replace(preview, moon_choices=MOON_CHOICES)
        after: State | None = checked.after
        if after is None:
            return preview
        return replace(
            preview,
            totals=dict(after.totals),
            halved=after.deals[-1].halved,
            ends_game=after.over,
            winners=tuple(self.winners(after)),
        )

    def _rests(
        self, state: State, form: str, piles: dict[str, object], taker: str | None
    ) -> dict[str, Pile | int]:
        """For each player whose pile the others settle, what the others leave: in cards form
        the cards (none when they already hold more than a deal), in points form the rest of
        the deal's total (none when that pile cannot be it, a moon's `taker` considered)."""
        seated = _seated(state.table, piles)
        rests: dict[str, Pile | int] = {}
        for name in state.table.names:
            others = [seated.get(n) for n in state.table.names if n != name]
            if any(n not in seated for n in state.table.names if n != name):
                continue
            moon = None if taker is None else taker == name
            rest = (
                _pile_rest(others) if form == "cards" else _points_rest(state.options, others, moon)
            )
            if rest is not None:
                rests[name] = rest
        return rests

    @staticmethod
    def _moon_taker(
        table: Table, form: str, fields: dict[str, object], piles: dict[str, object]
    ) -> str | None:
        """Who took all 16 black cards: a readable pile of them all (cards form), or the
        player marked (points form)."""
        if form == "points":
            taker = fields.get("moon_taker")
            return table.resolve(taker) if isinstance(taker, str) else None
        for name, raw in _seated(table, piles).items():
            pile = read_pile(Reader(), raw, "")
            if pile is not None and pile.is_moon:
                return name
        return None

    def complete_round(self, state: State, draft: dict[str, JSON], player: str) -> dict[str, JSON]:
        """Fill `player`'s pile with what the other piles leave over (when they are readable and
        do not already exceed a deal)."""
        cards = draft.get("cards")
        if not isinstance(cards, dict):
            return draft
        reader = Reader()
        others = {
            name: read_pile(reader, pile, name)
            for name, pile in cards.items()
            if state.table.resolve(name) != player
        }
        readable = {name: pile for name, pile in others.items() if pile is not None}
        rest = rest_of_deal(readable) if len(readable) == len(others) else None
        if rest is None:
            return draft
        completed = {
            name: pile for name, pile in cards.items() if state.table.resolve(name) != player
        }
        completed[player] = rest.to_json()
        ordered = sorted(
            completed, key=lambda name: state.table.seat(state.table.resolve(name) or player)
        )
        return {**draft, "cards": {name: completed[name] for name in ordered}}


def _seated(table: Table, entries: dict[str, object]) -> dict[str, object]:
    """A draft's entries keyed by players as seated (keys that are no player are left out)."""
    found: dict[str, object] = {}
    for key, value in entries.items():
        name = table.resolve(str(key))
        if name is not None and name not in found:
            found[name] = value
    return found


def _pile_rest(others: list[object]) -> Pile | None:
    """The cards the other piles leave (`rest_of_deal`), when each of them can be read."""
    piles = [read_pile(Reader(), raw, "") for raw in others]
    readable = {str(index): pile for index, pile in enumerate(piles) if pile is not None}
    return rest_of_deal(readable) if len(readable) == len(piles) else None


def _points_rest(options: Options, others: list[object], moon: bool | None) -> int | None:
    """The points the other piles leave of the deal's total, when each is a whole number and
    the rest is a pile one player can have (`pile_values`)."""
    counted = [as_whole(value) for value in others]
    known = {str(index): points for index, points in enumerate(counted) if points is not None}
    if len(known) < len(counted):
        return None
    rest = counted_rest(options, known)
    return rest if rest in pile_values(options, moon) else None


def pile_values(options: Options, moon: bool | None) -> frozenset[int]:
    """The points one counted pile can have: the moon's pile (`moon` True) 80 less its
    coloured Spies, a pile beside a moon (False) only coloured Spies; with no moon marked
    (None) anything from all coloured Spies to all 16 black cards.

    >>> sorted(pile_values(Options("Anna", frozenset(), 150), True))
    [60, 65, 70, 75, 80]
    """
    colored = colored_spy_points(options)
    spied = frozenset(colored * count for count in range(COLORED_SPIES + 1))
    if moon is None:
        return frozenset(range(colored * COLORED_SPIES, BLACK_POINTS + 1))
    return frozenset(BLACK_POINTS + points for points in spied) if moon else spied


RULES = BlackSpy()
