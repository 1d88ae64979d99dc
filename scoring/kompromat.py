"""Kompromat (2 players): RULES.md section 2.

Six rounds of four missions. Per mission each player's equipment cards give a total (a 1/11
counting what its player declared at the reveal, else whichever is better); above 21 fails
(+1 token), exactly 21 may return a token, the higher total of at most 21 wins the mission card
and the counter-intelligence tokens under it. Nine tokens lose at once. Victory points: targets
+ 1 per item + code set + document set + 1 per token.

Card labels: "0.5", "2" to "10", "1/11" (its best value), and "1" or "11" (a 1/11 whose value
was declared).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import ClassVar

from . import errors as e
from .base import JSON, GameRules, Record, RecordKind, Setup, left_of, rank
from .errors import N_, Term
from .numbers import to_json
from .reader import Reader, as_number, as_whole, child, show
from .table import Table, read_player_map, read_player_ref

ROUNDS = 6
MISSIONS_PER_ROUND = 4
PERFECT = 21
TOKEN_LIMIT = 9
BALACLAVA_DISCARD = 2
NEWSPAPER_BONUS = 3
ACE = "1/11"
DECLARED_ACES = ("1", "11")  # a 1/11 whose player declared its value

# The equipment deck: label -> copies (0.5, 1/11, 2, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10, 1/11).
DECK: dict[str, int] = {"0.5": 1, ACE: 2, **{str(n): 1 for n in range(2, 11)}, "7": 3}
DECK_SIZE = sum(DECK.values())
HAND = ("0.5", ACE, *(str(n) for n in range(2, 11)))  # each kind of card once, lowest first
# The mission deck (24 cards besides counter-intelligence: exactly 6 rounds x 4 missions).
TARGET_VPS: dict[int, int] = {5: 1, 4: 2, 3: 3, 2: 2}  # printed VP -> cards
SET_CARDS = 3  # codes, and documents
SET_SCORES = (0, 2, 6, 12)
ALARM_CARDS: dict[int, int] = {1: 2, 2: 2, 3: 1}  # "!" marks -> counter-intelligence cards
ALARM_MARKS = (0, *ALARM_CARDS)  # none, or the marks of a counter-intelligence card
CARD_KINDS = ("target", "code", "document", "item")

ITEM_NAMES: dict[str, Term] = {
    "balaclava": N_("Balaclava"),
    "chloroform": N_("Chloroform"),
    "drone": N_("Drone"),
    "gps-tracker": N_("GPS Tracker"),
    "jetpack": N_("Jetpack"),
    "newspaper": N_("Newspaper"),
    "night-vision": N_("Night Vision"),
    "stun-gun": N_("Stun Gun"),
    "usb-stick": N_("USB Stick"),
    "vesper-martini": N_("Vesper Martini"),
}
ITEMS = tuple(ITEM_NAMES)
# Keys an effect has besides "item" and "by", per item acted as.
EFFECT_KEYS: dict[str, tuple[str, ...]] = {"newspaper": ("on",), "vesper-martini": ("adjust",)}
# Items whose ability acts after a mission is awarded: **Decision** (RULES.md section 2,
# "Gegenstände können sofort nach dem Erwerb verwendet werden"): the winner may use one won on
# a mission in that same mission's effects, before the 9-token check.
ACTS_AFTER_AWARD = frozenset({"chloroform", "balaclava"})


@dataclass(frozen=True)
class Options:
    first_player: str


@dataclass(frozen=True)
class MissionCard:
    kind: str
    vp: int = 0
    item: str | None = None

    def to_json(self) -> dict[str, JSON]:
        if self.kind == "target":
            return {"kind": "target", "vp": self.vp}
        if self.kind == "item":
            return {"kind": "item", "item": self.item}
        return {"kind": self.kind}


@dataclass(frozen=True)
class Effect:
    item: str  # the item card used (the USB stick when copying)
    by: str
    acts_as: str  # the item whose ability applies (the copied one for the USB stick)
    on: str | None = None
    adjust: int = 0

    def to_json(self) -> dict[str, JSON]:
        effect: dict[str, JSON] = {"item": self.item, "by": self.by}
        if self.acts_as != self.item:
            effect["as"] = self.acts_as
        if self.acts_as == "newspaper":
            effect["on"] = self.on
        if self.acts_as == "vesper-martini":
            effect["adjust"] = self.adjust
        return effect


@dataclass(frozen=True)
class Outcome:
    """A mission in outcome form (FORMAT.md): how it ended, as the table saw it, after any
    Newspaper or Vesper Martini; its cards are not recorded."""

    winner: str | None
    busts: frozenset[str] = frozenset()
    perfect: frozenset[str] = frozenset()
    no_cards: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, JSON]:
        outcome: dict[str, JSON] = {
            "winner": self.winner,
            "busts": list[JSON](sorted(self.busts)),
            "perfect": list[JSON](sorted(self.perfect)),
        }
        if self.no_cards:
            outcome["no_cards"] = list[JSON](sorted(self.no_cards))
        return outcome


@dataclass(frozen=True)
class Mission:
    card: MissionCard
    alarm: int
    plays: dict[str, tuple[str, ...]]  # every player, seating order; labels as in DECK
    perfect_return: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    outcome: Outcome | None = None  # the outcome form: no plays recorded

    def acting(self, ability: str) -> list[Effect]:
        return [effect for effect in self.effects if effect.acts_as == ability]

    def played(self, name: str) -> bool:
        """Whether `name` laid any card on this mission."""
        if self.outcome is not None:
            return name not in self.outcome.no_cards
        return bool(self.plays[name])


@dataclass(frozen=True)
class KompromatRound:
    missions: tuple[Mission, ...]


@dataclass(frozen=True)
class Holdings:
    """What one player has won so far."""

    targets: int = 0  # printed victory points
    items: tuple[str, ...] = ()  # item cards won, in order
    used: frozenset[str] = frozenset()
    codes: int = 0
    documents: int = 0
    tokens: int = 0
    perfect: int = 0  # missions with exactly 21
    failed: int = 0  # missions above 21

    def breakdown(self) -> dict[str, int]:
        return {
            "targets": self.targets,
            "items": len(self.items),
            "codes": SET_SCORES[self.codes],
            "documents": SET_SCORES[self.documents],
            "tokens": self.tokens,
        }

    @property
    def victory_points(self) -> int:
        return sum(self.breakdown().values())

    def unused_items(self) -> list[str]:
        return [item for item in self.items if item not in self.used]


@dataclass(frozen=True)
class MissionResult:
    totals: dict[str, Fraction | None] | None  # None: played no cards; all None: outcome form
    winner: str | None
    tokens: dict[str, int]  # tokens after the mission

    def to_json(self) -> dict[str, JSON]:
        totals = self.totals
        return {
            "totals": None
            if totals is None
            else {n: None if t is None else to_json(t) for n, t in totals.items()},
            "winner": self.winner,
            "tokens": dict(self.tokens),
        }


def card_json(label: str) -> JSON:
    """A card label as the record writes it: 0.5 and the numbers as numbers, "1/11" as is."""
    if label == ACE:
        return ACE
    return 0.5 if label == "0.5" else int(label)


MARKS = ("busts", "perfect", "no_cards")  # what the outcome form says of each player


def decided_by_marks(
    names: Iterable[str], marks: Mapping[str, frozenset[str]]
) -> tuple[bool, str | None]:
    """Whether the marks alone decide who takes the mission card, and who (None: nobody):
    a single player at 21; else the only player who played and stayed at 21 or under."""
    if len(marks["perfect"]) == 1:
        return True, next(iter(marks["perfect"]))
    candidates = [n for n in names if n not in marks["busts"] | marks["no_cards"]]
    if len(candidates) <= 1:
        return True, candidates[0] if candidates else None
    return False, None


@dataclass(frozen=True)
class OutcomeDraft:
    """A mission's outcome being entered (the quick form). `decided`: the winner (or nobody)
    is known, chosen or forced by the marks; until then the record has no winner to save."""

    winner: str | None = None
    decided: bool = False
    busts: frozenset[str] = frozenset()
    perfect: frozenset[str] = frozenset()
    no_cards: frozenset[str] = frozenset()

    def marks(self) -> dict[str, frozenset[str]]:
        return {"busts": self.busts, "perfect": self.perfect, "no_cards": self.no_cards}

    def to_json(self) -> dict[str, JSON]:
        outcome: dict[str, JSON] = {"winner": self.winner} if self.decided else {}
        outcome |= {
            "busts": list[JSON](sorted(self.busts)),
            "perfect": list[JSON](sorted(self.perfect)),
        }
        if self.no_cards:
            outcome["no_cards"] = list[JSON](sorted(self.no_cards))
        return outcome

    def won_by(self, winner: str | None) -> OutcomeDraft:
        return replace(self, winner=winner, decided=True)

    def marked(self, mark: str, name: str, names: tuple[str, ...]) -> OutcomeDraft:
        """`name` put in (or taken out of) `mark`, one of MARKS — a player is in one at most.
        The winner follows the marks where they decide it; a winner the marks decided is
        forgotten once they no longer do, and so is a winner the marks now rule out."""
        marks = self.marks()
        if name in marks[mark]:
            marks[mark] = marks[mark] - {name}
        else:
            marks = {key: (m | {name}) if key == mark else m - {name} for key, m in marks.items()}
        was_forced = decided_by_marks(names, self.marks())[0]
        decided, winner = decided_by_marks(names, marks)
        if not decided:  # the table's own choice stands, unless the marks made or rule it out
            ruled_out = self.winner in marks["busts"] | marks["no_cards"]
            decided = self.decided and not (was_forced or ruled_out)
            winner = self.winner if decided else None
        return OutcomeDraft(winner, decided, marks["busts"], marks["perfect"], marks["no_cards"])


@dataclass(frozen=True)
class MissionDraft:
    """A mission being entered: any of it may still be missing (the rules check it on saving).
    `quick`: entered in outcome form (`outcome`), else by its cards (`plays`); the other form's
    entries are kept while the table switches back and forth."""

    card: MissionCard | None = None
    alarm: int = 0
    plays: dict[str, tuple[str, ...]] = field(default_factory=dict)
    perfect_return: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    outcome: OutcomeDraft = OutcomeDraft()
    quick: bool = False

    def cards_of(self, name: str) -> tuple[str, ...]:
        return () if self.quick else self.plays.get(name, ())

    def to_json(self) -> dict[str, JSON]:
        mission: dict[str, JSON] = {"alarm": self.alarm}
        if self.card is not None:
            mission = {"card": self.card.to_json(), **mission}
        if self.quick:
            mission["outcome"] = self.outcome.to_json()
        else:
            mission["plays"] = {
                name: [card_json(label) for label in cards] for name, cards in self.plays.items()
            }
        if self.perfect_return:
            mission["perfect_return"] = list[JSON](sorted(self.perfect_return))
        if self.effects:
            mission["effects"] = [effect.to_json() for effect in self.effects]
        return mission

    def with_card(self, card: MissionCard) -> MissionDraft:
        return replace(self, card=card)

    def with_alarm(self, alarm: int) -> MissionDraft:
        return replace(self, alarm=alarm)

    def played(self, name: str, label: str) -> MissionDraft:
        return replace(self, plays={**self.plays, name: (*self.cards_of(name), label)})

    def taken_back(self, name: str, position: int) -> MissionDraft:
        cards = self.cards_of(name)
        return replace(self, plays={**self.plays, name: cards[:position] + cards[position + 1 :]})

    def declared(self, name: str, position: int, value: int) -> MissionDraft:
        """The 1/11 at `position` counts as `value` (1 or 11): the player's choice."""
        cards = list(self.cards_of(name))
        cards[position] = str(value)
        return replace(self, plays={**self.plays, name: tuple(cards)})

    def with_outcome(self, outcome: OutcomeDraft) -> MissionDraft:
        return replace(self, outcome=outcome)

    def with_return(self, name: str) -> MissionDraft:
        """`name` returns a token for a perfect 21 (or no longer does)."""
        return replace(self, perfect_return=self.perfect_return ^ {name})

    def with_effect(self, effect: Effect) -> MissionDraft:
        """`effect` used on this mission (or no longer)."""
        if effect in self.effects:
            return replace(self, effects=tuple(e for e in self.effects if e != effect))
        return replace(self, effects=(*self.effects, effect))


