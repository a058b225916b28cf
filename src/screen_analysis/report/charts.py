"""Geometry of the report's charts: numbers only, laid out for inline SVG.

Each chart is a plain value (positions, sizes, tick labels); the template draws it, so
every label, server text included, passes through the template's autoescaping and never
through string building here. Every bar and point carries its number as text too: the
charts read in print and without colour. Axes start at 0; a point of the score over time
that the data covers only in part (the first, or one not over when the report was made) is
drawn hollow with its number of scores beside it; a chart with nothing to show is a
sentence instead (`empty`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise

from screen_analysis.insight.aggregates import HISTOGRAM_BINS, Overview
from screen_analysis.insight.aggregates import weights_note as insight_weights_note
from screen_analysis.numbers import (
    format_count,
    format_mean,
    format_percent,
    format_weights,
    nice_top,
)
from screen_analysis.words import capitalised, day_month

WIDTH = 460  # about the width a chart gets on the page, so 11px text reads as 11px
ROW = 22  # height of a horizontal bar row
LABEL_W = 124  # room for the labels left of horizontal bars
VALUE_W = 56  # room for the number right of them
EXTRA_W = 56  # room for a second number (a weight)
HEAD_H = 16  # a row of column headings above horizontal bars
PLOT_H = 180
PAD_TOP = 18
PAD_BOTTOM = 40
AXIS_W = 36
VALUE_ABOVE = 7  # a point's value text: its baseline this far above the point
COUNT_BELOW = 16  # a count under a point: its baseline this far below
TEXT_H = 12  # the height of a line of 11px text
MAX_VALUE_LABELS = 16  # more points than this: values in the points' titles only
EMPTY = "No completed analyses in this view."


def left_out_note(overview: Overview) -> str:
    """Under a chart of scores on 0–100: what it leaves out, as a sentence ("" when
    nothing)."""
    words = overview.chart_left_out()
    return f"{capitalised(words)}." if words else ""


def criteria_left_out_note(overview: Overview) -> str:
    """Under the criteria: what their means leave out, as a sentence ("" when nothing)."""
    words = overview.criteria_left_out()
    return f"{capitalised(words)}." if words else ""


def empty_chart(overview: Overview) -> str:
    """What a chart of scores on 0–100 says when it has nothing to draw."""
    words = overview.chart_left_out()
    return f"No score within 0–100 to draw: {words}." if words else EMPTY


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its row, label, length, the text at its end and an extra number
    in a column of its own."""

    y: float
    label: str
    length: float
    text: str
    css: str = ""
    extra: str = ""


@dataclass(frozen=True)
class HBarChart:
    """Horizontal bars with labels on the left, values (and extras) on the right."""

    title: str
    width: int
    height: int
    label_w: int
    plot_w: int
    bars: tuple[Bar, ...]
    note: str = ""
    top: int = 0  # where the first bar starts (below the headings)
    headings: tuple[str, str] = ("", "")  # above the values and the extras
    empty: str = ""  # said instead of the chart when there is nothing to draw

    @property
    def value_x(self) -> int:
        """The right edge of the values' column."""
        return self.label_w + self.plot_w + VALUE_W

    @property
    def extra_x(self) -> int:
        """The right edge of the extras' column."""
        return self.value_x + EXTRA_W


@dataclass(frozen=True)
class Column:
    """One vertical bar of a histogram or of the counts under a line."""

    x: float
    width: float
    y: float
    height: float
    label: str
    text: str
    partial: bool = False


@dataclass(frozen=True)
class Tick:
    """An axis tick: its position and label."""

    at: float
    label: str


@dataclass(frozen=True)
class Point:
    """A point of the line: where, its value as text, and (partial) its count as text,
    anchored so that it stays inside the plot (beside the y labels at the left edge), above
    or below the point on the side the line does not run (`count_above`)."""

    x: float
    y: float
    text: str
    partial: bool = False
    count: str = ""
    anchor: str = "middle"  # of the count's text: "start" at the left edge, "end" at the right
    count_above: bool = False
    value_shown: bool = False  # the value's text is drawn above the point

    @property
    def count_x(self) -> float:
        """Where the count's text is anchored."""
        return {"start": self.x - 3, "end": self.x + 3}.get(self.anchor, self.x)

    @property
    def count_y(self) -> float:
        """The baseline of the count's text: under the point, or above it (and above the
        value's text when that is drawn)."""
        if not self.count_above:
            return self.y + COUNT_BELOW
        return self.y - (VALUE_ABOVE + TEXT_H if self.value_shown else VALUE_ABOVE)


