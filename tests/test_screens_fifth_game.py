"""Adding a game takes one module in scoring/ and one in views/: a fifth game,
registered only by this test, appears in New game, plays, and shows in History, with no other
module touched. Its entry, a refused save and undo come from the round entry every game shares.
Played through the app's screens in-process (tests/screens.py); nothing here is the
browser's. The game is registered in this process (tests/dummy_game/at_start.py) and taken out
of both registries afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from screens import Screen
from ui import see, shown, start_game, tap


@pytest.fixture
def coin() -> Iterator[None]:
    """Coin registered (tests/dummy_game/at_start.py), for this test only."""
    from dummy_game import at_start
    from dummy_game.coin_rules import RULES

    from scoring import registry
    from views import games

    try:
        at_start.register_rules(registry)
        at_start.register_view(games)
        yield
    finally:
        games.VIEWS.pop(RULES.id, None)
        registry.GAMES.pop(RULES.id, None)


@pytest.mark.usefixtures("coin")
def test_a_fifth_game_plays_and_shows_in_history(screen: Screen) -> None:
    start_game(screen, "Coin", ["Anna", "Ben"])
    tap(screen, "Start Coin")
    shown(screen, "Toss 1")  # the shared entry, always open: its title
    tap(screen, "Anna wins the toss")
    shown(screen, "Anna: 1 wins")
    tap(screen, "Undo: save round 1")  # the shared bar's undo
    shown(screen, "Anna: 0 wins")
    for winner, wins in (("Anna", 1), ("Ben", 1), ("Anna", 2)):
        tap(screen, f"{winner} wins the toss")
        shown(screen, f"{winner}: {wins} wins")
    # No one wins two tosses in a row: the rules refuse it, the shared entry says so.
    refusal = "Not saved: Round 4: Anna is not one of Ben"
    tap(screen, "Anna wins the toss")
    shown(screen, refusal)
    shown(screen, "Anna: 2 wins")
    tap(screen, "Ben wins the toss")
    shown(screen, "Ben: 2 wins")
    screen.see_not(refusal)  # a save answers the refusal
    tap(screen, "Anna wins the toss")
    shown(screen, "Game over: Anna won!")
    tap(screen, "Finish and save to history")
    tap(screen, "History")
    shown(screen, "Game: Coin")  # the filter offers it
    see(screen, "Coin · Anna, Ben")