@dataclass(frozen=True)
class RoundDraft:
    """A round being entered: its four missions in reveal order."""

    missions: tuple[MissionDraft, ...]

    @classmethod
    def blank(cls, table: Table, quick: bool = False) -> RoundDraft:
        empty = MissionDraft(plays={name: () for name in table.names}, quick=quick)
        return cls(tuple(empty for _ in range(MISSIONS_PER_ROUND)))

    @classmethod
    def from_json(cls, raw: object, table: Table) -> RoundDraft:
        """A stored round as far as it can be read (a correction starts from it, in the form
        its first mission was entered in)."""
        missions = raw.get("missions") if isinstance(raw, dict) else None
        drafts = [
            _mission_draft(table, item) for item in (missions if isinstance(missions, list) else [])
        ]
        blank = cls.blank(table, quick=bool(drafts) and drafts[0].quick).missions
        return cls(tuple(drafts[:MISSIONS_PER_ROUND]) + blank[len(drafts) :])

    @property
    def quick(self) -> bool:
        """Entered in outcome form (a round mixing forms shows as its first mission)."""
        return self.missions[0].quick

    def in_form(self, quick: bool) -> RoundDraft:
        """Every mission in outcome form (`quick`) or by its cards."""
        return replace(self, missions=tuple(replace(m, quick=quick) for m in self.missions))

    def to_json(self) -> dict[str, JSON]:
        return {"missions": [mission.to_json() for mission in self.missions]}

    def saved(self, previews: Sequence[MissionPreview]) -> dict[str, JSON]:
        """The round as it is saved: its missions up to the one that ended the game (9 tokens),
        as the previews of this draft say; all four while the game goes on."""
        played = self.missions[: missions_played(previews)]
        return {"missions": [mission.to_json() for mission in played]}

    def with_mission(self, index: int, mission: MissionDraft) -> RoundDraft:
        missions = list(self.missions)
        missions[index] = mission
        return replace(self, missions=tuple(missions))

    def cards_of(self, name: str) -> list[str]:
        """Every card `name` laid this round."""
        return [label for mission in self.missions for label in mission.cards_of(name)]


