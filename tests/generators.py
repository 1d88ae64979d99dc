"""Random but valid game records of every game, from a `random.Random`.

Used by the property tests (hypothesis hands in the Random) and by benchmarks that need
realistic histories. Every record is built the way a table plays: rounds are added until the
game is over (or a round limit is reached), asking `scoring` whether it is over.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import scoring
from scoring import black_spy, kompromat, spywhere

NAMES = ["Anna", "Ben", "Carla", "Dirk", "Emil", "Frida", "Greta", "Hans", "Ida", "Jon"]
Record = dict[str, Any]


def envelope(game: str, players: list[dict[str, Any]], options: dict[str, Any]) -> Record:
    return {
        "format": "game-record/1",
        "game": game,
        "players": players,
        "options": options,
        "rounds": [],
    }


def players(rng: random.Random, count: int, with_birth: float = 0.7) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    for name in rng.sample(NAMES, count):
        player: dict[str, Any] = {"name": name}
        if rng.random() < with_birth:
            born = dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(60 * 365))
            player["born"] = born.isoformat() if rng.random() < 0.8 else str(born.year)
        result.append(player)
    return result


def play_until_over(record: Record, next_round: Any, max_rounds: int) -> Record:
    """Append rounds from `next_round(replay)` until the game is over or `max_rounds`."""
    result = scoring.replay(record)
    while not result.finished and len(record["rounds"]) < max_rounds:
        record["rounds"].append(next_round(result))
        result = scoring.replay(record)
    return record


# --- Black Spy -----------------------------------------------------------------------------


def black_spy_deal(
    rng: random.Random, names: list[str], capture: bool, moon_chance: float
) -> dict[str, Any]:
    piles = {
        name: {"black_spies": 0, "black_low": 0, "black_high": [], "colored_spies": 0}
        for name in names
    }
    if rng.random() < moon_chance:
        taker = rng.choice(names)
        piles[taker].update(black_spies=6, black_low=6, black_high=[8, 9, 10, 11])
    else:
        for _ in range(black_spy.BLACK_SPIES):
            piles[rng.choice(names)]["black_spies"] += 1
        for _ in range(black_spy.BLACK_LOW):
            piles[rng.choice(names)]["black_low"] += 1
        for rank in black_spy.HIGH_POINTS:
            piles[rng.choice(names)]["black_high"].append(rank)
        if any(
            pile["black_spies"] + pile["black_low"] + len(pile["black_high"]) == 16
            for pile in piles.values()
        ):
            return black_spy_deal(rng, names, capture, moon_chance)  # an accidental moon
    for _ in range(black_spy.COLORED_SPIES):
        piles[rng.choice(names)]["colored_spies"] += 1
    for pile in piles.values():
        pile["black_high"].sort()
    deal: dict[str, Any] = {"cards": piles}
    is_moon = any(
        p["black_spies"] == 6 and p["black_low"] == 6 and len(p["black_high"]) == 4
        for p in piles.values()
    )
    if capture and is_moon:
        deal["moon_choice"] = rng.choice(["give", "release"])
    return deal


def as_points_form(deal: dict[str, Any], no_good_spies: bool) -> dict[str, Any]:
    """A deal in cards form written as a paper pad would (FORMAT.md's points form): each pile's
    points by the card table (worked out here, not by the engine), the moon's taker named."""
    high = {8: 2, 9: 3, 10: 4, 11: 5}
    colored = 0 if no_good_spies else -5
    points = {
        name: 10 * p["black_spies"]
        + p["black_low"]
        + sum(high[r] for r in p["black_high"])
        + colored * p["colored_spies"]
        for name, p in deal["cards"].items()
    }
    counted: dict[str, Any] = {"points": points}
    for name, p in deal["cards"].items():
        if p["black_spies"] + p["black_low"] + len(p["black_high"]) == 16:
            counted["moon_taker"] = name
    if "moon_choice" in deal:
        counted["moon_choice"] = deal["moon_choice"]
    return counted


def black_spy_record(
    rng: random.Random,
    max_deals: int = 40,
    count: int | None = None,
    moon_chance: float = 0.05,
    points_form: float = 0.3,
) -> Record:
    """A Black Spy game; each deal is in points form with the chance `points_form`."""
    count = count or rng.randint(3, 6)
    seated = players(rng, count)
    names = [p["name"] for p in seated]
    variants = sorted(v for v in black_spy.VARIANTS if rng.random() < 0.3)
    options: dict[str, Any] = {"first_dealer": rng.choice(names), "variants": variants}
    if rng.random() < 0.2:
        options["end_value"] = rng.choice([50, 75, 100, 150, 201])
    if "going-back" in variants:
        options["halves"] = rng.choice(black_spy.HALVES)
    record = envelope("black-spy", seated, options)
    capture = "capture-or-release" in variants

    def next_deal(_: Any) -> dict[str, Any]:
        deal = black_spy_deal(rng, names, capture, moon_chance)
        if rng.random() < points_form:
            return as_points_form(deal, "no-good-spies" in variants)
        return deal

    return play_until_over(record, next_deal, max_deals)


# --- Kompromat -----------------------------------------------------------------------------


def mission_deck(rng: random.Random) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for vp, copies in kompromat.TARGET_VPS.items():
        cards += [{"kind": "target", "vp": vp} for _ in range(copies)]
    cards += [{"kind": "item", "item": item} for item in kompromat.ITEMS]
    cards += [{"kind": "code"} for _ in range(kompromat.SET_CARDS)]
    cards += [{"kind": "document"} for _ in range(kompromat.SET_CARDS)]
    rng.shuffle(cards)
    return cards


def equipment_deck() -> list[Any]:
    deck: list[Any] = []
    for label, copies in kompromat.DECK.items():
        value: Any = label if label in ("1/11",) else (0.5 if label == "0.5" else int(label))
        deck += [value] * copies
    return deck


def as_label(card: Any) -> str:
    return "0.5" if card == 0.5 else str(card)


def kompromat_plays(rng: random.Random) -> list[list[Any]]:
    """One player's cards on the four missions of a round, as a table lays them: at least one
    card on every mission while the deck lasts, no card after a bust, and now and then a 1/11
    whose value the player declared (1 or 11)."""
    deck = equipment_deck()
    rng.shuffle(deck)
    missions: list[list[Any]] = []
    for _ in range(kompromat.MISSIONS_PER_ROUND):
        cards: list[Any] = []
        wanted = rng.randint(1, 4)
        while deck and len(cards) < wanted and kompromat.may_add_card(map(as_label, cards)):
            card = deck.pop()
            if card == "1/11" and rng.random() < 0.3:
                card = rng.choice([1, 11])
            cards.append(card)
        missions.append(cards)
    return missions


def kompromat_round(
    rng: random.Random, names: list[str], cards: list[dict[str, Any]], alarms: list[int]
) -> dict[str, Any]:
    plays = {name: kompromat_plays(rng) for name in names}
    missions = []
    for index in range(kompromat.MISSIONS_PER_ROUND):
        mission: dict[str, Any] = {
            "card": cards.pop(),
            "alarm": alarms.pop() if alarms and rng.random() < 0.3 else 0,
            "plays": {
                name: plays[name][index]
                for name in names
                if plays[name][index] or rng.random() < 0.5
            },
        }
        perfect = [
            name
            for name in names
            if plays[name][index]
            and kompromat.mission_total(as_label(c) for c in plays[name][index]) == 21
            and rng.random() < 0.7
        ]
        if perfect or rng.random() < 0.3:
            mission["perfect_return"] = perfect
        missions.append(mission)
    return {"missions": missions}


def kompromat_record(
    rng: random.Random, max_rounds: int = kompromat.ROUNDS, names: list[str] | None = None
) -> Record:
    """A Kompromat game (`names`: these two players, else random ones)."""
    seated = [{"name": name} for name in names] if names else players(rng, 2, with_birth=0.3)
    names = [p["name"] for p in seated]
    record = envelope("kompromat", seated, {"first_player": rng.choice(names)})
    cards = mission_deck(rng)
    alarms = [marks for marks, copies in kompromat.ALARM_CARDS.items() for _ in range(copies)]
    rng.shuffle(alarms)
    return play_until_over(record, lambda _: kompromat_round(rng, names, cards, alarms), max_rounds)


def as_outcome_form(mission: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    """A mission written as the table saw it end (FORMAT.md's outcome form), from its resolved
    result: who is above 21, at 21, without cards, and who won."""
    counted = {key: value for key, value in mission.items() if key != "plays"}
    if result is None:  # after the mission that ended the game: nothing to see
        names = list(mission["plays"])
        idle = [name for name in names if not mission["plays"][name]]
        counted["outcome"] = {"winner": None, "busts": [], "perfect": [], "no_cards": idle}
        return counted
    totals = result["totals"]
    counted["outcome"] = {
        "winner": result["winner"],
        "busts": [name for name, total in totals.items() if total is not None and total > 21],
        "perfect": [name for name, total in totals.items() if total == 21],
        "no_cards": [name for name, total in totals.items() if total is None],
    }
    return counted


def in_outcome_form(record: Record) -> Record:
    """A Kompromat game with every mission written in outcome form."""
    played = scoring.standings(record)
    rounds = []
    for number, rnd in enumerate(record["rounds"]):
        results = played["missions"][number] if number < len(played["missions"]) else []
        missions = [
            as_outcome_form(mission, results[index] if index < len(results) else None)
            for index, mission in enumerate(rnd["missions"])
        ]
        rounds.append({**rnd, "missions": missions})
    return {**record, "rounds": rounds}


# --- SPY -----------------------------------------------------------------------------------


def spy_event(rng: random.Random, result: scoring.Replay) -> dict[str, Any]:
    state = result.state
    still_in = state.still_in
    by = rng.choice(still_in)
    base = rng.choice([name for name in still_in if name != by])
    limit = scoring.GAMES["spy"].details(state)["bombs_per_base"]
    kinds = ["target", "target"]
    if state.lit[base] < limit:
        kinds.append("bomb-lit")
    if state.lit[base] > 0:
        kinds.append("bomb-exploded")
    return {"event": rng.choice(kinds), "by": by, "base": base}


def spy_record(rng: random.Random, max_events: int = 60) -> Record:
    record = envelope("spy", players(rng, rng.randint(2, 4), with_birth=0.3), {})
    return play_until_over(record, lambda result: spy_event(rng, result), max_events)


# --- Spywhere ------------------------------------------------------------------------------


def spywhere_ending(rng: random.Random, names: list[str], in_play: list[str]) -> dict[str, Any]:
    each = spywhere.passports_each(len(names))
    drawn = rng.sample(in_play, each * len(names))
    passports = {name: drawn[i * each : (i + 1) * each] for i, name in enumerate(names)}
    ended_by = rng.choice(names) if rng.random() < 0.5 else None
    identifications: dict[str, dict[str, list[str]]] = {}
    for guesser in names:
        # One identification card per nationality: never the same one before two opponents.
        cards = rng.sample(in_play, len(in_play))
        identifications[guesser] = {}
        for opponent in names:
            if opponent != guesser and (guesser == ended_by or rng.random() < 0.7):
                identifications[guesser][opponent] = [cards.pop() for _ in range(each)]
    return {
        "passports": passports,
        "own_cards": {name: rng.randint(0, 10 * each) for name in names},
        "identifications": identifications,
        "ended_by": ended_by,
    }


def as_counts_form(ending: dict[str, Any]) -> dict[str, Any]:
    """An ending laid open, written as the table counts it (FORMAT.md's counts form): each
    player's own cards and how many opponents' nationalities they named right."""
    passports = ending["passports"]
    counts = {
        name: {
            "own_cards": ending["own_cards"][name],
            "correct": sum(
                len(set(named) & set(passports[opponent]))
                for opponent, named in ending["identifications"].get(name, {}).items()
            ),
        }
        for name in passports
    }
    return {"counts": counts, "ended_by": ending["ended_by"]}


def spywhere_record(
    rng: random.Random, count: int | None = None, counts_form: float = 0.3
) -> Record:
    """A Spywhere game; its ending is in counts form with the chance `counts_form`."""
    count = count or rng.randint(2, 6)
    seated = players(rng, count, with_birth=0.3)
    names = [p["name"] for p in seated]
    options: dict[str, Any] = {}
    if count in (3, 4):
        options["removed_nationality"] = rng.choice(spywhere.NATIONALITIES)
    in_play = [n for n in spywhere.NATIONALITIES if n != options.get("removed_nationality")]
    record = envelope("spywhere", seated, options)
    if rng.random() < 0.9:
        ending = spywhere_ending(rng, names, in_play)
        record["rounds"].append(as_counts_form(ending) if rng.random() < counts_form else ending)
    return record


GENERATORS = {
    "black-spy": black_spy_record,
    "kompromat": kompromat_record,
    "spy": spy_record,
    "spywhere": spywhere_record,
}


def any_record(rng: random.Random) -> Record:
    return GENERATORS[rng.choice(sorted(GENERATORS))](rng)
