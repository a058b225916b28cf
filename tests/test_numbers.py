"""How numbers read: one rule each for counts, scores, means, weights and axis steps."""

from __future__ import annotations

from decimal import Decimal

import pytest

from screen_analysis import numbers
from screen_analysis.numbers import (
    DASH,
    count_of,
    format_count,
    format_mean,
    format_percent,
    format_score,
    format_weights,
    nice_step,
    nice_top,
)


def test_counts_have_a_thousands_separator() -> None:
    assert format_count(5097) == "5,097" and format_count(12) == "12"
    assert format_count(None) == DASH
    assert count_of(5098, "analysis", "analyses") == "5,098 analyses"
    assert count_of(1, "analysis", "analyses") == "1 analysis"
    assert count_of(1, "score") == "1 score" and count_of(0, "score") == "0 scores"


def test_a_score_reads_as_sent_and_a_mean_always_has_one_decimal() -> None:
    assert format_score(55) == "55" and format_score(55.0) == "55" and format_score(55.5) == "55.5"
    assert format_score(None) == DASH and format_score(True) == DASH
    assert format_score(10**400) == "1e400"  # no float overflow, and no 401 digits
    assert format_mean(55) == "55.0" and format_mean(61.66) == "61.7"
    assert format_mean(None) == DASH and format_mean(float("nan")) == DASH


def test_weights_in_a_column_share_their_decimals() -> None:
    assert format_weights([0.15, 0.2, 0.35, None]) == ("0.15", "0.20", "0.35", DASH)
    assert format_weights([1, 2, 3]) == ("1", "2", "3")
    assert format_weights([0.125, 0.5]) == ("0.125", "0.500")
    assert format_weights([None]) == (DASH,)


def test_percent() -> None:
    assert format_percent(27, 296) == "9.1%" and format_percent(1, 0) == DASH
    assert format_percent(1, 1) == "100.0%"  # one of one is all of it


def test_a_weight_shows_three_decimals_at_most() -> None:
    assert format_weights([0.1234, 0.5]) == ("0.123", "0.500")


@pytest.mark.parametrize(
    ("span", "most", "whole", "step"),
    [
        (100, 4, False, 25),
        (50, 2, False, 25),
        (5, 2, False, 2.5),
        (5, 2, True, 5),
        (803, 2, True, 500),
    ],
)
def test_axis_steps_are_round(span: float, most: int, whole: bool, step: float) -> None:
    assert nice_step(span, most, whole=whole) == step


@pytest.mark.parametrize(
    ("span", "most", "step"),
    [
        (100, 10, 10),  # 1 × 10ⁿ
        (30, 2, 20),  # 2 × 10ⁿ
        (5, 2, 2.5),  # 2.5 × 10ⁿ, a fractional step unless the axis counts
        (40, 10, 5),  # 5 × 10ⁿ
        (7, 1, 10),  # past 5 × 10ⁿ: the next power of ten
        (70, 1, 100),
        (0.7, 1, 1),
        (0.5, 1, 0.5),  # a span under one
        (0, 3, 1),  # nothing to span: a step of one
        (7, 0, 7),  # no part asked for: one step over all of it
    ],
)
def test_an_axis_step_is_the_smallest_round_one_that_fits(
    span: float, most: int, step: float
) -> None:
    assert nice_step(span, most) == step


def test_a_count_axis_steps_by_whole_numbers_even_when_it_spans_one() -> None:
    """Counts of 0 and 1 on a tall chart: the step is 1, not 0.1 (whose labels rounded to
    counts read "1, 1, 1, 1, 1, 0, 0, 0, 0, 0")."""
    assert nice_step(1, 12, whole=True) == 1
    assert nice_step(1, 20, whole=True) == 1
    assert nice_step(3, 3, whole=True) == 1 and nice_step(3, 2, whole=True) == 2


@pytest.mark.parametrize(
    ("value", "top"),
    [
        (3, 4),  # small values: an axis of four steps of one
        (4, 4),
        (5, 8),
        (400, 400),  # met exactly: four steps of 100
        (401, 800),
        (600, 800),  # steps of 200
        (1000, 1000),  # steps of 250
        (2000, 2000),  # steps of 500
        (2400, 4000),  # steps of 1000
    ],
)
def test_an_axis_top_is_the_smallest_round_one_at_or_above_the_value(
    value: float, top: float
) -> None:
    assert nice_top(value) == top


def test_a_number_of_10_to_the_15_or_more_reads_in_scientific_notation() -> None:
    assert format_score(999_999_999_999_999) == "999999999999999"
    assert format_score(1e15) == "1e15" and format_mean(1e15) == "1e15"  # met exactly
    assert format_mean(999_999_999_999_999.0) == "999999999999999.0"
    assert format_score(10**15) == "1e15" and format_score(-4853140178864397) == "-4.853e15"
    assert format_score(1e308) == "1e308" and format_mean(-1e308) == "-1e308"
    assert format_mean(6.666666666666667e307) == "6.667e307"
    assert numbers.scientific(15 * 10**399) == "1.5e400"  # an integer no float holds


