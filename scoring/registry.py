"""Every game Debrief scores, by its record id (python-chess style variant registry)."""

from __future__ import annotations

from typing import Any

from . import black_spy, kompromat, spy, spywhere
from .base import GameRules

GAMES: dict[str, GameRules[Any, Any, Any]] = {
    rules.id: rules for rules in (black_spy.RULES, kompromat.RULES, spy.RULES, spywhere.RULES)
}
