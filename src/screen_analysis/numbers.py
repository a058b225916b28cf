"""How numbers read, in the app, the report, the gate and the command line alike
(headless): the number half of people's words (times, ages and widths are in `words`).

One rule each: a count has a thousands separator ("5,097"); a score of one analysis reads
as sent ("55", or "55.5" for a fractional one); a mean always has one decimal ("55.0"), so
a column of means lines up; weights in a column share their number of decimals ("0.15",
"0.20"). A score or mean of 10¹⁵ or more (either sign) reads in short scientific notation
("1e308", "-4.853e15"), so no number is wider than a column can hold. A signed difference
reads without colour ("▲ +12", "▼ −5", "= 0") with a real minus sign (`MINUS`, also in the
gate's thresholds and judged values: `format_number`, `format_tenths`); a share is a
percentage to one decimal ("9.1%"). A missing value is a dash. Values a view leaves out are
counted in one wording (`left_out`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import cast

DASH = "—"
MINUS = "−"  # U+2212: a real minus sign, as wide as the plus, in signed differences
MAX_WEIGHT_DECIMALS = 3
HUGE = 10**15  # from here on a score or a mean reads in scientific notation
SIGNIFICANT = 4  # digits of a number in scientific notation
SPARKS = "▁▂▃▄▅▆▇█"
NO_SPARK = "·"  # a step of a sparkline without a value

Reason = tuple[str, str]
"""What was left out and why, in the singular and the plural: ("score outside 0–100",
"scores outside 0–100")."""


def _number(value: object) -> float | None:
    """A finite number, or None (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _finite(value: float | Decimal) -> bool:
    """Whether `value` is finite (an int of any size is; `math.isfinite` would overflow)."""
    if isinstance(value, int):
        return True
    return value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)


def format_count(value: int | None) -> str:
    """A count with a thousands separator: "5,097"; — when missing."""
    return DASH if value is None else f"{value:,}"


def axis_number(value: float) -> str:
    """A value on a chart's axis, short: "12k" from 10,000 on, else as a count ("5,097")."""
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return format_count(round(value))


def count_of(value: int, singular: str, plural: str | None = None) -> str:
    """A count and its noun: "1 score", "5,097 analyses" (`plural` defaults to `singular`
    and an s)."""
    noun = singular if value == 1 else (plural or singular + "s")
    return f"{format_count(value)} {noun}"


def scientific(value: float | Decimal) -> str:
    """`value` in short scientific notation: "1e308", "-4.853e15", "1.5e400" (an integer
    beyond a float's range too: Decimal formats any integer)."""
    mantissa, _, exponent = f"{Decimal(value):.{SIGNIFICANT - 1}e}".partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def format_score(score: float | None) -> str:
    """One analysis's score as sent: an integer without decimals, others to one place; from
    10¹⁵ on in scientific notation."""
    if isinstance(score, bool) or score is None:
        return DASH
    if isinstance(score, int):  # exact, and no float overflow for an integer beyond 1e308
        return scientific(score) if abs(score) >= HUGE else str(score)
    number = _number(score)
    if number is None:
        return DASH
    if abs(number) >= HUGE:
        return scientific(number)
    return str(int(number)) if number.is_integer() else f"{number:.1f}"


def format_mean(value: float | None) -> str:
    """A mean (of scores, of a criterion) to one decimal, always: "55.0", "61.7"; from 10¹⁵
    on in scientific notation."""
    number = _number(value)
    if number is None:
        return DASH
    return scientific(number) if abs(number) >= HUGE else f"{number:.1f}"


def format_delta(delta: float | Decimal | None, decimals: int | None = None) -> str:
    """A signed difference, readable without colour: "▲ +12", "▼ −5", "= 0" (`decimals`:
    always that many, "▼ −8.0", as for means); from 10¹⁵ on in scientific notation; — when
    a side is missing."""
    if delta is None or not _finite(delta):
        return DASH
    # abs: a zero whose sign bit is set reads as zero, not "-0" (mypy cannot type the
    # abs of a union, hence the cast)
    size = cast("float | Decimal", abs(delta))
    if size >= HUGE:
        text = scientific(size)
    elif decimals is not None:
        text = f"{size:.{decimals}f}"
    else:
        text = f"{size:.0f}" if float(size).is_integer() else f"{size:.1f}"
    if not any(digit in text for digit in "123456789"):
        return f"= {text}"
    return f"▲ +{text}" if delta > 0 else f"▼ {MINUS}{text}"


def with_minus(text: str) -> str:
    """`text` with a real minus sign (U+2212, as wide as a plus) for each hyphen: "−1.25"."""
    return text.replace("-", MINUS)


def format_number(value: float) -> str:
    """A number as given (a threshold, one analysis's score): a whole one without decimals
    and with a thousands separator ("4,638"), others as short as they read ("59.95"); from
    10¹⁵ on in scientific notation; a real minus sign."""
    if abs(value) >= HUGE:
        text = scientific(value)
    elif value == int(value):
        text = format_count(int(value))
    else:
        text = repr(float(value))
    return with_minus(text)


def format_tenths(value: Decimal) -> str:
    """A value judged at one decimal (the gate's means, shares and drops): "59.7",
    "1,234.0"; from 10¹⁵ on in scientific notation; a real minus sign, never "−0.0"."""
    if value == 0:
        return "0.0"
    if abs(value) >= HUGE:
        return with_minus(scientific(value))
    return with_minus(f"{value:,.1f}")


def left_out(parts: Iterable[tuple[int, Reason]], of: str = "") -> str:
    """The one wording of values a view, a report or a chart does not show: "2 scores outside
    0–100 and 1 score beyond ±1.8e308 or not a number left out" (`of`: "… left out of the
    mean"); "" when nothing was."""
    said = [f"{format_count(n)} {reason[0] if n == 1 else reason[1]}" for n, reason in parts if n]
    if not said:
        return ""
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return f"{listed} left out" + (f" of {of}" if of else "")


def sparkline(values: Sequence[float | None], low: float, high: float) -> str:
    """One block per value on the scale `low`–`high` ("▁▃▅█"), `·` where there is none:
    a trend that reads without colour."""
    span = high - low
    marks = []
    for value in values:
        if value is None or not math.isfinite(value):
            marks.append(NO_SPARK)
            continue
        share = (min(max(value, low), high) - low) / span if span > 0 else 0.5
        marks.append(SPARKS[min(len(SPARKS) - 1, int(share * len(SPARKS)))])
    return "".join(marks)


def format_span(low: float, high: float) -> str:
    """A scale from `low` to `high`, to whole numbers: "40–90"."""
    return f"{low:.0f}–{high:.0f}"


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
    if whole:
        raw = max(raw, 1.0)  # no whole step is smaller than one
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 2.5, 5):
        step = multiple * magnitude
        if step >= raw - 1e-9 and (not whole or float(step).is_integer()):
            return step
    return 10 * magnitude


def finite(value: object) -> float | None:
    """`value` as a finite number to compare or sort by, or None (a boolean, NaN, or an
    integer too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