def _mission_draft(table: Table, raw: object) -> MissionDraft:
    """A mission of a stored round, leniently: what cannot be read is left out."""
    if not isinstance(raw, dict):
        return MissionDraft(plays={name: () for name in table.names})
    reader = Reader()
    card = read_mission_card(reader, raw["card"], "card") if "card" in raw else None
    alarm = as_whole(raw.get("alarm"))
    plays = Kompromat._readable_plays(table, raw)
    returns = raw.get("perfect_return")
    perfect = frozenset(
        name
        for name in (table.resolve(str(n)) for n in (returns if isinstance(returns, list) else []))
        if name
    )
    effects = raw.get("effects")
    read_effects = [
        Kompromat._read_effect(Reader(), table, item, "")
        for item in (effects if isinstance(effects, list) else [])
    ]
    return MissionDraft(
        card=card,
        alarm=alarm if alarm is not None and 0 <= alarm <= max(ALARM_CARDS) else 0,
        plays=plays,
        perfect_return=perfect,
        effects=tuple(effect for effect in read_effects if effect is not None),
        outcome=_outcome_draft(table, raw.get("outcome")),
        quick="outcome" in raw,
    )


def _outcome_draft(table: Table, raw: object) -> OutcomeDraft:
    """A stored outcome, leniently: names that are not players are left out."""
    if not isinstance(raw, dict):
        return OutcomeDraft()

    def players(key: str) -> frozenset[str]:
        listed = raw.get(key)
        found = (table.resolve(str(n)) for n in (listed if isinstance(listed, list) else []))
        return frozenset(name for name in found if name)

    winner = raw.get("winner")
    return OutcomeDraft(
        winner=table.resolve(str(winner)) if winner is not None else None,
        decided="winner" in raw,
        **{mark: players(mark) for mark in MARKS},
    )


@dataclass(frozen=True)
class MissionPreview:
    """A mission being entered, resolved as far as the entries allow."""

    totals: dict[str, Fraction | None]  # None: no cards
    values: dict[str, tuple[Fraction, ...]]  # what each card counts (a 1/11 as 1 or 11)
    may_add: dict[str, bool]  # not after a bust
    left: dict[str, dict[str, int]]  # cards of each kind still in hand this round
    offers: dict[str, tuple[Effect, ...]]  # the item effects each player may use here
    resolved: bool = False
    winner: str | None = None
    tokens: dict[str, int] | None = None  # after the mission
    ended: bool = False  # after the mission that ended the game: nothing to enter
    # The players at 9 tokens or more once this mission is fully resolved (its perfect
    # returns, Chloroform and Balaclava counted): this mission ended the game.
    losers: tuple[str, ...] = ()
    # The players at exactly 21 after the items (a token may go back), each with the effects
    # that changed their total (Decision: a 21 after a Newspaper or Vesper Martini is perfect;
    # none: 21 by the cards). In outcome form, the players the table marked at 21.
    perfect: dict[str, tuple[Effect, ...]] = field(default_factory=dict)
    # The players at 21 who may return a token here: those holding one before this mission
    # (tokens taken on earlier missions of the round count). While an earlier mission is not
    # resolved the tokens are not known yet: everyone at 21 may.
    may_return: frozenset[str] = frozenset()
    # The "!" marks a counter-intelligence card under this mission may still have: none, and
    # each whose cards are not all used (earlier rounds and this round's earlier missions).
    may_alarm: tuple[int, ...] = ALARM_MARKS

    @property
    def ends_game(self) -> bool:
        """Whether this mission ended the game (9 tokens): no mission follows it."""
        return bool(self.losers)

    def everyone_laid(self, mission: MissionDraft) -> bool:
        """Whether each player has laid cards on `mission`, or has none left in hand: by the
        rules nothing is missing any more (more cards may still follow; the table says when
        the mission is done). After the mission that ended the game nothing is expected."""
        return self.ended or all(
            mission.cards_of(name) or not any(in_hand.values())
            for name, in_hand in self.left.items()
        )


def alarms_left(used: Sequence[int]) -> tuple[int, ...]:
    """The "!" marks a mission may still show: none, and each whose counter-intelligence cards
    are not all `used` (2 of "!", 2 of "!!", 1 of "!!!").

    >>> alarms_left([2, 3, 2])
    (0, 1)
    """
    return (0, *(marks for marks, cards in ALARM_CARDS.items() if used.count(marks) < cards))


def missions_played(previews: Sequence[MissionPreview]) -> int:
    """How many missions of a round being entered are played: up to the one that ended the
    game by 9 tokens (the later ones are never revealed), else all of them."""
    return next((index + 1 for index, p in enumerate(previews) if p.ends_game), len(previews))


@dataclass(frozen=True)
class Standing:
    """One player in the game so far."""

    name: str
    tokens: int
    victory_points: int
    breakdown: dict[str, int]
    unused_items: tuple[str, ...]
    playing: bool = True  # the game goes on

    @property
    def to_loss(self) -> int:
        """Tokens left before the loss at 9."""
        return TOKEN_LIMIT - self.tokens

    @property
    def near_loss(self) -> bool:
        """Two tokens or fewer from the loss while the game goes on (the screen warns; a
        finished game warns nobody)."""
        return self.playing and self.to_loss <= 2


@dataclass(frozen=True)
class PlayedMission:
    card: MissionCard
    resolved: bool  # not after the mission that ended the game
    winner: str | None


@dataclass(frozen=True)
class Board:
    """Kompromat at the table: standings, the next round, what each round's missions did."""

    players: tuple[Standing, ...]
    next_round: tuple[int, str] | None  # (number, first player)
    token_losers: tuple[str, ...]
    rounds: tuple[tuple[PlayedMission, ...], ...]
    cards_left: tuple[tuple[MissionCard, int], ...]  # the mission deck not laid out yet
    used_items: frozenset[str]


@dataclass(frozen=True)
class At:
    """Where a mission is, for messages: "mission 2 of round 3"."""

    round: int
    mission: int

    @property
    def params(self) -> dict[str, int]:
        return {"round": self.round, "mission": self.mission}


@dataclass(frozen=True)
class State:
    setup: Setup[Options]
    holdings: dict[str, Holdings]
    rounds_played: int = 0
    token_losers: tuple[str, ...] = ()
    used_items: frozenset[str] = frozenset()  # used by anyone (what the USB stick may copy)
    mission_cards: tuple[MissionCard, ...] = ()
    alarms: tuple[int, ...] = ()
    results: tuple[tuple[MissionResult, ...], ...] = ()

    @property
    def table(self) -> Table:
        return self.setup.table


# --- the rules as functions ----------------------------------------------------------------


def card_value(label: str) -> Fraction:
    """The value of a card other than an undeclared 1/11 (a declared one counts as declared)."""
    return Fraction(label)


def other_ace_value(value: int) -> int:
    """A 1/11 counting `value` declared the other way: 1 and 11."""
    return 1 if value == 11 else 11


def deck_card(label: str) -> str:
    """The card of the deck a label is: a declared 1 or 11 is a 1/11 card."""
    return ACE if label in DECLARED_ACES else label


def counted_values(cards: Iterable[str], modifier: int = 0) -> list[Fraction]:
    """What each card counts on a mission: an undeclared 1/11 counts 11 where the total stays at
    most 21 (with the Newspaper or Vesper Martini `modifier`), else 1.

    >>> [str(v) for v in counted_values(["10", "1/11"])], [str(v) for v in counted_values(["1"])]
    (['10', '11'], ['1'])
    >>> [str(v) for v in counted_values(["1/11", "1/11"])]
    ['11', '1']
    """
    labels = list(cards)
    total = sum((card_value(c) for c in labels if c != ACE), Fraction(modifier))
    total += labels.count(ACE)
    values: list[Fraction] = []
    for label in labels:
        if label != ACE:
            values.append(card_value(label))
        elif total + 10 <= PERFECT:
            total += 10
            values.append(Fraction(11))
        else:
            values.append(Fraction(1))
    return values


