"""What the overview screen draws, derived from an `Overview`: rows of bars, columns, and
the lines of text around them. Server text is cleaned here and shown literally."""

from __future__ import annotations

import math
from datetime import datetime

from textual.content import Content

from screen_analysis.insight.aggregates import HISTOGRAM_BINS, Overview
from screen_analysis.insight.aggregates import weights_note as source_note
from screen_analysis.insight.offline import KeptOverview
from screen_analysis.numbers import (
    DASH,
    count_of,
    format_count,
    format_mean,
    format_span,
    format_weights,
)
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.formatting import Fitted, flow, hanging
from screen_analysis.tui.widgets.bar_rows import BarHeading, BarRow
from screen_analysis.tui.widgets.column_chart import EMPTY_MESSAGE, ColumnData
from screen_analysis.tui.widgets.score_bar import score_tier
from screen_analysis.words import clock_time, day_month, local_time, utc_date, utc_time

_STATUS_TONES = {"pending", "processing", "completed", "failed"}


def progress_text(received: int, total: int | None) -> str:
    """ "12,400 of 48,210 analyses read"."""
    of = f" of {format_count(total)}" if total is not None else ""
    return f"{format_count(received)}{of} analyses read"


def offline_line(found: KeptOverview | None, project_id: str | None, now: datetime) -> str:
    """The header of an overview the server could not be asked for, in the main view's
    offline words: "offline · data from 10:42 · 150 analyses kept in the local cache · r
    tries the server again", or that the cache kept nothing."""
    if found is None:
        scope = "this project" if project_id is not None else "any project"
        return f"offline · the local cache holds no analyses of {scope} · r tries again"
    parts = ["offline"]
    if found.fetched_at:
        parts.append(f"data from {clock_time(found.fetched_at, now)}")
    kept = count_of(found.kept, "analysis", "analyses")
    return " · ".join([*parts, f"{kept} kept in the local cache", "r tries the server again"])


def report_source(found: KeptOverview) -> str:
    """Where a report of the cache's overview comes from, for its header."""
    when = f" (data from {utc_time(found.fetched_at)})" if found.fetched_at else ""
    return f"From the local cache{when}; not read from the server"


def summary_parts(overview: Overview, *, reading: bool = False) -> list[Content]:
    """Scope, counts, average, weakest criterion, where weights come from, the dates; an
    incomplete overview says whether pages are still being read (`reading`) or the read
    stopped early."""
    weakest = overview.weakest
    weak = f"{weakest.criterion.title} ({format_mean(weakest.mean)})" if weakest else DASH
    parts = [
        Content.styled(clean(overview.scope, limit=DISPLAY_LIMIT), "bold"),
        Content(f"{format_count(overview.seen)} analyses"),
        Content(
            f"average {format_mean(overview.avg_score)} ({format_count(overview.scored)} scored)"
        ),
        Content(f"weakest: {weak}"),
        Content(overview.weights_source),
    ]
    if overview.mean_left_out():
        parts.append(Content(overview.mean_left_out() + " of the average"))
    if overview.first_at and overview.last_at:
        parts.append(Content(f"{utc_date(overview.first_at)} to {utc_date(overview.last_at)}"))
    if not overview.complete:
        parts.append(Content("reading…" if reading else "stopped early (r loads again)"))
    return parts


def summary(overview: Overview, *, reading: bool = False) -> Fitted:
    """The summary's parts joined by " · ", a part that does not fit moved whole to the next
    line (no line starts or ends with a separator)."""
    parts = summary_parts(overview, reading=reading)
    return Fitted(lambda width: flow(parts, width))


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
    """Where the weights shown come from, and on lines of their own (so they are never cut
    in two by wrapping) what ◀ marks and what the means leave out."""
    source = source_note(overview.weights_source)
    left_out = overview.criteria_left_out()
    return (
        source
        + ("\n◀ marks the weakest." if overview.weakest else "")
        + (f"\n{left_out}." if left_out else "")
    )


def empty_chart(overview: Overview) -> str:
    """What a chart of scores on 0–100 says when it has nothing to draw: that there is no
    score, or what it left out."""
    left_out = overview.chart_left_out()
    return f"No score within 0–100 to draw: {left_out}." if left_out else EMPTY_MESSAGE


