"""Waiting for the app under Pilot: for a condition, or for a layout to come to rest —
never for a length of time. Shared by the tests and the screenshots script."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def wait_until(
    pilot: Pilot[Any],
    check: Callable[[], bool],
    timeout: float = 10.0,
    *,
    seen: Callable[[], object] | None = None,
) -> None:
    """Let the app run until `check()` holds; on a time-out, the message holds `seen()`
    (what the app showed instead), when given."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            shown = f": {seen()!r}" if seen is not None else ""
            raise AssertionError(f"timed out waiting for the app{shown}")
        await pilot.pause(0.02)


async def steady(pilot: Pilot[Any], probe: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait until `probe()` (what a layout decides: chart heights, a scroll offset) comes out
    the same over three rounds of the app's refresh, then return."""
    deadline = time.monotonic() + timeout
    seen, same = probe(), 0
    while same < 3:
        if time.monotonic() > deadline:
            raise AssertionError(f"never steady: {seen!r}")
        await pilot.pause()
        now = probe()
        same = same + 1 if now == seen else 0
        seen = now
