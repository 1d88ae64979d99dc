"""Every game Debrief scores, by its record id (python-chess style variant registry)."""

from __future__ import annotations

from . import black_spy, kompromat, spy, spywhere
from .base import AnyRules

GAMES: dict[str, AnyRules] = {
    rules.id: rules for rules in (black_spy.RULES, kompromat.RULES, spy.RULES, spywhere.RULES)
}
