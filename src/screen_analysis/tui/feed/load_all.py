"""Loading the rest of a view before sorting it: page after page through the feed, with
progress, until the end or a bound (headless; the screen runs it in a worker, and
cancelling that worker stops it between pages, keeping what arrived).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from screen_analysis.numbers import format_count
from screen_analysis.tui.feed.paging import Accepted
from screen_analysis.tui.feed.source import PageSource

LOAD_ALL_MAX_ROWS = 100_000


class LoadProgress(NamedTuple):
    """How far a load of the rest got: rows loaded, of how many, and why it stopped."""

    loaded: int
    total: int | None
    done: bool = False  # the end of the listing was reached
    capped: bool = False  # stopped at the bound, more rows remain

    def describe(self) -> str:
        """'Loading all… 1,200 of 5,000', or how it ended."""
        of = "" if self.total is None else f" of {format_count(self.total)}"
        if self.capped:
            bound = format_count(LOAD_ALL_MAX_ROWS)
            return f"Loaded {format_count(self.loaded)}{of}: stopped at {bound} rows"
        if self.done:
            return f"Loaded all {format_count(self.loaded)}"
        return f"Loading all… {format_count(self.loaded)}{of}"


async def load_rest(
    feed: PageSource,
    on_rows: Callable[[Accepted, LoadProgress], None],
    *,
    limit: int = LOAD_ALL_MAX_ROWS,
) -> LoadProgress:
    """Ask the feed for its next page until the end or `limit` rows, handing each page's
    accepted rows and the progress to `on_rows` (which appends them to the table).

    Errors propagate (the feed has recorded them, so `r` retries); a cancellation leaves
    the feed ready to page on from where it stopped.
    """
    progress = LoadProgress(feed.loaded, feed.total, done=feed.done)
    while not progress.done and feed.loaded < limit:
        load = feed.more()
        if load is None:
            break  # the end, a failure recorded, or a load already under way
        try:
            batch = await feed.load(load)
        except BaseException as error:
            if isinstance(error, Exception):
                feed.fail(load, error)
            else:
                feed.cancelled(load)
            raise
        accepted = feed.accept(batch)
        if accepted is None:
            break  # the view changed under us
        progress = LoadProgress(feed.loaded, feed.total, done=feed.done)
        on_rows(accepted, progress)
    if not progress.done and feed.loaded >= limit:
        progress = LoadProgress(feed.loaded, feed.total, capped=True)
    return progress
