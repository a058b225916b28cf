"""Sums and means of scores that are exact whatever the scores and their order.

A float sum loses small scores beside huge ones (1e308 + 50 − 1e308 is 0, not 50) and
overflows to infinity (1e308 + 1e308); either gives a wrong mean without a word. Every
finite float is a fraction whose denominator is a power of two, so `ExactSum` keeps the
sum as one integer over one power of two: exact, independent of the order the scores
came in, and as fast as an integer addition for the usual whole-number scores. Only the
mean is rounded, once, to the nearest float (it always fits: a mean lies between the
smallest and the largest score).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

# Enough digits for any float to a tenth (a float has at most 309 digits before the point).
_DECIMALS = Context(prec=400, rounding=ROUND_HALF_UP)
TENTH = Decimal("0.1")


class ExactSum:
    """The exact sum of finite numbers (ints of any size and floats), added one at a time."""

    __slots__ = ("_numerator", "_shift", "_whole")

    def __init__(self) -> None:
        self._whole = 0  # the integers, exactly
        self._numerator = 0  # the fractions, as _numerator / 2**_shift
        self._shift = 0

    def add(self, value: float) -> None:
        """Add a finite number (an int, or a float that is not NaN or infinite)."""
        if type(value) is int:
            self._whole += value  # the usual case, first
            return
        numerator, denominator = value.as_integer_ratio()
        if denominator == 1:
            self._whole += numerator
            return
        shift = denominator.bit_length() - 1
        if shift > self._shift:
            self._numerator <<= shift - self._shift
            self._shift = shift
        self._numerator += numerator << (self._shift - shift)

    @property
    def total(self) -> Fraction:
        """The sum, exactly."""
        return self._whole + Fraction(self._numerator, 1 << self._shift)

    def mean(self, count: int) -> float | None:
        """The sum over `count`, rounded once to the nearest float (None for no values)."""
        if count <= 0:
            return None
        total = self.total
        return total.numerator / (total.denominator * count)  # int division rounds correctly

    def mean_to_tenth(self, count: int) -> float | None:
        """The mean rounded half up to one decimal from the exact sum (as the API rounds
        `avg_score`), as a float; None for no values."""
        if count <= 0:
            return None
        tenths = self.total * 10 / count
        rounded = (abs(tenths.numerator) * 2 + tenths.denominator) // (2 * tenths.denominator)
        return (rounded if tenths >= 0 else -rounded) / 10


def to_tenth(value: float) -> Decimal:
    """`value` (as it reads: its shortest repr) rounded half up to one decimal, as a
    Decimal: any finite float, however large, without an InvalidOperation."""
    return _DECIMALS.create_decimal(repr(float(value))).quantize(TENTH, context=_DECIMALS)
