"""Running aggregates over a stream of analyses: what a project overview shows.

`OverviewBuilder.add_page` takes one page at a time and keeps only sums, counts and bounded
summaries, so its memory is the same after a hundred analyses or a million. `result()` is
an immutable `Overview` that can be taken at any point (a cancelled walk still shows what
it saw). Server text is kept as received; every output escapes it at its own edge.

The API leaves the bounds of scores open, so nothing is assumed and nothing vanishes: sums
are exact (`ExactSum`), so a mean is right whatever the scores' size and order; a score
outside 0–100 counts in the means but not in the charts drawn on a 0–100 scale (the
histogram, the score over time, the projects' weekly trends); a score that cannot be added
up (infinite, NaN, or an integer beyond a float's ±1.8e308) or a completed analysis without
a score counts in neither. Each view says what it left out in the one wording of
`numbers.left_out` (`Overview.chart_left_out`, `Overview.mean_left_out`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from screen_analysis.api.models import (
    CRITERIA,
    STATUSES,
    Analysis,
    AnalysisItem,
    AnalysisStatus,
    Criterion,
    Project,
)
from screen_analysis.browse.scope import Filter
from screen_analysis.insight.exact import ExactSum
from screen_analysis.insight.projects import ProjectTable, ProjectTally
from screen_analysis.insight.timeline import Timeline, TimelineBuilder
from screen_analysis.insight.top_k import SpaceSaving, TopN
from screen_analysis.numbers import Reason, left_out

HISTOGRAM_BINS = 10  # 0–9, 10–19, … 90–100
LOW, HIGH = 0, 100  # the scale the charts draw scores on (the API documents no bounds)
OUTSIDE: Reason = ("score outside 0–100", "scores outside 0–100")
# Infinite, NaN, or an integer no float holds: a number that cannot be added up.
NOT_FINITE: Reason = (
    "score beyond ±1.8e308 or not a number",
    "scores beyond ±1.8e308 or not numbers",
)
NO_SCORE: Reason = ("completed analysis without a score", "completed analyses without a score")
CRITERION_NOT_FINITE: Reason = (
    "criterion score beyond ±1.8e308 or not a number",
    "criterion scores beyond ±1.8e308 or not numbers",
)
MAX_OTHER_STATUSES = 8
FEEDBACK_CAPACITY = 256
FEEDBACK_SHOWN = 8
SCREENS_SHOWN = 10
SENTENCE_MAX = 300
PLATFORM_DEFAULTS = "platform defaults"
# What each source of weights means, in words a reader knows (not the API's field names).
WEIGHTS_NOTES = {
    "project weights": "Weights: set by the project.",
    PLATFORM_DEFAULTS: "Weights: platform defaults (the project sets none).",
    "weights per project": "Weights differ by project.",
}


def weights_note(source: str) -> str:
    """Where an overview's weights come from (its `weights_source`), in a sentence."""
    return WEIGHTS_NOTES.get(source, WEIGHTS_NOTES["weights per project"])


@dataclass(frozen=True)
class ScreenRef:
    """What an overview keeps of one analysis: enough to list it and find it again."""

    id: str
    project_id: str | None
    label: str
    status: str
    score: float | None
    created_at: datetime | None
    image_url: str | None
    error_message: str | None


@dataclass(frozen=True)
class CriterionMean:
    """One criterion's mean score and the weight the scope gives it."""

    criterion: Criterion
    mean: float | None
    count: int
    weight: float | None  # None: platform defaults, or weights differ across projects


@dataclass(frozen=True)
class Overview:
    """Everything the overview screen and the report show, for one scope."""

    scope: str  # the project's name, or "All projects"
    project_id: str | None
    weights_source: str  # "project weights", "platform defaults" or "weights per project"
    seen: int  # analyses taken in
    expected: int | None  # the listing's `total`, when the server sent one
    status_counts: tuple[tuple[str, int], ...]
    scored: int  # completed analyses with a finite score (the mean's count)
    avg_score: float | None  # rounded half up to one decimal, as the API's avg_score
    histogram: tuple[int, ...]
    out_of_range: int  # scored, but outside 0–100: in the means, not in the charts
    timeline: Timeline
    criteria: tuple[CriterionMean, ...]
    weakest: CriterionMean | None
    feedback: tuple[tuple[str, int], ...]
    failures: tuple[ScreenRef, ...]
    best: tuple[ScreenRef, ...]
    worst: tuple[ScreenRef, ...]
    first_at: datetime | None
    last_at: datetime | None
    invalid: int
    complete: bool
    mean_score: float | None = None  # avg_score unrounded, for comparisons with a threshold
    not_finite: int = 0  # completed with a score that cannot be added up: left out
    no_score: int = 0  # completed without a score: left out
    criteria_not_finite: int = 0  # criterion scores that cannot be added up: left out
    projects: ProjectTable | None = None  # per project, for an overview of all projects

    def mean_left_out(self) -> str:
        """What the mean score leaves out, in words ("" when nothing)."""
        return left_out([(self.not_finite, NOT_FINITE), (self.no_score, NO_SCORE)])

    def chart_left_out(self) -> str:
        """What a chart of scores on 0–100 leaves out, in words ("" when nothing)."""
        return left_out(
            [(self.out_of_range, OUTSIDE), (self.not_finite, NOT_FINITE), (self.no_score, NO_SCORE)]
        )

    def criteria_left_out(self) -> str:
        """What the criteria's means leave out, in words ("" when nothing)."""
        return left_out([(self.criteria_not_finite, CRITERION_NOT_FINITE)])


