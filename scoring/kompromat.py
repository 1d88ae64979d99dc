"""Kompromat (2 players): RULES.md section 2.

Six rounds of four missions. Per mission each player's equipment cards give a total (the
1/11 card counting whichever is better); above 21 fails (+1 token), exactly 21 may return a
token, the higher total of at most 21 wins the mission card and the counter-intelligence tokens
under it. Nine tokens lose at once. Victory points: targets + 1 per item + code set + document
set + 1 per token.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from . import errors as e
from .base import JSON, GameRules, Setup
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

# The equipment deck: label -> copies (0.5, 1/11, 2, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10, 1/11).
DECK: dict[str, int] = {"0.5": 1, ACE: 2, **{str(n): 1 for n in range(2, 11)}, "7": 3}
# The mission deck (24 cards besides counter-intelligence: exactly 6 rounds x 4 missions).
TARGET_VPS: dict[int, int] = {5: 1, 4: 2, 3: 3, 2: 2}  # printed VP -> cards
SET_CARDS = 3  # codes, and documents
SET_SCORES = (0, 2, 6, 12)
ALARM_CARDS: dict[int, int] = {1: 2, 2: 2, 3: 1}  # "!" marks -> counter-intelligence cards
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


@dataclass(frozen=True)
class Mission:
    card: MissionCard
    alarm: int
    plays: dict[str, tuple[str, ...]]  # every player, seating order; labels as in DECK
    perfect_return: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()

    def acting(self, ability: str) -> list[Effect]:
        return [effect for effect in self.effects if effect.acts_as == ability]


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
    totals: dict[str, Fraction | None]  # None: played no cards
    winner: str | None
    tokens: dict[str, int]  # tokens after the mission

    def to_json(self) -> dict[str, JSON]:
        return {
            "totals": {n: None if t is None else to_json(t) for n, t in self.totals.items()},
            "winner": self.winner,
            "tokens": dict(self.tokens),
        }


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
    """The value of a card other than 1/11."""
    return Fraction(label)


def mission_total(cards: Iterable[str], modifier: int = 0) -> Fraction:
    """A player's total on a mission, each 1/11 counting 11 where that stays at most 21.

    >>> mission_total(["10", "1/11"]), mission_total(["10", "5", "1/11"])
    (Fraction(21, 1), Fraction(16, 1))
    >>> mission_total(["0.5", "9"]), mission_total(["10", "1/11"], modifier=3)
    (Fraction(19, 2), Fraction(14, 1))
    """
    labels = list(cards)
    total = sum((card_value(c) for c in labels if c != ACE), Fraction(modifier))
    aces = labels.count(ACE)
    total += aces
    for _ in range(aces):
        if total + 10 <= PERFECT:
            total += 10
    return total


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


def first_player_of(table: Table, first_player: str, round_number: int) -> str:
    """The start player alternates each round."""
    return table.left_of(first_player, round_number - 1)


# --- reading -------------------------------------------------------------------------------


def read_equipment(reader: Reader, raw: object, path: str) -> str | None:
    """An equipment card: 0.5, 2 to 10 as numbers, or "1/11"."""
    if raw == ACE:
        return ACE
    number = as_number(raw)
    if number is not None and (
        number == Fraction(1, 2) or (number.denominator == 1 and 2 <= number <= 10)
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


class Kompromat(GameRules[Options, KompromatRound, State]):
    id: ClassVar[str] = "kompromat"
    title: ClassVar[str] = "Kompromat"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

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
        if len(items) != MISSIONS_PER_ROUND:
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
        fields = reader.obj(
            raw, path, required=["card", "alarm", "plays"], optional=["perfect_return", "effects"]
        )
        if fields is None or any(key not in fields for key in ("card", "alarm", "plays")):
            return None
        before = len(reader.errors)
        card = read_mission_card(reader, fields["card"], child(path, "card"))
        alarm = reader.whole(
            fields["alarm"], child(path, "alarm"), 0, max(ALARM_CARDS), N_('"!" marks')
        )
        plays = self._read_plays(reader, table, fields["plays"], child(path, "plays"))
        perfect = self._read_perfect_return(
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
        ):
            return None
        return Mission(card, alarm, plays, perfect, tuple(e for e in effects if e is not None))

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
    def _read_perfect_return(
        reader: Reader, table: Table, raw: object, path: str
    ) -> frozenset[str] | None:
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
        """Across a round's four missions a player's cards must fit their 14-card deck."""
        ok = True
        for name in table.names:
            counts: Counter[str] = Counter()
            for index, mission in enumerate(missions):
                for position, label in enumerate(mission.plays[name]):
                    counts[label] += 1
                    if counts[label] == DECK[label] + 1:
                        where = child(child(child(child(path, index), "plays"), name), position)
                        reader.add(
                            e.DeckExceeded(
                                where,
                                name=name,
                                count=counts[label],
                                card=label,
                                limit=DECK[label],
                            )
                        )
                        ok = False
        return ok

    # -- playing a round --

    def start(self, setup: Setup[Options]) -> State:
        return State(setup, {name: Holdings() for name in setup.table.names})

    def play(self, reader: Reader, state: State, rnd: KompromatRound, path: str) -> State | None:
        before = len(reader.errors)
        results: list[MissionResult] = []
        for index, mission in enumerate(rnd.missions):
            mission_path = child(child(path, "missions"), index)
            self._check_mission_deck(reader, state, mission, mission_path)
            if state.token_losers:
                # Missions after a 9-token loss stay in the record but are not resolved.
                state = replace(state, mission_cards=(*state.mission_cards, mission.card))
                continue
            resolved = self._resolve(reader, state, mission, mission_path)
            if resolved is None:
                continue
            state, result = resolved
            results.append(result)
        if len(reader.errors) > before:
            return None
        return replace(
            state, rounds_played=state.rounds_played + 1, results=(*state.results, tuple(results))
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
        self, reader: Reader, state: State, mission: Mission, path: str
    ) -> tuple[State, MissionResult] | None:
        """Steps 1 to 3 of RULES.md, then the item effects, then the 9-token check."""
        if not self._check_effects(reader, state, mission, path):
            return None
        names = state.table.names
        modifiers = {name: 0 for name in names}
        for effect in mission.acting("newspaper"):
            modifiers[effect.on or ""] += NEWSPAPER_BONUS
        for effect in mission.acting("vesper-martini"):
            modifiers[effect.by] += effect.adjust
        totals: dict[str, Fraction | None] = {
            name: mission_total(mission.plays[name], modifiers[name])
            if mission.plays[name]
            else None
            for name in names
        }
        for name in sorted(mission.perfect_return):
            total = totals[name]
            if total != PERFECT:
                reader.add(
                    e.NotPerfect(
                        child(path, "perfect_return"),
                        name=name,
                        total=0 if total is None else to_json(total),
                    )
                )
                return None
        winner = mission_winner(totals, {n: len(mission.plays[n]) for n in names})
        chloroform = mission.acting("chloroform")
        for effect in chloroform:
            if effect.by != winner or mission.alarm == 0:
                reader.add(e.ChloroformWithoutEffect(child(path, "effects"), name=effect.by))
                return None
        holdings = dict(state.holdings)
        for name in names:
            holdings[name] = self._settle(holdings[name], name, totals[name], mission, winner)
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

    @staticmethod
    def _settle(
        held: Holdings, name: str, total: Fraction | None, mission: Mission, winner: str | None
    ) -> Holdings:
        """One player's fail token, perfect return and award for a resolved mission."""
        if total is not None and total > PERFECT:
            held = replace(held, tokens=held.tokens + 1, failed=held.failed + 1)
        elif total == PERFECT:
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
    def _check_effects(reader: Reader, state: State, mission: Mission, path: str) -> bool:
        """An item is used by a player who won it on an earlier mission and has not used it;
        the USB stick copies an item used earlier in the game."""
        ok = True
        used_here: set[tuple[str, str]] = set()
        for index, effect in enumerate(mission.effects):
            effect_path = child(child(path, "effects"), index)
            held = state.holdings[effect.by]
            item_name = ITEM_NAMES[effect.item]
            if effect.item not in held.items:
                reader.add(e.ItemNotWon(child(effect_path, "item"), name=effect.by, item=item_name))
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
            if needs_cards and target is not None and not mission.plays[target]:
                key = "on" if effect.acts_as == "newspaper" else "by"
                reader.add(e.NoCardsOnMission(child(effect_path, key), name=target))
                ok = False
        return ok

    # -- a round being entered --

    def preview_round(self, state: State, draft: object) -> list[dict[str, JSON]]:
        """Each mission of a round still being entered, resolved as far as the entries allow.

        Per mission: each player's total (None: no cards), the winner and the tokens after it
        once the mission can be resolved, and the items each player holds unused before it
        (so the screen offers exactly the items that can be used there).
        """
        missions = draft.get("missions") if isinstance(draft, dict) else None
        previews: list[dict[str, JSON]] = []
        known: State | None = state
        for index, raw in enumerate(missions if isinstance(missions, list) else []):
            preview: dict[str, JSON] = {
                "totals": self._card_totals(state.table, raw),
                "winner": None,
                "tokens": None,
                "resolved": False,
                "unused": None,
            }
            if known is not None and not known.token_losers:
                preview["unused"] = {n: h.unused_items() for n, h in known.holdings.items()}
                reader = Reader()
                mission = self._read_mission(reader, state.table, raw, child("missions", index))
                resolved = self._resolve(reader, known, mission, "") if mission else None
                if resolved is None:
                    known = None
                else:
                    known, result = resolved
                    preview.update(result.to_json(), resolved=True)
            previews.append(preview)
        return previews

    @staticmethod
    def _card_totals(table: Table, raw: object) -> dict[str, JSON]:
        """Each player's total from the cards alone (the best 1/11), where they can be read."""
        plays = raw.get("plays") if isinstance(raw, dict) else None
        totals: dict[str, JSON] = {}
        for name in table.names:
            cards = plays.get(name, []) if isinstance(plays, dict) else []
            labels = (
                [read_equipment(Reader(), c, "") for c in cards] if isinstance(cards, list) else []
            )
            readable = [label for label in labels if label is not None]
            totals[name] = to_json(mission_total(readable)) if readable else None
        return totals

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
            "breakdown": {name: held.breakdown() for name, held in holdings.items()},
            "items": {
                name: {"won": list(held.items), "unused": held.unused_items()}
                for name, held in holdings.items()
            },
            "used_items": sorted(state.used_items),
            "perfect": {name: held.perfect for name, held in holdings.items()},
            "next_round": next_round,
            "cards_left": self._cards_left(state),
            "missions": [[result.to_json() for result in rnd] for rnd in state.results],
        }

    @staticmethod
    def _cards_left(state: State) -> list[dict[str, JSON]]:
        """The mission cards not laid out yet, each kind with how many are left."""
        deck = [MissionCard("target", vp=vp) for vp in TARGET_VPS]
        deck += [MissionCard("code"), MissionCard("document")]
        deck += [MissionCard("item", item=item) for item in ITEMS]
        left: list[dict[str, JSON]] = []
        for card in deck:
            total = {"target": TARGET_VPS.get(card.vp, 0), "item": 1}.get(card.kind, SET_CARDS)
            remaining = total - state.mission_cards.count(card)
            if remaining > 0:
                left.append({**card.to_json(), "left": remaining})
        return left

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
