"""How values read on screen: status glyphs and words, scores, times. Shared by the widgets.

Numbers follow `screen_analysis.numbers` (the one rule for the app, the report and the
command line); `format_score` and `DASH` are re-exported here for the widgets.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rich.cells import cell_len

from screen_analysis.api.models import AnalysisStatus
from screen_analysis.numbers import DASH as DASH
from screen_analysis.numbers import format_score as format_score
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


def relative_time(when: datetime | None, now: datetime) -> str:
    """`when` relative to `now`: "just now", "5m ago", "3h ago", "2d ago", else a local date."""
    if when is None:
        return DASH
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = (now - when).total_seconds()
    if seconds < 0:
        return local_time(when)
    if seconds < 45:
        return "just now"
    if seconds < 3600:
        return f"{round(seconds / 60) or 1}m ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h ago"
    if seconds < 30 * 86400:
        return f"{int(seconds // 86400)}d ago"
    return when.astimezone().strftime("%Y-%m-%d")


def short_age(when: datetime | None, now: datetime) -> str:
    """How long ago, in at most four cells: "now", "5m", "3h", "2d", "4mo", "2y"."""
    if when is None:
        return DASH
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = (now - when).total_seconds()
    if seconds < 45:
        return "now"  # also a time ahead of the clock: a skew of the server's clock
    if seconds < 3600:
        return f"{round(seconds / 60) or 1}m"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h"
    days = int(seconds // 86400)
    if days < 30:
        return f"{days}d"
    if days < 365:
        return f"{days // 30}mo"
    return f"{min(days // 365, 99)}y"


def local_time(when: datetime | None) -> str:
    """An absolute local time, to the minute, with the zone."""
    if when is None:
        return DASH
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def middle_ellipsis(text: str, cells: int) -> str:
    """`text` in at most `cells` cells: a long token (an id, an address) keeps its start
    and its end, the middle cut with `…`, so it is never wrapped mid-token."""
    if cell_len(text) <= cells:
        return text
    if cells <= 1:
        return "…"[:cells]
    keep = cells - 1
    head_cells = (keep + 1) // 2
    head, used = "", 0
    for char in text:
        if used + cell_len(char) > head_cells:
            break
        head += char
        used += cell_len(char)
    tail, used_tail = "", 0
    for char in reversed(text):
        if used + used_tail + cell_len(char) > keep:
            break
        tail = char + tail
        used_tail += cell_len(char)
    return head + "…" + tail
