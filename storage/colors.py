"""Each player's colour, kept in the roster by name: one of a palette that stays apart for
colour-blind eyes (its shades per theme are views/theme.py's `PLAYER_COLORS`, checked by
tests/test_contrast.py).

A new player is given the colour fewest players have (the palette's order breaks ties); a
player may choose another. Players at one table may still share a colour: the screens then
draw the later one in a colour of the palette nobody at that table has
(views/theme.py `drawn_apart`)."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterable
from typing import Final

# In the order new players are given them. Six: as many as a table seats (more colours could
# not all stay apart for colour-blind eyes at the contrast each theme needs).
COLORS: Final[tuple[str, ...]] = ("blue", "orange", "green", "pink", "yellow", "sky")


def next_color(taken: Iterable[str]) -> str:
    """The colour fewest of `taken` (the roster's colours) have; the palette's first of those."""
    counts = Counter(color for color in taken if color in COLORS)
    return min(COLORS, key=lambda color: counts[color])


def known_color(value: object) -> str | None:
    """`value` if it is a colour of the palette."""
    return value if isinstance(value, str) and value in COLORS else None


def fallback_color(player_id: str) -> str:
    """The colour of a roster entry whose stored colour is not one of the palette (a file
    edited by hand): always the same one for that player."""
    return COLORS[zlib.crc32(player_id.encode()) % len(COLORS)]
