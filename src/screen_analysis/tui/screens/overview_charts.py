"""What the overview screen draws, derived from an `Overview`: rows of bars, columns, and
the lines of text around them. Server text is cleaned here and shown literally."""

from __future__ import annotations

import math
from datetime import datetime

from textual.content import Content

from screen_analysis.insight.aggregates import HISTOGRAM_BINS, Overview
from screen_analysis.numbers import DASH, format_count, format_mean, format_weights
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import local_time
from screen_analysis.tui.widgets.bar_rows import BarHeading, BarRow
from screen_analysis.tui.widgets.column_chart import ColumnData
from screen_analysis.tui.widgets.score_bar import score_tier

_STATUS_TONES = {"pending", "processing", "completed", "failed"}


def progress_text(received: int, total: int | None) -> str:
    """ "12,400 of 48,210 analyses read"."""
    of = f" of {format_count(total)}" if total is not None else ""
    return f"{format_count(received)}{of} analyses read"


def summary(overview: Overview) -> Content:
    """One or two lines: scope, counts, average, weakest criterion, where weights come from."""
    average = format_mean(overview.avg_score)
    weakest = overview.weakest
    weak = f"{weakest.criterion.title} ({format_mean(weakest.mean)})" if weakest else DASH
    span = ""
    if overview.first_at and overview.last_at:
        span = f" · {overview.first_at:%Y-%m-%d} to {overview.last_at:%Y-%m-%d}"
    state = "" if overview.complete else " · stopped early (r loads again)"
    return Content.assemble(
        (clean(overview.scope), "bold"),
        f" · {format_count(overview.seen)} analyses · average {average}"
        f" ({format_count(overview.scored)} scored)"
        f" · weakest: {weak} · {overview.weights_source}{span}{state}",
    )


def status_rows(overview: Overview) -> tuple[BarRow, ...]:
    """One bar per status, scaled to the largest count."""
    largest = max((n for _, n in overview.status_counts), default=0)
    return tuple(
        BarRow(clean(name), n, largest or 1, format_count(n), name if name in _STATUS_TONES else "")
        for name, n in overview.status_counts
    )


def criteria_rows(overview: Overview) -> tuple[BarRow, ...]:
    """Each criterion's mean out of 100, and its weight in a column of its own."""
    weakest = overview.weakest.criterion if overview.weakest else None
    has_weights = any(item.weight is not None for item in overview.criteria)
    weights = format_weights(item.weight for item in overview.criteria)
    rows = []
    for item, weight in zip(overview.criteria, weights, strict=True):
        tone = "weak" if item.criterion is weakest else score_tier(item.mean).lstrip("-")
        tone = {"high": "good", "mid": "fair", "low": "poor"}.get(tone, tone)
        label = item.criterion.title + (" ◀" if item.criterion is weakest else "")
        extra = weight if has_weights else ""
        rows.append(BarRow(label, item.mean, 100.0, format_mean(item.mean), tone, extra))
    return tuple(rows)


def criteria_heading(overview: Overview) -> BarHeading:
    """The names of the criteria's columns (the weight's only when there are weights)."""
    has_weights = any(item.weight is not None for item in overview.criteria)
    return BarHeading("mean score, 0–100", "mean", "weight" if has_weights else "")


def weights_note(overview: Overview) -> str:
    """Where the weights shown come from, and what ◀ marks."""
    source = {
        "project weights": "Weights: the project's own (default_criteria).",
        "platform defaults": "Weights: platform defaults (the project sets none).",
    }.get(overview.weights_source, "Weights differ by project.")
    return source + (" ◀ the weakest." if overview.weakest else "")


def histogram(overview: Overview) -> ColumnData:
    """The distribution of overall scores in bins of ten, 0 to 100."""
    labels = tuple((index, str(index * 10)) for index in range(HISTOGRAM_BINS))
    top = max(overview.histogram, default=0)
    return ColumnData(
        tuple(float(n) for n in overview.histogram),
        float(top),
        labels,
        end_label="100",
        round_top=True,
    )


def timeline_bottom(overview: Overview) -> float:
    """Where the score-over-time axis starts: ten points under the lowest mean, in tens
    (0 when the means reach that low), so a change of ten points shows at any height."""
    means = [point.mean for point in overview.timeline.points if point.mean is not None]
    bottom = max(0.0, math.floor((min(means, default=0.0) - 5) / 10) * 10.0)
    return min(bottom, 90.0)


def timeline(overview: Overview, now: datetime) -> ColumnData:
    """Mean score per day or week with the count behind each point beneath; points the
    data covers only in part (the first, and one not over by `now`) are hatched."""
    points = overview.timeline.points
    # Every point offers its date; the chart shows those that fit without overlapping.
    labels = tuple((index, point.start.strftime("%d %b")) for index, point in enumerate(points))
    return ColumnData(
        tuple(point.mean for point in points),
        100.0,
        labels,
        tuple(point.count for point in points),
        bottom=timeline_bottom(overview),
        partial=overview.timeline.partial(overview.first_at, now),
    )


def timeline_title(overview: Overview, now: datetime) -> str:
    """The title of the score-over-time chart: where its axis starts and its last point."""
    timeline = overview.timeline
    flags = timeline.partial(overview.first_at, now)
    scored = [
        (point, partial)
        for point, partial in zip(timeline.points, flags, strict=True)
        if point.mean is not None
    ]
    if not scored:
        return f"Mean score per {timeline.unit}"
    bottom = timeline_bottom(overview)
    axis = f" (axis from {bottom:.0f})" if bottom > 0 else ""
    latest, partial = scored[-1]
    so_far = f", {timeline.unit} not over" if partial else ""
    return (
        f"Mean score per {timeline.unit}{axis} · latest {format_mean(latest.mean)}"
        f" (n={format_count(latest.count)}{so_far})"
    )


def timeline_note(overview: Overview, now: datetime) -> str:
    """What the strip under the chart and the hatching mean."""
    timeline = overview.timeline
    if not any(p.mean is not None for p in timeline.points):
        return ""
    unit = timeline.unit
    most = max(p.count for p in timeline.points)
    partly = any(timeline.partial(overview.first_at, now))
    hatched = f" · ░ a {unit} the data covers only in part" if partly else ""
    return f"n: scores per {unit}, up to {format_count(most)}{hatched}"


def feedback_lines(overview: Overview, limit: int = 6) -> Content:
    """The most frequent feedback sentences with their counts."""
    if not overview.feedback:
        return Content("No feedback in this view.")
    width = max(len(format_count(n)) for _, n in overview.feedback[:limit])
    return Content("\n").join(
        Content(f"{format_count(n):>{width}} × {clean(sentence)}")
        for sentence, n in overview.feedback[:limit]
    )


def failure_lines(overview: Overview, limit: int = 5) -> Content:
    """The latest failures: when, label, message."""
    if not overview.failures:
        return Content("No failed analyses in this view.")
    return Content("\n").join(
        Content(
            f"{local_time(ref.created_at)}  {clean(ref.label) or DASH}: "
            f"{clean(ref.error_message) or DASH}"
        )
        for ref in overview.failures[:limit]
    )
