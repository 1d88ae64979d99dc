"""Invariants over generated valid records of every game (hypothesis drives the randomness)."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import generators
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.reader import child

RECORD_SETTINGS = settings(max_examples=60, deadline=None)
randoms = st.randoms(use_true_random=False)


@RECORD_SETTINGS
@given(randoms)
def test_black_spy_deal_without_moon_sums_to_60_or_80(rng: random.Random) -> None:
    rec = generators.black_spy_record(rng, moon_chance=0.1)
    result = scoring.standings(rec)
    per_deal = 80 if "no-good-spies" in rec["options"]["variants"] else 60
    for deal in result["deals"]:
        if deal["moon"] is None:
            assert sum(deal["points"].values()) == per_deal


@RECORD_SETTINGS
@given(randoms)
def test_black_spy_points_form_scores_as_the_cards_it_counts(rng: random.Random) -> None:
    """A deal entered as each pile's points (the paper pad's way) gives the same standings as
    the cards it counts: totals, halvings, moons, the next dealer and the Mole draft."""
    rec = generators.black_spy_record(rng, moon_chance=0.15, points_form=0)
    no_good = "no-good-spies" in rec["options"]["variants"]
    counted = copy.deepcopy(rec)
    counted["rounds"] = [
        generators.as_points_form(deal, no_good) if rng.random() < 0.7 else deal
        for deal in rec["rounds"]
    ]
    assert scoring.standings(counted) == scoring.standings(rec)


@RECORD_SETTINGS
@given(randoms)
def test_spywhere_counts_form_scores_as_the_ending_it_counts(rng: random.Random) -> None:
    rec = generators.spywhere_record(rng, counts_form=0)
    counted = copy.deepcopy(rec)
    counted["rounds"] = [generators.as_counts_form(ending) for ending in rec["rounds"]]
    assert scoring.standings(counted) == scoring.standings(rec)


@RECORD_SETTINGS
@given(randoms)
def test_kompromat_outcome_form_scores_as_the_cards_it_saw(rng: random.Random) -> None:
    """Missions entered by their outcome only, some rounds mixed with cards, give the same
    standings as the cards that made those outcomes (tokens, sets, items, the 9-token end)."""
    rec = generators.kompromat_record(rng)
    played = scoring.standings(rec)
    counted = copy.deepcopy(rec)
    for number, rnd in enumerate(counted["rounds"]):
        results = played["missions"][number]
        for index, mission in enumerate(rnd["missions"]):
            if rng.random() < 0.6:
                result = results[index] if index < len(results) else None
                rnd["missions"][index] = generators.as_outcome_form(mission, result)
    expected = {key: value for key, value in played.items() if key != "missions"}
    assert {k: v for k, v in scoring.standings(counted).items() if k != "missions"} == expected


@RECORD_SETTINGS
@given(randoms)
def test_black_spy_next_dealer_moves_one_seat_clockwise(rng: random.Random) -> None:
    rec = generators.black_spy_record(rng)
    names = [p["name"] for p in rec["players"]]
    first = names.index(rec["options"]["first_dealer"])
    for played in range(len(rec["rounds"])):
        next_deal = scoring.standings({**rec, "rounds": rec["rounds"][:played]})["next_deal"]
        assert next_deal["number"] == played + 1
        assert next_deal["dealer"] == names[(first + played) % len(names)]


@RECORD_SETTINGS
@given(randoms)
def test_black_spy_mole_draft_order_is_everyone_highest_first(rng: random.Random) -> None:
    """Highest total first; equal totals youngest first (a bare year is 1 January, no birth
    date is oldest); still equal: seating order from the dealer's left. The game is kept open
    (a high end value) and cut after a random deal, so every example reaches the draft."""
    rec = generators.black_spy_record(rng, max_deals=12)
    rec["options"]["variants"] = sorted({*rec["options"]["variants"], "mole"})
    rec["options"]["end_value"] = 10**6
    rec["rounds"] = rec["rounds"][: rng.randint(1, len(rec["rounds"]))]
    result = scoring.replay(rec)
    next_deal = result.standings()["next_deal"]
    order, dealer = next_deal["mole_draft_order"], next_deal["dealer"]
    table = result.table
    assert sorted(order) == sorted(table.names)

    def rank(name: str) -> tuple[Any, ...]:
        born = table.born(name)
        age = born.day_of_birth if born else (-1, 0, 0)
        seat = (table.seat(name) - table.seat(dealer) - 1) % len(table)
        return (-result.totals[name], tuple(-part for part in age), seat)

    assert [rank(name) for name in order] == sorted(rank(name) for name in order)
    assert len(order) == len(table)


@RECORD_SETTINGS
@given(randoms)
def test_spy_placements_are_a_permutation(rng: random.Random) -> None:
    rec = generators.spy_record(rng)
    result = scoring.standings(rec)
    count = len(rec["players"])
    places = sorted(result["totals"].values())
    if result["finished"]:
        assert places == list(range(1, count + 1))
        assert len(result["winners"]) == 1
    out = [result["totals"][name] for name in result["eliminated"]]
    assert out == list(range(count, count - len(out), -1))


@RECORD_SETTINGS
@given(randoms)
def test_kompromat_victory_points_equal_the_breakdown(rng: random.Random) -> None:
    result = scoring.standings(generators.kompromat_record(rng))
    for name, total in result["totals"].items():
        assert total == sum(result["breakdown"][name].values())
        assert result["breakdown"][name]["tokens"] == result["tokens"][name]


@RECORD_SETTINGS
@given(randoms)
def test_winners_only_when_finished(rng: random.Random) -> None:
    result = scoring.standings(generators.any_record(rng))
    if not result["finished"]:
        assert result["winners"] == []
    assert set(result["winners"]) <= set(result["totals"])


@RECORD_SETTINGS
@given(randoms, st.data())
def test_a_prefix_replays_to_the_prefix_of_round_totals(
    rng: random.Random, data: st.DataObject
) -> None:
    rec = generators.any_record(rng)
    full = scoring.standings(rec)["round_totals"]
    cut = data.draw(st.integers(0, len(rec["rounds"])))
    assert scoring.standings({**rec, "rounds": rec["rounds"][:cut]})["round_totals"] == full[:cut]


# --- invalid mutations ---------------------------------------------------------------------

Location = tuple[str | int, ...]
FREE_TEXT = re.compile(r"^(meta\..*|players\[\d+\]\.name)$")


def path_text(location: Location) -> str:
    text = ""
    for key in location:
        text = child(text, key)
    return text


def walk(value: Any, location: Location = ()) -> Iterator[tuple[Location, Any]]:
    yield location, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*location, index))


def mutations(record: dict[str, Any]) -> list[tuple[str, Location]]:
    """(kind, location) pairs that always make a valid record invalid."""
    found: list[tuple[str, Location]] = []
    for location, value in walk(record):
        if FREE_TEXT.match(path_text(location)):
            continue
        if isinstance(value, dict):
            found.append(("unknown-key", location))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int | float):
            found.append(("number-to-text", location))
        elif isinstance(value, str):
            found.append(("nonsense-text", location))
    return found


def apply(record: dict[str, Any], kind: str, location: Location) -> tuple[dict[str, Any], Location]:
    """The mutated copy and the location of the change."""
    mutated = copy.deepcopy(record)
    parent: Any = mutated
    for key in location[:-1]:
        parent = parent[key]
    if kind == "unknown-key":
        target = parent[location[-1]] if location else mutated
        target["zz_unknown"] = 1
        return mutated, (*location, "zz_unknown")
    parent[location[-1]] = "x" if kind == "number-to-text" else "zz-nonsense"
    return mutated, location


TOKEN = re.compile(r'\.?([A-Za-z_][\w-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def parse_path(path: str) -> Location:
    import json

    keys: list[str | int] = []
    for name, index, quoted in TOKEN.findall(path):
        keys.append(name if name else int(index) if index else json.loads(quoted))
    return tuple(keys)


def points_into(record: Any, location: Location) -> bool:
    """Every step but the last exists (the last may be the missing key being reported)."""
    node = record
    for key in location[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return False
    return True


@settings(max_examples=200, deadline=None)
@given(randoms, st.data())
def test_invalid_mutations_are_refused_with_a_path_into_the_record(
    rng: random.Random, data: st.DataObject
) -> None:
    rec = generators.any_record(rng)
    kind, location = data.draw(st.sampled_from(mutations(rec)))
    mutated, changed = apply(rec, kind, location)
    errors = scoring.problems(mutated)
    assert errors, f"{kind} at {path_text(location)} was accepted"
    paths = [parse_path(error.path) for error in errors]
    assert all(points_into(mutated, path) for path in paths), [e.path for e in errors]
    related = [p for p in paths if p[: len(changed)] == changed or changed[: len(p)] == p]
    assert related, f"no error points at {path_text(changed)}: {[e.path for e in errors]}"


# --- names that look alike across scripts ---------------------------------------------------

# Latin letters and their Cyrillic twins (Unicode's confusables), in both cases where the twin
# looks the same in both (Cyrillic В is Latin B, but в is not b: folded first, they differ).
LATIN = "aceopxyijshACEOPXIJS"
CYRILLIC = "\u0430\u0441\u0435\u043e\u0440\u0445\u0443\u0456\u0458\u0455\u04bb" + (
    "\u0410\u0421\u0415\u041e\u0420\u0425\u0406\u0408\u0405"
)
CYRILLIC_TWINS = dict(zip(LATIN, CYRILLIC, strict=True))
latin_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzACEOPXIJS ", min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(latin_names, st.data())
def test_a_latin_letter_replaced_by_its_cyrillic_twin_is_the_same_name(
    name: str, data: st.DataObject
) -> None:
    """FORMAT.md: names that look the same across scripts are one name."""
    from scoring.table import name_key

    places = [index for index, letter in enumerate(name) if letter in CYRILLIC_TWINS]
    if not places:
        return
    index = data.draw(st.sampled_from(places))
    twin = name[:index] + CYRILLIC_TWINS[name[index]] + name[index + 1 :]
    assert name_key(twin) == name_key(name)
    assert name_key(name_key(twin)) == name_key(twin)


# --- cleaning names (flags, joiners, variation selectors) ------------------------------------

# What a name may be made of, weighted towards the characters whose place matters: letters,
# spaces, emoji that do and do not take a variation selector, the selectors, joiners, skin
# tones, tag characters and the cancel tag, a black flag, invisible and control characters,
# combining marks and characters that NFC or NFKC change.
NAME_PARTS = [
    *"Aa Zoë",
    "\u2764",  # ❤: takes a variation selector
    "\U0001f469",  # 👩: does not
    "\U0001f4bb",  # 💻
    "7",  # a digit: the base of a keycap, takes one
    "\U0001f3f4",  # 🏴: the base of a subdivision flag
    "\ufe0e",
    "\ufe0f",
    "\u200d",  # zero-width joiner
    "\U0001f3fd",  # a skin tone
    "\U000e0067",  # tag g
    "\U000e0073",  # tag s
    "\U000e007f",  # cancel tag
    "\U000e0001",  # language tag
    "\u200b",  # zero-width space
    "\x07",
    "\u0308",  # combining diaeresis
    "\uff21",  # fullwidth A
    "\u2126",  # Ohm sign: NFC makes it Ω
    "\t",
]
names = st.lists(st.sampled_from(NAME_PARTS), max_size=60).map("".join)


@settings(max_examples=500, deadline=None)
@given(names)
def test_a_cleaned_name_is_clean_and_passes_the_record_check(name: str) -> None:
    """`clean_name` (stored names made valid) is idempotent, and what it makes is a name the
    record check takes as it is; `normal_name` (the stored form) is idempotent."""
    from scoring.reader import Reader
    from scoring.table import clean_name, normal_name, read_name

    cleaned = clean_name(name, fallback="Player 1")
    assert clean_name(cleaned, fallback="Player 1") == cleaned
    reader = Reader()
    assert read_name(reader, cleaned, "name") == cleaned, reader.errors
    assert normal_name(normal_name(name)) == normal_name(name)
    accepted = read_name(Reader(), name, "name")
    if accepted is not None:  # a name the check takes is stored as it cleans it
        assert accepted == normal_name(name) == clean_name(name, fallback="Player 1")
