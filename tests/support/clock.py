"""A clock that moves only when something sleeps on it: tests drive time, nothing waits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class SteppedClock:
    """Each `sleep(s)` is recorded, moves the clock on by `s` at once and then calls
    `on_sleep(elapsed)` — where a test makes the world move (a simulator's tick)."""

    def __init__(
        self, start: datetime = START, on_sleep: Callable[[float], None] | None = None
    ) -> None:
        self.start = start
        self.elapsed = 0.0
        self.sleeps: list[float] = []
        self.on_sleep = on_sleep

    def monotonic(self) -> float:
        """Seconds slept so far."""
        return self.elapsed

    async def sleep(self, seconds: float) -> None:
        """Move on by `seconds` without waiting."""
        self.sleeps.append(seconds)
        self.elapsed += seconds
        if self.on_sleep is not None:
            self.on_sleep(self.elapsed)

    def now(self) -> datetime:
        """`start` plus the seconds slept."""
        return self.start + timedelta(seconds=self.elapsed)

    def deadline(self, when: float) -> AbstractAsyncContextManager[object]:
        """Never cuts a block off: this clock stands still while a block runs (time moves
        only in `sleep`), so a deadline can only fall between blocks."""
        return asyncio.timeout(None)
