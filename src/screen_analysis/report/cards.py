"""The report's summary cards: a few numbers a reader understands at a glance, each with a
line saying what it is. The HTML page and the Markdown share them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from screen_analysis.insight.aggregates import Overview
from screen_analysis.numbers import (
    DASH,
    count_of,
    format_count,
    format_mean,
    format_percent,
    format_weights,
)
from screen_analysis.words import day_month


@dataclass(frozen=True)
class Card:
    """One card: the value, what it is, and whether the value is words (set smaller)."""

    value: str
    label: str
    words: bool = False


def _failed(overview: Overview) -> int:
    return sum(n for name, n in overview.status_counts if name == "failed")


def _weakest(overview: Overview) -> Card:
    weakest = overview.weakest
    if weakest is None:
        return Card(DASH, "weakest criterion: no criterion scores in this view")
    weight = ""
    if weakest.weight is not None:
        weights = format_weights(item.weight for item in overview.criteria)
        weight = f", weight {weights[overview.criteria.index(weakest)]}"
    return Card(
        weakest.criterion.title,
        f"weakest criterion (mean {format_mean(weakest.mean)}{weight})",
        words=True,
    )


def _latest(overview: Overview, now: datetime) -> Card:
    """The mean of the last day or week the data covers whole ("week of 19 Oct"); a later
    one not over yet (a few scores so far) is named beside it, not taken as the headline."""
    timeline = overview.timeline
    scored = [
        (point, partial)
        for point, partial in zip(
            timeline.points, timeline.partial(overview.first_at, now), strict=True
        )
        if point.mean is not None
    ]
    if not scored:
        return Card(DASH, f"mean score of the latest {timeline.unit}: no scores")
    whole = [point for point, partial in scored if not partial]
    last, last_partial = scored[-1]
    if not whole:  # only partial ones: the latest, said to be partial
        so_far = f", {timeline.unit} not over" if last_partial else ""
        return Card(
            format_mean(last.mean),
            f"mean score, {_when(timeline.days, timeline.unit, last.start)}"
            f" ({count_of(last.count, 'score')}{so_far})",
        )
    point = whole[-1]
    label = (
        f"mean score, {_when(timeline.days, timeline.unit, point.start)}"
        f" ({count_of(point.count, 'score')})"
    )
    if last_partial and last.start > point.start:
        label += (
            f"; {_when(timeline.days, timeline.unit, last.start)} so far:"
            f" {format_mean(last.mean)} ({count_of(last.count, 'score')}, not over)"
        )
    return Card(format_mean(point.mean), label)


def _when(days: int, unit: str, start: date) -> str:
    """ "on 03 Nov" for a day, "week of 02 Nov" for a week."""
    return f"on {day_month(start)}" if days == 1 else f"{unit} of {day_month(start)}"


def summary_cards(overview: Overview, now: datetime) -> tuple[Card, ...]:
    """Analyses, average score, failures, the weakest criterion, the last whole day or week;
    without a completed analysis, one card says so in place of the four about scores."""
    failed = _failed(overview)
    failures = Card(format_count(failed), f"failed ({format_percent(failed, overview.seen)})")
    left_out = overview.mean_left_out()
    if not overview.scored:
        why = left_out or "no completed analyses in this view"
        return (
            Card(format_count(overview.seen), "analyses"),
            failures,
            Card("No scores", why, words=True),
        )
    return (
        Card(format_count(overview.seen), "analyses"),
        Card(
            format_mean(overview.avg_score),
            f"average score ({format_count(overview.scored)} scored"
            + (f"; {left_out}" if left_out else "")
            + ")",
        ),
        failures,
        _weakest(overview),
        _latest(overview, now),
    )
