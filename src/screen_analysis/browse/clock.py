"""Time for polls that wait (`check --wait`, `watch`): a monotonic reading, a sleep, the
wall clock and a deadline, injected so tests drive time and nothing waits on it; and the
failures a poll tries again after a pause (a 429, a 5xx, the network)."""

from __future__ import annotations

import asyncio
import time
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Protocol

from screen_analysis.api.errors import APIConnectionError, RateLimitError, ServerError

RETRYABLE = (RateLimitError, ServerError, APIConnectionError)


class Clock(Protocol):
    """Time for the wait: a monotonic reading, a sleep, and the wall clock."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""

    async def sleep(self, seconds: float) -> None:
        """Wait this long."""

    def now(self) -> datetime:
        """The current UTC time."""

    def deadline(self, when: float) -> AbstractAsyncContextManager[object]:
        """A block cancelled once `monotonic()` reaches `when`, leaving with TimeoutError."""


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        """`time.monotonic()`."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """`asyncio.sleep`."""
        await asyncio.sleep(seconds)

    def now(self) -> datetime:
        """`datetime.now(UTC)`."""
        return datetime.now(UTC)

    def deadline(self, when: float) -> AbstractAsyncContextManager[object]:
        """`asyncio.timeout` for the seconds left until `when`."""
        return asyncio.timeout(max(0.0, when - self.monotonic()))
