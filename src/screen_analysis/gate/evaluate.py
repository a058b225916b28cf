"""Assertions against what was measured: one verdict each, with the value, the threshold,
why it failed in words, and the analyses worth looking at."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from screen_analysis.gate.measure import Measured, Offender, Scores
from screen_analysis.gate.spec import Assertion, GateSpec, Kind
from screen_analysis.numbers import format_count

MINUS = "−"  # U+2212, as the app writes a negative difference


def format_number(value: float, threshold: float | None = None) -> str:
    """One decimal (none for a whole number), more when one decimal would make a value look
    equal to a threshold it is not (69.96 against 70 reads "69.96", not "70.0")."""
    if value == int(value) and abs(value) < 1e15:
        text = f"{format_count(int(value))}"
    else:
        text = f"{value:.1f}"
        for places in (2, 3):
            if threshold is None or value == threshold or float(text) != threshold:
                break
            text = f"{value:.{places}f}"
    return text.replace("-", MINUS)


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
        """The value as outputs show it ("—" when there is none)."""
        if self.value is None:
            return "—"
        return format_number(self.value, self.assertion.threshold) + self.unit

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


def _holds(assertion: Assertion, value: float) -> bool:
    if assertion.at_least:
        return value >= assertion.threshold
    return value <= assertion.threshold


def _judge(assertion: Assertion, measured: Measured, baseline: Scores | None) -> Verdict:
    scores = measured.scores
    title = _title(assertion)
    threshold = format_number(assertion.threshold)
    criterion = assertion.criterion.value if assertion.criterion else None
    current = scores.criteria.get(criterion) if criterion else scores.mean_score
    worst = measured.worst_by_criterion.get(criterion, ()) if criterion else measured.worst_overall
    kind = assertion.kind
    value: float | None
    context = ""
    if kind is Kind.MIN_COUNT:
        value, worst = scores.completed, ()
        detail = f"{format_count(scores.completed)} completed, at least {threshold} wanted"
    elif kind is Kind.MAX_FAILED:
        value, worst = scores.failed_share or 0.0, measured.failures
        context = f"{format_count(scores.failed)} of {format_count(scores.finished)} finished"
        detail = f"{context} analyses failed"
    elif kind is Kind.MAX_DROP:
        before = None
        if baseline is not None:
            before = baseline.criteria.get(criterion) if criterion else baseline.mean_score
        value = None if before is None or current is None else before - current
        if before is None or current is None:
            missing = "the baseline" if before is None else "the scope"
            detail = f"{missing} has no {criterion or 'overall score'} to compare"
        else:
            detail = f"{format_number(before)} in the baseline, {format_number(current)} now"
            context = f"{format_number(before)} → {format_number(current)}"
    else:
        value = current
        what = f"a {criterion} score" if criterion else "a score"
        detail = (
            f"mean of {format_count(scores.completed)} completed analyses"
            if value is not None
            else f"no completed analysis in scope has {what}"
        )
        context = f"{format_count(scores.completed)} completed"
    if value is None:
        return Verdict(assertion, title, None, False, detail, worst, context)
    passed = _holds(assertion, value)
    if not passed and kind in (Kind.MIN_SCORE, Kind.MIN):
        shown = format_number(value, assertion.threshold)
        detail = f"{title} {shown} is under {threshold}; " + detail
    return Verdict(assertion, title, value, passed, detail, () if passed else worst, context)


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
