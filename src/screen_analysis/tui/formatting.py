"""How values read on screen: status glyphs and words, and text laid out for the width it
gets (a hanging indent, parts that move to the next line whole). Shared by the widgets.

Numbers, times, ages and cuts to a width are the words of every surface, in
`screen_analysis.numbers` and `screen_analysis.words` (the one rule for the app, the report,
the gate and the command line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from screen_analysis.api.models import AnalysisStatus
from screen_analysis.numbers import DASH
from screen_analysis.safe_text import clean

# Glyph and word together, so a status reads without colour.
STATUS_GLYPHS: dict[AnalysisStatus, str] = {
    AnalysisStatus.PENDING: "○",
    AnalysisStatus.PROCESSING: "◐",
    AnalysisStatus.COMPLETED: "●",
    AnalysisStatus.FAILED: "✗",
}
# Four letters at most, for a table short of room; the glyph carries the same meaning.
SHORT_STATUS_WORDS: dict[AnalysisStatus, str] = {
    AnalysisStatus.PENDING: "wait",
    AnalysisStatus.PROCESSING: "run",
    AnalysisStatus.COMPLETED: "done",
    AnalysisStatus.FAILED: "fail",
}
UNKNOWN_GLYPH = "?"
STALE = "~"  # before a total that may be out of date (readable without colour)


def status_glyph(status: AnalysisStatus | str | None) -> str:
    """The glyph of a status; `?` for a value the document does not name."""
    return (
        STATUS_GLYPHS.get(status, UNKNOWN_GLYPH)
        if isinstance(status, AnalysisStatus)
        else (UNKNOWN_GLYPH)
    )


def status_word(status: AnalysisStatus | str | None) -> str:
    """The status as a word; an unknown value shown as sent (cleaned), a missing one as —."""
    if status is None:
        return DASH
    return clean(status.value if isinstance(status, AnalysisStatus) else status) or DASH


def short_status_word(status: AnalysisStatus | str | None) -> str:
    """The status in at most four letters ("done"); an unknown value cut, a missing one —."""
    if isinstance(status, AnalysisStatus):
        return SHORT_STATUS_WORDS[status]
    return status_word(status)[:4]


def status_class(status: AnalysisStatus | str | None) -> str:
    """The suffix of the CSS component class for a status (`unknown` for anything else)."""
    return status.value if isinstance(status, AnalysisStatus) else "unknown"


def now_utc() -> datetime:
    """The real clock; widgets take a clock so snapshots can fix it."""
    return datetime.now(UTC)


MIN_HANGING_CELLS = 8  # narrower than this beside the marker, lines wrap from the edge


def hanging(marker: str, text: Content | str, width: int) -> list[Content]:
    """`text` wrapped to `width` with `marker` ("• ", "76 × ") before its first line and
    its other lines indented under the text, not under the marker."""
    body = Content(text) if isinstance(text, str) else text
    indent = cell_len(marker)
    if width - indent < MIN_HANGING_CELLS:
        return (Content(marker) + body).wrap(max(1, width))
    lines = body.wrap(width - indent)
    pad = Content(" " * indent)
    return [(Content(marker) if index == 0 else pad) + line for index, line in enumerate(lines)]


def flow(parts: Sequence[Content | str], width: int, separator: str = " · ") -> list[Content]:
    """`parts` joined by `separator` in lines of `width`: a part that does not fit moves to
    the next line whole and the separator before it goes, so no line starts or ends with
    one; only a part wider than a line is wrapped, on lines of its own."""
    lines: list[Content] = []
    line: Content | None = None
    for part in parts:
        piece = Content(part) if isinstance(part, str) else part
        if line is None:
            line = piece
            continue
        joined = line + separator + piece
        if joined.cell_length <= width:
            line = joined
        else:
            lines.append(line)
            line = piece
    if line is not None:
        lines.append(line)
    return [short for long in lines for short in long.wrap(max(1, width))]


class Fitted(Visual):
    """Text laid out again for each width it is drawn at: `build(width)` returns lines
    that fit (`hanging`, `flow`). A Textual visual, so a `Static` shows it as it would a
    `Content`; `str()` is the text on lines as wide as it needs."""

    WIDE = 10_000  # "as wide as it needs": no line of ours is longer

    def __init__(self, build: Callable[[int], Sequence[Content]]) -> None:
        """Lines from `build` for the width drawn at."""
        self._build = build
        self._last: tuple[int, Content] | None = None

    def content(self, width: int) -> Content:
        """The lines for `width`, joined (the last width's are kept)."""
        if self._last is None or self._last[0] != width:
            self._last = (width, Content("\n").join(self._build(width)))
        return self._last[1]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        """The lines for `width`, drawn as `Content` draws."""
        return self.content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """The widest line at the container's width."""
        return self.content(container_width).get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """How many lines at `width`."""
        return self.content(width).get_height(rules, width)

    @property
    def plain(self) -> str:
        """The text without styles, each line as wide as it needs."""
        return self.content(self.WIDE).plain

    def __str__(self) -> str:
        return self.plain
