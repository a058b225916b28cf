"""Vertical columns over a labelled axis: a histogram, or a score over time with the number
of scores behind each point in a strip beneath (`n`, its maximum named by the caller).

Drawn with block characters in eighths of a cell, numbers on both axes, so the chart reads
in 16 colours and with NO_COLOR; colours come from the theme through component classes.
The chart fills the room it is given: columns share the width, and with a height of its
own (`1fr`) the plot takes every row but the axis lines. Each y label names the value at
the top edge of its row; the axis line names the value at the foot, so an axis that does
not start at 0 says where it starts. A column the data covers only in part is hatched
(░), and a chart with nothing to show says so in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.numbers import axis_number, nice_step

BLOCKS = " ▁▂▃▄▅▆▇█"
HATCH = "░"
MAX_COLUMN_WIDTH = 12
LABEL_GAP = 2  # spaces at least between two x labels of words ("11 May  25 May")
EMPTY_MESSAGE = "No completed analyses in this view."


@dataclass(frozen=True)
class ColumnData:
    """What to draw: values on a `bottom`–`top` scale, x labels at column indexes (and one
    at the right end), an optional row of counts (a strip of blocks with its maximum named),
    and which columns are partial (hatched)."""

    values: tuple[float | None, ...]
    top: float
    x_labels: tuple[tuple[int, str], ...] = ()
    counts: tuple[int, ...] = ()
    empty_message: str = EMPTY_MESSAGE
    bottom: float = 0.0  # the value at the foot of the axis (labelled, so never hidden)
    partial: tuple[bool, ...] = ()
    end_label: str = ""
    round_top: bool = False  # counts: the top raised to the next labelled round value

    @property
    def empty(self) -> bool:
        """Whether there is nothing to draw (no value above 0)."""
        return not any(value for value in self.values if value is not None)


def y_labels(bottom: float, top: float, height: int, *, whole: bool = False) -> dict[int, str]:
    """Round values on the axis, each by the row whose top edge is nearest to it, at least
    two rows apart and off the row above the axis line (which names the foot)."""
    span = top - bottom
    if span <= 0 or height < 1:
        return {0: axis_number(top)}
    step = nice_step(span, max(2, (height + 1) // 2), whole=whole)
    labels: dict[int, str] = {}
    k = math.floor(top / step + 1e-9)
    while (value := k * step) > bottom + 1e-9:
        row = round((top - value) / span * height)
        if row <= height - 2 and all(abs(row - other) >= 2 for other in labels):
            labels[row] = axis_number(value)
        k -= 1
    return labels


class ColumnChart(Widget):
    """Columns, a labelled y axis, an x axis with labels, and an optional count strip."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "column-chart--bar",
        "column-chart--partial",
        "column-chart--axis",
        "column-chart--count",
    }

    DEFAULT_CSS = """
    ColumnChart {
        height: auto;
        & > .column-chart--bar { color: $score-bar-fill; }
        & > .column-chart--partial { color: $foreground-muted; }
        & > .column-chart--axis { color: $foreground-muted; }
        & > .column-chart--count { color: $foreground-muted; }
    }
    """

    data: reactive[ColumnData | None] = reactive(None, layout=True)
    """The chart's values; None shows nothing yet."""

    plot_height: reactive[int] = reactive(6, layout=True)
    """Rows for the columns at least (more when the widget is given more height)."""

    def __init__(self, *, plot_height: int = 6, id: str | None = None) -> None:
        """An empty chart at least `plot_height` rows tall."""
        super().__init__(id=id)
        self.set_reactive(ColumnChart.plot_height, plot_height)

    @property
    def drawing(self) -> bool:
        """Whether the chart draws columns (rather than nothing, or a sentence)."""
        return self.data is not None and not self.data.empty

    @property
    def laid_out_rows(self) -> int:
        """The plot's rows as last laid out (its height less the axes)."""
        data = self.data
        if data is None or data.empty:
            return 0
        return max(0, self.size.height - self._extra_rows(data))

    def _extra_rows(self, data: ColumnData) -> int:
        """Rows besides the plot: the axis line, the x labels, the count strip."""
        return 2 + (1 if data.counts else 0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The plot's minimum height and the axes (one line for a chart with nothing)."""
        data = self.data
        if data is None or data.empty:
            return 1
        return self.plot_height + self._extra_rows(data)

    @staticmethod
    def label_width(data: ColumnData) -> int:
        """Cells for the y labels: as wide as the widest ("100", "1,848")."""
        top = data.top * 2 if data.round_top else data.top  # room for a rounded-up top
        return max(len(axis_number(top)), len(axis_number(data.bottom)), 1)

    def column_layout(self, count: int, label_width: int = 3, end: int = 0) -> tuple[int, int]:
        """How wide each column is and how many of the last `count` values fit beside y
        labels `label_width` wide and an end label `end` wide."""
        room = max(1, self.size.width - label_width - 2 - end)
        width = max(1, min(MAX_COLUMN_WIDTH, room // max(count, 1)))
        return width, min(count, room // width)

    def render(self) -> Content:
        """The columns, axes and labels at the current size."""
        data = self.data
        axis = self.get_visual_style("column-chart--axis")
        if data is None:
            return Content("")
        if data.empty:
            return Content.styled(data.empty_message, axis)
        label_width = self.label_width(data)
        width, shown = self.column_layout(len(data.values), label_width, len(data.end_label))
        skip = len(data.values) - shown
        values = data.values[skip:]
        partial = (data.partial[skip:] if data.partial else ()) + (False,) * shown
        height = max(self.plot_height, self.size.height - self._extra_rows(data))
        top, bottom = data.top, min(data.bottom, data.top)
        if data.round_top and top > bottom:
            step = nice_step(top - bottom, max(2, (height + 1) // 2), whole=True)
            top = bottom + math.ceil((top - bottom) / step - 1e-9) * step
        span = top - bottom if top > bottom else 1.0
        eighths = [
            None if v is None else round(min(max((v - bottom) / span, 0.0), 1.0) * height * 8)
            for v in values
        ]
        gap = 1 if width >= 3 else 0  # a blank cell between columns, so each reads alone
        bar = self.get_visual_style("column-chart--bar")
        hatched = self.get_visual_style("column-chart--partial")
        labelled = y_labels(bottom, top, height, whole=data.round_top)
        lines = []
        for row in range(height):
            floor = (height - 1 - row) * 8
            label = labelled.get(row, "")
            tick = "┤" if label else "│"
            cells = [Content.styled(f"{label:>{label_width}} {tick}", axis)]
            for column, level in enumerate(eighths):
                if level is None:
                    cells.append(Content(" " * width))
                    continue
                fill = min(8, max(0, level - floor))
                if partial[column]:
                    glyph, style = (HATCH if fill >= 4 else " "), hatched
                else:
                    glyph, style = BLOCKS[fill], bar
                cells.append(Content.styled(glyph * (width - gap), style))
                cells.append(Content(" " * gap))
            lines.append(Content.assemble(*cells))
        foot = "┼" if bottom <= 0 else "≈"  # ≈: the axis is cut, its foot named beside it
        foot_label = f"{axis_number(bottom):>{label_width}} {foot}"
        lines.append(Content.styled(foot_label + "─" * (width * shown), axis))
        x_axis = self._x_axis(data, skip, width, shown)
        lines.append(Content.styled(" " * (label_width + 2) + x_axis, axis))
        if data.counts:
            n = f"{'n':>{label_width}}  "
            lines.append(self._count_strip(n, data.counts[skip:], partial, width, gap))
        return Content("\n").join(lines)

    def _count_strip(
        self, label: str, counts: tuple[int, ...], partial: tuple[bool, ...], width: int, gap: int
    ) -> Content:
        """The number of scores behind each column, as blocks scaled to the largest."""
        strip = self.get_visual_style("column-chart--count")
        hatched = self.get_visual_style("column-chart--partial")
        most = max(counts, default=0) or 1
        cells = [Content.styled(label, self.get_visual_style("column-chart--axis"))]
        for column, n in enumerate(counts):
            glyph = BLOCKS[max(1, round(8 * n / most)) if n else 0]
            style = hatched if partial[column] else strip
            cells.append(Content.styled(glyph * (width - gap), style))
            cells.append(Content(" " * gap))
        return Content.assemble(*cells)

    @staticmethod
    def _x_axis(data: ColumnData, skip: int, width: int, shown: int) -> str:
        """Labels from their columns' left edges, never overlapping: labels with a space of
        their own (dates) at least LABEL_GAP spaces apart, so a row of them does not read
        as one strip (fewer labels rather than closer ones), numbers one space apart; the
        end label from the last column's right edge (the histogram's "100")."""
        end = data.end_label
        gap = LABEL_GAP if any(" " in label for _, label in data.x_labels) else 1
        edge = width * shown - (1 if width >= 3 else 0)  # the last column's right edge
        row = [" "] * (edge + len(end))
        limit = edge - gap if end else len(row)
        longest = max((len(label) for _, label in data.x_labels), default=0)
        stride = max(1, math.ceil((longest + gap) / width))  # labels at even intervals
        free_from = 0
        for index, label in data.x_labels:
            if index % stride:
                continue
            at = (index - skip) * width
            if at < free_from or at < 0 or index - skip >= shown or at + len(label) > limit:
                continue
            row[at : at + len(label)] = label
            free_from = at + len(label) + gap
        if end:
            row[edge:] = end
        return "".join(row).rstrip()
