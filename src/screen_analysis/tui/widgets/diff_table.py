"""Scores of two analyses in columns A and B with the difference: "▲ +12" / "▼ −5", readable
without colour; colours (better, worse) from the theme through component classes."""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.insight.compare import ScoreDiff, format_delta
from screen_analysis.tui.formatting import format_score


class DiffTable(Widget):
    """A header line, then one line per score: name, A, B, B − A."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-table--header",
        "diff-table--up",
        "diff-table--down",
        "diff-table--same",
        "diff-table--overall",
    }

    DEFAULT_CSS = """
    DiffTable {
        height: auto;
        & > .diff-table--header { color: $foreground-muted; text-style: bold; }
        & > .diff-table--up { color: $score-good; text-style: bold; }
        & > .diff-table--down { color: $score-poor; text-style: bold; }
        & > .diff-table--same { color: $foreground-muted; }
        & > .diff-table--overall { text-style: bold; }
    }
    """

    rows: reactive[tuple[ScoreDiff, ...]] = reactive((), layout=True)
    """The first row is drawn as the overall score."""

    def render(self) -> Content:
        """The rows, columns right-aligned."""
        header = self.get_visual_style("diff-table--header")
        overall = self.get_visual_style("diff-table--overall")
        name_width = max((len(row.name) for row in self.rows), default=8) + 2
        title = "Score"
        head = f"{title:<{name_width}}{'A':>6}{'B':>6}{'B − A':>10}"
        lines = [Content(head).stylize(header, 0, len(head))]
        for index, row in enumerate(self.rows):
            delta = row.delta
            tone = "same" if not delta else ("up" if delta > 0 else "down")
            # One string a line, styled by ranges: the columns stay where the widths put them.
            name = f"{row.name:<{name_width}}"
            scores = f"{format_score(row.a):>6}{format_score(row.b):>6}"
            line = Content(f"{name}{scores}{format_delta(delta):>10}")
            if index == 0:
                line = line.stylize(overall, 0, len(row.name))
            start = len(name) + len(scores)
            line = line.stylize(self.get_visual_style(f"diff-table--{tone}"), start, len(line))
            lines.append(line)
        return Content("\n").join(lines)