def mission_total(cards: Iterable[str], modifier: int = 0) -> Fraction:
    """A player's total on a mission, each undeclared 1/11 counting 11 where that stays at most
    21, a declared one as declared.

    >>> mission_total(["10", "1/11"]), mission_total(["10", "5", "1/11"])
    (Fraction(21, 1), Fraction(16, 1))
    >>> mission_total(["0.5", "9"]), mission_total(["10", "1/11"], modifier=3)
    (Fraction(19, 2), Fraction(14, 1))
    >>> mission_total(["10", "1"]), mission_total(["10", "5", "11"])
    (Fraction(11, 1), Fraction(26, 1))
    """
    return sum(counted_values(cards, modifier), Fraction(modifier))


def changing_total(name: str, effects: Iterable[Effect]) -> tuple[Effect, ...]:
    """The effects that change `name`'s total on a mission: a Newspaper on them, their own
    Vesper Martini (either maybe a USB Stick acting as it)."""
    return tuple(
        effect
        for effect in effects
        if (effect.acts_as == "newspaper" and effect.on == name)
        or (effect.acts_as == "vesper-martini" and effect.by == name)
    )


def modifiers_of(names: Iterable[str], effects: Iterable[Effect]) -> dict[str, int]:
    """What the Newspaper (+3 to its target) and the Vesper Martini (±1 to its user) add to
    each player's total on a mission."""
    modifiers = dict.fromkeys(names, 0)
    for effect in effects:
        if effect.acts_as == "newspaper" and effect.on in modifiers:
            modifiers[effect.on] += NEWSPAPER_BONUS
        elif effect.acts_as == "vesper-martini" and effect.by in modifiers:
            modifiers[effect.by] += effect.adjust
    return modifiers


def lowest_total(cards: Iterable[str]) -> Fraction:
    """The cards' total with every 1/11 counted as 1, however declared: what decides whether
    a player must stop (a card may follow only while this is at most 21)."""
    return sum((Fraction(1) if deck_card(c) == ACE else card_value(c) for c in cards), Fraction(0))


def may_add_card(cards: Iterable[str]) -> bool:
    """Whether a player may still lay a card on this mission: not once above 21.

    >>> may_add_card(["10", "9", "1/11"]), may_add_card(["10", "9", "3"])
    (True, False)
    """
    return lowest_total(cards) <= PERFECT


def deck_left(cards: Iterable[str]) -> dict[str, int]:
    """How many of each deck card are still in hand after playing `cards` this round (a
    declared 1 or 11 uses a 1/11)."""
    used = Counter(deck_card(label) for label in cards)
    return {label: copies - used[label] for label, copies in DECK.items()}


def mission_winner(
    totals: Mapping[str, Fraction | None], card_counts: Mapping[str, int]
) -> str | None:
    """The higher total of at most 21 wins; equal: more cards wins; still equal: nobody."""
    valid = {n: t for n, t in totals.items() if t is not None and t <= PERFECT}
    if not valid:
        return None
    ranked = sorted(valid, key=lambda n: (valid[n], card_counts[n]), reverse=True)
    if len(ranked) > 1 and (valid[ranked[0]], card_counts[ranked[0]]) == (
        valid[ranked[1]],
        card_counts[ranked[1]],
    ):
        return None
    return ranked[0]


def deck_not_laid(state: State) -> list[tuple[MissionCard, int]]:
    """The mission cards not laid out yet: each kind with how many are left."""
    deck = [MissionCard("target", vp=vp) for vp in TARGET_VPS]
    deck += [MissionCard("code"), MissionCard("document")]
    deck += [MissionCard("item", item=item) for item in ITEMS]
    left = []
    for card in deck:
        total = {"target": TARGET_VPS.get(card.vp, 0), "item": 1}.get(card.kind, SET_CARDS)
        remaining = total - state.mission_cards.count(card)
        if remaining > 0:
            left.append((card, remaining))
    return left


def first_player_of(table: Table, first_player: str, round_number: int) -> str:
    """The start player alternates each round."""
    return table.left_of(first_player, round_number - 1)


# --- reading -------------------------------------------------------------------------------


def read_equipment(reader: Reader, raw: object, path: str) -> str | None:
    """An equipment card: 0.5 or 2 to 10 as numbers, "1/11", or a declared 1/11 as 1 or 11."""
    if raw == ACE:
        return ACE
    number = as_number(raw)
    if number is not None and (
        number == Fraction(1, 2) or (number.denominator == 1 and 1 <= number <= 11)
    ):
        return str(int(number)) if number.denominator == 1 else "0.5"
    reader.add(e.NotAnEquipmentCard(path, value=show(raw)))
    return None


def read_mission_card(reader: Reader, raw: object, path: str) -> MissionCard | None:
    fields = reader.mapping(raw, path)
    if fields is None:
        return None
    kind = reader.choice(fields.get("kind"), child(path, "kind"), CARD_KINDS)
    if kind is None:
        return None
    if kind == "target":
        reader.obj(raw, path, required=["kind", "vp"])
        if "vp" not in fields:
            return None
        vp = as_whole(fields["vp"])
        if vp not in TARGET_VPS:
            choices = ", ".join(str(v) for v in sorted(TARGET_VPS))
            reader.add(e.NotOneOf(child(path, "vp"), value=show(fields["vp"]), choices=choices))
            return None
        return MissionCard("target", vp=vp)
    if kind == "item":
        reader.obj(raw, path, required=["kind", "item"])
        item = reader.choice(fields.get("item"), child(path, "item"), ITEMS)
        return MissionCard("item", item=item) if item else None
    before = len(reader.errors)
    reader.obj(raw, path, required=["kind"])
    return MissionCard(kind) if len(reader.errors) == before else None


def read_outcome(reader: Reader, table: Table, raw: object, path: str) -> Outcome | None:
    """A mission's outcome: who is above 21, who at exactly 21, who played nothing, and who
    takes the mission card — as far as these can go together (FORMAT.md)."""
    fields = reader.obj(raw, path, required=["winner", "busts", "perfect"], optional=["no_cards"])
    if fields is None or any(key not in fields for key in ("winner", "busts", "perfect")):
        return None
    before = len(reader.errors)
    groups = {
        key: read_player_set(reader, table, fields.get(key, []), child(path, key))
        for key in ("busts", "perfect", "no_cards")
    }
    winner = None
    if fields["winner"] is not None:
        winner = read_player_ref(reader, table, fields["winner"], child(path, "winner"))
    busts, perfect, no_cards = groups["busts"], groups["perfect"], groups["no_cards"]
    if len(reader.errors) > before or busts is None or perfect is None or no_cards is None:
        return None
    for name in sorted(busts & perfect):
        reader.add(e.BustAndPerfect(child(path, "perfect"), name=name))
    for name in sorted(no_cards & (busts | perfect)):
        reader.add(e.NoCardsButCounted(child(path, "no_cards"), name=name))
    if len(reader.errors) > before:
        return None
    outcome = Outcome(winner, busts, perfect, no_cards)
    return outcome if check_winner(reader, table, outcome, child(path, "winner")) else None


def check_winner(reader: Reader, table: Table, outcome: Outcome, path: str) -> bool:
    """Nobody above 21 or without cards wins; a single player at 21 wins; with one player above
    21 the other wins (if they played)."""
    winner = outcome.winner
    if winner in outcome.busts:
        reader.add(e.WinnerAboveLimit(path, name=winner))
        return False
    if winner in outcome.no_cards:
        reader.add(e.WinnerWithoutCards(path, name=winner))
        return False
    if len(outcome.perfect) == 1:
        (perfect,) = outcome.perfect
        if winner != perfect:
            reader.add(e.PerfectWins(path, name=perfect))
            return False
    if len(outcome.busts) == 1:
        (bust,) = outcome.busts
        others = [n for n in table.names if n != bust and n not in outcome.no_cards]
        if len(others) == 1 and winner != others[0]:
            reader.add(e.OtherOfBustWins(path, name=others[0], bust=bust))
            return False
    return True