@dataclass(frozen=True)
class ColumnChart:
    """Vertical columns over a labelled axis, with an optional line of means over them."""

    title: str
    width: int
    height: int
    plot_top: int
    plot_bottom: int
    left: int
    columns: tuple[Column, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    line: tuple[Point, ...] = ()
    note: str = ""
    empty: str = ""
    count_tick: Tick | None = None  # the counts' own scale, at the right: its tallest column

    @property
    def solid(self) -> tuple[tuple[Point, Point], ...]:
        """Segments between two whole points (drawn solid); the others are dashed."""
        return tuple((a, b) for a, b in pairwise(self.line) if not (a.partial or b.partial))

    @property
    def dashed(self) -> tuple[tuple[Point, Point], ...]:
        """Segments that lead to or from a partial point."""
        return tuple((a, b) for a, b in pairwise(self.line) if a.partial or b.partial)


BarRow = tuple[str, float, str, str, str]  # label, value, text, css class, extra


def _hbars(
    title: str,
    rows: Sequence[BarRow],
    scale: float,
    note: str,
    *,
    headings: tuple[str, str] = ("", ""),
    empty: str = "",
) -> HBarChart:
    extra = any(row[4] for row in rows)
    top = PAD_TOP if any(headings) else 6
    plot_w = WIDTH - LABEL_W - VALUE_W - (EXTRA_W if extra else 0) - 8
    bars = tuple(
        Bar(
            y=top + index * ROW,
            label=label,
            length=max(0.0, min(1.0, value / scale)) * plot_w if scale > 0 else 0.0,
            text=text,
            css=css,
            extra=extra_text,
        )
        for index, (label, value, text, css, extra_text) in enumerate(rows)
    )
    height = top + len(rows) * ROW + 6
    return HBarChart(title, WIDTH, height, LABEL_W, plot_w, bars, note, top, headings, empty=empty)


def status_chart(overview: Overview) -> HBarChart:
    """How many analyses are in each state, and each state's share of them."""
    largest = max((n for _, n in overview.status_counts), default=0)
    rows = [
        (name, float(n), format_count(n), f"status-{name}", format_percent(n, overview.seen))
        for name, n in overview.status_counts
    ]
    empty = "" if overview.seen else "No analyses in this view."
    note = f"Share: of all {format_count(overview.seen)} analyses in this view."
    headings = ("analyses", "share")
    return _hbars("Analyses by status", rows, float(largest), note, headings=headings, empty=empty)


def weights_note(overview: Overview) -> str:
    """Where the criteria's weights come from."""
    return insight_weights_note(overview.weights_source)


def criteria_chart(overview: Overview) -> HBarChart:
    """Each criterion's mean score out of 100, and its weight in a column of its own."""
    rows: list[BarRow] = []
    weakest = overview.weakest.criterion if overview.weakest else None
    weights = format_weights(item.weight for item in overview.criteria)
    has_weights = any(item.weight is not None for item in overview.criteria)
    for item, weight in zip(overview.criteria, weights, strict=True):
        css = "weakest" if item.criterion is weakest else "criterion"
        label = item.criterion.title
        extra = weight if has_weights else ""
        rows.append((label, item.mean or 0.0, format_mean(item.mean), css, extra))
    note = "Mean score per criterion, 0–100; the weakest in red. " + weights_note(overview)
    note = " ".join(filter(None, [note, criteria_left_out_note(overview)]))
    headings = ("mean", "weight" if has_weights else "")
    left_out = overview.criteria_left_out()
    empty = (
        ""
        if overview.weakest
        else (f"No criterion score to draw: {left_out}." if left_out else EMPTY)
    )
    return _hbars("Criteria: mean score", rows, 100.0, note, headings=headings, empty=empty)


def _y_ticks(top: float, plot_top: int, plot_h: int, steps: int = 4) -> tuple[Tick, ...]:
    return tuple(
        Tick(plot_top + plot_h - plot_h * i / steps, format_count(round(top * i / steps)))
        for i in range(steps + 1)
    )


def histogram_chart(overview: Overview) -> ColumnChart:
    """How the overall scores are distributed, in bins of ten, 0 to 100."""
    plot_w = WIDTH - AXIS_W - 10
    top = nice_top(max(overview.histogram, default=0))
    slot = plot_w / HISTOGRAM_BINS
    columns = []
    for index, count in enumerate(overview.histogram):
        height = PLOT_H * count / top
        low = index * 10
        label = f"{low}–{low + 9}" if index < HISTOGRAM_BINS - 1 else "90–100"
        columns.append(
            Column(
                AXIS_W + index * slot + 2,
                slot - 4,
                PAD_TOP + PLOT_H - height,
                height,
                label,
                format_count(count),
            )
        )
    # The bins' edges, 0 to 100, under the columns' sides.
    x_ticks = tuple(Tick(AXIS_W + index * slot, str(index * 10)) for index in range(0, 11, 2))
    note = " ".join(
        filter(None, ["Analyses per 10 points of overall score.", left_out_note(overview)])
    )
    return ColumnChart(
        "Distribution of overall scores",
        WIDTH,
        PAD_TOP + PLOT_H + PAD_BOTTOM,
        PAD_TOP,
        PAD_TOP + PLOT_H,
        AXIS_W,
        tuple(columns),
        _y_ticks(float(top), PAD_TOP, PLOT_H),
        x_ticks,
        note=note,
        empty="" if any(overview.histogram) else empty_chart(overview),
    )


def _clear_of_the_line(line: list[Point]) -> list[Point]:
    """Each count's text on the side of its point the line does not run: its text reaches
    toward the neighbour on its anchored side, so when that neighbour is lower on the page
    (the line comes up to the point) the text goes above, else below (and below when
    there is no room above)."""
    shown = len(line) <= MAX_VALUE_LABELS
    placed = []
    for index, point in enumerate(line):
        side = index + 1 if point.anchor == "start" else index - 1
        neighbour = line[side] if 0 <= side < len(line) else None
        above = neighbour is not None and neighbour.y > point.y
        point = replace(point, count_above=above, value_shown=shown)
        if above and point.count_y - TEXT_H < 0:  # no room above the plot: below it
            point = replace(point, count_above=False)
        placed.append(point)
    return placed


def timeline_chart(overview: Overview, now: datetime) -> ColumnChart:
    """Mean score per day or week (a line, 0–100) over the number of scores (columns); a
    point the data covers only in part is hollow, dashed into, with its count beside it."""
    timeline = overview.timeline
    points = timeline.points
    partial = timeline.partial(overview.first_at, now)
    plot_w = WIDTH - AXIS_W - 10
    slot = plot_w / max(len(points), 1)
    top_count = max((p.count for p in points), default=0) or 1
    columns, line = [], []
    for index, point in enumerate(points):
        x = AXIS_W + index * slot
        height = PLOT_H * 0.3 * point.count / top_count
        label = day_month(point.start)
        columns.append(
            Column(
                x + 1,
                max(slot - 2, 1),
                PAD_TOP + PLOT_H - height,
                height,
                label,
                format_count(point.count),
                partial[index],
            )
        )
        if point.mean is not None:
            y = PAD_TOP + PLOT_H - PLOT_H * min(max(point.mean, 0.0), 100.0) / 100
            count = f"n={format_count(point.count)}" if partial[index] else ""
            middle = x + slot / 2
            anchor = "start" if index < len(points) / 2 else "end"  # into the plot
            line.append(Point(middle, y, format_mean(point.mean), partial[index], count, anchor))
    line = _clear_of_the_line(line)
    every = max(1, len(points) // 6)
    x_ticks = tuple(
        Tick(c.x + c.width / 2, c.label) for i, c in enumerate(columns) if i % every == 0
    )
    unit = timeline.unit
    hollow = f"; hollow: a {unit} the data covers only in part" if any(partial) else ""
    note = (
        f"Line: mean score (0–100, the left axis); columns: scores per {unit}, on their own"
        f" scale (the tallest: {format_count(top_count)}, dotted){hollow}."
    )
    note = " ".join(filter(None, [note, left_out_note(overview)]))
    return ColumnChart(
        f"Mean score per {unit}",
        WIDTH,
        PAD_TOP + PLOT_H + PAD_BOTTOM,
        PAD_TOP,
        PAD_TOP + PLOT_H,
        AXIS_W,
        tuple(columns),
        _y_ticks(100.0, PAD_TOP, PLOT_H),
        x_ticks,
        tuple(line),
        note=note,
        empty="" if line else empty_chart(overview),
        count_tick=Tick(PAD_TOP + PLOT_H * 0.7, f"{format_count(top_count)} scores"),
    )
