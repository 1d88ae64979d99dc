"""Two players with one name: invisible fillers and marks made "Anna" and "Anna" two people, in
the roster and at one table. Names are compared by what a reader sees: the default-ignorable
code points (Unicode's Default_Ignorable_Code_Point) and the blanks that draw nothing are left
out before comparing (but a joiner inside an emoji, a flag's tags and an emoji's presentation
selector, which change what is drawn), and a name that is only invisible is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import scoring
from scoring.table import name_key
from storage import Store
from storage import errors as err

INVISIBLE = {
    "Hangul filler U+3164": "\u3164",
    "Hangul choseong filler U+115F": "\u115f",
    "halfwidth Hangul filler U+FFA0": "\uffa0",
    "Braille blank U+2800": "\u2800",
    "combining grapheme joiner U+034F": "\u034f",
    "variation selector 1 U+FE00": "\ufe00",
    "variation selector 17 U+E0100": "\U000e0100",
    "Khmer inherent vowel U+17B4": "\u17b4",
}


def spy(names: list[str]) -> dict[str, object]:
    return {
        "format": "game-record/1",
        "game": "spy",
        "players": [{"name": name} for name in names],
        "options": {},
        "rounds": [],
    }


@pytest.mark.parametrize("mark", sorted(INVISIBLE))
def test_a_name_with_an_invisible_mark_is_the_same_name(mark: str) -> None:
    character = INVISIBLE[mark]
    assert name_key("Anna" + character) == name_key("Anna")
    assert name_key("An" + character + "na") == name_key("Anna")
    with pytest.raises(scoring.InvalidRecord):  # not two players at one table
        scoring.replay(spy(["Anna", "Anna" + character, "Ben"]))


@pytest.mark.parametrize("mark", sorted(INVISIBLE))
def test_the_roster_refuses_a_second_anna_with_an_invisible_mark(tmp_path: Path, mark: str) -> None:
    store = Store.open(tmp_path / "data")
    try:
        store.add_player("Anna")
        with pytest.raises((err.PlayerNameTaken, err.PlayerNameLooksAlike)):
            store.add_player("Anna" + INVISIBLE[mark])
        with pytest.raises(err.InvalidPlayer):  # nothing a reader can see
            store.add_player(INVISIBLE[mark] * 3)
    finally:
        store.close()


@pytest.mark.parametrize("mark", sorted(INVISIBLE))
def test_a_name_that_is_only_invisible_is_refused_in_a_game(mark: str) -> None:
    with pytest.raises(scoring.InvalidRecord):
        scoring.replay(spy(["Anna", INVISIBLE[mark], "Ben"]))


def test_what_an_emoji_draws_still_tells_names_apart() -> None:
    """A joiner, a flag's tags and a presentation selector change what is drawn."""
    scotland = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"
    england = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000e007f"
    assert name_key(f"Ann {scotland}") != name_key(f"Ann {england}")
    assert name_key("Mo \U0001f469\u200d\U0001f4bb") != name_key("Mo \U0001f469\U0001f4bb")
    scoring.replay(spy([f"Ann {scotland}", f"Ann {england}", "Ben"]))
