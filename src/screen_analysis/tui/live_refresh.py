"""Auto-refresh bookkeeping: when the next refresh is due, backing off on errors, and what
one refresh asks for and brings back.

Headless (no Textual). The screen owns the timer and the worker; this decides the interval
and which rows an answer may touch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.tui.view_state import ViewKey

BACKOFF_CAP_S = 60.0
IN_FLIGHT = (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)


@dataclass
class RefreshSchedule:
    """The auto-refresh interval: `base_s` (0: off), doubled after each failure up to a cap,
    back to `base_s` after a success; paused by the user."""

    base_s: float
    cap_s: float = BACKOFF_CAP_S
    paused: bool = False
    failures: int = 0

    @property
    def enabled(self) -> bool:
        """Whether refreshes run at all (configured on and not paused)."""
        return self.base_s > 0 and not self.paused

    @property
    def interval_s(self) -> float:
        """Seconds until the next refresh."""
        if self.failures == 0:
            return self.base_s
        return min(math.ldexp(self.base_s, self.failures), max(self.cap_s, self.base_s))

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

    def label(self) -> str:
        """What the status line says: "auto-refresh 5s", "paused", "retry in 20s", "off"."""
        if self.base_s <= 0:
            return "auto-refresh off"
        if self.paused:
            return "auto-refresh paused (p)"
        seconds = f"{self.interval_s:g}s"
        return f"refresh failed, retry in {seconds}" if self.failures else f"auto-refresh {seconds}"


@dataclass(frozen=True)
class RefreshJob:
    """One refresh of one generation of a view.

    The rows come from the project's list without the status filter, so a row that leaves
    the filtered status is seen changing in place; pages are followed back to `since` (the
    oldest visible pending or processing row), at most `max_pages`. `fetch_top` asks for the
    first page even with no such row, to catch new arrivals.
    """

    generation: int
    key: ViewKey
    since: datetime | None
    fetch_top: bool
    max_pages: int = 5


@dataclass(frozen=True)
class RefreshResult:
    """What a refresh brought back: rows newest first, and totals per status filter."""

    job: RefreshJob
    items: Sequence[AnalysisItem]
    totals: dict[ViewKey, int] = field(default_factory=dict)


def is_in_flight(item: AnalysisItem) -> bool:
    """Whether the row may still change (pending or processing)."""
    return isinstance(item, Analysis) and item.known_status in IN_FLIGHT


def oldest_in_flight(items: Sequence[AnalysisItem]) -> datetime | None:
    """The earliest creation time among pending or processing rows (None: there are none)."""
    times = [i.created_at for i in items if is_in_flight(i) and isinstance(i, Analysis)]
    known = [t for t in times if t is not None]
    return min(known) if known else None


def newer_than(
    items: Sequence[AnalysisItem], top: AnalysisItem | None, key: ViewKey
) -> list[AnalysisItem]:
    """The rows of `items` (newest first) that sort before `top` and match `key`'s status."""
    arrived: list[AnalysisItem] = []
    top_key = _sort_key(top) if top is not None else None
    for item in items:
        if not isinstance(item, Analysis):
            continue
        item_key = _sort_key(item)
        if top_key is not None and (item_key is None or item_key <= top_key):
            break
        if key.status is None or item.status == key.status:
            arrived.append(item)
    return arrived


def _sort_key(item: AnalysisItem) -> tuple[datetime, str] | None:
    """The server's order (created_at, then id, both descending) as a comparable key."""
    if not isinstance(item, Analysis) or item.created_at is None:
        return None
    return item.created_at, item.id
