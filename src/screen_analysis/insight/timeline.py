"""Score over time: running sums per calendar bucket, a day or a week wide by the span.

Buckets are kept a day wide while the data allows; a stream spanning more days than
`MAX_BUCKETS` is folded into wider buckets as it goes, so memory never depends on the
number of analyses (nor on hostile dates centuries apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

EPOCH = date(2000, 1, 3)  # a Monday: weeks start on Mondays
WIDTHS: tuple[tuple[int, str], ...] = (
    (1, "day"),
    (7, "week"),
    (28, "4 weeks"),
    (364, "52 weeks"),
    (3640, "520 weeks"),
)
MAX_BUCKETS = 4096
DAILY_UP_TO_DAYS = 31  # a span of up to a month is shown per day, longer per week or wider
MAX_POINTS = 120


@dataclass(frozen=True)
class TimePoint:
    """One point of the score over time: its first day, how many scores, their mean."""

    start: date
    count: int
    mean: float | None  # None: no completed analysis in this bucket


@dataclass(frozen=True)
class Timeline:
    """The points, oldest first, and the width of each (`unit`: "day", "week", …)."""

    unit: str
    days: int
    points: tuple[TimePoint, ...]

    def partial(self, first: datetime | None, now: datetime) -> tuple[bool, ...]:
        """Per point, whether the data covers only part of its span: the data starts inside
        it (`first`, the oldest analysis read), or it has not ended by `now`."""
        today = _utc_day(now)
        start = _utc_day(first) if first is not None else None
        return tuple(
            (start is not None and point.start < start)
            or (today - point.start).days < self.days  # no date past 9999-12-31 is formed
            for point in self.points
        )


def bucket_start(days: int) -> date:
    """The day `days` after EPOCH, within the calendar: a bucket that would begin before
    0001-01-01 (a server's "zero" date among recent ones, folded into wide buckets) begins
    on that day. (No bucket begins after a day it holds, so none passes 9999-12-31.)"""
    try:
        return EPOCH + timedelta(days=days)
    except OverflowError:
        return date.min


def _utc_day(when: datetime) -> date:
    """The UTC calendar day of `when` (a naive time is UTC), as the buckets are counted."""
    if when.tzinfo is None:
        return when.date()
    return when.astimezone(UTC).date()


class TimelineBuilder:
    """Running count and sum of scores per bucket."""

    def __init__(self) -> None:
        self._level = 0
        self._buckets: dict[int, list[float]] = {}

    @property
    def width(self) -> int:
        """The current bucket width in days."""
        return WIDTHS[self._level][0]

    def add(self, day: date, score: float) -> None:
        """Count one score on `day`."""
        index = (day - EPOCH).days // self.width
        bucket = self._buckets.get(index)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS and self._level + 1 < len(WIDTHS):
                self._coarsen()
                index = (day - EPOCH).days // self.width
                bucket = self._buckets.get(index)
            if bucket is None:
                bucket = self._buckets[index] = [0.0, 0.0]
        bucket[0] += 1
        bucket[1] += score

    def _coarsen(self) -> None:
        old_width = self.width
        self._level += 1
        merged: dict[int, list[float]] = {}
        for index, (count, total) in self._buckets.items():
            target = merged.setdefault((index * old_width) // self.width, [0.0, 0.0])
            target[0] += count
            target[1] += total
        self._buckets = merged

    def result(self) -> Timeline:
        """The points at the width the span calls for, gaps included as empty points."""
        if not self._buckets:
            return Timeline("day", 1, ())
        first, last = min(self._buckets), max(self._buckets)
        span_days = (last - first + 1) * self.width
        level = self._level
        while level + 1 < len(WIDTHS) and (
            (level == 0 and span_days > DAILY_UP_TO_DAYS)
            or span_days / WIDTHS[level][0] > MAX_POINTS
        ):
            level += 1
        width, unit = WIDTHS[level]
        sums: dict[int, list[float]] = {}
        for index, (count, total) in self._buckets.items():
            target = sums.setdefault((index * self.width) // width, [0.0, 0.0])
            target[0] += count
            target[1] += total
        lo, hi = min(sums), max(sums)
        points = []
        for index in range(lo, hi + 1):
            count, total = sums.get(index, (0.0, 0.0))
            points.append(
                TimePoint(
                    start=bucket_start(index * width),
                    count=int(count),
                    mean=total / count if count else None,
                )
            )
        return Timeline(unit, width, tuple(points))
