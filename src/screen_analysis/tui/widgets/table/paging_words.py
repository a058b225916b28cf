"""What the analyses pane says of its view in words: the status line's `PagingStatus`, the
empty table's sentence and a failure's notification, all read from the one page source,
so the table, the status line and the notification never say two different things."""

from __future__ import annotations

from screen_analysis.api.describe import describe_error
from screen_analysis.tui.feed import PageSource, empty_words
from screen_analysis.tui.widgets.status_line import PagingStatus
from screen_analysis.tui.widgets.table.offline import StaleWords

LOADING = "Loading…"


def paging_status(
    source: PageSource,
    loaded: int,
    stale: StaleWords | None,
    *,
    kept_total: int | None = None,
    stale_total: bool = False,
) -> PagingStatus:
    """The status line's words: `loaded` rows of the source's total (unknown: "?"; none yet:
    the cache's `kept_total`, marked as `stale_total`), how paging stands, or the cache's
    words (`stale`) while rows from it are shown."""
    state, words, again = source.paging_state()
    shorter: tuple[str, ...] = ()
    if state in ("error", "stopped"):  # a narrow line: what happened, and what `r` does
        head = words.split(";" if state == "stopped" else ":")[0]
        shorter = (head + (f" — r to {again}" if again else ""),)
    if stale is not None:
        state, (words, *more) = stale.state, stale.forms
        shorter = tuple(more)
    total = source.total if source.total is not None else kept_total
    return PagingStatus(
        loaded,
        total,
        state,
        words,
        shorter,
        stale_total and total is not None,
        source.total_unknown and total is None,
        again or "",
    )


def nothing_shown(source: PageSource) -> str:
    """What the empty table says once an answer came: that nothing matches only when the
    listing ended without a word against it; else how paging stands."""
    paging = source.paging_state()
    if paging.state in ("error", "stopped"):
        return paging.words + (f" — r to {paging.again}" if paging.again else "")
    return empty_words(source.view) if source.done else LOADING


def load_failure(source: PageSource, error: Exception) -> str:
    """A failed load in a notification: what failed and what `r` does about it."""
    paging = source.paging_state()
    if paging.state in ("error", "stopped"):
        return paging.words + (f" — press r to {paging.again}" if paging.again else "")
    return describe_error(error)
