"""What a gate measures over its scope, in one walk of the listing's pages.

`ScopeCollector` is a page sink for `insight.fill` (the client's one cursor walker): it
keeps the analyses in scope (label pattern, `since`, the N newest with `last`) in the
overview's running aggregates (`insight.OverviewBuilder`), the lowest few per criterion
for a failed assertion to name, and — for a baseline window — a second set of aggregates
from the same pages. Memory stays flat with the number of analyses (but for `last` N).
A named project whose listing is empty is looked up once, so a mistyped id is "not
found" rather than an empty scope.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.gate.scope import Scope, Window, created_of, newest_key
from screen_analysis.insight.aggregates import Overview, OverviewBuilder, finite_number
from screen_analysis.insight.collect import fill
from screen_analysis.insight.top_k import TopN

LOWEST_SHOWN = 3  # analyses named under a failed assertion, in every output alike


class Offender(NamedTuple):
    """An analysis a failed assertion points at: its label, id and the value that counted
    (or, for a failure, its error message as `note`)."""

    id: str
    label: str
    value: float | None = None
    note: str = ""


@dataclass(frozen=True)
class Scores:
    """The figures a gate compares, and what a baseline keeps of an earlier run."""

    analyses: int
    completed: int
    failed: int
    pending: int
    processing: int
    mean_score: float | None
    criteria: Mapping[str, float | None]

    @property
    def finished(self) -> int:
        """Completed and failed analyses."""
        return self.completed + self.failed

    @property
    def failed_share(self) -> float | None:
        """Failed analyses as a percentage of the finished ones (None when none finished)."""
        return self.failed / self.finished * 100 if self.finished else None


@dataclass(frozen=True)
class Measured:
    """The scope's scores, the analyses worth naming, and the baseline window's scores."""

    scores: Scores
    worst_overall: tuple[Offender, ...]
    worst_by_criterion: Mapping[str, tuple[Offender, ...]]
    failures: tuple[Offender, ...]
    received: int  # items the walk read, in scope or not
    invalid: int  # items that were not valid analyses
    window: Scores | None = None  # the baseline window's, when one was asked for
    left_out: tuple[str, ...] = ()  # what the means left out, in words (`numbers.left_out`)


def scores_of(overview: Overview) -> Scores:
    """An overview's figures as a gate compares them (means unrounded)."""
    counts = dict(overview.status_counts)
    return Scores(
        analyses=overview.seen,
        completed=counts.get(AnalysisStatus.COMPLETED.value, 0),
        failed=counts.get(AnalysisStatus.FAILED.value, 0),
        pending=counts.get(AnalysisStatus.PENDING.value, 0),
        processing=counts.get(AnalysisStatus.PROCESSING.value, 0),
        mean_score=overview.mean_score,
        criteria={mean.criterion.value: mean.mean for mean in overview.criteria},
    )


def _lowest(value: float | None) -> float:
    return -value if value is not None else -math.inf


class ScopeCollector:
    """A page sink that measures the scope (and a baseline window) as pages arrive."""

    def __init__(self, scope: Scope, window: Window | None = None) -> None:
        self.scope = scope
        self.window = window or Window()
        self._in_time = scope.window
        self.received = 0
        self.invalid = 0
        self._current = OverviewBuilder(failures_shown=LOWEST_SHOWN)
        self._baseline = OverviewBuilder() if window is not None else None
        self._newest: TopN[Analysis] | None = None
        if scope.last is not None:
            self._newest = TopN(scope.last, newest_key)
        self._worst = {c.value: TopN[Offender](LOWEST_SHOWN, _offender_key) for c in CRITERIA}

    def add_page(self, items: Iterable[AnalysisItem], total: int | None = None) -> None:
        """Take in one page of the listing."""
        for item in items:
            self.received += 1
            if not isinstance(item, Analysis):
                self.invalid += 1
                continue
            if not self.scope.matches_but_time(item):
                continue
            created = created_of(item)
            if self._baseline is not None and self.window.contains(created):
                self._baseline.add(item)
            if not self._in_time.contains(created):
                continue
            if self._newest is not None:
                self._newest.add(item)
            else:
                self._take(item)

    def _take(self, item: Analysis) -> None:
        self._current.add(item)
        if item.known_status is not AnalysisStatus.COMPLETED or not item.breakdown:
            return
        for criterion, worst in self._worst.items():
            value = finite_number(item.breakdown.get(criterion))
            if value is not None and worst.wants(-value):
                worst.add(Offender(item.id, item.label or "", value))

    def result(self) -> Measured:
        """The measures of everything taken in."""
        if self._newest is not None:
            newest, self._newest = self._newest.items(), None
            for item in reversed(newest):  # oldest first, as a listing would bring them
                self._take(item)
        overview = self._current.result()
        window = self._baseline.result() if self._baseline is not None else None
        left_out = [
            f"{words} of the means"
            for words in (overview.mean_left_out(), overview.criteria_left_out())
            if words
        ]
        if window is not None and (words := window.mean_left_out()):
            left_out.append(f"{words} of the baseline window's means")
        return Measured(
            scores=scores_of(overview),
            worst_overall=tuple(
                Offender(ref.id, ref.label, ref.score) for ref in overview.worst[:LOWEST_SHOWN]
            ),
            worst_by_criterion={c: tuple(top.items()) for c, top in self._worst.items()},
            failures=tuple(
                Offender(ref.id, ref.label, None, ref.error_message or "")
                for ref in overview.failures
            ),
            received=self.received,
            invalid=self.invalid,
            window=scores_of(window) if window is not None else None,
            left_out=tuple(left_out),
        )


OnPage = Callable[[ScopeCollector, int | None], None]
"""Progress after each page: the collector (`received` so far) and the listing's total."""


def _offender_key(offender: Offender) -> float:
    return _lowest(offender.value)


async def measure(
    client: ScreenAnalysisClient,
    scope: Scope,
    window: Window | None = None,
    *,
    on_page: OnPage | None = None,
) -> Measured:
    """Walk the scope's listing once (the project's, or every project's) and measure it.

    A listing filtered by a project id the server does not know may come back empty
    rather than refused, which would judge an empty scope; so when the walk of a named
    project received nothing, the project is asked for (one request, only then): an
    unknown id raises the client's NotFoundError, as `projects get` does.
    """
    collector = ScopeCollector(scope, window)
    status = scope.status.value if scope.status is not None else None
    await fill(client, collector, project_id=scope.project_id, status=status, on_page=on_page)
    if scope.project_id is not None and collector.received == 0:
        await client.get_project(scope.project_id)
    return collector.result()
