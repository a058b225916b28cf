"""The report's table of projects (an overview of all projects): per project its counts,
mean score, failed share, the mean score of each of the last weeks and the change between
their halves, so a project that improves or declines shows at the top level.

The HTML draws each row's weeks as a small line (numbers only here; the template draws
it, with every week's mean in its title); the Markdown as a text sparkline. Both read
without colour: the change carries its arrow and sign.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from screen_analysis.insight.aggregates import Overview
from screen_analysis.insight.projects import TREND_WEEKS, ProjectTable
from screen_analysis.numbers import (
    DASH,
    NO_SPARK,
    format_count,
    format_delta,
    format_mean,
    format_percent,
    sparkline,
)

SPARK_STEP = 12  # pixels between two weeks of a line
SPARK_H = 18
SPARK_PAD = 3


@dataclass(frozen=True)
class ProjectRow:
    """One project as the report shows it."""

    name: str  # as received: the template escapes it
    analyses: str
    mean: str
    failed: str
    change: str
    tone: str  # "up", "down" or "same": the change's class
    spark: str  # the weeks as text blocks (`·` for a week without a score)
    weeks: str  # every week's mean, in words, for the line's title
    lines: tuple[tuple[tuple[float, float], ...], ...]  # the line's runs between gaps
    last: tuple[float, float] | None  # the newest week's point


@dataclass(frozen=True)
class ProjectsTable:
    """The rows, the line's size, and the notes under the table."""

    rows: tuple[ProjectRow, ...]
    width: int
    height: int
    note: str
    gaps: str  # what `·` means, when a row has one
    left_out: str
    weeks_title: str = f"Last {TREND_WEEKS} weeks"


def projects_table(overview: Overview, names: Mapping[str, str]) -> ProjectsTable | None:
    """The table of an overview of all projects (None for one project's)."""
    table = overview.projects
    if table is None or not table.rows:
        return None
    rows = tuple(_row(table, index, names) for index in range(len(table.rows)))
    gaps = f"{NO_SPARK}: a week without a score." if table.gaps else ""
    width = SPARK_PAD * 2 + SPARK_STEP * (TREND_WEEKS - 1)
    left_out = f"{table.left_out}." if table.left_out else ""
    return ProjectsTable(rows, width, SPARK_H + 2 * SPARK_PAD, table.describe(), gaps, left_out)


def _row(table: ProjectTable, index: int, names: Mapping[str, str]) -> ProjectRow:
    row = table.rows[index]
    name = names.get(row.project_id, row.project_id) if row.project_id else DASH
    change = None if row.change is None else round(row.change, 1)
    tone = "same" if not change else ("up" if change > 0 else "down")
    span = table.high - table.low or 1.0
    runs: list[list[tuple[float, float]]] = [[]]
    last = None
    for week, mean in enumerate(row.weeks):
        if mean is None:
            if runs[-1]:
                runs.append([])
            continue
        share = (min(max(mean, table.low), table.high) - table.low) / span
        last = (SPARK_PAD + week * SPARK_STEP, round(SPARK_PAD + (1 - share) * SPARK_H, 1))
        runs[-1].append(last)
    weeks = ", ".join(format_mean(mean) for mean in row.weeks)
    return ProjectRow(
        name=name or DASH,
        analyses=format_count(row.analyses),
        mean=format_mean(row.avg_score),
        failed=format_percent(row.failed, row.analyses),
        change=format_delta(change, decimals=1),
        tone=tone,
        spark=sparkline(row.weeks, table.low, table.high),
        weeks=f"mean score per week, oldest first: {weeks}",
        lines=tuple(tuple(run) for run in runs if run),
        last=last if row.weeks and row.weeks[-1] is not None else None,
    )
