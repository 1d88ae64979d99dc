"""Exact scores: every score is a `Fraction`, printed as 37.5 or 12, never 37.49999."""

from __future__ import annotations

from fractions import Fraction

Score = Fraction
JSONNumber = int | float


def to_json(value: Fraction) -> JSONNumber:
    """A whole score as an int, any other as the (exactly representable) float.

    >>> to_json(Fraction(75, 2)), to_json(Fraction(12))
    (37.5, 12)
    """
    if value.denominator == 1:
        return int(value)
    return float(value)