def read_player_set(reader: Reader, table: Table, raw: object, path: str) -> frozenset[str] | None:
    """A list of players, each at most once."""
    items = reader.list(raw, path)
    if items is None:
        return None
    names: set[str] = set()
    for index, item in enumerate(items):
        name = read_player_ref(reader, table, item, child(path, index))
        if name is None:
            return None
        if name in names:
            reader.add(e.ListedTwice(child(path, index), value=name))
            return None
        names.add(name)
    return frozenset(names)


class Kompromat(GameRules[Options, KompromatRound, State]):
    id: ClassVar[str] = "kompromat"
    title: ClassVar[str] = "Kompromat"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    records: ClassVar[tuple[RecordKind, ...]] = (
        RecordKind(N_("Highest victory points"), "total", "highest"),
        RecordKind(N_("Most perfect 21s in a game"), "fact:perfect", "highest"),
        RecordKind(N_("Games lost by 9 tokens"), "fact:token_losses", "count"),
    )
    loss_fact: ClassVar[str | None] = "token_losses"
    lost_by_rule: ClassVar[str | None] = N_("{name} lost by 9 tokens")
    ahead_at_equal: ClassVar[str | None] = N_("ahead on tokens at equal victory points")

    def read_options(self, reader: Reader, table: Table, raw: object) -> Options | None:
        fields = reader.obj(raw, "options", required=["first_player"])
        if fields is None or "first_player" not in fields:
            return None
        first = read_player_ref(reader, table, fields["first_player"], "options.first_player")
        return Options(first) if first else None

    # -- shape of a round --

    def read_round(
        self, reader: Reader, setup: Setup[Options], raw: object, path: str
    ) -> KompromatRound | None:
        fields = reader.obj(raw, path, required=["missions"])
        if fields is None or "missions" not in fields:
            return None
        missions_path = child(path, "missions")
        items = reader.list(fields["missions"], missions_path)
        if items is None:
            return None
        if not 1 <= len(items) <= MISSIONS_PER_ROUND:  # fewer than 4: see `play`
            reader.add(
                e.WrongLength(
                    missions_path,
                    expected=MISSIONS_PER_ROUND,
                    actual=len(items),
                    what=N_("missions"),
                )
            )
            return None
        missions = [
            self._read_mission(reader, setup.table, item, child(missions_path, index))
            for index, item in enumerate(items)
        ]
        complete = [m for m in missions if m is not None]
        if len(complete) < len(missions):
            return None
        if not self._fits_decks(reader, setup.table, complete, missions_path):
            return None
        return KompromatRound(tuple(complete))

    def _read_mission(self, reader: Reader, table: Table, raw: object, path: str) -> Mission | None:
        """A mission with each player's cards (`plays`) or only its `outcome`, never both."""
        form = "outcome" if isinstance(raw, dict) and "outcome" in raw else "plays"
        if form == "outcome" and isinstance(raw, dict) and "plays" in raw:
            reader.add(e.BothForms(path, one="plays", other="outcome"))
            return None
        required = ["card", "alarm", form]
        fields = reader.obj(raw, path, required=required, optional=["perfect_return", "effects"])
        if fields is None or any(key not in fields for key in required):
            return None
        before = len(reader.errors)
        card = read_mission_card(reader, fields["card"], child(path, "card"))
        alarm = reader.whole(
            fields["alarm"], child(path, "alarm"), 0, max(ALARM_CARDS), N_('"!" marks')
        )
        plays: dict[str, tuple[str, ...]] | None = {name: () for name in table.names}
        outcome = None
        if form == "plays":
            plays = self._read_plays(reader, table, fields["plays"], child(path, "plays"))
        else:
            outcome = read_outcome(reader, table, fields["outcome"], child(path, "outcome"))
        perfect = read_player_set(
            reader, table, fields.get("perfect_return", []), child(path, "perfect_return")
        )
        effects = [
            self._read_effect(reader, table, item, child(child(path, "effects"), index))
            for index, item in enumerate(
                reader.list(fields.get("effects", []), child(path, "effects")) or []
            )
        ]
        if (
            len(reader.errors) > before
            or card is None
            or alarm is None
            or plays is None
            or perfect is None
            or (form == "outcome" and outcome is None)
        ):
            return None
        kept = tuple(effect for effect in effects if effect is not None)
        return Mission(card, alarm, plays, perfect, kept, outcome)

    @staticmethod
    def _read_plays(
        reader: Reader, table: Table, raw: object, path: str
    ) -> dict[str, tuple[str, ...]] | None:
        entries = read_player_map(reader, table, raw, path, require_all=False)
        if entries is None:
            return None
        plays: dict[str, tuple[str, ...]] = {name: () for name in table.names}
        ok = True
        for name, (entry_path, value) in entries.items():
            cards = reader.list(value, entry_path)
            if cards is None:
                ok = False
                continue
            labels = [
                read_equipment(reader, card, child(entry_path, i)) for i, card in enumerate(cards)
            ]
            if any(label is None for label in labels):
                ok = False
            plays[name] = tuple(label for label in labels if label is not None)
        return plays if ok else None

    @staticmethod
    def _read_effect(reader: Reader, table: Table, raw: object, path: str) -> Effect | None:
        fields = reader.mapping(raw, path)
        if fields is None:
            return None
        item = reader.choice(fields.get("item"), child(path, "item"), ITEMS)
        if item is None:
            return None
        acts_as = item
        required = ["item", "by"]
        if item == "usb-stick":
            required.append("as")
            copied = reader.choice(
                fields.get("as"), child(path, "as"), [i for i in ITEMS if i != "usb-stick"]
            )
            if copied is None:
                return None
            acts_as = copied
        required += EFFECT_KEYS.get(acts_as, ())
        before = len(reader.errors)
        reader.obj(raw, path, required=required)
        if len(reader.errors) > before:
            return None
        by = read_player_ref(reader, table, fields["by"], child(path, "by"))
        on = None
        if "on" in fields:
            on = read_player_ref(reader, table, fields["on"], child(path, "on"))
            if on is not None and on == by:
                reader.add(
                    e.SamePlayer(child(path, "on"), name=by, action=N_("use the Newspaper on"))
                )
                return None
        adjust = 0
        if "adjust" in fields:
            adjust = as_whole(fields["adjust"]) or 0
            if adjust not in (-1, 1):
                reader.add(
                    e.NotOneOf(child(path, "adjust"), value=show(fields["adjust"]), choices="-1, 1")
                )
                return None
        if by is None or ("on" in fields and on is None):
            return None
        return Effect(item, by, acts_as, on, adjust)

    @staticmethod
    def _fits_decks(reader: Reader, table: Table, missions: list[Mission], path: str) -> bool:
        """Across a round's four missions a player's cards must fit their 14-card deck (a declared
        1 or 11 is one of the two 1/11 cards)."""
        ok = True
        for name in table.names:
            counts: Counter[str] = Counter()
            for index, mission in enumerate(missions):
                for position, label in enumerate(mission.plays[name]):
                    card = deck_card(label)
                    counts[card] += 1
                    if counts[card] == DECK[card] + 1:
                        where = child(child(child(child(path, index), "plays"), name), position)
                        reader.add(
                            e.DeckExceeded(
                                where, name=name, count=counts[card], card=card, limit=DECK[card]
                            )
                        )
                        ok = False
        return ok

    # -- playing a round --

    def start(self, setup: Setup[Options]) -> State:
        return State(setup, {name: Holdings() for name in setup.table.names})

    def play(self, reader: Reader, state: State, rnd: KompromatRound, path: str) -> State | None:
        before = len(reader.errors)
        number = state.rounds_played + 1
        results: list[MissionResult] = []
        # Decision (RULES.md §2): the missions after a 9-token loss may be left out; where they
        # are, a player's other cards may lie on them (a mission without cards is no error).
        short = len(rnd.missions) < MISSIONS_PER_ROUND
        for index, mission in enumerate(rnd.missions):
            mission_path = child(child(path, "missions"), index)
            where = At(round=number, mission=index + 1)
            self._check_no_card_after_bust(reader, state.table, mission, mission_path, where)
            self._check_mission_deck(reader, state, mission, mission_path)
            if state.token_losers:
                # Missions after a 9-token loss stay in the record but are not resolved, and
                # need not hold cards.
                state = replace(state, mission_cards=(*state.mission_cards, mission.card))
                continue
            if all(m.outcome is None for m in rnd.missions) and not short:  # cards all known
                self._check_cards_laid(reader, state.table, rnd, index, mission_path, where)
            resolved = self._resolve(reader, state, mission, mission_path, where)
            if resolved is None:
                continue
            state, result = resolved
            results.append(result)
        if short and len(reader.errors) == before and not state.token_losers:
            reader.add(
                e.RoundEndedEarly(
                    child(path, "missions"),
                    count=len(rnd.missions),
                    expected=MISSIONS_PER_ROUND,
                )
            )
        if len(reader.errors) > before:
            return None
        return replace(
            state, rounds_played=state.rounds_played + 1, results=(*state.results, tuple(results))
        )

    @staticmethod
    def _check_no_card_after_bust(
        reader: Reader, table: Table, mission: Mission, path: str, where: At
    ) -> None:
        """A player above 21 (every 1/11 counted as 1) must stop: no card follows."""
        for name in table.names:
            cards = mission.plays[name]
            for position in range(1, len(cards)):
                if not may_add_card(cards[:position]):
                    reader.add(
                        e.CardAfterBust(
                            child(child(child(path, "plays"), name), position),
                            name=name,
                            total=to_json(lowest_total(cards[:position])),
                            **where.params,
                        )
                    )
                    break

    @staticmethod
    def _check_cards_laid(
        reader: Reader, table: Table, rnd: KompromatRound, index: int, path: str, where: At
    ) -> None:
        """Players take turns until both have played on all four missions: a mission stays
        empty only when the player's other missions of the round hold all 14 cards (checked
        only where all four missions are recorded)."""
        for name in table.names:
            if rnd.missions[index].plays[name]:
                continue
            played = sum(len(mission.plays[name]) for mission in rnd.missions)
            if played < DECK_SIZE:
                reader.add(
                    e.NoCardsWhileCardsLeft(
                        child(child(path, "plays"), name),
                        name=name,
                        count=DECK_SIZE - played,
                        **where.params,
                    )
                )

    @staticmethod
    def _check_mission_deck(reader: Reader, state: State, mission: Mission, path: str) -> None:
        """The mission cards and counter-intelligence cards of a game come from one deck."""
        card = mission.card
        seen = [c for c in state.mission_cards if c == card]
        limit = {"target": TARGET_VPS.get(card.vp, 0), "item": 1}.get(card.kind, SET_CARDS)
        if len(seen) >= limit:
            what = {
                "target": N_("targets worth this much"),
                "code": N_("codes"),
                "document": N_("documents"),
            }.get(card.kind) or ITEM_NAMES[card.item or ""]
            reader.add(
                e.MissionDeckExceeded(
                    child(path, "card"), count=len(seen) + 1, what=what, limit=limit
                )
            )
        if mission.alarm and state.alarms.count(mission.alarm) >= ALARM_CARDS[mission.alarm]:
            reader.add(
                e.MissionDeckExceeded(
                    child(path, "alarm"),
                    count=state.alarms.count(mission.alarm) + 1,
                    what=N_('counter-intelligence cards with this many "!"'),
                    limit=ALARM_CARDS[mission.alarm],
                )
            )

    def _resolve(
        self, reader: Reader, state: State, mission: Mission, path: str, where: At
    ) -> tuple[State, MissionResult] | None:
        """Steps 1 to 3 of RULES.md, then the item effects, then the 9-token check."""
        if not self._check_effects(reader, state, mission, path, where):
            return None
        names = state.table.names
        ended = self._ending(reader, state.table, mission, path, where)
        if ended is None:
            return None
        totals, winner, busts, perfect = ended
        if not self._check_effects_after_award(reader, state, mission, winner, path, where):
            return None
        holdings = dict(state.holdings)
        for name in names:
            held = holdings[name]
            holdings[name] = self._settle(
                held, name, name in busts, name in perfect, mission, winner
            )
        for effect in mission.effects:
            held = holdings[effect.by]
            if effect.acts_as == "balaclava":
                held = replace(held, tokens=max(0, held.tokens - BALACLAVA_DISCARD))
            holdings[effect.by] = replace(held, used=held.used | {effect.item})
        losers = tuple(name for name in names if holdings[name].tokens >= TOKEN_LIMIT)
        new_state = replace(
            state,
            holdings=holdings,
            token_losers=losers,
            used_items=state.used_items | {effect.item for effect in mission.effects},
            mission_cards=(*state.mission_cards, mission.card),
            alarms=(*state.alarms, mission.alarm) if mission.alarm else state.alarms,
        )
        tokens = {name: holdings[name].tokens for name in names}
        return new_state, MissionResult(totals, winner, tokens)

    def _ending(
        self, reader: Reader, table: Table, mission: Mission, path: str, where: At
    ) -> tuple[dict[str, Fraction | None] | None, str | None, set[str], set[str]] | None:
        """(totals, winner, players above 21, players at 21): counted from the cards, or as the
        outcome form says; None when a perfect return lists a player not at 21."""
        if mission.outcome is not None:
            outcome = mission.outcome
            not_perfect = sorted(mission.perfect_return - outcome.perfect)
            for name in not_perfect:
                reader.add(
                    e.ReturnWithoutPerfect(child(path, "perfect_return"), name=name, **where.params)
                )
            if not_perfect:
                return None
            return None, outcome.winner, set(outcome.busts), set(outcome.perfect)
        totals = self._mission_totals(table, mission)
        for name in sorted(mission.perfect_return):
            total = totals[name]
            if total != PERFECT:
                reader.add(
                    e.NotPerfect(
                        child(path, "perfect_return"),
                        name=name,
                        total=0 if total is None else to_json(total),
                        **where.params,
                    )
                )
                return None
        winner = mission_winner(totals, {n: len(mission.plays[n]) for n in table.names})
        busts = {n for n, t in totals.items() if t is not None and t > PERFECT}
        return totals, winner, busts, {n for n, t in totals.items() if t == PERFECT}

    @staticmethod
    def _mission_totals(table: Table, mission: Mission) -> dict[str, Fraction | None]:
        """Each player's total after the Newspaper and Vesper Martini (None: no cards)."""
        modifiers = modifiers_of(table.names, mission.effects)
        return {
            name: mission_total(mission.plays[name], modifiers[name])
            if mission.plays[name]
            else None
            for name in table.names
        }

    @staticmethod
    def _settle(
        held: Holdings, name: str, bust: bool, perfect: bool, mission: Mission, winner: str | None
    ) -> Holdings:
        """One player's fail token, perfect return and award for a resolved mission."""
        if bust:
            held = replace(held, tokens=held.tokens + 1, failed=held.failed + 1)
        elif perfect:
            returned = 1 if name in mission.perfect_return and held.tokens > 0 else 0
            held = replace(held, tokens=held.tokens - returned, perfect=held.perfect + 1)
        if name != winner:
            return held
        protected = any(effect.by == name for effect in mission.acting("chloroform"))
        held = replace(held, tokens=held.tokens + (0 if protected else mission.alarm))
        card = mission.card
        if card.kind == "target":
            return replace(held, targets=held.targets + card.vp)
        if card.kind == "code":
            return replace(held, codes=held.codes + 1)
        if card.kind == "document":
            return replace(held, documents=held.documents + 1)
        return replace(held, items=(*held.items, card.item or ""))

    @staticmethod
    def _check_effects(
        reader: Reader, state: State, mission: Mission, path: str, where: At
    ) -> bool:
        """An item is used by a player who won it and has not used it: won on an earlier
        mission, or on this one when it acts after the award (checked once the winner is
        known); the USB stick copies an item used earlier in the game."""
        ok = True
        used_here: set[tuple[str, str]] = set()
        for index, effect in enumerate(mission.effects):
            effect_path = child(child(path, "effects"), index)
            held = state.holdings[effect.by]
            item_name = ITEM_NAMES[effect.item]
            won_here = mission.card.kind == "item" and mission.card.item == effect.item
            if effect.item not in held.items and won_here:
                if effect.acts_as not in ACTS_AFTER_AWARD:
                    reader.add(
                        e.ItemNotYetUsable(
                            child(effect_path, "item"),
                            name=effect.by,
                            item=item_name,
                            **where.params,
                        )
                    )
                    ok = False
            elif effect.item not in held.items:
                reader.add(
                    e.ItemNotWon(
                        child(effect_path, "item"), name=effect.by, item=item_name, **where.params
                    )
                )
                ok = False
            elif effect.item in held.used or (effect.by, effect.item) in used_here:
                reader.add(
                    e.ItemAlreadyUsed(child(effect_path, "item"), name=effect.by, item=item_name)
                )
                ok = False
            used_here.add((effect.by, effect.item))
            if effect.item == "usb-stick" and effect.acts_as not in state.used_items:
                reader.add(
                    e.ItemNotUsedYet(child(effect_path, "as"), item=ITEM_NAMES[effect.acts_as])
                )
                ok = False
            target = effect.on if effect.acts_as == "newspaper" else effect.by
            needs_cards = effect.acts_as in ("newspaper", "vesper-martini")
            if needs_cards and target is not None and not mission.played(target):
                key = "on" if effect.acts_as == "newspaper" else "by"
                reader.add(e.NoCardsOnMission(child(effect_path, key), name=target, **where.params))
                ok = False
        return ok

    @staticmethod
    def _check_effects_after_award(
        reader: Reader,
        state: State,
        mission: Mission,
        winner: str | None,
        path: str,
        where: At,
    ) -> bool:
        """An item won on this mission is used by the mission's winner; Chloroform only where
        its winner takes counter-intelligence tokens."""
        for index, effect in enumerate(mission.effects):
            effect_path = child(child(path, "effects"), index)
            won_before = effect.item in state.holdings[effect.by].items
            if not won_before and effect.by != winner:
                reader.add(
                    e.ItemNotWonHere(
                        child(effect_path, "by"),
                        name=effect.by,
                        item=ITEM_NAMES[effect.item],
                        **where.params,
                    )
                )
                return False
            if effect.acts_as == "chloroform" and (effect.by != winner or mission.alarm == 0):
                reader.add(
                    e.ChloroformWithoutEffect(
                        child(path, "effects"), name=effect.by, **where.params
                    )
                )
                return False
        return True

    # -- a round being entered --

    def preview(self, state: State, draft: RoundDraft) -> list[MissionPreview]:
        """Each mission of a round being entered, resolved as far as the entries allow: each
        player's total (None: no cards), what each card counts, whether another card may be
        laid there (not after a bust), the cards left in hand this round and the item effects
        that may be used there; once the mission can be resolved, its winner and the tokens
        after it, and who reached 9 tokens there (`losers`: the game ends on that mission).
        Missions after the one that ended the game are marked `ended`."""
        table = state.table
        left = {name: deck_left(draft.cards_of(name)) for name in table.names}
        previews: list[MissionPreview] = []
        known: State | None = state
        ended = False
        alarms_used = list(state.alarms)
        for index, entered in enumerate(draft.missions):
            reader = Reader()
            mission = self._read_mission(reader, table, entered.to_json(), "")
            plays = {name: entered.cards_of(name) for name in table.names}
            # Every rule reads the total after the Newspaper and Vesper Martini (Decision),
            # before the mission is resolved too: the cards entry chooses its card last.
            modifiers = modifiers_of(table.names, entered.effects)
            after_items = {
                n: mission_total(plays[n], modifiers[n]) if plays[n] else None for n in table.names
            }
            perfect = self._perfect(table, entered, after_items)
            preview = MissionPreview(
                totals=after_items,
                values={n: tuple(counted_values(plays[n], modifiers[n])) for n in table.names},
                may_add={name: may_add_card(plays[name]) for name in table.names},
                left=left,
                offers={name: () for name in table.names},
                ended=ended,
                perfect=perfect,
                may_return=frozenset(
                    name for name in perfect if known is None or known.holdings[name].tokens > 0
                ),
                may_alarm=alarms_left(alarms_used),
            )
            if entered.alarm:
                alarms_used.append(entered.alarm)
            if known is not None and not known.token_losers:
                totals = self._mission_totals(table, mission) if mission else None
                if mission is not None and mission.outcome is not None:
                    winner = mission.outcome.winner
                elif totals:
                    winner = mission_winner(totals, {n: len(plays[n]) for n in table.names})
                elif entered.quick and entered.outcome.decided:  # before its card is chosen
                    winner = entered.outcome.winner
                else:
                    winner = None
                offers = {
                    n: self.offers(known, entered.card, winner, n, entered.alarm or 0)
                    for n in table.names
                }
                preview = replace(preview, offers=offers)
                where = At(round=known.rounds_played + 1, mission=index + 1)
                resolved = self._resolve(reader, known, mission, "", where) if mission else None
                if resolved is None:
                    known = None
                else:
                    known, result = resolved
                    preview = replace(
                        preview,
                        totals=dict(result.totals or {}),
                        resolved=True,
                        winner=result.winner,
                        tokens=dict(result.tokens),
                        losers=known.token_losers,
                    )
                    ended = bool(known.token_losers)
            previews.append(preview)
        return previews

    def offers(
        self,
        state: State,
        card: MissionCard | None,
        winner: str | None,
        name: str,
        alarm: int = 0,
    ) -> tuple[Effect, ...]:
        """The item effects `name` may use on a mission: every item won earlier and not used
        yet, and (Decision: items at once) an item acting after the award that `name` wins with
        this mission's `card`; but a Chloroform only where it changes something (`name` wins
        the mission and its `alarm` "!" marks), which is all saving accepts."""
        opponent = next(n for n in state.table.names if n != name)
        held = state.holdings[name]
        found: list[Effect] = []
        for item in held.unused_items():
            if item == "usb-stick":
                for copied in sorted(state.used_items - {"usb-stick"}):
                    found += self._uses(item, copied, name, opponent)
            else:
                found += self._uses(item, item, name, opponent)
        won_here = card is not None and card.kind == "item" and winner == name
        if won_here and card is not None and card.item not in held.items:
            item = card.item or ""
            if item in ACTS_AFTER_AWARD:
                found += self._uses(item, item, name, opponent)
            elif item == "usb-stick":
                for copied in sorted(state.used_items & ACTS_AFTER_AWARD):
                    found += self._uses(item, copied, name, opponent)
        return tuple(
            effect
            for effect in found
            if effect.acts_as != "chloroform" or (winner == name and alarm > 0)
        )

    @staticmethod
    def _uses(item: str, acts_as: str, name: str, opponent: str) -> list[Effect]:
        """The ways `name` can use `item` (acting as `acts_as`), as effects of a mission."""
        if acts_as == "newspaper":
            return [Effect(item, name, acts_as, on=opponent)]
        if acts_as == "vesper-martini":
            return [Effect(item, name, acts_as, adjust=1), Effect(item, name, acts_as, adjust=-1)]
        return [Effect(item, name, acts_as)]

    @staticmethod
    def _readable_plays(table: Table, raw: object) -> dict[str, tuple[str, ...]]:
        """Each player's cards on a mission being entered, as far as they can be read."""
        plays = raw.get("plays") if isinstance(raw, dict) else None
        found: dict[str, tuple[str, ...]] = {}
        for name in table.names:
            cards = plays.get(name, []) if isinstance(plays, dict) else []
            labels = (
                [read_equipment(Reader(), c, "") for c in cards] if isinstance(cards, list) else []
            )
            found[name] = tuple(label for label in labels if label is not None)
        return found

    @staticmethod
    def _perfect(
        table: Table, entered: MissionDraft, totals: Mapping[str, Fraction | None]
    ) -> dict[str, tuple[Effect, ...]]:
        """Who is at exactly 21 after the items (in outcome form: marked at 21), each with the
        Newspaper and Vesper Martini effects on their total."""
        at_21 = (
            [n for n in table.names if n in entered.outcome.perfect]
            if entered.quick
            else [n for n in table.names if totals[n] == PERFECT]
        )
        return {name: changing_total(name, entered.effects) for name in at_21}

    # -- standings --

    def totals(self, state: State) -> dict[str, Fraction]:
        return {name: Fraction(held.victory_points) for name, held in state.holdings.items()}

    def finished(self, state: State) -> bool:
        return bool(state.token_losers) or state.rounds_played >= ROUNDS

    def winners(self, state: State) -> list[str]:
        """9 tokens lose at once (both: a draw). Otherwise most victory points, then most tokens;
        still equal: a draw."""
        if not self.finished(state):
            return []
        names = state.table.names
        if state.token_losers:
            return (
                [n for n in names if n not in state.token_losers]
                if len(state.token_losers) == 1
                else []
            )
        key = {n: (state.holdings[n].victory_points, state.holdings[n].tokens) for n in names}
        best = max(key.values())
        leaders = [n for n in names if key[n] == best]
        return leaders if len(leaders) == 1 else []

    def places(self, state: State) -> dict[str, int]:
        """A 9-token loss puts its player last whatever the victory points (both: level);
        otherwise more victory points, then more tokens."""
        losers = state.token_losers
        if losers:  # one loser is last; both at once is a draw
            return {n: 2 if n in losers and len(losers) == 1 else 1 for n in state.table.names}
        return rank(
            {name: (-held.victory_points, -held.tokens) for name, held in state.holdings.items()}
        )

    def starter(self, players: list[JSON], options: Record) -> str:
        return str(options["first_player"])

    def next_game(self, players: list[JSON], options: Record) -> tuple[list[JSON], Record]:
        """The same two; the other one starts."""
        return list(players), {**options, "first_player": left_of(players, options["first_player"])}

    def player_facts(self, state: State) -> dict[str, dict[str, int]]:
        """Token losses (reached 9) and perfect 21s."""
        return {
            name: {"token_losses": int(name in state.token_losers), "perfect": held.perfect}
            for name, held in state.holdings.items()
        }

    def details(self, state: State) -> dict[str, JSON]:
        holdings = state.holdings
        losers = state.token_losers
        next_round: dict[str, JSON] | None = None
        if not self.finished(state):
            number = state.rounds_played + 1
            first = first_player_of(state.table, state.setup.options.first_player, number)
            next_round = {"number": number, "first_player": first}
        return {
            "tokens": {name: held.tokens for name, held in holdings.items()},
            "lost_by_tokens": losers[0] if len(losers) == 1 else None,
            "token_losers": list(losers),
            "breakdown": {
                name: dict[str, JSON](held.breakdown()) for name, held in holdings.items()
            },
            "items": {
                name: {"won": list(held.items), "unused": list[JSON](held.unused_items())}
                for name, held in holdings.items()
            },
            "used_items": list[JSON](sorted(state.used_items)),
            "perfect": {name: held.perfect for name, held in holdings.items()},
            "next_round": next_round,
            "cards_left": self._cards_left(state),
            "missions": [[result.to_json() for result in rnd] for rnd in state.results],
        }

    @staticmethod
    def _cards_left(state: State) -> list[JSON]:
        return [{**card.to_json(), "left": left} for card, left in deck_not_laid(state)]

    def standings_while_entered(self, state: State, draft: RoundDraft) -> tuple[Standing, ...]:
        """Each player as the round being entered leaves them so far: its missions played on
        the game in order, each as saving would resolve it, up to the first that cannot be
        resolved yet (or the one that ended the game). The tokens panel over the entry counts
        them, so it warns of a loss in the very round where it happens."""
        for index, entered in enumerate(draft.missions):
            reader = Reader()
            mission = self._read_mission(reader, state.table, entered.to_json(), "")
            where = At(round=state.rounds_played + 1, mission=index + 1)
            resolved = None if mission is None else self._resolve(reader, state, mission, "", where)
            if resolved is None or reader.errors:
                break
            state = resolved[0]
            if state.token_losers:
                break
        return self.board(state).players

    def board(self, state: State) -> Board:
        """The table screen's view of the game."""
        playing = not self.finished(state)
        players = tuple(
            Standing(
                name,
                held.tokens,
                held.victory_points,
                held.breakdown(),
                tuple(held.unused_items()),
                playing,
            )
            for name, held in state.holdings.items()
        )
        next_round = None
        if playing:
            number = state.rounds_played + 1
            next_round = (
                number,
                first_player_of(state.table, state.setup.options.first_player, number),
            )
        cards = state.mission_cards
        rounds = tuple(
            tuple(
                PlayedMission(
                    card,
                    index < len(results),
                    results[index].winner if index < len(results) else None,
                )
                # Only the last round may hold fewer than four (the game ended by 9 tokens).
                for index, card in enumerate(
                    cards[number * MISSIONS_PER_ROUND : (number + 1) * MISSIONS_PER_ROUND]
                )
            )
            for number, results in enumerate(state.results)
        )
        left = tuple(deck_not_laid(state))
        return Board(players, next_round, state.token_losers, rounds, left, state.used_items)

    def blank_round(self, state: State) -> dict[str, JSON]:
        names = state.table.names
        return {
            "missions": [
                # No "card": which mission card lies there is for the table to enter.
                {"alarm": 0, "plays": {n: [] for n in names}}
                for _ in range(MISSIONS_PER_ROUND)
            ]
        }


RULES = Kompromat()