_SMALL = 10**15
_COMPLETED = AnalysisStatus.COMPLETED
_FAILED = AnalysisStatus.FAILED
_NORMALISED_MAX = 4096  # cached whitespace-folded feedback sentences


def finite_number(value: object) -> float | None:
    """A finite number, or None (booleans, NaN, infinities and integers beyond a float are
    not scores that can be added up). An integer stays an integer, so sums of them are
    exact."""
    if type(value) is int and -_SMALL < value < _SMALL:
        return value  # the usual case, first: this runs five times per analysis
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    if not math.isfinite(number):
        return None
    return value if isinstance(value, int) else number


def _ref(item: Analysis, score: float | None) -> ScreenRef:
    status = item.status
    return ScreenRef(
        id=item.id,
        project_id=item.project_id,
        label=item.label or "",
        status=status.value if isinstance(status, AnalysisStatus) else str(status or ""),
        score=score,
        created_at=item.created_at,
        image_url=item.image_url,
        error_message=item.error_message,
    )


def _timestamp(ref: ScreenRef) -> float:
    when = ref.created_at
    if when is None:
        return -math.inf
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


class OverviewBuilder:
    """Takes analyses page by page and keeps running aggregates for an `Overview`."""

    def __init__(
        self,
        project: Project | None = None,
        *,
        since: datetime | None = None,
        failures_shown: int = SCREENS_SHOWN,
        by_project: bool = False,
        where: Filter | None = None,
    ) -> None:
        """Aggregates of `project`'s analyses (None: of all), from `since` on, those `where`
        matches (a scope: the first `last` of them in the listing's order); `by_project`: a
        row per project with its weekly trend too (for an overview of all projects)."""
        self.project = project
        self.since = since
        self.where = where
        self._left = where.last if where is not None else None
        self.received = 0  # items taken from pages, before the `since` filter
        self.seen = 0
        self.invalid = 0
        self.expected: int | None = None
        self._statuses: dict[str, int] = {status.value: 0 for status in STATUSES}
        self._scored = 0
        self._score_sum = ExactSum()
        self._histogram = [0] * HISTOGRAM_BINS
        self._out_of_range = 0
        self._not_finite = 0
        self._no_score = 0
        self._timeline = TimelineBuilder()
        self._criteria: dict[str, tuple[list[int], ExactSum]] = {
            c.value: ([0, 0], ExactSum()) for c in CRITERIA
        }
        self._projects = ProjectTally() if by_project else None
        self._feedback = SpaceSaving(FEEDBACK_CAPACITY)
        self._failures: TopN[ScreenRef] = TopN(failures_shown, _timestamp)
        self._best: TopN[ScreenRef] = TopN(SCREENS_SHOWN, lambda r: r.score or 0.0)
        self._worst: TopN[ScreenRef] = TopN(SCREENS_SHOWN, lambda r: -(r.score or 0.0))
        self._first: datetime | None = None
        self._last: datetime | None = None
        self._normalised: dict[str, str] = {}

    def add_page(self, items: Iterable[AnalysisItem], total: int | None = None) -> None:
        """Take in one page; `total` is the listing's total as the server sent it."""
        if total is not None:
            self.expected = total
        where = self.where
        for item in items:
            self.received += 1
            if where is not None and not where.matches(item):
                continue
            if self._left is not None:
                if self._left <= 0:
                    continue
                self._left -= 1
            if isinstance(item, Analysis):
                self.add(item)
            else:
                self.invalid += 1

    def add(self, item: Analysis) -> None:
        """Take in one analysis (left out when older than `since`)."""
        created = item.created_at
        if created is not None and created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        if self.since is not None and (created is None or created < self.since):
            return
        self.seen += 1
        if created is not None:
            if self._first is None or created < self._first:
                self._first = created
            if self._last is None or created > self._last:
                self._last = created
        status = item.status
        key = status.value if isinstance(status, AnalysisStatus) else str(status or "—")[:40]
        statuses = self._statuses
        if key in statuses:
            statuses[key] += 1
        elif len(statuses) < len(STATUSES) + MAX_OTHER_STATUSES:
            statuses[key] = 1
        else:
            statuses["other"] = statuses.get("other", 0) + 1
        score, in_range = None, False
        if status is _COMPLETED:
            score, in_range = self._completed(item, created)
        elif status is _FAILED:
            when = -math.inf if created is None else created.timestamp()
            if self._failures.wants(when):
                self._failures.add(_ref(item, None))
        if self._projects is not None:
            self._projects.add(item.project_id, status is _FAILED, score, in_range, created)

    def _completed(self, item: Analysis, created: datetime | None) -> tuple[float | None, bool]:
        """Count a completed analysis; its finite score (None: none) and whether it lies
        within 0–100."""
        score = finite_number(item.score)
        in_range = False
        if score is None:
            if item.score is None:
                self._no_score += 1
            else:
                self._not_finite += 1
        else:
            self._scored += 1
            self._score_sum.add(score)
            in_range = LOW <= score <= HIGH
            if in_range:
                self._histogram[min(int(score // 10), HISTOGRAM_BINS - 1)] += 1
                if created is not None:
                    self._timeline.add(created.date(), score)
            else:
                self._out_of_range += 1
            # A reference is built only for the few analyses that enter a top list.
            if self._best.wants(score) or self._worst.wants(-score):
                ref = _ref(item, score)
                self._best.add(ref)
                self._worst.add(ref)
        breakdown = item.breakdown
        if breakdown:
            for criterion, (counts, total) in self._criteria.items():
                value = breakdown.get(criterion)
                number = finite_number(value)
                if number is not None:
                    counts[0] += 1
                    total.add(number)
                elif value is not None:
                    counts[1] += 1
        normalised = self._normalised
        for sentence in item.feedback or ():
            text = normalised.get(sentence)
            if text is None:
                text = " ".join(sentence.split())[:SENTENCE_MAX]
                if len(normalised) < _NORMALISED_MAX:
                    normalised[sentence] = text
            if text:
                self._feedback.add(text)
        return score, in_range

    def weights(self) -> tuple[str, Mapping[str, float | None]]:
        """Where the weights come from, and the weights (empty when none apply)."""
        if self.project is None:
            return "weights per project", {}
        if self.project.default_criteria is None:
            return PLATFORM_DEFAULTS, {}
        return "project weights", dict(self.project.default_criteria)

    def result(self, *, complete: bool = True) -> Overview:
        """The aggregates so far."""
        source, weights = self.weights()
        criteria = tuple(
            CriterionMean(
                criterion,
                total.mean(counts[0]),
                counts[0],
                finite_number(weights.get(criterion.value)),
            )
            for criterion in CRITERIA
            for counts, total in (self._criteria[criterion.value],)
        )
        measured = [c for c in criteria if c.mean is not None]
        weakest = min(measured, key=lambda c: c.mean or 0.0) if measured else None
        known = {status.value for status in STATUSES}
        statuses = tuple((name, n) for name, n in self._statuses.items() if n or name in known)
        return Overview(
            scope=self.project.name if self.project is not None else "All projects",
            project_id=self.project.id if self.project is not None else None,
            weights_source=source,
            seen=self.seen,
            expected=self.expected,
            status_counts=statuses,
            scored=self._scored,
            avg_score=self._score_sum.mean_to_tenth(self._scored),
            histogram=tuple(self._histogram),
            out_of_range=self._out_of_range,
            timeline=self._timeline.result(),
            criteria=criteria,
            weakest=weakest,
            feedback=tuple(self._feedback.top(FEEDBACK_SHOWN)),
            failures=tuple(self._failures.items()),
            best=tuple(self._best.items()),
            worst=tuple(self._worst.items()),
            first_at=self._first,
            last_at=self._last,
            invalid=self.invalid,
            complete=complete,
            mean_score=self._score_sum.mean(self._scored),
            not_finite=self._not_finite,
            no_score=self._no_score,
            criteria_not_finite=sum(counts[1] for counts, _ in self._criteria.values()),
            projects=self._projects.result() if self._projects is not None else None,
        )
