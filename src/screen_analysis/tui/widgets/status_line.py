"""The line under the table: how many rows are loaded, whether more are coming, and the
auto-refresh state (right-aligned). When the line is too narrow, the refresh state goes
first, then the counts, then the state's words are said shorter (`PagingStatus.shorter`)."""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from screen_analysis.api.oddities import UNKNOWN_TOTAL
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import STALE


class PagingStatus(NamedTuple):
    """What the status line says: counts, and one of idle/loading/end/error/stopped, or for
    rows from the local cache cached/offline (`error` holds their words then, and `shorter`
    the same said shorter and shorter, for a narrow line). `stale_total` marks a total as
    the tabs mark theirs when it is not the server's now; `total_unknown`: the server's
    total was no count ("Loaded 5 of ?"); `again`: what `r` does after an error or a stop
    ("retry", "read on": said "r to …")."""

    loaded: int = 0
    total: int | None = None
    state: str = "loading"  # idle | loading | end | error | stopped | cached | offline
    error: str = ""
    shorter: tuple[str, ...] = ()
    stale_total: bool = False  # the total is as last seen, not confirmed now: "of ~5,001"
    total_unknown: bool = False
    again: str = "retry"


def of_total(status: PagingStatus) -> str:
    """ " of 1,234" (" of ~1,234" when stale), " of ?" (the server's total was no count),
    or "" (none yet)."""
    if status.total is not None:
        return f" of {STALE if status.stale_total else ''}{format_count(status.total)}"
    return f" of {UNKNOWN_TOTAL}" if status.total_unknown else ""


def describe(status: PagingStatus) -> tuple[str, str]:
    """The counts part and the state part, as plain text."""
    counts = f"Loaded {format_count(status.loaded)}{of_total(status)}"
    if status.state == "loading":
        return counts, "loading…"
    if status.state == "end":
        return counts, "end"
    if status.state in ("error", "stopped"):
        again = f" — r to {status.again}" if status.again else ""
        return counts, f"{clean(status.error)}{again}"
    if status.state in ("cached", "offline"):
        return counts, clean(status.error)
    return counts, ""


class StatusLine(Widget):
    """Renders a `PagingStatus`; server text in it is shown literally."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-line--state",
        "status-line--error",
        "status-line--refresh",
        "status-line--new",
        "status-line--offline",
    }

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $foreground;
        & > .status-line--state { color: $foreground-muted; }
        & > .status-line--error { color: $error; text-style: bold; }
        & > .status-line--refresh { color: $foreground-muted; }
        & > .status-line--new { color: $accent; text-style: bold; }
        & > .status-line--offline { color: $warning; text-style: bold; }
    }
    """

    status: reactive[PagingStatus] = reactive(PagingStatus, layout=False)
    """The paging status shown."""
    sorted_by: reactive[str] = reactive("", layout=False)
    """The table's sort ("score ▼"), empty in the server's order."""
    refresh_state: reactive[str] = reactive("", layout=False)
    """The auto-refresh state ("auto-refresh 5s", "paused"), shown at the right."""
    unseen: reactive[int] = reactive(0, layout=False)
    """Rows that arrived above the view, not scrolled to yet ("↑ 3 new · Home")."""

    def render(self) -> Content:
        """Counts, a separator and the state (an error in the error colour); the refresh
        state at the right when there is room."""
        counts, state = describe(self.status)
        width = self.content_size.width
        forms = [state, *(clean(words) for words in self.status.shorter)] if state else [state]
        # The first that fits, else the shortest: the counts give way before the state's
        # words are said shorter (the tabs carry the totals; "offline" is said nowhere else).
        tries = [(counts, forms[0]), *(("", words) for words in forms)] if state else []
        for shown, words in tries or [(counts, "")]:
            left = self._left(shown, words)
            if left.cell_length <= width:
                break
        gap = width - left.cell_length - len(self.refresh_state)
        if not self.refresh_state or gap < 2:
            return left
        style = self.get_visual_style("status-line--refresh")
        return left + Content(" " * gap) + Content.styled(self.refresh_state, style)

    def _left(self, counts: str, state: str) -> Content:
        """Counts (or the sort; neither when `counts` is empty), rows new above, and the
        state's words."""
        if self.sorted_by and counts:
            total = of_total(self.status).strip()
            of = f" ({total})" if total else ""
            counts = (
                f"Sorted by {self.sorted_by} among {format_count(self.status.loaded)} loaded{of}"
            )
        parts = [Content(counts)] if counts else []
        if self.unseen:
            style = self.get_visual_style("status-line--new")
            parts.append(Content.styled(f"↑ {format_count(self.unseen)} new (Home)", style))
        if state:
            part = {"error": "status-line--error", "offline": "status-line--offline"}.get(
                self.status.state, "status-line--state"
            )
            parts.append(Content.styled(state, self.get_visual_style(part)))
        return Content(" · ").join(parts)
