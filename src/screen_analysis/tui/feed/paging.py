"""The pieces of the main view's paging, headless: the pages of one view asked so far
(`Listing`), one load of them and what it brought (`PageLoad`, `PageBatch`), what a batch
or a refresh changes on screen (`Accepted`, `Refreshed`), and what the status line says of
paging (`Paging`). The feed (`feed.py`) makes and takes them.
"""

from __future__ import annotations

from typing import NamedTuple

from screen_analysis.api.errors import InvalidResponseError
from screen_analysis.api.models import AnalysisItem, AnalysisPage
from screen_analysis.api.pagination import FetchPage, PageIterator, SeenIds
from screen_analysis.tui.feed.views import ViewKey


class Listing:
    """The pages of one view asked so far, for one generation (a reload starts another)."""

    def __init__(self, fetch: FetchPage, key: ViewKey) -> None:
        """Walk `key`'s pages with `fetch` (which asks the feed's current client)."""
        self.key = key
        self.seen = SeenIds()
        self.cursors: list[str | None] = []  # the `after` each loaded page was asked with
        self._pages = PageIterator(fetch)

    @property
    def has_more(self) -> bool:
        """Whether a next page remains (False at the end and once a loop was found)."""
        return self._pages.has_next_page and self._pages.loop_error is None

    @property
    def next_cursor(self) -> str | None:
        """The cursor the next page is asked with (None at the end)."""
        return self._pages.next_cursor

    @property
    def loop_error(self) -> InvalidResponseError | None:
        """The cursor loop the last page showed, if any: paging stops there."""
        return self._pages.loop_error

    async def next_page(self) -> tuple[AnalysisPage, list[AnalysisItem]]:
        """Fetch the next page; its rows not seen before. A failure changes nothing, so the
        same page can be asked again."""
        after = self._pages.next_cursor
        page = await anext(self._pages)
        self.cursors.append(after)
        return page, self.seen.fresh(page.items, len(self.cursors) - 1)

    def cursor_of(self, analysis_id: str) -> tuple[int, str | None] | None:
        """The page number an analysis was loaded on and the cursor that page was asked with."""
        number = self.seen.page_of(analysis_id)
        if number is None or number >= len(self.cursors):
            return None
        return number, self.cursors[number]


class PageLoad(NamedTuple):
    """One load of one generation of a view: the next page, or (`replace`) the view from
    the top, following cursors until at least `fill_to` rows arrived."""

    generation: int
    key: ViewKey
    listing: Listing
    replace: bool = False
    fill_to: int = 0


class PageBatch(NamedTuple):
    """What one load brought: new rows (already de-duplicated), the total (None with
    `odd_total`: the server's was no count), where it ended, and why paging cannot go on
    (`loop_error`: a cursor loop, or a next_cursor that could not be read: `odd_cursor`)."""

    load: PageLoad
    items: list[AnalysisItem]
    total: int | None
    done: bool
    loop_error: InvalidResponseError | None = None
    odd_total: str | None = None
    odd_cursor: str | None = None


class Paging(NamedTuple):
    """What the status line says of paging: the state (idle, loading, end, error, stopped),
    the words of an error, and what `r` does about it ("retry", "read on"; "" for nothing)."""

    state: str
    words: str = ""
    again: str = ""


class Accepted(NamedTuple):
    """Rows to show after a batch: all rows (`replace`) or rows to append, and what the
    batch brought to say that was not said before in this view (`notes`: an unknown total,
    rows of another status or project)."""

    items: list[AnalysisItem]
    replace: bool
    notes: tuple[str, ...] = ()


class Refreshed(NamedTuple):
    """What a refresh changes: rows that arrived on top, rows to update in place, whether
    the view's total moved, whether the server refused the old cursor of the page asked
    again, and whether more rows arrived than one page holds (`gap`: the rows between the
    new first page and the loaded ones are unknown, so the view is reloaded)."""

    arrived: list[AnalysisItem]
    rows: list[AnalysisItem]
    total_changed: bool
    cursor_refused: bool
    gap: bool = False
