"""Backoff and Retry-After parsing, as in the Stainless SDKs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from screen_analysis.api.retry import RetryPolicy, backoff, is_retryable_status, parse_retry_after

NOW = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)


def policy(jitter_draw: float = 0.0) -> RetryPolicy:
    return RetryPolicy(random=lambda: jitter_draw, now=lambda: NOW)


@pytest.mark.parametrize(
    ("retry", "expected"),
    [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (10, 8.0), (10_000, 8.0)],
)
def test_backoff_doubles_from_half_a_second_and_is_capped(retry: int, expected: float) -> None:
    assert policy().backoff(retry) == expected


def test_the_one_backoff_doubles_from_its_first_wait_up_to_its_cap() -> None:
    """The client's retries, the gate's polls and the app's refreshes: one doubling."""
    assert [backoff(5.0, step, 60.0) for step in range(6)] == [5, 10, 20, 40, 60, 60]
    assert backoff(5.0, -3, 60.0) == 5.0  # no step yet: the first wait itself
    assert backoff(90.0, 1, 90.0) == 90.0  # a first wait above the cap: the callers raise it


def test_the_backoff_of_any_number_of_failures_is_the_cap() -> None:
    """The gate doubled its pause with `2.0**failures`, which overflowed after 1,024 failed
    polls in a row (a long --timeout on a short interval against a server that is down)."""
    assert backoff(2.0, 1_024, 60.0) == 60.0
    assert backoff(1e-300, 10**9, 60.0) == 60.0


@given(
    first=st.floats(min_value=0.0, max_value=1e6),
    step=st.integers(min_value=-5, max_value=5_000),
    cap=st.floats(min_value=0.0, max_value=1e6),
)
def test_a_backoff_never_passes_its_cap_and_never_shrinks_with_a_step(
    first: float, step: int, cap: float
) -> None:
    wait = backoff(first, step, cap)
    assert wait <= cap
    assert wait <= backoff(first, step + 1, cap)


def test_jitter_takes_off_at_most_a_quarter() -> None:
    assert policy(jitter_draw=1.0).backoff(0) == pytest.approx(0.375)
    assert policy(jitter_draw=0.5).backoff(4) == pytest.approx(7.0)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"Retry-After": " 1.5 "}, 1.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),
        ({"retry-after-ms": "soon", "Retry-After": "9"}, 9.0),
        ({"Retry-After": format_datetime(NOW + timedelta(seconds=7), usegmt=True)}, 7.0),
        ({"Retry-After": "next tuesday"}, None),
        ({"Retry-After": "nan"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(httpx.Headers(headers), now=lambda: NOW) == expected


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"Retry-After": "60"}, 60.0),
        ({"Retry-After": "61"}, 1.0),  # over the cap: back to backoff
        ({"Retry-After": "0"}, 1.0),
        ({"Retry-After": "-5"}, 1.0),
        ({"Retry-After": format_datetime(NOW - timedelta(seconds=30), usegmt=True)}, 1.0),
        ({"Retry-After": format_datetime(NOW + timedelta(hours=2), usegmt=True)}, 1.0),
        (None, 1.0),
    ],
)
def test_delay_honours_a_sane_retry_after_else_backs_off(
    headers: dict[str, str] | None, expected: float
) -> None:
    given = httpx.Headers(headers) if headers is not None else None
    assert policy().delay(1, given) == expected


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504])
def test_retryable_statuses(status: int) -> None:
    assert is_retryable_status(status)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_not_retried(status: int) -> None:
    assert not is_retryable_status(status)


def test_the_server_may_override_with_x_should_retry() -> None:
    assert not is_retryable_status(503, httpx.Headers({"x-should-retry": "false"}))
    assert is_retryable_status(400, httpx.Headers({"x-should-retry": "true"}))


def test_a_retry_after_date_is_read_against_the_policys_clock() -> None:
    in_seven = format_datetime(NOW + timedelta(seconds=7), usegmt=True)
    assert policy().delay(3, httpx.Headers({"Retry-After": in_seven})) == 7.0


def test_a_wait_under_a_second_is_honoured() -> None:
    assert policy().delay(3, httpx.Headers({"retry-after-ms": "500"})) == 0.5


def test_a_date_without_a_zone_is_universal_time() -> None:
    """RFC 5322's "-0000": no zone known; read as UTC, never a crash comparing it."""
    naive = format_datetime((NOW + timedelta(seconds=7)).replace(tzinfo=None))
    assert naive.endswith("-0000")
    assert parse_retry_after(httpx.Headers({"Retry-After": naive}), now=lambda: NOW) == 7.0


def test_a_date_is_read_against_the_real_clock_by_default() -> None:
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    wait = parse_retry_after(httpx.Headers({"Retry-After": soon}))
    assert wait is not None and 20 < wait <= 30
