"""Every text a player reads exists in German, with the same placeholders as the English."""

from __future__ import annotations

import re
import sys
from fractions import Fraction

import pytest
from builders import ROOT, T2, T3, T4, T5, kompromat_game, mission

import scoring
from scoring import errors
from views import i18n as i18n_module
from views.i18n import Translator, catalog, load

sys.path.insert(0, str(ROOT / "tools"))
import i18n as extraction

PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)\}(?!\})")


def test_every_message_in_the_code_has_a_german_translation() -> None:
    german = load("de")
    plural_singulars = {singular for singular, _ in german.plurals}
    missing = sorted(
        m for m in extraction.messages() if not german.messages.get(m) and m not in plural_singulars
    )
    missing += sorted(f"{s} / {p}" for s, p in extraction.plurals() if (s, p) not in german.plurals)
    assert missing == [], "run python tools/i18n.py and translate these"


def test_translations_keep_their_placeholders() -> None:
    for english, german in catalog("de").items():
        assert set(PLACEHOLDER.findall(english)) == set(PLACEHOLDER.findall(german)), english


def test_the_catalogue_has_no_stale_entries() -> None:
    assert set(catalog("de")) <= extraction.messages()


def test_record_errors_read_in_german_with_their_words_translated() -> None:
    error = errors.NumberTooHigh(
        "rounds[2].cards.Ben.black_spies",
        value=7,
        limit=6,
        what=errors.N_("black Spies in one deal"),
    )
    assert Translator("de").problem(error) == "7 ist mehr als 6 schwarze Spione in einer Runde"
    assert Translator("en").problem(error) == "7 is more than 6 black Spies in one deal"


def test_numbers_in_the_players_language() -> None:
    assert Translator("de").number(Fraction(75, 2)) == "37,5"
    assert Translator("en").number(Fraction(75, 2)) == "37.5"
    assert Translator("de").number(Fraction(-60)) == "\u221260"  # the minus sign, not a hyphen
    assert Translator("de")("Deal {number} saved.", number=3) == "Runde 3 gespeichert."


def test_a_number_is_formatted_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scoresheet writes hundreds of numbers, mostly the same few, at every drawing; Babel
    looks the locale up at every call (about 6 ms of each game opened at deal 40, measured
    with py-spy in the app's server): each number is formatted once per language."""
    calls: list[object] = []
    real = i18n_module.format_decimal

    def counted(*args: object, **kwargs: object) -> str:
        calls.append(args)
        return str(real(*args, **kwargs))

    monkeypatch.setattr(i18n_module, "format_decimal", counted)
    i18n_module.number_text.cache_clear()  # whatever other tests formatted before
    english, german = Translator("en"), Translator("de")
    value = Fraction(75, 2) + 1000
    assert [english.number(value), english.number(value)] == ["1037.5", "1037.5"]
    assert [german.number(value), german.number(value)] == ["1037,5", "1037,5"]
    assert len(calls) == 2


def test_every_problem_of_a_real_bad_record_translates() -> None:
    record = {
        "format": "game-record/1",
        "game": "spy",
        "players": [{"name": "A"}],
        "options": {"x": 1},
        "rounds": "no",
    }
    for problem in scoring.problems(record):
        assert Translator("de").problem(problem) != problem.message


def test_kompromat_refusals_name_player_mission_and_round_in_german() -> None:
    """An empty mission while cards are left, and a card after a bust, are stopped with
    a message in the player's language that names the player, the mission and the round."""
    empty = kompromat_game(
        mission(T5, [9], [8]),
        mission(T4, [7], [6]),
        mission(T3, [5], [4]),
        mission(T2, [], [3]),
        packed=True,
    )
    after_bust = kompromat_game(mission(T5, [10, 9, 5, 2], [8]))
    for record, mission_number in ((empty, 4), (after_bust, 1)):
        [problem] = scoring.problems(record)
        german = Translator("de").problem(problem)
        assert german != problem.message, german
        for part in ("Anna", f"Mission {mission_number}", "Runde 1"):
            assert part in german, german


def test_counts_use_plural_forms() -> None:
    """Never "1 tokens", "1 rounds", "1 games", nor German "{count} brennt" for 2."""
    en, de = Translator("en"), Translator("de")
    assert en.plural("{count} token", "{count} tokens", 1) == "1 token"
    assert en.plural("{count} token", "{count} tokens", 2) == "2 tokens"
    assert de.plural("{count} lit", "{count} lit", 1) == "1 brennt"
    assert de.plural("{count} lit", "{count} lit", 2) == "2 brennen"
    assert de.plural("{count} round", "{count} rounds", 1) == "1 Runde"


def test_no_count_is_translated_without_its_plural_forms() -> None:
    """Every text with a {count} in views/ goes through the plural call (t.plural), so the
    catalogue has a singular and a plural for it."""
    import ast

    found = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "t"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and "{count}" in str(node.args[0].value)
            ):
                found.append(f"{path.name}:{node.lineno}: {node.args[0].value}")
    assert found == []


def test_plural_entries_are_complete_with_their_placeholders() -> None:
    with open(ROOT / "assets" / "locales" / "de.po", "rb") as handle:
        from babel.messages.pofile import read_po

        messages = [m for m in read_po(handle, locale="de") if m.pluralizable]
    assert messages, "the catalogue has plural entries"
    for message in messages:
        singular, plural = message.id
        assert all(message.string), singular
        for form in message.string:
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(plural)), singular


def test_a_name_that_looks_like_another_is_refused_naming_both_in_german() -> None:
    """The refusal "“Аnna” looks the same as “Anna”" from the record check and the roster."""
    from storage import errors as storage_errors

    look_alike = "\u0410nna"  # a Cyrillic А
    record = {
        "format": "game-record/1",
        "game": "spy",
        "players": [{"name": "Anna"}, {"name": "Ben"}, {"name": look_alike}],
        "options": {},
        "rounds": [],
    }
    [problem] = scoring.problems(record)
    roster = storage_errors.PlayerNameLooksAlike(name=look_alike, other="Anna")
    for refused in (problem, roster):
        assert Translator("en").problem(refused) == f"“{look_alike}” looks the same as “Anna”"
        assert Translator("de").problem(refused) == f"„{look_alike}“ sieht genauso aus wie „Anna“"
