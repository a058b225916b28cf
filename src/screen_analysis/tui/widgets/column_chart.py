"""Vertical columns over a labelled axis: a histogram, or a score over time with the number
of scores behind each point in a strip beneath (`n`, its maximum named by the caller).

Drawn with block characters in eighths of a cell, numbers on both axes, so the chart reads
in 16 colours and with NO_COLOR; colours come from the theme through component classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

BLOCKS = " ▁▂▃▄▅▆▇█"
AXIS_WIDTH = 5  # "100 ┤"


@dataclass(frozen=True)
class ColumnData:
    """What to draw: values on a 0–`top` scale, x labels at column indexes, an optional row
    of counts (drawn as a strip of blocks with its maximum named)."""

    values: tuple[float | None, ...]
    top: float
    x_labels: tuple[tuple[int, str], ...] = ()
    counts: tuple[int, ...] = ()
    empty_message: str = "No data yet."
    bottom: float = 0.0  # the value at the foot of the axis (labelled, so never hidden)


def _fmt(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:,.0f}"


class ColumnChart(Widget):
    """Columns, a y axis with its top, middle and zero labelled, and an x axis."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "column-chart--bar",
        "column-chart--axis",
        "column-chart--count",
    }

    DEFAULT_CSS = """
    ColumnChart {
        height: auto;
        & > .column-chart--bar { color: $score-bar-fill; }
        & > .column-chart--axis { color: $foreground-muted; }
        & > .column-chart--count { color: $foreground-muted; }
    }
    """

    data: reactive[ColumnData | None] = reactive(None, layout=True)
    """The chart's values; None shows nothing yet."""

    plot_height: reactive[int] = reactive(6, layout=True)
    """Rows for the columns."""

    def __init__(self, *, plot_height: int = 6, id: str | None = None) -> None:
        """An empty chart `plot_height` rows tall."""
        super().__init__(id=id)
        self.set_reactive(ColumnChart.plot_height, plot_height)

    def column_layout(self, count: int) -> tuple[int, int]:
        """How wide each column is and how many of the last `count` values fit."""
        room = max(1, self.size.width - AXIS_WIDTH)
        width = max(1, min(4, room // max(count, 1)))
        return width, min(count, room // width)

    def render(self) -> Content:
        """The columns, axes and labels at the current size."""
        data = self.data
        axis = self.get_visual_style("column-chart--axis")
        if data is None or not data.values:
            return Content.styled(data.empty_message if data else "", axis)
        bar = self.get_visual_style("column-chart--bar")
        strip = self.get_visual_style("column-chart--count")
        width, shown = self.column_layout(len(data.values))
        skip = len(data.values) - shown
        values = data.values[skip:]
        height = self.plot_height
        top, bottom = data.top, min(data.bottom, data.top)
        span = top - bottom if top > bottom else 1.0
        eighths = [
            None if v is None else round(min(max((v - bottom) / span, 0.0), 1.0) * height * 8)
            for v in values
        ]
        lines = []
        for row in range(height):
            floor = (height - 1 - row) * 8
            label = {
                0: _fmt(top),
                height // 2: _fmt(bottom + span / 2),
                height - 1: _fmt(bottom),
            }.get(row, "")
            cells = "".join(
                (BLOCKS[min(8, max(0, e - floor))] if e is not None else " ") * width
                for e in eighths
            )
            lines.append(Content.assemble((f"{label:>3} ┤", axis), (cells, bar)))
        lines.append(Content.styled("    └" + "─" * (width * len(values)), axis))
        lines.append(Content.styled("     " + self._x_axis(data, skip, width, shown), axis))
        if data.counts:
            counts = data.counts[skip:]
            most = max(counts, default=0) or 1
            blocks = "".join(
                BLOCKS[max(1, round(8 * n / most)) if n else 0] * width for n in counts
            )
            lines.append(Content.assemble(("  n ╵", axis), (blocks, strip)))
        return Content("\n").join(lines)

    @staticmethod
    def _x_axis(data: ColumnData, skip: int, width: int, shown: int) -> str:
        """Labels placed under their columns, left to right, never overlapping."""
        row = [" "] * (width * shown + 8)
        free_from = 0
        for index, label in data.x_labels:
            at = (index - skip) * width
            if at < free_from or at < 0 or index - skip >= shown:
                continue
            end = min(len(row), at + len(label))
            row[at:end] = label[: end - at]
            free_from = end + 1
        return "".join(row).rstrip()
