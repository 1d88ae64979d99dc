"""The number pads of quick entry, as data: where the pad moves on by itself, and what a
round in the quick forms is written as (the browser tests then play whole games with them)."""

from __future__ import annotations

from scoring import black_spy
from views.games._spywhere_quick import Tally
from views.games.black_spy import Counted
from views.numpad import DELETE, NEXT

FOUR = ["Anna", "Ben", "Carla", "Dirk"]


def typed(tally: Tally, keys: str, limit: int = 18) -> Tally:
    for key in keys:
        tally = tally.pressed(key, limit)
    return tally


def test_own_cards_move_on_once_no_digit_could_follow() -> None:
    tally = typed(Tally.blank(FOUR), "5")  # 50 is more than a hand holds
    assert (tally.typed["Anna"], tally.active) == ("5", "Ben")
    tally = typed(tally, "1")  # Ben may have 10 to 18
    assert (tally.typed["Ben"], tally.active) == ("1", "Ben")
    tally = typed(tally, "2")
    assert (tally.typed["Ben"], tally.active) == ("12", "Carla")
    tally = typed(tally, "0")  # no cards of their own: nothing can follow a 0
    assert tally.active == "Dirk"
    tally = typed(tally, "1").pressed(NEXT, 18)
    assert (tally.typed["Dirk"], tally.active) == ("1", None)  # everyone typed
    assert tally.pressed("7", 18) == tally  # no player chosen: the pad does nothing


def test_two_players_hold_up_to_36_and_a_correction_starts_afresh() -> None:
    two = typed(Tally.blank(["Anna", "Ben"]), "3", limit=36)
    assert (two.typed["Anna"], two.active) == ("3", "Anna")  # 30 to 36 are possible
    two = typed(two.chosen("Anna"), "4", limit=36)  # chosen again: the next digit replaces
    assert (two.typed["Anna"], two.active) == ("4", "Ben")
    deleted = typed(Tally.blank(FOUR), "1").pressed(DELETE, 18)
    assert (deleted.typed["Anna"], deleted.active) == ("", "Anna")


def test_the_tally_is_written_in_counts_form_and_read_back() -> None:
    tally = typed(Tally.blank(FOUR), "5306").with_correct("Anna", 2).with_ended_by("Anna")
    ending = tally.to_round()
    assert ending == {
        "counts": {
            "Anna": {"own_cards": 5, "correct": 2},
            "Ben": {"own_cards": 3, "correct": 0},
            "Carla": {"own_cards": 0, "correct": 0},
            "Dirk": {"own_cards": 6, "correct": 0},
        },
        "ended_by": "Anna",
    }
    again = Tally.of_round(ending, FOUR)
    assert again.to_round() == ending and again.active is None
    assert Tally.from_json(tally.to_json(), FOUR) == tally
    partly = typed(Tally.blank(FOUR), "5").to_round()
    assert partly["counts"]["Ben"] == {"correct": 0}  # not typed: the rules say it is missing


def test_a_minus_typed_on_the_pile_that_fills_itself_in_shows_and_stops_filling_it() -> None:
    """Three piles typed, the fourth filled in; choosing it and tapping Minus starts a number
    of its own: the pile shows "−" (the tap showed nothing before: the filled-in points stayed,
    and a player saw a lost tap) and is no longer filled in."""
    from views.numpad import MINUS

    options = black_spy.Options("Anna", frozenset(), 150)
    counted = Counted.blank(FOUR)
    for key in ("2", "0", "2", "0", "2", "0"):
        counted = counted.pressed(key, options)
    assert counted.auto == "Dirk" and counted.piles(options)["Dirk"] == 0
    counted = counted.chosen("Dirk").pressed(MINUS, options)
    assert counted.typed["Dirk"] == "−"
    assert counted.auto is None and "Dirk" not in counted.piles(options)
    assert counted.pressed("8", options).piles(options)["Dirk"] == -8


def test_a_saved_deal_corrected_on_the_pad_moves_on_as_on_paper() -> None:
    """A saved quick deal opens with the pad on the first pile and the last one filled in;
    a full number or Next moves to the next typed pile in seating order (a Next right after
    the pad moved on by itself keeps it there), the filled-in pile is skipped, and after the
    last the pad stops (the pad was once dead here)."""
    options = black_spy.Options("Anna", frozenset(), 150)
    saved = {"points": {"Anna": 18, "Ben": 20, "Carla": 20, "Dirk": 2}}
    counted = Counted.of_round(saved, FOUR)
    assert counted.active == "Anna" and counted.auto == "Dirk"
    assert counted.piles(options) == saved["points"]
    counted = counted.pressed("2", options).pressed("8", options)
    assert counted.active == "Ben" and counted.piles(options)["Dirk"] == -8
    counted = counted.pressed(NEXT, options)  # right after the pad moved on: it stays
    assert counted.active == "Ben"
    counted = counted.pressed(NEXT, options)  # Ben's 20 kept: on to Carla
    assert counted.active == "Carla"
    counted = counted.pressed("1", options).pressed("5", options)
    assert counted.active is None
    assert counted.to_round(options) == {"points": {"Anna": 28, "Ben": 20, "Carla": 15, "Dirk": -3}}


