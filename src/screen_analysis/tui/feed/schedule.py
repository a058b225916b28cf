"""When the next auto-refresh is due: the interval, backing off on errors, pausing.

Headless: no Textual. The screen owns the timer; this decides the interval and whether
refreshes run at all (configured on, not paused by the user, not held because the terminal
lost focus or the app is suspended).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from screen_analysis.api.retry import backoff
from screen_analysis.words import wait_words

BACKOFF_CAP_S = 60.0
HELD_WORDS = {"focus": "terminal not focused", "suspended": "suspended"}


class RefreshSchedule:
    """The auto-refresh interval: `base_s` (0: off), doubled after each failure up to a cap,
    back to `base_s` after a success; paused by the user; held for outside reasons."""

    def __init__(
        self,
        base_s: float,
        cap_s: float = BACKOFF_CAP_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Every `base_s` seconds (0: off), backing off up to `cap_s`; `clock` tells the time
        in seconds (injected by tests)."""
        self.base_s = base_s
        self.cap_s = cap_s
        self.clock = clock
        self.paused = False
        self.failures = 0
        self.held: set[str] = set()
        self._last = -math.inf

    def started(self) -> None:
        """A round starts now."""
        self._last = self.clock()

    @property
    def due(self) -> bool:
        """Whether a round fell due since the last one started (runs or not)."""
        return self.clock() - self._last >= self.interval_s

    @property
    def enabled(self) -> bool:
        """Whether refreshes run now (configured on, not paused, not held)."""
        return self.base_s > 0 and not self.paused and not self.held

    @property
    def interval_s(self) -> float:
        """Seconds until the next refresh."""
        if self.failures == 0:
            return self.base_s
        return backoff(self.base_s, self.failures, max(self.cap_s, self.base_s))

    def succeeded(self) -> None:
        """A refresh worked: back to the configured interval."""
        self.failures = 0

    def failed(self) -> None:
        """A refresh failed: wait twice as long next time (up to the cap)."""
        if self.interval_s < max(self.cap_s, self.base_s):
            self.failures += 1

    def toggle(self) -> bool:
        """Pause or resume; returns whether it now runs."""
        self.paused = not self.paused
        return self.enabled

    def hold(self, reason: str, held: bool) -> bool:
        """Hold (or release) refreshes for `reason` ("focus", "suspended"); True when this
        changed whether refreshes run."""
        before = self.enabled
        if held:
            self.held.add(reason)
        else:
            self.held.discard(reason)
        return before != self.enabled

    def label(self) -> str:
        """What the status line says: "auto-refresh 5s", "paused", "refresh failed · retry
        in 20 s", "off"."""
        if self.base_s <= 0:
            return "auto-refresh off"
        if self.paused:
            return "auto-refresh paused (p)"
        if self.held:
            return "auto-refresh waits (" + HELD_WORDS.get(min(self.held), min(self.held)) + ")"
        if self.failures:
            return "refresh failed · retry in " + wait_words(self.interval_s)
        return f"auto-refresh {self.interval_s:g}s"
