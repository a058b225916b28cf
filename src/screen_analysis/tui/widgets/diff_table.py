"""Scores of two analyses in columns A and B with the difference: "▲ +12" / "▼ −5", readable
without colour; colours (better, worse) from the theme through component classes."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.insight.compare import ScoreDiff
from screen_analysis.numbers import format_delta, format_score
from screen_analysis.tui.formatting import Fitted
from screen_analysis.words import fit_cell

GAP = 2  # spaces at least between two columns
MIN_NAME = 8  # cells a criterion's name keeps before the numbers are cut
TONES = ("up", "down", "same")


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

    def render(self) -> Fitted:
        """The rows in columns sized to their widest value, laid out for the width drawn
        at: two spaces at least between columns, so numbers never run together; when the
        width is short, the names are cut first, then the numbers (with …)."""
        header = self.get_visual_style("diff-table--header")
        overall = self.get_visual_style("diff-table--overall")
        tones = {tone: self.get_visual_style(f"diff-table--{tone}") for tone in TONES}
        cells = [("Score", "A", "B", "B − A")]
        for row in self.rows:
            cells.append(
                (row.name, format_score(row.a), format_score(row.b), format_delta(row.delta))
            )
        deltas = [row.delta for row in self.rows]

        def build(width: int) -> list[Content]:
            lines = []
            for index, (name, *numbers) in enumerate(fit_columns(cells, width)):
                line = Content(name + "".join(numbers))
                if index == 0:
                    lines.append(line.stylize(header, 0, len(line)))
                    continue
                if index == 1:
                    line = line.stylize(overall, 0, len(name.rstrip()))
                delta = deltas[index - 1]
                tone = "same" if not delta else ("up" if delta > 0 else "down")
                start = len(line) - len(numbers[-1])
                lines.append(line.stylize(tones[tone], start, len(line)))
            return lines

        return Fitted(build)


def fit_columns(rows: list[tuple[str, str, str, str]], width: int) -> list[list[str]]:
    """Each row as cells padded to their column (the name left-aligned, each number
    right-aligned after `GAP` spaces), cut to `width`: the name column first (down to
    `MIN_NAME`), then every number column alike, each cut cell ending in …."""
    widths = [max(cell_len(row[i]) for row in rows) for i in range(4)]
    over = sum(widths) + GAP * 3 - width
    if over > 0:
        cut = min(over, max(0, widths[0] - MIN_NAME))
        widths[0] -= cut
        over -= cut
    while over > 0 and max(widths[1:]) > 1:
        widest = max(range(1, 4), key=lambda i: widths[i])
        widths[widest] -= 1
        over -= 1
    laid_out = []
    for name, *numbers in rows:
        cells = [fit_cell(name, widths[0])]
        for text, size in zip(numbers, widths[1:], strict=True):
            cells.append(" " * GAP + fit_cell(text, size, right=True))
        laid_out.append(cells)
    return laid_out
