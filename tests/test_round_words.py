"""A round shown in numbers is the round as entered, with what the rules then did to it said
apart: Carla's pile of 35 took her to 150 and Going Back halved her to 75, and the conflict
panel said "Carla -40" (the change in her total) on both of its lines. Negative numbers are
written with the minus sign the sheet writes (−5), by the one number formatter."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import scoring
from storage import Store
from views.i18n import Translator

NAMES = ["Anna", "Ben", "Carla", "Dirk"]
GOING_BACK = {"first_dealer": "Anna", "variants": ["going-back"]}
BEFORE = [
    {"points": {"Anna": 0, "Ben": 5, "Carla": 55, "Dirk": 0}},
    {"points": {"Anna": 0, "Ben": 0, "Carla": 60, "Dirk": 0}},
]  # Carla on 115
HALVING = {"points": {"Anna": 20, "Ben": 5, "Carla": 35, "Dirk": 0}}  # 115 + 35 = 150 → 75
MINE = {"points": {"Anna": 20, "Ben": 10, "Carla": 30, "Dirk": 0}}


def record(rounds: list[Any]) -> dict[str, Any]:
    return {
        "format": "game-record/1",
        "game": "black-spy",
        "players": [{"name": name} for name in NAMES],
        "options": GOING_BACK,
        "rounds": rounds,
    }


def test_a_rounds_scores_are_its_points_as_entered_and_what_the_rules_made_of_them() -> None:
    before = scoring.replay(record(BEFORE))
    scores = scoring.round_scores(before, HALVING)
    assert scores is not None
    assert scores["Carla"] == scoring.RoundScore(Fraction(35), became=Fraction(75))
    assert scores["Anna"] == scoring.RoundScore(Fraction(20))


def test_a_round_in_words_says_the_pile_and_the_halving_apart() -> None:
    from views.entry import round_in_words

    before = scoring.replay(record(BEFORE))
    words = round_in_words(Translator("en"), before, HALVING)
    assert words == "Anna 20, Ben 5, Carla 35 (halved to 75), Dirk 0"
    assert "halbiert auf 75" in round_in_words(Translator("de"), before, HALVING)


def test_negative_numbers_have_the_sheets_minus_sign() -> None:
    assert Translator("en").number(-40) == "−40"
    assert Translator("de").number(Fraction(-75, 2)) == "−37,5"


def test_the_conflict_panel_shows_both_rounds_as_entered(tmp_path: Any) -> None:
    from test_conflicts import device, entering, panel_texts

    store = Store.open(tmp_path / "data")
    try:
        game = store.create_game("black-spy", [{"name": n} for n in NAMES], GOING_BACK)
        game_id = str(game["meta"]["id"])
        for deal in BEFORE:
            store.append_round(game_id, deal)
        host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
        entering(phone, game_id, None, MINE)
        host.save_round(game_id, None, HALVING)
        texts = panel_texts(phone, game_id, MINE, 2)
        assert any("Carla 35 (halved to 75)" in text for text in texts), texts
        assert any("Yours: Anna 20, Ben 10, Carla 30, Dirk 0" in text for text in texts), texts
        assert not any("-40" in text or "−40" in text for text in texts), texts
    finally:
        store.close()