def test_signed_differences_read_without_colour() -> None:
    format_delta = numbers.format_delta
    assert format_delta(12) == "▲ +12" and format_delta(-5) == "▼ −5" and format_delta(0) == "= 0"
    assert format_delta(2.5) == "▲ +2.5" and format_delta(None) == DASH
    assert format_delta(-8.0, decimals=1) == "▼ −8.0" and format_delta(0.04, 1) == "= 0.0"
    assert format_delta(Decimal("1e308") * 2) == "▲ +2e308" and format_delta(10**400) == "▲ +1e400"
    assert format_delta(float("inf")) == DASH
    assert format_delta(0.5) == "▲ +0.5" and format_delta(-0.5) == "▼ −0.5"
    assert format_delta(10**15) == "▲ +1e15" and format_delta(-1e15) == "▼ −1e15"


def test_a_zero_difference_reads_as_zero_whatever_its_sign() -> None:
    format_delta = numbers.format_delta
    assert format_delta(0.0) == "= 0" and format_delta(-0.0) == "= 0"
    assert format_delta(Decimal("-0")) == "= 0" and format_delta(-0.0, decimals=1) == "= 0.0"


def test_what_was_left_out_is_said_one_way() -> None:
    left_out = numbers.left_out
    outside = ("score outside 0–100", "scores outside 0–100")
    odd = ("score that is odd", "scores that are odd")
    assert left_out([(0, outside)]) == ""
    assert left_out([(1, outside)]) == "1 score outside 0–100 left out"
    assert left_out([(2, outside), (1, odd)], "the mean") == (
        "2 scores outside 0–100 and 1 score that is odd left out of the mean"
    )
    assert left_out([(1_200, outside), (0, odd), (3, odd)]) == (
        "1,200 scores outside 0–100 and 3 scores that are odd left out"
    )
    huge = ("score beyond ±1.8e308", "scores beyond ±1.8e308")
    assert left_out([(2, outside), (1, odd), (4, huge)]) == (
        "2 scores outside 0–100, 1 score that is odd and 4 scores beyond ±1.8e308 left out"
    )


def test_a_sparkline_reads_without_colour() -> None:
    sparkline = numbers.sparkline
    assert sparkline([50, 60, None, 90, 100], 50, 100) == "▁▂·▇█"
    assert sparkline([10, 200], 50, 100) == "▁█"  # beyond the scale: at its ends
    assert sparkline([70, 70], 70, 70) == "▅▅"  # no span: the middle
    assert sparkline([0.25, 0.75], 0, 1) == "▃▇"  # a scale narrower than one


def test_an_axis_reads_short_from_ten_thousand_on() -> None:
    from screen_analysis.numbers import axis_number

    assert axis_number(9_999) == "9,999" and axis_number(10_000) == "10k"  # met exactly
    assert axis_number(12_499) == "12k" and axis_number(2.6) == "3" and axis_number(0) == "0"


def test_a_number_as_given_reads_whole_or_as_short_as_it_is() -> None:
    from screen_analysis.numbers import format_number, with_minus

    assert format_number(70) == "70" and format_number(70.0) == "70"
    assert format_number(4638) == "4,638" and format_number(59.95) == "59.95"
    assert format_number(-1.25) == "−1.25" and format_number(-3) == "−3"
    assert format_number(999_999_999_999_999) == "999,999,999,999,999"
    assert format_number(10**15) == "1e15" and format_number(-(10**15)) == "−1e15"  # met
    assert format_number(1e308) == "1e308" and format_number(0.1 + 0.2) == "0.30000000000000004"
    assert with_minus("-1-2") == "−1−2" and with_minus("12") == "12"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("0.0", "0.0"),
        ("-0.0", "0.0"),  # a mean of −0.04 judged at one decimal: never "−0.0"
        ("72.4", "72.4"),
        ("-1.3", "−1.3"),
        ("0.1", "0.1"),
        ("1234.6", "1,234.6"),
        ("999999999999999.9", "999,999,999,999,999.9"),
        ("1000000000000000.0", "1e15"),  # met exactly
        ("-1000000000000000.0", "−1e15"),
    ],
)
def test_a_value_judged_at_one_decimal(value: str, text: str) -> None:
    """format_tenths reads values already judged at one decimal (the gate's `compared`)."""
    from screen_analysis.numbers import format_tenths

    assert format_tenths(Decimal(value)) == text


@pytest.mark.parametrize(
    ("value", "read"),
    [
        (70, 70.0),
        (-3, -3.0),
        (0.5, 0.5),
        (0, 0.0),
        (True, None),
        (False, None),
        ("70", None),
        (None, None),
        ([70], None),
        (float("nan"), None),
        (float("inf"), None),
        (-float("inf"), None),
        (10**400, None),
    ],
)
def test_finite_reads_numbers_to_compare_and_nothing_else(
    value: object, read: float | None
) -> None:
    got = numbers.finite(value)
    assert got == read
    assert got is None or type(got) is float
