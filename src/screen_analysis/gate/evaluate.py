"""Assertions against what was measured: one verdict each, with the value, the threshold,
why it failed in one sentence, and the analyses worth looking at.

Comparisons are made at the precision the outputs show: a mean, a share and a drop are
rounded half up to one decimal (as the API rounds `avg_score`, exactly, whatever their size)
and compared as decimals with the threshold as it was given. So what a table shows is what
was judged — "59.7 ≥ 60" never passes, "70.0 ≥ 70" always does — and a scope compared with
the baseline it just wrote has a drop of exactly 0 (its means are exact sums, the same in any
order). A negative drop is a rise and reads so ("rose 6.6 pts").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from screen_analysis.gate.measure import LOWEST_SHOWN, Measured, Offender, Scores
from screen_analysis.gate.spec import Assertion, GateSpec, Kind
from screen_analysis.insight.exact import to_tenth
from screen_analysis.numbers import count_of, format_count, format_number, format_tenths


def compared(value: float) -> Decimal:
    """`value` at the precision it is shown and judged: rounded half up to one decimal."""
    return to_tenth(value)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one assertion."""

    assertion: Assertion
    title: str  # "mean score", "mean cta_effectiveness", "failed share", …
    value: float | None  # None: nothing to measure (which fails)
    passed: bool
    detail: str  # one sentence: why it failed, or the figures behind a pass
    worst: tuple[Offender, ...] = ()  # analyses to look at when it failed
    context: str = ""  # the figures behind the value, short: "70.0 → 59.7", "8 of 130"

    @property
    def unit(self) -> str:
        """ "%" for a share, " pts" for a drop, "" otherwise."""
        if self.assertion.kind is Kind.MAX_FAILED:
            return "%"
        return " pts" if self.assertion.kind is Kind.MAX_DROP else ""

    @property
    def shown_value(self) -> str:
        """The value as outputs show it, at the precision it was judged: "59.7", "7.0%",
        "53", "6.6 pts", "rose 6.6 pts" ("—" when there is none)."""
        if self.value is None:
            return "—"
        if self.assertion.kind is Kind.MIN_COUNT:
            return format_count(int(self.value))
        value = compared(self.value)
        if value < 0 and self.assertion.kind is Kind.MAX_DROP:
            return f"rose {format_tenths(-value)}{self.unit}"
        return format_tenths(value) + self.unit

    @property
    def shown_threshold(self) -> str:
        """ "≥ 70", "≤ 10%", "≤ 5 pts"."""
        sign = "≥" if self.assertion.at_least else "≤"
        return f"{sign} {format_number(self.assertion.threshold)}{self.unit}"


@dataclass(frozen=True)
class GateResult:
    """Every verdict of one run, with what they were measured on."""

    spec: GateSpec
    measured: Measured
    verdicts: tuple[Verdict, ...]
    generated_at: datetime
    name: str | None = None
    baseline: Scores | None = None
    baseline_source: str | None = None  # "baseline.json" or "the window since …"
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        """Whether every assertion holds."""
        return all(verdict.passed for verdict in self.verdicts)

    @property
    def failures(self) -> list[Verdict]:
        """The assertions that failed."""
        return [verdict for verdict in self.verdicts if not verdict.passed]


def _title(assertion: Assertion) -> str:
    subject = assertion.criterion.value if assertion.criterion else "score"
    return {
        Kind.MIN_SCORE: "mean score",
        Kind.MIN: f"mean {subject}",
        Kind.MAX_FAILED: "failed share",
        Kind.MIN_COUNT: "completed analyses",
        Kind.MAX_DROP: f"drop in mean {subject}",
    }[assertion.kind]


def _completed(count: int) -> str:
    return count_of(count, "completed analysis", "completed analyses")


