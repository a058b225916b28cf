"""The words for a time in a scope ("2026-11-01", "2026-11-01T09:00Z", "2h", "7d"), a span
of creation times (`Window`), and the one error of a scope the user wrote (`ScopeError`).

Headless; every check here runs before any request is sent.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from screen_analysis.api.models import Analysis
from screen_analysis.validation import quoted
from screen_analysis.words import utc_time


class ScopeError(ValueError):
    """What the user asked for cannot be used: one line naming the option and the value."""


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}


def parse_duration(text: str) -> timedelta | None:
    """`2h`, `90m`, `1h30m`, `7d`, `2w`, `45s` as a timedelta; None when `text` is not one."""
    compact = text.strip().lower()
    if not compact or _DURATION.sub("", compact).strip():
        return None
    seconds = sum(float(n) * _UNIT_SECONDS[unit] for n, unit in _DURATION.findall(compact))
    try:
        return timedelta(seconds=seconds)
    except OverflowError:
        return None


@dataclass(frozen=True)
class When:
    """A point in time as written: a fixed time (`at`), or a duration before now (`ago`),
    resolved when a scope is applied (a saved view's "7d" moves with the clock)."""

    at: datetime | None = None
    ago: timedelta | None = None
    written: str | None = field(default=None, compare=False)  # the duration as the user wrote it

    def resolve(self, now: datetime, option: str = "time") -> datetime:
        """The time this names at `now`."""
        if self.at is not None:
            return self.at
        try:
            return now - (self.ago or timedelta())
        except OverflowError:
            given = self.written or self.ago
            raise ScopeError(f"{option}: {quoted(given)} reaches too far back") from None


def read_when(text: object, *, option: str) -> When:
    """A point in time: an ISO date (midnight UTC) or date-time (UTC when it names no
    zone), a TOML date or date-time, or a duration before now such as `2h` or `7d`."""
    if isinstance(text, datetime):  # a TOML date-time in a table
        return When(at=text if text.tzinfo is not None else text.replace(tzinfo=UTC))
    if isinstance(text, date):  # a TOML date: its midnight UTC
        return When(at=datetime(text.year, text.month, text.day, tzinfo=UTC))
    value = str(text).strip()
    ago = parse_duration(value)
    if ago is not None:
        return When(ago=ago, written=value)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ScopeError(
            f"{option}: expected a date (2026-10-01), a date-time (2026-10-01T09:00Z) or a "
            f"duration (2h, 7d), got {quoted(text)}"
        ) from None
    return When(at=when if when.tzinfo is not None else when.replace(tzinfo=UTC))


def parse_when(text: object, *, now: datetime, option: str) -> datetime:
    """`read_when`, resolved at `now`."""
    return read_when(text, option=option).resolve(now, option)


def created_of(item: Analysis) -> datetime | None:
    """When the analysis was created, as an aware time (a naive one is taken as UTC)."""
    created = item.created_at
    if created is not None and created.tzinfo is None:
        return created.replace(tzinfo=UTC)
    return created


def newest_key(item: Analysis) -> float:
    """The order the N newest are picked by (`last`): the creation time, an analysis
    without one the oldest of all (never newer than a dated one, however early)."""
    created = created_of(item)
    return created.timestamp() if created is not None else -math.inf


@dataclass(frozen=True)
class Window:
    """A span of creation times: from `since` (inclusive) to `until` (exclusive)."""

    since: datetime | None = None
    until: datetime | None = None

    def contains(self, created: datetime | None) -> bool:
        """Whether an analysis created at `created` falls in the window (an unknown time
        falls in no bounded window)."""
        if self.since is None and self.until is None:
            return True
        if created is None:
            return False
        if self.since is not None and created < self.since:
            return False
        return self.until is None or created < self.until

    def describe(self) -> str:
        """ "since 2026-11-01 09:00 UTC until …", or "all time"."""
        parts = []
        if self.since is not None:
            parts.append("since " + utc_time(self.since))
        if self.until is not None:
            parts.append("until " + utc_time(self.until))
        return " ".join(parts) or "all time"
