"""Cursor pagination that cannot loop, repeats no row, and is closed by whoever walks it.

`PageIterator` follows `next_cursor` until null and refuses any cursor it has already sent
(A→B→A as well as a page pointing at itself); it is the cursor walker under everything.
A page whose `next_cursor` could not be read (`odd_cursor`) is delivered, and the next
page asked for raises: the listing cannot go on.
`Walk` is the one path through a listing the command line, the export and the overview
take (`client.iter_pages`/`iter_raw_pages`): pages from the walker with every row at most
once (`page_rows.SeenIds`, the one de-duplication), `max_items`, a bound on the pages of one walk
(`MAX_WALK_PAGES`: cursors that never end are not followed for ever), and `aclose()` (or
`async with`) to cancel a prefetched request. Pages that bring nothing new with a fresh
cursor are followed (a server that filters after paging sends empty pages): `EmptyRun`
bounds how many in a row (`MAX_EMPTY_PAGES`) before the walk stops saying more may exist.
The main view's pager (`browse/pager.py`) takes a walk too, a page at a time as the reader
needs them: it asks each page after the last (`asking_with`), reads on after a run of empty
pages (`read_on`), and learns which page a row came on (`page_of`) and which rows a refresh
brought that the walk had not met (`take`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, Protocol, Self, TypeVar

from screen_analysis.api.errors import (
    EmptyPagesError,
    InvalidResponseError,
    PageBoundError,
    PaginationLoopError,
)
from screen_analysis.api.models import AnalysisItem, AnalysisPage
from screen_analysis.api.page_rows import PageRows, SeenIds
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import one_line


class CursorPage(Protocol):
    """What the walker needs of a page: the cursor of the next one (and the total)."""

    @property
    def next_cursor(self) -> str | None:
        """The cursor to send as `after`; None on the last page."""

    @property
    def total(self) -> int | None:
        """How many rows the listing holds, as the server counts them."""

    @property
    def odd_cursor(self) -> str | None:
        """Why the server's next_cursor could not be taken (the listing cannot go on)."""


PageT = TypeVar("PageT", bound=CursorPage)

FetchAnyPage = Callable[[str | None], Awaitable[PageT]]
"""Fetch the page (model or raw) that starts after the given cursor (None: the first page)."""

FetchPage = FetchAnyPage[AnalysisPage]
"""Fetch the page of models that starts after the given cursor (None: the first page)."""

DescribeRequest = Callable[[str | None], str]
"""Name the request that fetches the page after the given cursor, for error messages."""

MAX_EMPTY_PAGES = 50
"""Pages in a row that may bring no new analysis, each with a fresh cursor, before a walk
stops (`EmptyPagesError`: more may exist). docs/reliability.md states the bound."""
MAX_WALK_PAGES = 100_000  # pages of one walk: 10,000,000 analyses at the largest page


def _short(cursor: str) -> str:
    return repr(one_line(cursor, limit=40))


class EmptyRun:
    """Counts the pages in a row that brought no new analysis while saying more exist, and
    stops a walk at `bound` of them. Empty pages with fresh cursors are no loop (a server
    that filters after paging may send many); a cursor seen twice is (`PageIterator`)."""

    def __init__(self, bound: int = MAX_EMPTY_PAGES) -> None:
        self.bound = bound
        self.count = 0
        self._repeats = False  # some of the run's pages held rows already listed

    def page(
        self, new_rows: int, held_rows: int, next_cursor: str | None, request: str | None
    ) -> None:
        """Count a page (`new_rows` not seen before of `held_rows`); raise EmptyPagesError
        when it ends a run of `bound` such pages and more are said to exist."""
        if new_rows or next_cursor is None:
            self.count, self._repeats = 0, False
            return
        self.count += 1
        self._repeats = self._repeats or held_rows > 0
        if self.count >= self.bound:
            run = (
                f"{self.count} pages in a row with no new analyses"
                if self._repeats
                else f"{self.count} empty pages in a row"
            )
            raise EmptyPagesError(
                f"stopped after {run}; more may exist",
                next_cursor=next_cursor,
                request=request,
            )