def empty_criteria(overview: Overview) -> str:
    """What the criteria say when no criterion has a mean: that there is no score, or what
    their means left out."""
    left_out = overview.criteria_left_out()
    return f"No criterion score to draw: {left_out}." if left_out else EMPTY_MESSAGE


def chart_note(overview: Overview) -> str:
    """Under a chart of scores on 0–100: what it leaves out ("" when nothing)."""
    left_out = overview.chart_left_out()
    return f"{left_out}." if left_out and overview.histogram and any(overview.histogram) else ""


def histogram(overview: Overview) -> ColumnData:
    """The distribution of overall scores in bins of ten, 0 to 100."""
    labels = tuple((index, str(index * 10)) for index in range(HISTOGRAM_BINS))
    top = max(overview.histogram, default=0)
    return ColumnData(
        tuple(float(n) for n in overview.histogram),
        float(top),
        labels,
        empty_message=empty_chart(overview),
        end_label="100",
        round_top=True,
    )


AXIS_MARGIN = 5.0  # points kept between the data and either end of the axis
AXIS_ROUND = 10.0  # the axis starts and ends on a multiple of this
MIN_AXIS_SPAN = 20.0


def timeline_axis(overview: Overview) -> tuple[float, float]:
    """Where the score-over-time axis starts and ends: the means with a margin of at least
    five points, rounded out to tens, within 0–100 (0–100 when there are no means), so the
    columns use the chart's height and a change of ten points shows."""
    means = [point.mean for point in overview.timeline.points if point.mean is not None]
    if not means:
        return 0.0, 100.0
    bottom = math.floor((min(means) - AXIS_MARGIN) / AXIS_ROUND) * AXIS_ROUND
    top = math.ceil((max(means) + AXIS_MARGIN) / AXIS_ROUND) * AXIS_ROUND
    bottom, top = max(0.0, min(bottom, 100.0 - MIN_AXIS_SPAN)), min(100.0, max(top, 0.0))
    if top - bottom < MIN_AXIS_SPAN:  # a flat line: a span that still shows a change
        top = min(100.0, bottom + MIN_AXIS_SPAN)
        bottom = top - MIN_AXIS_SPAN
    return bottom, top


def timeline(overview: Overview, now: datetime) -> ColumnData:
    """Mean score per day or week with the count behind each point beneath; points the
    data covers only in part (the first, and one not over by `now`) are hatched."""
    points = overview.timeline.points
    # Every point offers its date; the chart shows those that fit without overlapping.
    labels = tuple((index, day_month(point.start)) for index, point in enumerate(points))
    bottom, top = timeline_axis(overview)
    return ColumnData(
        tuple(point.mean for point in points),
        top,
        labels,
        tuple(point.count for point in points),
        empty_message=empty_chart(overview),
        bottom=bottom,
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
    bottom, top = timeline_axis(overview)
    axis = f" (axis {format_span(bottom, top)})" if (bottom, top) != (0.0, 100.0) else ""
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
    left_out = chart_note(overview)
    return f"n: scores per {unit}, up to {format_count(most)}{hatched}" + (
        f" · {left_out}" if left_out else ""
    )


def feedback_lines(overview: Overview, limit: int = 6) -> Content | Fitted:
    """The most frequent feedback sentences with their counts, each sentence's wrapped
    lines under its text (not under the count)."""
    if not overview.feedback:
        return Content("No feedback in this view.")
    width = max(len(format_count(n)) for _, n in overview.feedback[:limit])
    items = [
        (f"{format_count(n):>{width}} × ", clean(sentence, limit=DISPLAY_LIMIT))
        for sentence, n in overview.feedback[:limit]
    ]
    return Fitted(lambda cells: [line for item in items for line in hanging(*item, cells)])


def failure_lines(overview: Overview, limit: int = 5) -> Content | Fitted:
    """The latest failures: when, then label and message, wrapped under themselves."""
    if not overview.failures:
        return Content("No failed analyses in this view.")
    items = [
        (
            f"{local_time(ref.created_at)}  ",
            f"{clean(ref.label, limit=DISPLAY_LIMIT) or DASH}: "
            f"{clean(ref.error_message, limit=DISPLAY_LIMIT) or DASH}",
        )
        for ref in overview.failures[:limit]
    ]
    return Fitted(lambda cells: [line for item in items for line in hanging(*item, cells)])
