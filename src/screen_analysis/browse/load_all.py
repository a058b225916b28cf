"""Loading the rest of a view before sorting it: page after page through its pager, with
progress, until the end or a bound (headless; the pane runs it in a worker, and cancelling
that worker stops it between pages, keeping what arrived).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from screen_analysis.browse.paging import Page
from screen_analysis.numbers import format_count

LOAD_ALL_MAX_ROWS = 100_000


class Pages(Protocol):
    """What the load of the rest needs of a view's pager."""

    @property
    def loaded(self) -> int:
        """Rows of the view loaded so far."""

    @property
    def total(self) -> int | None:
        """The view's total as the server last said it."""

    @property
    def done(self) -> bool:
        """Whether the last page of the view is loaded."""

    async def next_page(self) -> Page | None:
        """The next rows of the view, or None (nothing to ask now, or the view changed)."""


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
    pager: Pages,
    on_page: Callable[[Page, LoadProgress], None],
    *,
    limit: int = LOAD_ALL_MAX_ROWS,
) -> LoadProgress:
    """Ask the pager for its next page until the end or `limit` rows, handing each page
    and the progress to `on_page` (which draws the rows).

    Errors propagate (the pager has recorded them, so `r` retries); a cancellation leaves
    the pager ready to page on from where it stopped.
    """
    progress = LoadProgress(pager.loaded, pager.total, done=pager.done)
    while not progress.done and pager.loaded < limit:
        page = await pager.next_page()
        if page is None:
            break  # a failure recorded, a load already under way, or the view changed
        progress = LoadProgress(pager.loaded, pager.total, done=pager.done)
        on_page(page, progress)
    if not progress.done and pager.loaded >= limit:
        progress = LoadProgress(pager.loaded, pager.total, capped=True)
    return progress