def seen_if_failed(ahead: asyncio.Future[Any]) -> None:
    """Mark the failure of a request (or read) sent ahead as seen, whether or not anyone
    reads it: asyncio then never reports it as "never retrieved". A done callback, or the
    last word on one dropped unread."""
    if not ahead.cancelled():
        ahead.exception()


class PageIterator(Generic[PageT]):
    """Async iterator over pages (models or raw), following `next_cursor`, guarded against loops.

    With `prefetch`, the request for the next page is sent as soon as a page arrives, so the
    server works on it while the caller handles the current one; call `aclose()` when
    stopping early so a request still under way is cancelled.
    """

    def __init__(
        self,
        fetch: FetchAnyPage[PageT],
        *,
        after: str | None = None,
        describe: DescribeRequest | None = None,
        prefetch: bool = False,
    ) -> None:
        self._fetch = fetch
        self._prefetch = prefetch
        self._ahead: asyncio.Task[PageT] | None = None
        self._describe = describe
        self._next: str | None = after
        self._seen: set[str] = {after} if after is not None else set()
        self._done = False
        self._loop: InvalidResponseError | None = None
        self.pages_fetched = 0
        self.last_request: str | None = None

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> PageT:
        if self._loop is not None:
            error, self._loop = self._loop, None
            raise error
        if self._done:
            raise StopAsyncIteration
        sent = self._next
        self.last_request = self._describe(sent) if self._describe else None
        ahead, self._ahead = self._ahead, None
        page = await (ahead if ahead is not None else self._fetch(sent))
        self.pages_fetched += 1
        cursor = page.next_cursor
        self._done = True
        if cursor is not None and cursor in self._seen:
            # The page itself is delivered; the loop is reported when the next one is asked.
            again = "the cursor just sent" if cursor == sent else "a cursor already followed"
            self._loop = PaginationLoopError(
                f"next_cursor {_short(cursor)} repeats {again} (page {self.pages_fetched})",
                request=self.last_request,
            )
        elif page.odd_cursor is not None:
            self._loop = InvalidResponseError(
                f"{page.odd_cursor}: no further page can be asked for (page {self.pages_fetched})",
                request=self.last_request,
            )
        elif cursor is not None:
            self._done = False
            self._seen.add(cursor)
            self._next = cursor
            if self._prefetch:
                self._ahead = asyncio.ensure_future(self._fetch(cursor))
        return page

    async def aclose(self) -> None:
        """Cancel a prefetched request that nobody will read."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and not ahead.done():
            ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await ahead
        elif ahead is not None:
            seen_if_failed(ahead)

    @property
    def loop_error(self) -> InvalidResponseError | None:
        """Why paging cannot go on after the last page (a cursor loop, a cursor that could
        not be read), raised when the next page is asked for."""
        return self._loop

    @property
    def has_next_page(self) -> bool:
        """Whether another page remains to be fetched (a detected loop still raises)."""
        return not self._done or self._loop is not None

    @property
    def next_cursor(self) -> str | None:
        """The cursor the next page is fetched with; None at the end or for a first page."""
        return None if self._done else self._next


class Walk(Generic[PageT]):
    """The one way through a listing: every page from the cursor walker (`PageIterator`:
    loops refused, the next page asked for early with `prefetch`), each row at most once
    (`SeenIds`; a page repeats no row of the pages before it), pages with nothing new
    followed up to `EmptyRun`'s bound, `max_items` rows at most (the last page cut, no page
    fetched beyond), at most `max_pages` pages (`MAX_WALK_PAGES` unless told: a listing
    whose cursors never end stops there with `PageBoundError`).

    An async iterator of pages of the same kind, holding only the fresh rows (a page may
    hold none; its `total` and `next_cursor` are the server's). Use it as an async context
    manager, or call `aclose()`, so a request still under way is cancelled when the caller
    stops early:

        async with client.iter_pages(project_id, status, limit=100, prefetch=True) as pages:
            async for page in pages:
                ...
    """

    def __init__(
        self,
        pages: PageIterator[PageT],
        rows: PageRows[PageT],
        *,
        max_items: int | None = None,
        max_empty_pages: int = MAX_EMPTY_PAGES,
        dedup_window: int | None = None,
        max_pages: int | None = None,
    ) -> None:
        """`dedup_window`: how many recent pages' ids are remembered (None: all of them);
        a bounded window keeps memory flat for walks that keep nothing per row.
        `max_pages`: the bound on pages (None: `MAX_WALK_PAGES`)."""
        self._max_pages = MAX_WALK_PAGES if max_pages is None else max_pages
        self._pages = pages
        self._rows = rows
        self._max_items = max_items
        self._empty = EmptyRun(max_empty_pages)
        self._seen = SeenIds(dedup_window)
        self.rows_yielded = 0
        self.total: int | None = None
        self.next_cursor: str | None = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> PageT:
        if self._max_items is not None and self.rows_yielded >= self._max_items:
            raise StopAsyncIteration
        self._check_bound()
        page = await anext(self._pages)
        self.total, self.next_cursor = page.total, page.next_cursor
        fresh = self._rows.fresh(page, self._seen, self._pages.pages_fetched)
        count = self._rows.count(fresh)
        held = self._rows.count(page)
        # The walker's next cursor, not the page's: a page whose cursor repeats ends the walk.
        self._empty.page(count, held, self._pages.next_cursor, self._pages.last_request)
        if self._max_items is not None and count > self._max_items - self.rows_yielded:
            count = self._max_items - self.rows_yielded
            fresh = self._rows.head(fresh, count)
        self.rows_yielded += count
        return fresh

    def _check_bound(self) -> None:
        """Stop at `max_pages` pages when the server still says more exist."""
        fetched = self._pages.pages_fetched
        if fetched >= self._max_pages and self._pages.next_cursor is not None:
            raise PageBoundError(
                f"it did not end within {format_count(fetched)} pages"
                f" ({format_count(self.rows_yielded)} analyses); "
                f"the server still sent a next cursor",
                request=self._pages.last_request,
            )

    async def aclose(self) -> None:
        """Cancel a prefetched request nobody will read; the walk ends."""
        await self._pages.aclose()

    @property
    def has_more(self) -> bool:
        """Whether a next page remains (False at the end and once the cursors showed a loop
        or a cursor that cannot be read: `loop_error`)."""
        return self._pages.has_next_page and self._pages.loop_error is None

    @property
    def loop_error(self) -> InvalidResponseError | None:
        """Why the walk cannot go on after the last page (a cursor loop, a cursor that could
        not be read); the next page asked for raises it."""
        return self._pages.loop_error

    @property
    def asking_with(self) -> str | None:
        """The cursor the next page is asked with (None for the first page, and at the end)."""
        return self._pages.next_cursor

    def read_on(self) -> None:
        """Count the pages that bring nothing new afresh: a caller that stopped at
        `EmptyPagesError` (or between pages) and goes on gets the whole bound again."""
        self._empty = EmptyRun(self._empty.bound)

    def page_of(self, analysis_id: str) -> int | None:
        """The page (1 for the first) the walk first met `analysis_id` on, or None."""
        return self._seen.page_of(analysis_id)

    def take(self, items: Iterable[AnalysisItem], page: int = 1) -> list[AnalysisItem]:
        """Rows met outside the walk (a refresh's first page): those it had not met, now
        counted as met on `page`, so a later page does not bring them again."""
        return self._seen.fresh(items, page)

    @property
    def skipped_duplicates(self) -> int:
        """How many repeated rows were left out."""
        return self._seen.skipped

    @property
    def pages_fetched(self) -> int:
        """How many pages the server sent."""
        return self._pages.pages_fetched
