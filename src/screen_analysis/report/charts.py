"""Geometry of the report's charts: numbers only, laid out for inline SVG.

Each chart is a plain value (positions, sizes, tick labels); the template draws it, so
every label, server text included, passes through the template's autoescaping and never
through string building here. Every bar and point carries its number as text too: the
charts read in print and without colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from screen_analysis.insight.aggregates import HISTOGRAM_BINS, Overview

WIDTH = 640
BARS_WIDTH = 460  # horizontal bars: narrower, so their text reads at the same size
ROW = 22  # height of a horizontal bar row
LABEL_W = 120  # room for the labels left of horizontal bars
VALUE_W = 96  # room for the numbers right of them
PLOT_H = 180
PAD_TOP = 16
PAD_BOTTOM = 40
AXIS_W = 40


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its row, label, length and the text at its end."""

    y: float
    label: str
    length: float
    text: str
    css: str = ""
    marker: float | None = None  # a second value drawn as a tick (a weight)


@dataclass(frozen=True)
class HBarChart:
    """Horizontal bars with labels on the left and values on the right."""

    title: str
    width: int
    height: int
    label_w: int
    plot_w: int
    bars: tuple[Bar, ...]
    note: str = ""


@dataclass(frozen=True)
class Column:
    """One vertical bar of a histogram or of the counts under a line."""

    x: float
    width: float
    y: float
    height: float
    label: str
    text: str


@dataclass(frozen=True)
class Tick:
    """An axis tick: its position and label."""

    at: float
    label: str


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
    line: tuple[tuple[float, float, str], ...] = ()  # x, y, value text
    note: str = ""


BarRow = tuple[str, float, str, str, float | None]  # label, value, text, css class, marker


def _hbars(title: str, rows: Sequence[BarRow], scale: float, note: str) -> HBarChart:
    plot_w = BARS_WIDTH - LABEL_W - VALUE_W
    bars = tuple(
        Bar(
            y=PAD_TOP + index * ROW,
            label=label,
            length=max(0.0, min(1.0, value / scale)) * plot_w if scale > 0 else 0.0,
            text=text,
            css=css,
            marker=None if marker is None else min(1.0, max(0.0, marker)) * plot_w,
        )
        for index, (label, value, text, css, marker) in enumerate(rows)
    )
    return HBarChart(title, WIDTH, PAD_TOP + len(rows) * ROW + 8, LABEL_W, plot_w, bars, note=note)


def status_chart(overview: Overview) -> HBarChart:
    """How many analyses are in each state."""
    largest = max((n for _, n in overview.status_counts), default=0)
    rows = [
        (name, float(n), f"{n:,}", f"status-{name}", None) for name, n in overview.status_counts
    ]
    return _hbars("Analyses by status", rows, float(largest), "")


def criteria_chart(overview: Overview) -> HBarChart:
    """Each criterion's mean score out of 100, with the weight as a tick (as a share)."""
    rows: list[BarRow] = []
    weakest = overview.weakest.criterion if overview.weakest else None
    for item in overview.criteria:
        mean = "—" if item.mean is None else f"{item.mean:.1f}"
        weight = "" if item.weight is None else f" · w {item.weight:g}"
        css = "weakest" if item.criterion is weakest else "criterion"
        rows.append((item.criterion.title, item.mean or 0.0, mean + weight, css, item.weight))
    note = {
        "project weights": "Mean score per criterion; the tick marks the project's weight.",
        "platform defaults": "Mean score per criterion; weights: platform defaults.",
    }.get(overview.weights_source, "Mean score per criterion; weights differ by project.")
    return _hbars("Criteria: mean score", rows, 100.0, note)


def nice_top(value: float, steps: int = 4) -> float:
    """The smallest round axis maximum (steps of 1, 2, 2.5 or 5 × 10ⁿ) at or above `value`."""
    if value <= steps:
        return float(steps)
    raw = value / steps
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step: float = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return step * steps


def _y_ticks(top: float, plot_top: int, plot_h: int, steps: int = 4) -> tuple[Tick, ...]:
    return tuple(
        Tick(plot_top + plot_h - plot_h * i / steps, f"{top * i / steps:,.0f}")
        for i in range(steps + 1)
    )


def histogram_chart(overview: Overview) -> ColumnChart:
    """How the overall scores are distributed, in bins of ten."""
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
                f"{count:,}",
            )
        )
    x_ticks = tuple(Tick(c.x + c.width / 2, c.label) for c in columns)
    note = (
        f"{overview.out_of_range:,} scores outside 0–100 left out." if overview.out_of_range else ""
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
    )


def timeline_chart(overview: Overview) -> ColumnChart:
    """Mean score per day or week (a line, 0–100) over the number of scores (columns)."""
    points = overview.timeline.points
    plot_w = WIDTH - AXIS_W - 10
    slot = plot_w / max(len(points), 1)
    top_count = max((p.count for p in points), default=0) or 1
    columns, line = [], []
    for index, point in enumerate(points):
        x = AXIS_W + index * slot
        height = PLOT_H * 0.3 * point.count / top_count
        label = point.start.strftime("%d %b")
        columns.append(
            Column(
                x + 1, max(slot - 2, 1), PAD_TOP + PLOT_H - height, height, label, str(point.count)
            )
        )
        if point.mean is not None:
            y = PAD_TOP + PLOT_H - PLOT_H * min(max(point.mean, 0.0), 100.0) / 100
            line.append((x + slot / 2, y, f"{point.mean:.0f}"))
    every = max(1, len(points) // 8)
    x_ticks = tuple(
        Tick(c.x + c.width / 2, c.label) for i, c in enumerate(columns) if i % every == 0
    )
    unit = overview.timeline.unit
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
        note=f"Line: mean score (0–100); columns: scores per {unit} (most: {top_count:,}).",
    )
