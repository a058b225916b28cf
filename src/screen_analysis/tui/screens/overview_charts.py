"""What the overview screen draws, derived from an `Overview`: rows of bars, columns, and
the lines of text around them. Server text is cleaned here and shown literally."""

from __future__ import annotations

import math

from textual.content import Content

from screen_analysis.insight.aggregates import HISTOGRAM_BINS, Overview
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import DASH, format_score, local_time
from screen_analysis.tui.widgets.bar_rows import BarRow
from screen_analysis.tui.widgets.column_chart import ColumnData
from screen_analysis.tui.widgets.score_bar import score_tier

_STATUS_TONES = {"pending", "processing", "completed", "failed"}


def progress_text(received: int, total: int | None) -> str:
    """ "12,400 of 48,210 analyses read"."""
    of = f" of {total:,}" if total is not None else ""
    return f"{received:,}{of} analyses read"


def summary(overview: Overview) -> Content:
    """One or two lines: scope, counts, average, weakest criterion, where weights come from."""
    average = format_score(overview.avg_score)
    weakest = overview.weakest
    weak = f"{weakest.criterion.title} ({weakest.mean:.1f})" if weakest and weakest.mean else DASH
    span = ""
    if overview.first_at and overview.last_at:
        span = f" · {overview.first_at:%Y-%m-%d} to {overview.last_at:%Y-%m-%d}"
    state = "" if overview.complete else " · stopped early (r loads again)"
    return Content.assemble(
        (clean(overview.scope), "bold"),
        f" · {overview.seen:,} analyses · average {average} ({overview.scored:,} scored)"
        f" · weakest: {weak} · {overview.weights_source}{span}{state}",
    )


def status_rows(overview: Overview) -> tuple[BarRow, ...]:
    """One bar per status, scaled to the largest count."""
    largest = max((n for _, n in overview.status_counts), default=0)
    return tuple(
        BarRow(clean(name), n, largest or 1, f"{n:,}", name if name in _STATUS_TONES else "")
        for name, n in overview.status_counts
    )


def criteria_rows(overview: Overview) -> tuple[BarRow, ...]:
    """Each criterion's mean out of 100, the weight as a marker and a number."""
    weakest = overview.weakest.criterion if overview.weakest else None
    rows = []
    for item in overview.criteria:
        mean = DASH if item.mean is None else f"{item.mean:.1f}"
        weight = "" if item.weight is None else f" w{item.weight:g}"
        tone = "weak" if item.criterion is weakest else score_tier(item.mean).lstrip("-")
        tone = {"high": "good", "mid": "fair", "low": "poor"}.get(tone, tone)
        label = item.criterion.title + (" ◀" if item.criterion is weakest else "")
        rows.append(BarRow(label, item.mean, 100.0, mean + weight, tone, item.weight))
    return tuple(rows)


def weights_note(overview: Overview) -> str:
    """Where the weights shown come from."""
    return {
        "project weights": "│ marks the project's weight (default_criteria).",
        "platform defaults": "Weights: platform defaults (the project sets none).",
    }.get(overview.weights_source, "Weights differ by project.")


def histogram(overview: Overview) -> ColumnData:
    """The distribution of overall scores in bins of ten."""
    labels = tuple((index, str(index * 10)) for index in range(0, HISTOGRAM_BINS, 2))
    top = max(overview.histogram, default=0)
    return ColumnData(
        tuple(float(n) for n in overview.histogram),
        float(top),
        labels,
        empty_message="No completed analyses.",
    )


def timeline(overview: Overview) -> ColumnData:
    """Mean score per day or week (0–100) with the count behind each point beneath."""
    points = overview.timeline.points
    every = max(1, len(points) // 4)
    labels = tuple(
        (index, point.start.strftime("%d %b"))
        for index, point in enumerate(points)
        if index % every == 0
    )
    means = [point.mean for point in points if point.mean is not None]
    # The axis starts near the lowest mean (and says so), so a change of ten points shows.
    bottom = max(0.0, math.floor((min(means, default=0.0) - 5) / 10) * 10.0)
    return ColumnData(
        tuple(point.mean for point in points),
        100.0,
        labels,
        tuple(point.count for point in points),
        empty_message="No completed analyses.",
        bottom=min(bottom, 90.0),
    )


def timeline_title(overview: Overview) -> str:
    """The title of the score-over-time chart, with its last point."""
    points = [p for p in overview.timeline.points if p.mean is not None]
    unit = overview.timeline.unit
    if not points:
        return f"Mean score per {unit}"
    most = max(p.count for p in overview.timeline.points)
    return (
        f"Mean score per {unit} · latest {points[-1].mean:.0f} (n={points[-1].count:,})"
        f" · n: scores per {unit}, up to {most:,}"
    )


def feedback_lines(overview: Overview, limit: int = 6) -> Content:
    """The most frequent feedback sentences with their counts."""
    if not overview.feedback:
        return Content("No feedback.")
    width = max(len(f"{n:,}") for _, n in overview.feedback[:limit])
    return Content("\n").join(
        Content(f"{n:>{width},} × {clean(sentence)}") for sentence, n in overview.feedback[:limit]
    )


def failure_lines(overview: Overview, limit: int = 5) -> Content:
    """The latest failures: when, label, message."""
    if not overview.failures:
        return Content("No failed analyses.")
    return Content("\n").join(
        Content(
            f"{local_time(ref.created_at)}  {clean(ref.label) or DASH}: "
            f"{clean(ref.error_message) or DASH}"
        )
        for ref in overview.failures[:limit]
    )
