"""Registers Coin, the test's fifth game, in scoring and in views — the only two places a game
is added: at a test server's start (tests/startup.py `python_path`, `install`), or at once in
the test's own process, where both registries are imported already
(tests/test_screens_fifth_game.py calls `register_rules` and `register_view`)."""

from __future__ import annotations

from types import ModuleType

from startup import after_import


def register_rules(registry: ModuleType) -> None:
    from dummy_game.coin_rules import RULES

    registry.GAMES[RULES.id] = RULES


def register_view(games: ModuleType) -> None:
    from dummy_game.coin_view import VIEW

    games.register(VIEW)


def install() -> None:
    """Called by the child's start-up (tests/startup.py); importing this module does nothing."""
    after_import("scoring.registry", register_rules)
    after_import("views.games", register_view)
