"""Reading untrusted JSON values with exact paths, collecting every problem found.

Each `Reader` method takes a raw value and its path, returns the typed value, or records a
`RecordError` and returns None. Callers go on reading the rest so a record's errors are all
reported at once.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Collection
from fractions import Fraction

from . import errors as e

_SIMPLE_KEY = re.compile(r"^[A-Za-z_][\w-]*$")


def child(path: str, key: str | int) -> str:
    """The path of `key` inside `path`: ``rounds[2]``, ``cards.Ben``, ``cards["Anna Lena"]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _SIMPLE_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{printable(json.dumps(key, ensure_ascii=False))}]"


def show(value: object) -> str:
    """A short JSON rendering of a value for messages."""
    text = printable(json.dumps(value, ensure_ascii=False, default=str))
    return text if len(text) <= 40 else text[:37] + "..."


def printable(text: str) -> str:
    """`text` with anything that is not valid Unicode (a lone surrogate) written as an escape,
    so a message about it can itself be printed and stored.

    >>> printable("Z\\ud800")
    'Z\\\\ud800'
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def is_valid_text(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Reader:
    """Collects errors while reading a record."""

    def __init__(self) -> None:
        self.errors: list[e.RecordError] = []

    def add(self, error: e.RecordError) -> None:
        self.errors.append(error)

    def obj(
        self,
        value: object,
        path: str,
        required: Collection[str] = (),
        optional: Collection[str] = (),
    ) -> dict[str, object] | None:
        """An object with exactly the known keys; missing and unknown keys are errors.

        Returns the object even when keys are missing, so the caller can read what is there;
        returns None only when `value` is not an object at all.
        """
        if not isinstance(value, dict):
            self.add(e.NotAnObject(path))
            return None
        known = list(required) + list(optional)
        for key in value:
            if key not in known:
                self.unknown_key(child(path, key), key, known)
        for key in required:
            if key not in value:
                self.add(e.MissingKey(child(path, key)))
        return value

    def unknown_key(self, path: str, key: str, known: Collection[str]) -> None:
        close = difflib.get_close_matches(key, list(known), n=1)
        if close:
            self.add(e.UnknownKeyDidYouMean(path, suggestion=close[0]))
        else:
            self.add(e.UnknownKey(path))

    def mapping(self, value: object, path: str) -> dict[str, object] | None:
        """An object with free keys (player names)."""
        if not isinstance(value, dict):
            self.add(e.NotAnObject(path))
            return None
        return value

    def list(self, value: object, path: str) -> list[object] | None:
        if not isinstance(value, list):
            self.add(e.NotAList(path))
            return None
        return value

    def text(self, value: object, path: str) -> str | None:
        if not isinstance(value, str):
            self.add(e.NotText(path))
            return None
        if not is_valid_text(value):
            self.add(e.NotValidText(path))
            return None
        return value

    def flag(self, value: object, path: str) -> bool | None:
        """true or false (not "false", not 0)."""
        if not isinstance(value, bool):
            self.add(e.NotTrueOrFalse(path, value=show(value)))
            return None
        return value

    def whole(
        self, value: object, path: str, low: int, high: int | None, what: str = ""
    ) -> int | None:
        """A whole number in [low, high]; 3.0 counts as whole, true and "3" do not."""
        number = as_whole(value)
        if number is None:
            self.add(e.NotAWholeNumber(path, value=show(value)))
            return None
        if number < low:
            self.add(e.NumberTooLow(path, value=number, limit=low, what=e.Term(what)))
            return None
        if high is not None and number > high:
            self.add(e.NumberTooHigh(path, value=number, limit=high, what=e.Term(what)))
            return None
        return number

    def choice(self, value: object, path: str, choices: Collection[str]) -> str | None:
        if not isinstance(value, str) or value not in choices:
            self.add(e.NotOneOf(path, value=show(value), choices=", ".join(choices)))
            return None
        return value


def too_deep(value: object, limit: int) -> str | None:
    """The path of the first place `value` is nested deeper than `limit` levels, or None.

    Iterative, so absurd nesting is found without running out of stack.

    >>> too_deep({"a": [[1]]}, 2), too_deep({"a": [1]}, 2)
    ('a[0]', None)
    """
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        current, path, depth = stack.pop()
        if isinstance(current, dict | list) and depth >= limit:
            return path
        if isinstance(current, dict):
            stack += [(v, child(path, str(k)), depth + 1) for k, v in current.items()]
        elif isinstance(current, list):
            stack += [(v, child(path, i), depth + 1) for i, v in enumerate(current)]
    return None


def as_whole(value: object) -> int | None:
    """The whole number `value` is, if it is a JSON number without a fraction."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def as_number(value: object) -> Fraction | None:
    """An exact `Fraction` for a JSON number (0.5 is exactly one half), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return Fraction(value)
