"""How numbers read: one rule each for counts, scores, means, weights and axis steps."""

from __future__ import annotations

import pytest

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
    assert format_score(10**400) == str(10**400)  # no float overflow
    assert format_mean(55) == "55.0" and format_mean(61.66) == "61.7"
    assert format_mean(None) == DASH and format_mean(float("nan")) == DASH


def test_weights_in_a_column_share_their_decimals() -> None:
    assert format_weights([0.15, 0.2, 0.35, None]) == ("0.15", "0.20", "0.35", DASH)
    assert format_weights([1, 2, 3]) == ("1", "2", "3")
    assert format_weights([0.125, 0.5]) == ("0.125", "0.500")
    assert format_weights([None]) == (DASH,)


def test_percent() -> None:
    assert format_percent(27, 296) == "9.1%" and format_percent(1, 0) == DASH


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
    assert nice_top(201) >= 201
