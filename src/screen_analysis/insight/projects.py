"""Per project, for the overview of all projects: how many analyses, the mean score, the
failed share and the mean score per week over the last weeks with the change between
their halves, so a project that improves or declines shows at the top level.

Bounded like the rest of an overview: each project keeps counts, an exact sum and at most
`TREND_WEEKS` weekly sums (its newest), and at most `MAX_TRACKED` projects are tracked;
analyses of projects beyond them are counted and said to be left out. The weeks are
aligned on the newest week any project has, so every row covers the same weeks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from screen_analysis.insight.exact import ExactSum
from screen_analysis.insight.timeline import bucket_start
from screen_analysis.numbers import format_count, format_span, left_out
from screen_analysis.words import day_month

TREND_WEEKS = 8
HALF = TREND_WEEKS // 2
MAX_TRACKED = 1000
PROJECT_ROWS = 12  # rows a table shows, the projects with the most analyses first
MIN_SCALE = 10.0  # the sparklines' scale spans at least this many points
EPOCH = date(2000, 1, 3)  # a Monday: weeks start on Mondays, as the timeline's
FEWER = ("project with fewer analyses", "projects with fewer analyses")
UNTRACKED = (
    f"analysis of projects beyond the first {format_count(MAX_TRACKED)}",
    f"analyses of projects beyond the first {format_count(MAX_TRACKED)}",
)


@dataclass(frozen=True)
class ProjectTrend:
    """One project's row: counts, its mean score, and its weekly means (oldest first)."""

    project_id: str | None  # None: analyses that name no project
    analyses: int
    failed: int
    scored: int
    avg_score: float | None  # rounded half up to one decimal, as the API's avg_score
    weeks: tuple[float | None, ...]  # TREND_WEEKS weekly means of scores 0–100; None: none
    change: float | None  # the last HALF weeks' mean minus the HALF before (None: a side empty)


@dataclass(frozen=True)
class ProjectTable:
    """The rows shown, the first week their sparklines start on, the one scale they share,
    and what was left out, in words ("" when nothing)."""

    rows: tuple[ProjectTrend, ...]
    first_week: date | None
    low: float
    high: float
    left_out: str

    def describe(self) -> str:
        """What the weeks and the change are, in words every output shares."""
        if self.first_week is None:
            return "No scores 0–100 to show a trend."
        return (
            f"Weeks: the mean score of each week from {day_month(self.first_week)}, on one scale"
            f" for every row ({format_span(self.low, self.high)}). Change: the last {HALF} weeks'"
            f" mean against the {HALF} before."
        )

    @property
    def gaps(self) -> bool:
        """Whether a row has a week without a score."""
        return any(mean is None for row in self.rows for mean in row.weeks)


class _Tally:
    __slots__ = ("analyses", "failed", "scored", "total", "weeks")

    def __init__(self) -> None:
        self.analyses = 0
        self.failed = 0
        self.scored = 0
        self.total = ExactSum()
        self.weeks: dict[int, list[float]] = {}  # week -> [count, sum], the newest only


class ProjectTally:
    """Running counts per project, fed one analysis at a time by the overview's builder."""

    def __init__(self) -> None:
        self._tallies: dict[str | None, _Tally] = {}
        self._untracked = 0

    def add(
        self,
        project_id: str | None,
        failed: bool,
        score: float | None,
        in_range: bool,
        created: datetime | None,
        /,
    ) -> None:
        """Count one analysis: `score` is its finite score (None: none), `in_range` whether
        it lies within 0–100 (only those enter the weekly means, as in the timeline)."""
        tally = self._tallies.get(project_id)
        if tally is None:
            if len(self._tallies) >= MAX_TRACKED:
                self._untracked += 1
                return
            tally = self._tallies[project_id] = _Tally()
        tally.analyses += 1
        tally.failed += failed
        if score is None:
            return
        tally.scored += 1
        tally.total.add(score)
        if not in_range or created is None:
            return
        week = (created.date() - EPOCH).days // 7
        weeks = tally.weeks
        bucket = weeks.get(week)
        if bucket is None:
            if len(weeks) >= TREND_WEEKS:
                oldest = min(weeks)
                if week < oldest:
                    return  # older than every week kept: outside any trend shown
                del weeks[oldest]
            bucket = weeks[week] = [0, 0.0]
        bucket[0] += 1
        bucket[1] += score

    def result(self, rows: int = PROJECT_ROWS) -> ProjectTable:
        """The `rows` projects with the most analyses (ties by id), their weeks aligned."""
        weeks = [week for tally in self._tallies.values() for week in tally.weeks]
        last = max(weeks, default=None)
        ranked = sorted(self._tallies.items(), key=lambda kv: (-kv[1].analyses, kv[0] or ""))
        shown = tuple(_trend(pid, tally, last) for pid, tally in ranked[:rows])
        means = [mean for row in shown for mean in row.weeks if mean is not None]
        low, high = _scale(means)
        first = None if last is None else bucket_start((last - TREND_WEEKS + 1) * 7)
        words = left_out([(len(ranked) - len(shown), FEWER), (self._untracked, UNTRACKED)])
        return ProjectTable(shown, first, low, high, words)


def _trend(project_id: str | None, tally: _Tally, last: int | None) -> ProjectTrend:
    span = [] if last is None else range(last - TREND_WEEKS + 1, last + 1)
    buckets = [tally.weeks.get(week) for week in span]
    means = tuple(b[1] / b[0] if b else None for b in buckets)
    return ProjectTrend(
        project_id,
        tally.analyses,
        tally.failed,
        tally.scored,
        tally.total.mean_to_tenth(tally.scored),
        means,
        _change(buckets[:HALF], buckets[HALF:]),
    )


def _change(before: list[list[float] | None], after: list[list[float] | None]) -> float | None:
    """The mean of the scores in `after` minus that of `before` (None when a side has none)."""

    def mean(buckets: list[list[float] | None]) -> float | None:
        count = sum(b[0] for b in buckets if b)
        return sum(b[1] for b in buckets if b) / count if count else None

    first, second = mean(before), mean(after)
    return None if first is None or second is None else second - first


def _scale(means: list[float]) -> tuple[float, float]:
    """The sparklines' one scale: the lowest to the highest weekly mean shown, widened to at
    least `MIN_SCALE` points about its middle (so a steady project's noise stays flat)."""
    if not means:
        return 0.0, 100.0
    low, high = min(means), max(means)
    if high - low < MIN_SCALE:
        middle = (low + high) / 2
        low, high = middle - MIN_SCALE / 2, middle + MIN_SCALE / 2
    return low, high
