"""A row per project with its weekly trend, for the overview of all projects: name (cut to
fit), analyses, mean score, failed share, a sparkline of its weekly means on the one scale
every row shares, and the change between the halves of those weeks ("▲ +12.3"), then what
the columns mean and which projects were left out.

Reads without colour (blocks, arrows and signs); the change's colour comes from the theme
through component classes. Project names are shown literally (never parsed as markup).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.cells import cell_len
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

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
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import Fitted
from screen_analysis.words import fit_cell

COLUMNS = (("Analyses", 8), ("Mean", 5), ("Failed", 6), ("Weeks", TREND_WEEKS), ("Change", 7))
MIN_NAME = 8  # cells a project's name keeps however narrow the panel


def trend_note(table: ProjectTable) -> str:
    """What the weeks and the change are (and `·`), then which projects are left out."""
    gaps = f" {NO_SPARK}: a week without a score." if table.gaps else ""
    return table.describe() + gaps + (f"\n{table.left_out}." if table.left_out else "")


class ProjectTrends(Widget):
    """The table of projects with their trends, laid out for the width it gets."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "project-trends--heading",
        "project-trends--note",
        "project-trends--up",
        "project-trends--down",
    }

    DEFAULT_CSS = """
    ProjectTrends {
        height: auto;
        & > .project-trends--heading { text-style: bold; }
        & > .project-trends--note { color: $foreground-muted; }
        & > .project-trends--up { color: $score-good; }
        & > .project-trends--down { color: $score-poor; }
    }
    """

    table: reactive[ProjectTable | None] = reactive(None, layout=True)
    """The rows to show; None shows nothing."""

    names: reactive[Mapping[str, str]] = reactive(dict, layout=True)
    """Projects' names by id (a row whose project has none is named by its id)."""

    def render(self) -> Fitted | Content:
        """The heading, a line per project, and the note under them."""
        table = self.table
        if table is None:
            return Content("")
        rows = []
        for row in table.rows:
            name = clean(self.names.get(row.project_id, row.project_id)) if row.project_id else ""
            change = None if row.change is None else round(row.change, 1)
            tone = "" if not change else ("up" if change > 0 else "down")
            numbers = (
                format_count(row.analyses),
                format_mean(row.avg_score),
                format_percent(row.failed, row.analyses),
                sparkline(row.weeks, table.low, table.high),
                format_delta(change, decimals=1),
            )
            rows.append((name or DASH, numbers, tone))
        heading = self.get_visual_style("project-trends--heading")
        muted = self.get_visual_style("project-trends--note")
        tones = {tone: self.get_visual_style(f"project-trends--{tone}") for tone in ("up", "down")}
        note = Content(trend_note(table))

        # Each column as wide as its widest value (a mean of 6.667e307 too), two apart.
        sizes = [
            max(size, *(len(numbers[index]) for _, numbers, _ in rows))
            for index, (_, size) in enumerate(COLUMNS)
        ]

        def build(width: int) -> list[Content]:
            fixed = sum(size + 2 for size in sizes)
            longest = max((cell_len(name) for name, _, _ in rows), default=0)
            name_width = max(MIN_NAME, min(longest, width - fixed))
            head = f"{'Project':<{name_width}}" + "".join(
                f"  {title:<{size}}" if title == "Weeks" else f"  {title:>{size}}"
                for (title, _), size in zip(COLUMNS, sizes, strict=True)
            )
            lines = [Content(head).stylize(heading, 0, len(head))]
            for name, numbers, tone in rows:
                cells = [fit_cell(name, name_width)]
                for (title, _), size, value in zip(COLUMNS, sizes, numbers, strict=True):
                    cells.append(f"  {value:<{size}}" if title == "Weeks" else f"  {value:>{size}}")
                line = Content("".join(cells))
                if tone:
                    line = line.stylize(tones[tone], len(line) - len(numbers[-1]), len(line))
                lines.append(line)
            for part in note.split("\n"):
                lines += [wrapped.stylize(muted, 0, len(wrapped)) for wrapped in part.wrap(width)]
            return lines

        return Fitted(build)
