"""Sums of scores are exact whatever the scores' size and order; the mean is rounded once."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from screen_analysis.insight.exact import ExactSum, to_tenth

FINITE = st.one_of(
    st.integers(min_value=-(2**1000), max_value=2**1000),
    st.floats(allow_nan=False, allow_infinity=False),
)


def summed(values: list[float]) -> ExactSum:
    total = ExactSum()
    for value in values:
        total.add(value)
    return total


@given(st.lists(FINITE, min_size=1, max_size=50), st.randoms())
def test_the_sum_is_exact_and_the_same_in_any_order(values: list[float], rnd) -> None:
    exact = sum((Fraction(v) for v in values), Fraction(0))
    shuffled = list(values)
    rnd.shuffle(shuffled)
    assert summed(values).total == exact == summed(shuffled).total
    mean = exact / len(values)
    assert summed(shuffled).mean(len(values)) == float(mean)


def test_what_a_float_sum_gets_wrong() -> None:
    assert (1e308 + 50 - 1e308 + 60) / 4 == 15.0  # the 50 absorbed
    assert summed([1e308, 50, -1e308, 60]).mean(4) == 27.5
    assert summed([1e308, 1e308]).mean(2) == 1e308  # no overflow to infinity
    assert summed([1e308, 1e308]).mean_to_tenth(2) == 1e308  # no InvalidOperation
    assert summed([0.1, 0.2, 0.3]).total == Fraction(0.1) + Fraction(0.2) + Fraction(0.3)
    assert summed([]).mean(0) is None and summed([]).mean_to_tenth(0) is None


@pytest.mark.parametrize(
    ("values", "tenth"),
    [([59, 60, 60, 60], 59.8), ([-5, -6], -5.5), ([1, 2], 1.5), ([-1, -2, -2, -2], -1.8)],
)
def test_the_mean_rounds_half_up_as_the_api(values: list[int], tenth: float) -> None:
    assert summed(values).mean_to_tenth(len(values)) == tenth


def test_any_float_rounds_to_a_tenth() -> None:
    assert to_tenth(1e308) == Decimal("1e308")  # as it reads, with a tenth: no overflow
    assert to_tenth(59.75) == to_tenth(59.8) and to_tenth(-0.05) == to_tenth(-0.1)
