"""Loaded at start by a test server (tests/startup.py `python_path`):
registers Coin, the test's fifth game, in scoring and in views — the only two places a game
is added."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable
from types import ModuleType


def after_import(module_name: str, then: Callable[[ModuleType], None]) -> None:
    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
            if fullname != module_name:
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module):  # type: ignore[no-untyped-def]
                run(module)
                then(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())


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
