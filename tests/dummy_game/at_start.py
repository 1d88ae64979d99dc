"""Registers Coin, the test's fifth game, in scoring and in views — the only two places a game
is added (tests/test_screens_fifth_game.py registers it in the test's own process)."""

from __future__ import annotations

from types import ModuleType


def register_rules(registry: ModuleType) -> None:
    from dummy_game.coin_rules import RULES

    registry.GAMES[RULES.id] = RULES


def register_view(games: ModuleType) -> None:
    from dummy_game.coin_view import VIEW

    games.register(VIEW)
