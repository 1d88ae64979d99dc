"""Everything a player reads goes through `Translator`: German and English.

The English text is the message id; `assets/locales/de.po` holds the German (kept complete by
`tools/i18n.py` and a test). Problems from `scoring` and `storage` carry an English template
and parameters; words inside the parameters (`Term`) are translated too.
"""

from __future__ import annotations

import datetime as dt
import gettext
import locale
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from babel.dates import format_date
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from scoring.errors import N_, Problem, Term
from scoring.group_stats import minutes_between as minutes_between  # for the screens

LOCALES = Path(__file__).resolve().parent.parent / "assets" / "locales"
LANGUAGES = ("en", "de")


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: msgid -> text, (singular, plural) -> forms, and which
    form a count takes."""

    messages: dict[str, str]
    plurals: dict[tuple[str, str], tuple[str, ...]]
    plural_form: Callable[[int], int]


def english_form(count: int) -> int:
    return 0 if count == 1 else 1


@cache
def load(language: str) -> Catalogue:
    path = LOCALES / f"{language}.po"
    if language == "en" or not path.exists():
        return Catalogue({}, {}, english_form)
    with open(path, "rb") as handle:
        messages = read_po(handle, locale=language)
    singles: dict[str, str] = {}
    plurals: dict[tuple[str, str], tuple[str, ...]] = {}
    for message in messages:
        if isinstance(message.id, str) and message.id and isinstance(message.string, str):
            if message.string:
                singles[message.id] = message.string
        elif isinstance(message.id, tuple | list) and isinstance(message.string, tuple | list):
            forms = tuple(str(form) for form in message.string)
            if all(forms):
                plurals[(str(message.id[0]), str(message.id[1]))] = forms
    return Catalogue(singles, plurals, gettext.c2py(messages.plural_expr))


def catalog(language: str) -> dict[str, str]:
    """msgid -> translation for `language` (English needs none)."""
    return load(language).messages


def system_language(preferred: list[str] | None = None) -> str:
    """German when the device prefers German, otherwise English."""
    candidates = list(preferred or [])
    candidates += [os.environ.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")]
    candidates.append(locale.getlocale()[0] or "")
    for code in candidates:
        if code:
            return "de" if code.lower().startswith("de") else "en"
    return "en"


class Translator:
    """``t("Deal {number}", number=3)`` in the chosen language."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else "en"
        self._catalogue = load(self.language)
        self._messages = self._catalogue.messages

    def __eq__(self, other: object) -> bool:
        # Equal in the same language: a memoized component (`ft.memo`) drawn with a
        # translator made anew is the same drawing.
        return isinstance(other, Translator) and other.language == self.language

    def __hash__(self) -> int:
        return hash(self.language)

    def __call__(self, text: str, **params: object) -> str:
        translated = self._messages.get(text) or text
        return self._format(translated, params)

    def plural(self, singular: str, plural: str, count: int, **params: object) -> str:
        """The form for `count` ("1 token", "2 tokens"; German "1 brennt", "2 brennen");
        `count` is also a parameter of the text."""
        forms = self._catalogue.plurals.get((singular, plural))
        if forms:
            text = forms[min(self._catalogue.plural_form(count), len(forms) - 1)]
        else:
            text = singular if english_form(count) == 0 else plural
        return self._format(text, {**params, "count": count})

    def _format(self, text: str, params: dict[str, object]) -> str:
        if not params:
            return text
        return text.format(**{k: self._param(v) for k, v in params.items()})

    def _param(self, value: object) -> object:
        if isinstance(value, Problem):
            return self.problem(value)
        if isinstance(value, Term):
            return self(str(value))
        if isinstance(value, Fraction | float | int) and not isinstance(value, bool):
            return self.number(value)  # a negative one with its minus sign (`number_text`)
        return value

    def number(self, value: Fraction | float | int) -> str:
        """37.5 as "37.5" or "37,5"; whole numbers without a fraction."""
        return number_text(self.language, value)

    def day(self, moment: dt.datetime) -> str:
        """A day as every screen names it: "27 Nov 2026", "27. Nov. 2026"."""
        return format_date(moment, "d MMM yyyy", locale=self.language)

    def duration(self, minutes: int) -> str:
        """How long a game took: "3 min", "1 h", "1 h 12 min" ("1 Std. 12 Min.")."""
        hours, minutes = divmod(minutes, 60)
        if not hours:
            return self(N_("{minutes} min"), minutes=minutes)
        if not minutes:
            return self(N_("{hours} h"), hours=hours)
        return self(N_("{hours} h {minutes} min"), hours=hours, minutes=minutes)

    def problem(self, problem: Problem) -> str:
        """A problem from scoring or storage, in this language (without its path)."""
        return self(problem.template, **problem.params)


@cache
def translator(language: str) -> Translator:
    """The translator of a language, made once (a screen asks for it at every drawing)."""
    return Translator(language)


MINUS = "\u2212"


@lru_cache(maxsize=4096, typed=True)
def number_text(language: str, value: Fraction | float | int) -> str:
    """`Translator.number`, kept: Babel looks the locale up at every call, and a scoresheet
    writes hundreds of numbers, mostly the same few. A negative number has the minus sign
    (U+2212) the cards and the sheet print, not a hyphen, wherever it is shown."""
    if value < 0:
        return MINUS + number_text(language, -value)
    if isinstance(value, Fraction) and value.denominator == 1:
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return format_decimal(value, locale=language, group_separator=False)
    return format_decimal(float(value), format="#,##0.##", locale=language, group_separator=False)
