"""The report's summary cards: a few numbers a reader understands at a glance, each with a
line saying what it is. The HTML page and the Markdown share them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from screen_analysis.insight.aggregates import Overview
from screen_analysis.numbers import (
    DASH,
    count_of,
    format_count,
    format_mean,
    format_percent,
    format_weights,
)


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
    point, partial = scored[-1]
    so_far = f", {timeline.unit} not over" if partial else ""
    when = (
        f"on {point.start:%d %b}"
        if timeline.days == 1
        else f"{timeline.unit} of {point.start:%d %b}"
    )
    return Card(
        format_mean(point.mean),
        f"mean score, {when} ({count_of(point.count, 'score')}{so_far})",
    )


def summary_cards(overview: Overview, now: datetime) -> tuple[Card, ...]:
    """Analyses, average score, failures, the weakest criterion, the latest day or week;
    without a completed analysis, one card says so in place of the four about scores."""
    failed = _failed(overview)
    failures = Card(format_count(failed), f"failed ({format_percent(failed, overview.seen)})")
    if not overview.scored:
        return (
            Card(format_count(overview.seen), "analyses"),
            failures,
            Card("No scores", "no completed analyses in this view", words=True),
        )
    return (
        Card(format_count(overview.seen), "analyses"),
        Card(
            format_mean(overview.avg_score),
            f"average score ({format_count(overview.scored)} scored)",
        ),
        failures,
        _weakest(overview),
        _latest(overview, now),
    )
