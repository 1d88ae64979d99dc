"""Everything a player reads goes through `Translator`: German and English.

The English text is the message id; `assets/locales/de.po` holds the German (kept complete by
`tools/i18n.py` and a test). Problems from `scoring` and `storage` carry an English template
and parameters; words inside the parameters (`Term`) are translated too.
"""

from __future__ import annotations

import locale
import os
from fractions import Fraction
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from scoring.errors import Problem, Term

LOCALES = Path(__file__).resolve().parent.parent / "assets" / "locales"
LANGUAGES = ("en", "de")


@cache
def catalog(language: str) -> dict[str, str]:
    """msgid -> translation for `language` (English needs none)."""
    path = LOCALES / f"{language}.po"
    if language == "en" or not path.exists():
        return {}
    with open(path, "rb") as handle:
        messages = read_po(handle, locale=language)
    return {str(m.id): str(m.string) for m in messages if m.id and m.string}


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
        self._messages = catalog(self.language)

    def __call__(self, text: str, **params: object) -> str:
        translated = self._messages.get(text) or text
        if not params:
            return translated
        return translated.format(**{k: self._param(v) for k, v in params.items()})

    def _param(self, value: object) -> object:
        if isinstance(value, Problem):
            return self.problem(value)
        if isinstance(value, Term):
            return self(str(value))
        if isinstance(value, Fraction | float) and not isinstance(value, bool):
            return self.number(value)
        return value

    def number(self, value: Fraction | float | int) -> str:
        """37.5 as "37.5" or "37,5"; whole numbers without a fraction."""
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int):
            return format_decimal(value, locale=self.language, group_separator=False)
        return format_decimal(
            float(value), format="#,##0.##", locale=self.language, group_separator=False
        )

    def problem(self, problem: Problem) -> str:
        """A problem from scoring or storage, in this language (without its path)."""
        return self(problem.template, **problem.params)
