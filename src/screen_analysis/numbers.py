"""How numbers read, in the app, the report and the command line alike (headless).

One rule each: a count has a thousands separator ("5,097"); a score of one analysis reads
as sent ("55", or "55.5" for a fractional one); a mean always has one decimal ("55.0"), so
a column of means lines up; weights in a column share their number of decimals ("0.15",
"0.20"). A missing value is a dash.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

DASH = "—"
MAX_WEIGHT_DECIMALS = 3


def _number(value: object) -> float | None:
    """A finite number, or None (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def format_count(value: int | None) -> str:
    """A count with a thousands separator: "5,097"; — when missing."""
    return DASH if value is None else f"{value:,}"


def count_of(value: int, singular: str, plural: str | None = None) -> str:
    """A count and its noun: "1 score", "5,097 analyses" (`plural` defaults to `singular`
    and an s)."""
    noun = singular if value == 1 else (plural or singular + "s")
    return f"{format_count(value)} {noun}"


def format_score(score: float | None) -> str:
    """One analysis's score as sent: an integer without decimals, others to one place."""
    if isinstance(score, bool) or score is None:
        return DASH
    if isinstance(score, int):
        return str(score)  # exact, and no float overflow for an integer beyond 1e308
    number = _number(score)
    if number is None:
        return DASH
    return str(int(number)) if number.is_integer() else f"{number:.1f}"


def format_mean(value: float | None) -> str:
    """A mean (of scores, of a criterion) to one decimal, always: "55.0", "61.7"."""
    number = _number(value)
    return DASH if number is None else f"{number:.1f}"


def format_percent(part: int, whole: int) -> str:
    """`part` as a share of `whole`, to one decimal: "9.1%" (— when `whole` is 0)."""
    return DASH if whole <= 0 else f"{100 * part / whole:.1f}%"


def _decimals(value: float) -> int:
    """How many decimals (up to MAX_WEIGHT_DECIMALS) `value` needs."""
    for places in range(MAX_WEIGHT_DECIMALS + 1):
        if abs(round(value, places) - value) < 1e-9:
            return places
    return MAX_WEIGHT_DECIMALS


def format_weights(values: Iterable[float | None]) -> tuple[str, ...]:
    """Weights for one column: the same number of decimals for all ("0.15", "0.20")."""
    numbers = [_number(value) for value in values]
    places = max((_decimals(n) for n in numbers if n is not None), default=0)
    return tuple(DASH if n is None else f"{n:.{places}f}" for n in numbers)


def nice_top(value: float, steps: int = 4) -> float:
    """The smallest round axis maximum (steps of 1, 2, 2.5 or 5 × 10ⁿ) at or above `value`."""
    if value <= steps:
        return float(steps)
    raw = value / steps
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step: float = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return step * steps


def nice_step(span: float, most: int, *, whole: bool = False) -> float:
    """The smallest round step (1, 2, 2.5 or 5 × 10ⁿ) that cuts `span` into at most `most`
    parts: the distance between labelled ticks on an axis (`whole`: a whole number, for
    counts)."""
    if span <= 0 or most < 1:
        return max(span, 1.0)
    raw = span / most
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 2.5, 5, 10):
        step = multiple * magnitude
        if step >= raw - 1e-9 and (not whole or (step >= 1 and float(step).is_integer())):
            return step
    return 10 * magnitude