def test_next_right_after_the_pad_moved_on_by_itself_keeps_the_pile_it_moved_to() -> None:
    """Found by a new player: after "15" the pad moves on to Ben by itself, and a Next tapped
    out of habit (type, Next, type, Next) skipped Ben; the 20 meant for him went to Carla,
    the last pile filled itself in, the deal still added up and nothing warned. Next right
    after the pad moved on by itself confirms the pile just typed: the pad stays. A Next of
    its own still moves on (a pile left for later)."""
    options = black_spy.Options("Anna", frozenset(), 150)
    counted = keyed(Counted.blank(FOUR), ["1", "5", NEXT, "2", "0", NEXT, "5"], options)
    assert counted.typed == {"Anna": "15", "Ben": "20", "Carla": "5", "Dirk": ""}
    assert counted.pressed(NEXT, options).active is None  # "5" may grow: Next moves on (and
    # Dirk's pile, the last, fills itself in: nothing is left to type)
    assert Counted.blank(FOUR).pressed(NEXT, options).active == "Ben"
    again = Counted.from_json(keyed(Counted.blank(FOUR), ["2", "0"], options).to_json(), FOUR)
    assert again.pressed(NEXT, options).active == "Ben"  # kept in the draft too

    tally = typed(Tally.blank(FOUR), "5").pressed(NEXT, 18)  # 50: more than a hand holds
    tally = typed(tally, "3").pressed(NEXT, 18)
    tally = typed(tally, "6")
    assert tally.typed == {"Anna": "5", "Ben": "3", "Carla": "6", "Dirk": ""}
    assert Tally.from_json(tally.to_json(), FOUR) == tally


def keyed(counted: Counted, keys: list[str], options: black_spy.Options) -> Counted:
    for key in keys:
        counted = counted.pressed(key, options)
    return counted


def test_a_moon_pile_says_what_it_scores_with_the_minus_of_the_piles() -> None:
    """Found by a new player: with a moon, a pile of 75 said "→ -5", a hyphen where every pile
    and total has the minus sign ("−5")."""
    from fractions import Fraction

    from views.games.black_spy import moon_score
    from views.i18n import Translator

    english = Translator("en")
    counted = Counted.blank(FOUR).with_moon("Ben")
    assert moon_score(english, counted, 75, Fraction(-5)) == "→ −5"
    assert moon_score(english, counted, 0, Fraction(60)) == "→ 60"
    assert moon_score(english, counted, 20, Fraction(20)) == ""  # as typed: nothing to say
    assert moon_score(english, Counted.blank(FOUR), 75, Fraction(-5)) == ""  # no moon


def test_a_moon_taker_s_pile_says_it_takes_the_points_as_counted() -> None:
    """Found by a new player: after tapping the moon beside Ben, nothing said that his pile
    takes the points as counted (60 to 80), not what he scores (−5); he typed 5, and the first
    error named another pile. The pile says it in the place "filled in" takes, where it moves
    nothing under a finger."""
    from views.games.black_spy import pile_hint
    from views.i18n import Translator

    english, german = Translator("en"), Translator("de")
    options = black_spy.Options("Anna", frozenset(), 150)
    counted = Counted.blank(FOUR).with_moon("Ben")
    assert pile_hint(english, counted, "Ben", options) == "as counted: 60–80"
    assert pile_hint(german, counted, "Ben", options) == "wie gezählt: 60–80"
    assert pile_hint(english, counted, "Anna", options) == ""
    assert pile_hint(english, keyed(counted, ["7", "5"], options), "Ben", options) == ""  # typed
    no_good = black_spy.Options("Anna", frozenset({"no-good-spies"}), 150)
    assert pile_hint(english, counted, "Ben", no_good) == "as counted: 80"
    typed = keyed(Counted.blank(FOUR), ["2", "0", "2", "0", "2", "0"], options)
    assert pile_hint(english, typed, "Dirk", options) == "filled in"