def _judge(assertion: Assertion, measured: Measured, baseline: Scores | None) -> Verdict:
    """One verdict: the value at the precision shown, compared with the threshold as given,
    and one sentence that says it once."""
    scores = measured.scores
    title = _title(assertion)
    limit = Decimal(repr(float(assertion.threshold)))
    threshold = format_number(assertion.threshold)
    criterion = assertion.criterion.value if assertion.criterion else None
    current = scores.criteria.get(criterion) if criterion else scores.mean_score
    worst = measured.worst_by_criterion.get(criterion, ()) if criterion else measured.worst_overall
    worst = worst[:LOWEST_SHOWN]
    kind = assertion.kind
    if kind is Kind.MIN_COUNT:
        count = scores.completed
        detail = f"{_completed(count)}, at least {threshold} wanted"
        return Verdict(assertion, title, count, count >= limit, detail)
    if kind is Kind.MAX_FAILED:
        share = compared(scores.failed_share or 0.0)
        passed = share <= limit
        context = f"{format_count(scores.failed)} of {format_count(scores.finished)} finished"
        detail = f"{context} analyses failed"
        if not passed:
            detail = f"{title} {format_tenths(share)}% is over {threshold}% ({detail})"
        worst = () if passed else measured.failures[:LOWEST_SHOWN]
        return Verdict(assertion, title, float(share), passed, detail, worst, context)
    if kind is Kind.MAX_DROP:
        return _drop(assertion, title, current, baseline, worst, threshold, limit)
    if current is None:
        what = f"a {criterion} score" if criterion else "a score"
        detail = f"no completed analysis in scope has {what}"
        return Verdict(assertion, title, None, False, detail, worst)
    mean = compared(current)
    passed = mean >= limit
    context = f"{format_count(scores.completed)} completed"
    detail = f"mean of {_completed(scores.completed)}"
    if not passed:
        detail = (
            f"{title} {format_tenths(mean)} is under {threshold} ({_completed(scores.completed)})"
        )
    return Verdict(assertion, title, float(mean), passed, detail, () if passed else worst, context)


def _drop(
    assertion: Assertion,
    title: str,
    current: float | None,
    baseline: Scores | None,
    worst: tuple[Offender, ...],
    threshold: str,
    limit: Decimal,
) -> Verdict:
    """How many points the mean lost against the baseline (a negative drop is a rise)."""
    criterion = assertion.criterion.value if assertion.criterion else None
    before = None
    if baseline is not None:
        before = baseline.criteria.get(criterion) if criterion else baseline.mean_score
    if before is None or current is None:
        missing = "the baseline" if before is None else "the scope"
        detail = f"{missing} has no {criterion or 'overall score'} to compare"
        return Verdict(assertion, title, None, False, detail, worst)
    then, now = compared(before), compared(current)
    drop = then - now
    passed = drop <= limit
    context = f"{format_tenths(then)} → {format_tenths(now)}"
    subject = f"mean {criterion or 'score'}"
    if drop > 0:
        within = "within" if passed else "more than"
        detail = (
            f"{subject} dropped {format_tenths(drop)} pts ({context}), {within} {threshold} pts"
        )
    elif drop < 0:
        detail = f"{subject} rose {format_tenths(-drop)} pts ({context})"
    else:
        detail = f"{subject} unchanged ({context})"
    return Verdict(assertion, title, float(drop), passed, detail, () if passed else worst, context)


def evaluate(
    spec: GateSpec,
    measured: Measured,
    *,
    generated_at: datetime,
    name: str | None = None,
    baseline: Scores | None = None,
    baseline_source: str | None = None,
) -> GateResult:
    """Judge every assertion of `spec` against `measured` (and the baseline's scores)."""
    if baseline is None and measured.window is not None:
        baseline = measured.window
    verdicts = tuple(_judge(a, measured, baseline) for a in spec.assertions)
    notes = []
    in_flight = measured.scores.pending + measured.scores.processing
    if in_flight:
        why = "arrived after the wait began" if spec.wait else "--wait waits for them"
        notes.append(
            f"{format_count(in_flight)} in scope not scored yet (pending or processing); {why}"
        )
    if measured.invalid:
        notes.append(f"{format_count(measured.invalid)} invalid items in the listing left out")
    notes += measured.left_out
    return GateResult(
        spec,
        measured,
        verdicts,
        generated_at,
        name=name,
        baseline=baseline,
        baseline_source=baseline_source,
        notes=tuple(notes),
    )
