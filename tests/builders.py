"""Small builders for hand-written records in rule tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import scoring

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT.parent / "shared" / "scenarios"
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


def standings(rec: dict[str, Any]) -> dict[str, Any]:
    return scoring.standings(rec)


def errors_of(rec: Any) -> list[scoring.RecordError]:
    return scoring.problems(rec)


def codes_and_paths(rec: Any) -> list[tuple[str, str]]:
    return [(err.code, err.path) for err in scoring.problems(rec)]
