"""When to retry a request and how long to wait, after the Stainless SDKs.

Retried: connection errors, timeouts, 408, 409, 429 and 5xx (a server may override with
`x-should-retry: true|false`). The wait is the server's `retry-after-ms` or `Retry-After`
(seconds or an HTTP date) when it is positive and at most `max_retry_after`; otherwise a
capped exponential backoff (0.5 s doubling up to 8 s) with up to 25 % jitter taken off.
`backoff` is the one doubling with a cap: the gate's polls and the app's refreshes back off
through it too.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import NamedTuple

RETRYABLE_STATUSES = frozenset({408, 409, 429})


def _now() -> datetime:
    return datetime.now(UTC)


def is_retryable_status(status_code: int, headers: Mapping[str, str] | None = None) -> bool:
    """Whether a response with this status (and headers) is worth another attempt."""
    hint = (headers or {}).get("x-should-retry", "").strip().lower()
    if hint == "true":
        return True
    if hint == "false":
        return False
    return status_code in RETRYABLE_STATUSES or status_code >= 500


def parse_retry_after(
    headers: Mapping[str, str], *, now: Callable[[], datetime] = _now
) -> float | None:
    """Seconds the server asks to wait, from `retry-after-ms` or `Retry-After`, else None.

    `headers` must look names up case-insensitively (httpx.Headers does).
    """
    millis = headers.get("retry-after-ms")
    if millis is not None:
        seconds = _finite(millis)
        if seconds is not None:
            return seconds / 1000
    value = headers.get("retry-after")
    if value is None:
        return None
    seconds = _finite(value)
    if seconds is not None:
        return seconds
    # An HTTP date is rare (a few servers send one with a 503): `email` (13 modules) is
    # imported then, not with the error words every start loads.
    import email.utils

    try:
        when = email.utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - now()).total_seconds()


def _finite(text: str) -> float | None:
    try:
        number = float(text.strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def backoff(first: float, step: int, cap: float) -> float:
    """The one exponential backoff: `first` doubled `step` times (0 or less: `first`
    itself), at most `cap`; any number of steps (past a float's range it is the cap). The
    client's retries, the gate's polls and the app's refreshes all wait this long."""
    try:
        grown = math.ldexp(first, max(step, 0))
    except OverflowError:
        return cap
    return min(grown, cap)


class RetryPolicy(NamedTuple):
    """Delays between attempts; `sleep`, `random` and `now` are injectable for tests."""

    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    jitter: float = 0.25
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    random: Callable[[], float] = random.random
    now: Callable[[], datetime] = _now

    def backoff(self, retry_number: int) -> float:
        """Exponential backoff before retry `retry_number` (0 for the first), with jitter."""
        delay = backoff(self.initial_delay, retry_number, self.max_delay)
        return max(delay * (1 - self.jitter * self.random()), 0.0)

    def delay(self, retry_number: int, headers: Mapping[str, str] | None = None) -> float:
        """Seconds to wait before retry `retry_number`: the server's hint if sane, else backoff."""
        if headers is not None:
            hint = parse_retry_after(headers, now=self.now)
            if hint is not None and 0 < hint <= self.max_retry_after:
                return hint
        return self.backoff(retry_number)
