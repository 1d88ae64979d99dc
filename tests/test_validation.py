"""The game record envelope (FORMAT.md): every error names its path and is a typed exception."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from builders import FOUR, SCENARIOS, black_spy, codes_and_paths, errors_of, standings

import scoring
from scoring import errors as e


def basic() -> dict[str, Any]:
    return json.loads((SCENARIOS / "black-spy-basic.json").read_text())


def test_errors_are_typed_value_errors_with_path_template_and_params() -> None:
    rec = basic()
    rec["rounds"][2]["cards"]["Ben"]["black_spies"] = 7
    with pytest.raises(scoring.InvalidRecord) as caught:
        scoring.replay(rec)
    error = caught.value.errors[0]
    assert isinstance(error, e.NumberTooHigh) and isinstance(error, ValueError)
    assert error.path == "rounds[2].cards.Ben.black_spies"
    assert error.template == "{value} is more than {limit} {what}"
    assert error.params["value"] == 7 and isinstance(error.params["what"], e.Term)
    assert str(error) == "rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal"


def test_every_error_is_reported_not_just_the_first() -> None:
    rec = basic()
    rec["rounds"][0]["cards"]["Anna"]["black_low"] = "1"
    rec["rounds"][2]["cards"]["Dirk"]["colored_spy"] = rec["rounds"][2]["cards"]["Dirk"].pop(
        "colored_spies"
    )
    assert codes_and_paths(rec) == [
        ("NotAWholeNumber", "rounds[0].cards.Anna.black_low"),
        ("UnknownKeyDidYouMean", "rounds[2].cards.Dirk.colored_spy"),
        ("MissingKey", "rounds[2].cards.Dirk.colored_spies"),
    ]


def test_unknown_keys_are_errors_with_a_suggestion() -> None:
    rec = basic()
    rec["options"]["varients"] = []
    [error] = errors_of(rec)
    assert str(error) == "options.varients: is not a known key (did you mean variants?)"
    rec = basic()
    rec["colour"] = "black"
    assert codes_and_paths(rec) == [("UnknownKey", "colour")]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r.pop("rounds"), ("MissingKey", "rounds")),
        (lambda r: r.update(format="game-record/2"), ("UnsupportedFormat", "format")),
        (lambda r: r.update(game="hearts"), ("UnknownGame", "game")),
        (lambda r: r.update(players="Anna"), ("NotAList", "players")),
        (lambda r: r.update(rounds={}), ("NotAList", "rounds")),
        (lambda r: r["players"][1].update(name="  "), ("EmptyName", "players[1].name")),
        (lambda r: r["players"][1].update(name="x" * 41), ("NameTooLong", "players[1].name")),
        (lambda r: r["players"][1].update(name=" anna "), ("DuplicateName", "players[1].name")),
        (lambda r: r["players"][1].update(born="02.11.1992"), ("BadDate", "players[1].born")),
        (lambda r: r["players"][1].update(born=True), ("BadDate", "players[1].born")),
        (lambda r: r["players"][1].update(age=30), ("UnknownKey", "players[1].age")),
        (
            lambda r: r["options"].update(first_dealer="Zoe"),
            ("UnknownPlayer", "options.first_dealer"),
        ),
        (
            lambda r: r["options"].update(variants=["mole", "mole"]),
            ("ListedTwice", "options.variants[1]"),
        ),
        (lambda r: r["options"].update(variants=["moles"]), ("NotOneOf", "options.variants[0]")),
        (lambda r: r["options"].update(end_value=0), ("NumberTooLow", "options.end_value")),
        (lambda r: r["options"].update(halves="half"), ("NotOneOf", "options.halves")),
        (lambda r: r.update(meta={"started": "yesterday"}), ("BadDateTime", "meta.started")),
        (lambda r: r.update(meta={"id": 5}), ("NotText", "meta.id")),
        (lambda r: r["rounds"][1]["cards"].pop("Dirk"), ("MissingPlayer", "rounds[1].cards.Dirk")),
        (
            lambda r: r["rounds"][1]["cards"].update(Zoe={}),
            ("UnknownPlayer", "rounds[1].cards.Zoe"),
        ),
        (
            lambda r: r["rounds"][1]["cards"]["Ben"].update(black_spies=True),
            ("NotAWholeNumber", "rounds[1].cards.Ben.black_spies"),
        ),
        (
            lambda r: r["rounds"][1]["cards"]["Ben"].update(black_high=[8, 12]),
            ("NotOneOf", "rounds[1].cards.Ben.black_high[1]"),
        ),
        (
            lambda r: r["rounds"][1]["cards"]["Ben"].update(colored_spies=-1),
            ("NumberTooLow", "rounds[1].cards.Ben.colored_spies"),
        ),
        (lambda r: r["rounds"].append([]), ("NotAnObject", "rounds[3]")),
    ],
)
def test_envelope_and_type_errors_name_their_path(change: Any, expected: tuple[str, str]) -> None:
    rec = basic()
    change(rec)
    assert expected in codes_and_paths(rec)


def test_not_an_object_at_all() -> None:
    assert codes_and_paths([1, 2]) == [("NotAnObject", "")]
    assert str(errors_of("text")[0]) == "must be a JSON object {...}"


def test_names_are_trimmed_and_references_match_any_case() -> None:
    rec = basic()
    rec["players"][0]["name"] = "  Anna "
    rec["options"]["first_dealer"] = "ANNA"
    cards = rec["rounds"][0]["cards"]
    cards["anna"] = cards.pop("Anna")
    result = standings(rec)
    assert list(result["totals"]) == ["Anna", "Ben", "Carla", "Dirk"]
    assert result["round_totals"][0]["Anna"] == 18


def test_a_player_listed_twice_in_a_round_by_case() -> None:
    rec = basic()
    rec["rounds"][0]["cards"]["anna"] = rec["rounds"][0]["cards"]["Anna"]
    assert ("ListedTwice", "rounds[0].cards.anna") in codes_and_paths(rec)


def test_names_with_spaces_are_quoted_in_paths() -> None:
    rec = black_spy(
        ["Anna Lena", "Ben", "Carla"], [{"cards": {"Anna Lena": {}, "Ben": {}, "Carla": {}}}]
    )
    assert ("MissingKey", 'rounds[0].cards["Anna Lena"].black_spies') in codes_and_paths(rec)


def test_born_may_be_a_year() -> None:
    rec = black_spy(FOUR, [], born={"Anna": "1991", "Ben": 1992, "Carla": "1979-06-30"})
    assert scoring.problems(rec) == []


def test_meta_is_optional_and_never_affects_scoring() -> None:
    rec = basic()
    rec["meta"] = {
        "id": "g1",
        "started": "2026-11-21T19:30:00+01:00",
        "ended": None,
        "notes": "Friday",
    }
    assert standings(rec) == standings(basic())


def test_whole_numbers_may_be_written_with_a_zero_fraction() -> None:
    rec = basic()
    rec["rounds"][0]["cards"]["Anna"]["black_spies"] = 2.0
    assert standings(rec) == standings(basic())
    rec["rounds"][0]["cards"]["Anna"]["black_spies"] = 2.5
    assert codes_and_paths(rec) == [("NotAWholeNumber", "rounds[0].cards.Anna.black_spies")]


def test_check_round_reports_a_draft_with_the_record_so_far() -> None:
    rec = basic()
    draft = copy.deepcopy(rec["rounds"][0])
    assert scoring.check_round(rec, draft) == []
    draft["cards"]["Ben"]["black_spies"] = 2
    [error] = scoring.check_round(rec, draft)
    assert (error.code, error.path) == ("DealDoesNotAddUp", "rounds[3].cards")


def test_check_round_on_an_edit_reports_what_it_breaks_later() -> None:
    rec = black_spy(FOUR, [], end_value=60)
    rec["rounds"] = [
        {
            "cards": {
                "Anna": {"black_spies": 1, "black_low": 0, "black_high": [], "colored_spies": 0},
                "Ben": {
                    "black_spies": 5,
                    "black_low": 6,
                    "black_high": [8, 9, 10, 11],
                    "colored_spies": 4,
                },
                "Carla": {"black_spies": 0, "black_low": 0, "black_high": [], "colored_spies": 0},
                "Dirk": {"black_spies": 0, "black_low": 0, "black_high": [], "colored_spies": 0},
            }
        },
    ] * 2
    edited = copy.deepcopy(rec["rounds"][0])
    edited["cards"]["Ben"]["black_spies"], edited["cards"]["Dirk"]["black_spies"] = 0, 5
    edited["cards"]["Dirk"]["black_low"], edited["cards"]["Ben"]["black_low"] = 6, 0
    edited["cards"]["Ben"]["colored_spies"], edited["cards"]["Carla"]["colored_spies"] = 0, 4
    edited["cards"]["Dirk"]["black_high"], edited["cards"]["Ben"]["black_high"] = [8, 9, 10, 11], []
    # Dirk now has 50 + 6 + 14 = 70 in deal 1, which ends the game: deal 2 can no longer follow.
    assert [(err.code, err.path) for err in scoring.check_round(rec, edited, 0)] == [
        ("GameAlreadyOver", "rounds[1]")
    ]


def test_blank_rounds_have_the_shape_to_start_from() -> None:
    rec = basic()
    blank = scoring.blank_round(rec)
    assert set(blank["cards"]) == {"Anna", "Ben", "Carla", "Dirk"}
    assert blank["cards"]["Anna"] == {
        "black_spies": 0,
        "black_low": 0,
        "black_high": [],
        "colored_spies": 0,
    }
    # A blank deal does not add up yet, and says so.
    assert {err.code for err in scoring.check_round(rec, blank)} == {
        "DealDoesNotAddUp",
        "HighCardMissing",
    }


@pytest.mark.parametrize(
    "name", ["kompromat-first-round", "spy-three-players", "spywhere-four-players"]
)
def test_every_game_has_a_blank_round(name: str) -> None:
    rec = json.loads((SCENARIOS / f"{name}.json").read_text())
    rec["rounds"] = []
    blank = scoring.blank_round(rec)
    assert isinstance(blank, dict) and blank
    errors = scoring.check_round(rec, blank)
    assert all(err.path.startswith("rounds[0]") for err in errors)


# --- look-alike names (FORMAT.md, players) --------------------------------------------------

COMPOSED, DECOMPOSED = "Zo\u00eb", "Zoe\u0308"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (COMPOSED, DECOMPOSED),  # one name in two Unicode spellings
        ("Anna", "\uff21\uff4e\uff4e\uff41"),  # fullwidth
        ("Anna Lena", "anna   lena"),  # inner whitespace runs count as one space
        ("Stra\u00dfe", "STRASSE"),  # case folding
    ],
)
def test_names_that_look_alike_are_one_name(first: str, second: str) -> None:
    """FORMAT.md: "Two names are the same name when their NFKC case-folded forms are equal"."""
    rec = black_spy([first, second, "Carla"], [])
    assert codes_and_paths(rec) == [("DuplicateName", "players[1].name")]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("An\u200bna", "InvisibleCharacter"),  # zero-width space
        ("\u202eAnna", "InvisibleCharacter"),  # right-to-left override
        ("Ada\u200d", "InvisibleCharacter"),  # a zero-width joiner outside an emoji sequence
        ("An\x07na", "ControlCharacter"),
        ("Anna\x1b[31m", "ControlCharacter"),  # a terminal escape (whitespace, even a
        # line break, is not refused: it collapses to one space, as the next test shows)
    ],
)
def test_names_with_invisible_or_control_characters_are_refused(name: str, code: str) -> None:
    """FORMAT.md: no control characters (Cc) and no invisible format characters (Cf) other
    than the zero-width joiner inside an emoji sequence and tag characters inside a flag."""
    rec = black_spy([name, "Ben", "Carla"], [])
    assert codes_and_paths(rec) == [(code, "players[0].name")]


def test_names_are_stored_normalised_and_emoji_sequences_are_kept() -> None:
    """FORMAT.md: names in NFC, inner whitespace runs one space, ends trimmed; references
    match by NFKC case-folded form."""
    technologist = "\U0001f469\u200d\U0001f4bb Ada"  # woman technologist: an emoji sequence
    heart = "\u2764\ufe0f Ben"  # a variation selector
    rec = black_spy([DECOMPOSED, technologist, heart], [])
    rec["options"]["first_dealer"] = "zo\u00cb"
    result = scoring.replay(rec)
    assert result.table.names == (COMPOSED, technologist, heart)
    assert scoring.problems(black_spy(["  Anna \t Lena ", "Ben", "Carla"], [])) == []
    assert scoring.replay(black_spy(["  Anna \t Lena ", "Ben", "Carla"], [])).table.names[0] == (
        "Anna Lena"
    )


# --- names that look alike across scripts ---------------------------------------------------

CYRILLIC_A = "\u0410"  # А, CYRILLIC CAPITAL LETTER A
GREEK_OMICRON = "\u03bf"  # ο


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anna", f"{CYRILLIC_A}nna"),  # a Cyrillic А
        ("anna", f"{CYRILLIC_A}NNA"),  # ... in any case
        ("Bob", f"B{GREEK_OMICRON}b"),  # a Greek omicron
        ("Olga", f"{GREEK_OMICRON.upper()}lga"),  # a capital omicron, folded first
        ("\u3078\u3044\u305f", "\u30d8\u3044\u305f"),  # へいた, ヘいた: a pair that lists only
        # each other (Hiragana and Katakana HE): both are read as one of them
        ("\u0c05\u0c32", "\u0c85\u0c32"),  # Telugu and Kannada A, another such pair
        ("Zo\u00e9", "Zo\u0435\u0301"),  # a Cyrillic е with a combining acute is Latin é
    ],
)
def test_names_that_look_the_same_across_scripts_are_one_name(first: str, second: str) -> None:
    """FORMAT.md: two names are the same name "when they look the same across scripts: equal
    once each single character that Unicode's confusables (TR39) map to a character of
    another script is read as that character". Decision: where two characters list only each
    other, both are read as the one with the smaller code point."""
    rec = black_spy([first, "Ben", second], [])
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("LookAlikeName", "players[2].name")
    assert str(error) == f"players[2].name: “{second}” looks the same as “{first}”"
    with pytest.raises(scoring.InvalidRecord):
        scoring.replay(rec)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anna", "Ann\u00e1"),  # an accent is not a look-alike
        ("Arne", "Ame"),  # "rn" looks like "m", but two letters against one are two names
        ("Tom1", "Toml"),  # a digit (a Common character) is read as it is
        ("Zoe", "Zo\u0435\u0301"),  # a Cyrillic е with a combining acute: Zoé, not Zoe
    ],
)
def test_names_that_differ_by_more_than_a_look_alike_letter_are_two(
    first: str, second: str
) -> None:
    """Decision: characters of the Common and Inherited scripts (digits, punctuation,
    combining marks) are read as they are."""
    assert scoring.problems(black_spy([first, "Ben", second], [])) == []


def test_no_ascii_character_is_read_as_another() -> None:
    """What lets `name_key` skip Unicode's confusables for a name in plain ASCII (most are):
    none of its characters is read as another."""
    from scoring.table import look_alikes

    assert len(look_alikes()) > 600
    assert not [code for code in look_alikes() if code < 128]
    assert all(len(read) == 1 for read in look_alikes().values())


def test_a_reference_in_another_script_finds_the_player_it_looks_like() -> None:
    rec = basic()
    rec["options"]["first_dealer"] = f"{CYRILLIC_A}nna"
    cards = rec["rounds"][0]["cards"]
    cards[f"{CYRILLIC_A}nna"] = cards.pop("Anna")
    assert standings(rec)["round_totals"][0]["Anna"] == 18


def test_a_stored_record_with_names_that_only_look_alike_is_replayed_as_stored() -> None:
    """A game stored before this rule keeps its players: replaying it as a stored
    record finds each player by their exact name, in every round."""
    lookalike = f"{CYRILLIC_A}nna"
    rec = basic()
    rec["players"][1]["name"] = lookalike
    rec["options"]["first_dealer"] = lookalike
    for deal in rec["rounds"]:
        deal["cards"][lookalike] = deal["cards"].pop("Ben")
    assert [e.code for e in scoring.problems(rec)] == ["LookAlikeName"]
    assert scoring.problems(rec, stored=True) == []
    result = scoring.replay(rec, stored=True)
    assert result.table.names == ("Anna", lookalike, "Carla", "Dirk")
    ben = scoring.replay(basic())
    assert result.totals[lookalike] == ben.totals["Ben"]
    assert result.totals["Anna"] == ben.totals["Anna"]
    assert scoring.replay_until_broken(rec)[1] is None
    next_deal = rec["rounds"][0]
    assert scoring.check_round(rec, next_deal) == []  # the table can go on playing it
    assert scoring.draft_points(rec, next_deal)[lookalike] == ben.round_totals[0]["Ben"]


# --- emoji tag sequences (flags) and variation selectors in names ---------------------------

TAG = {letter: chr(0xE0000 + ord(letter)) for letter in "gbsct"}  # tag characters: tag g, ...
CANCEL_TAG = "\U000e007f"
BLACK_FLAG = "\U0001f3f4"  # 🏴: the base of a subdivision flag
SCOTLAND = BLACK_FLAG + "".join(TAG[c] for c in "gbsct") + CANCEL_TAG  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿: gbsct
TECHNOLOGIST = "\U0001f469\u200d\U0001f4bb"  # 👩‍💻: woman, zero-width joiner, laptop
HEART = "\u2764\ufe0f"  # ❤️: a heavy black heart with its emoji presentation selector
EMOJI_NAMES = [f"{SCOTLAND} Ailsa", f"{TECHNOLOGIST} Kim", f"{HEART} Mo"]


def test_a_flag_of_tag_characters_is_part_of_a_name() -> None:
    """FORMAT.md: tag characters (U+E0020–U+E007F) are allowed inside an emoji tag sequence
    (after an emoji, ending with U+E007F), as in the flag of Scotland."""
    rec = black_spy(EMOJI_NAMES, [])
    assert scoring.problems(rec) == []
    assert scoring.replay(rec).table.names == tuple(EMOJI_NAMES)


STRAY_TAGS = "".join(TAG[c] for c in "gbsct")


@pytest.mark.parametrize(
    ("name", "position"),
    [
        (f"Ailsa{TAG['g']}", 6),  # a lone tag character
        (f"Ai{CANCEL_TAG}lsa", 3),  # a lone cancel tag
        (f"{BLACK_FLAG}{STRAY_TAGS} Ailsa", 2),  # a sequence without its cancel tag
        (f"A{STRAY_TAGS}{CANCEL_TAG} Ailsa", 2),  # tags after a letter, not an emoji
        (f"{BLACK_FLAG}{CANCEL_TAG} Ailsa", 2),  # a cancel tag with no tag before it
        (f"{SCOTLAND}{TAG['g']}{CANCEL_TAG} Ailsa", 8),  # tags after a whole flag
        (f"{BLACK_FLAG}\U000e0001{STRAY_TAGS}{CANCEL_TAG}", 2),  # the language tag U+E0001
        (f"{SCOTLAND[:3]} {SCOTLAND[3:]} Ailsa", 2),  # a flag broken by a space
    ],
)
def test_a_tag_character_outside_a_flag_is_refused(name: str, position: int) -> None:
    rec = black_spy([name, "Ben", "Carla"], [])
    [error] = errors_of(rec)
    assert (error.code, error.path) == ("InvisibleCharacter", "players[0].name")
    assert error.params["position"] == position


def test_the_refusal_of_an_invisible_character_says_where_they_are_allowed() -> None:
    [error] = errors_of(black_spy(["An\u200bna", "Ben", "Carla"], []))
    assert str(error) == (
        "players[0].name: character 3 of the name is an invisible character (U+200B); a name "
        f"may hold a zero-width joiner only inside an emoji sequence such as {TECHNOLOGIST}, "
        f"and tag characters only inside a flag such as {SCOTLAND}"
    )
    [tag] = errors_of(black_spy([f"Ailsa{TAG['g']}", "Ben", "Carla"], []))
    assert "(U+E0067)" in str(tag) and str(tag).endswith(SCOTLAND)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Anna\ufe0f", "Anna"),  # after a letter: no letter has an emoji presentation
        ("An\ufe0ena", "Anna"),  # a text presentation selector, in the middle
        ("\ufe0fAnna", "Anna"),  # at the start, after nothing
        ("Anna \ufe0f Lena", "Anna Lena"),  # after a space (whose run is then one space)
        (f"{HEART} Mo", f"{HEART} Mo"),  # ❤️: kept after a character that takes one
        ("\u2764\ufe0e Mo", "\u2764\ufe0e Mo"),  # ❤︎: its text presentation, kept as well
        (f"{HEART}\ufe0f Mo", f"{HEART} Mo"),  # a second selector follows a selector: dropped
        ("\U0001f469\ufe0f Kim", "\U0001f469 Kim"),  # 👩 has no variation sequences: dropped
        ("Mo 7\ufe0f", "Mo 7\ufe0f"),  # a digit has both presentations (keycap 7️⃣'s base)
        ("Zoe\ufe0f\u0308", "Zo\u00eb"),  # the mark the selector kept apart composes (NFC)
        (f"{SCOTLAND}\ufe0f Ailsa", f"{SCOTLAND} Ailsa"),  # after the cancel tag: dropped
    ],
)
def test_a_variation_selector_is_kept_only_after_a_character_that_takes_one(
    typed: str, stored: str
) -> None:
    """FORMAT.md: a variation selector (U+FE0E/U+FE0F) is kept right after a character that
    has an emoji or text presentation, dropped anywhere else when the name is cleaned."""
    from scoring.table import clean_name, normal_name

    rec = black_spy([typed, "Ben", "Carla"], [])
    assert scoring.problems(rec) == []
    assert scoring.replay(rec).table.names[0] == stored
    assert normal_name(typed) == stored
    assert clean_name(typed, fallback="?") == stored


def test_names_that_differ_by_a_stray_variation_selector_are_one_name() -> None:
    rec = black_spy(["Anna", "Anna\ufe0f", "Carla"], [])
    assert codes_and_paths(rec) == [("DuplicateName", "players[1].name")]
    rec = basic()
    rec["options"]["first_dealer"] = "Anna\ufe0f"  # a reference with a stray selector
    cards = rec["rounds"][0]["cards"]
    cards["Ben\ufe0e"] = cards.pop("Ben")
    assert standings(rec)["round_totals"] == standings(basic())["round_totals"]
    hearts = black_spy(["\u2764 Mo", f"{HEART} Mo", "Carla"], [])  # text and emoji heart: two
    assert scoring.problems(hearts) == []


@pytest.mark.parametrize(
    "name",
    [
        f"xx{TECHNOLOGIST * 13}",  # cut at 40 characters, it would end on a joiner
        f"{'x' * 35}{SCOTLAND}",  # ... it would keep a flag without its cancel tag
        f"{'x' * 39}{HEART}",  # ... it keeps the heart, not its selector
        f"Ai\u200blsa{TAG['g']}{BLACK_FLAG}\u200d",  # every forbidden kind at once
    ],
)
def test_a_cleaned_name_passes_the_record_check(name: str) -> None:
    """`clean_name` (stored names made valid) never cuts a name inside an emoji sequence into
    something the record check refuses."""
    from scoring.table import clean_name

    cleaned = clean_name(name, fallback="?")
    rec = black_spy([cleaned, "Ben", "Carla"], [])
    assert scoring.problems(rec) == []
    assert scoring.replay(rec).table.names[0] == cleaned
    assert clean_name(cleaned, fallback="?") == cleaned
