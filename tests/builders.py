"""Small builders for hand-written records in rule tests."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import scoring
from scoring import kompromat

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"  # the shared scenarios (../shared/scenarios), and ours
FOUR = ["Anna", "Ben", "Carla", "Dirk"]


def record(
    game: str,
    names: list[str],
    options: dict[str, Any],
    rounds: list[Any],
    born: dict[str, Any] | None = None,
) -> dict[str, Any]:
    born = born or {}
    seated = [{"name": n, **({"born": born[n]} if n in born else {})} for n in names]
    return {
        "format": "game-record/1",
        "game": game,
        "players": seated,
        "options": options,
        "rounds": rounds,
    }


def pile(
    spies: int = 0, low: int = 0, high: list[int] | None = None, colored: int = 0
) -> dict[str, Any]:
    return {
        "black_spies": spies,
        "black_low": low,
        "black_high": high or [],
        "colored_spies": colored,
    }


def deal(names: list[str], **piles: dict[str, Any]) -> dict[str, Any]:
    """A deal where the named players took the given piles and the others nothing."""
    return {"cards": {name: piles.get(name, pile()) for name in names}}


# A last deal that ends the shared black-spy-basic scenario (to 150): Anna takes the black 1–11
# and the coloured Spies, Ben the black Spies and goes over 150; Carla, lowest, wins.
BASIC_ENDING = deal(FOUR, Anna=pile(low=6, high=[8, 9, 10, 11], colored=4), Ben=pile(spies=6))


def moon(
    names: list[str], taker: str, colored: dict[str, int] | None = None, choice: str | None = None
) -> dict[str, Any]:
    """`taker` took all 16 black cards; coloured Spies as given, the rest of them to `taker`."""
    colored = colored or {}
    cards = {name: pile(colored=colored.get(name, 0)) for name in names}
    rest = 4 - sum(count for name, count in colored.items() if name != taker)
    cards[taker] = pile(6, 6, [8, 9, 10, 11], rest)
    result: dict[str, Any] = {"cards": cards}
    if choice:
        result["moon_choice"] = choice
    return result


def black_spy(
    names: list[str],
    deals: list[Any],
    variants: list[str] | None = None,
    born: dict[str, Any] | None = None,
    **options: Any,
) -> dict[str, Any]:
    opts = {"first_dealer": names[0], "variants": variants or [], **options}
    return record("black-spy", names, opts, deals, born)


# --- Kompromat ------------------------------------------------------------------------------

TWO = ["Anna", "Ben"]
T5 = {"kind": "target", "vp": 5}
T4 = {"kind": "target", "vp": 4}
T3 = {"kind": "target", "vp": 3}
T2 = {"kind": "target", "vp": 2}
CODE = {"kind": "code"}
DOC = {"kind": "document"}


def item(name: str) -> dict[str, Any]:
    return {"kind": "item", "item": name}


ALL_CARDS = [T5, T4, T4, T3, T3, T3, T2, T2, CODE, CODE, CODE, DOC, DOC, DOC] + [
    item(name) for name in kompromat.ITEMS
]


def mission(
    card: dict[str, Any] | None,
    anna: list[Any] | None = None,
    ben: list[Any] | None = None,
    alarm: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A mission; `card` None takes any card the game has not used yet. A player left out
    (None) gets a filler card: see `kompromat_game`."""
    plays = {name: cards for name, cards in (("Anna", anna), ("Ben", ben)) if cards is not None}
    return {"card": card, "alarm": alarm, "plays": plays, **extra}


# Filler cards, in the order they are used: both players play the same one, so the mission has
# equal totals and equal card counts and its card is discarded: a filler changes no result.
FILLERS = [9, 8, 6, 5, 4, 3, 2, 10, 0.5]


def fill_round(missions: list[dict[str, Any]]) -> None:
    """Give every player left out of a mission a filler card, as the rules want a card on
    every mission while the deck lasts."""
    used = Counter(card for laid in missions for cards in laid["plays"].values() for card in cards)
    free = [card for card in FILLERS if used[card] == 0]
    for laid in missions:
        missing = [name for name in TWO if name not in laid["plays"]]
        if missing:
            card = free.pop(0)
            for name in missing:
                laid["plays"][name] = [card]


def kompromat_game(
    *missions: dict[str, Any], rounds: int | None = None, packed: bool = False, first: str = "Anna"
) -> dict[str, Any]:
    """A record of the given missions in order: each opening its own round, or `packed` four to
    a round; padded with filler missions (cards not used yet) to whole rounds, or to `rounds`."""
    pool = list(ALL_CARDS)
    for given in missions:
        if given["card"] is not None:
            pool.remove(given["card"])
    flat: list[dict[str, Any]] = []
    for given in missions:
        flat.append(copy.deepcopy(given))
        if not packed:
            flat += [mission(None) for _ in range(3)]
    total = 4 * max(rounds or 0, -(-len(flat) // 4))
    flat += [mission(None) for _ in range(total - len(flat))]
    for laid in flat:
        if laid["card"] is None:
            laid["card"] = pool.pop()
    chunks = [{"missions": flat[i : i + 4]} for i in range(0, len(flat), 4)]
    for chunk in chunks:
        fill_round(chunk["missions"])
    return record("kompromat", TWO, {"first_player": first}, chunks)


ALL_FOURTEEN = [[10, 9, 2, 3], [8, 7, 6, 5], [7, 7, 4, 0.5, "1/11", "1/11"]]  # 24, 26, 20.5


def standings(rec: dict[str, Any]) -> dict[str, Any]:
    return scoring.standings(rec)


def errors_of(rec: Any) -> list[scoring.RecordError]:
    return scoring.problems(rec)


def codes_and_paths(rec: Any) -> list[tuple[str, str]]:
    return [(err.code, err.path) for err in scoring.problems(rec)]
