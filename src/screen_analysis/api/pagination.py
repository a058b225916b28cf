"""Cursor pagination that cannot loop, repeats no row, and is closed by whoever walks it.

`PageIterator` follows `next_cursor` until null and refuses any cursor it has already sent
(A→B→A as well as a page pointing at itself); it is the cursor walker under everything.
A page whose `next_cursor` could not be read (`odd_cursor`) is delivered, and the next
page asked for raises: the listing cannot go on.
`Walk` is the one path through a listing the command line, the export and the overview
take (`client.iter_pages`/`iter_raw_pages`): pages from the walker with every row at most
once (`SeenIds`, the one de-duplication), `max_items`, a bound on the pages of one walk
(`MAX_WALK_PAGES`: cursors that never end are not followed for ever), and `aclose()` (or
`async with`) to cancel a prefetched request. Pages that bring nothing new with a fresh
cursor are followed (a server that filters after paging sends empty pages): `EmptyRun`
bounds how many in a row (`MAX_EMPTY_PAGES`) before the walk stops saying more may exist.
The main view's feed drives a `PageIterator`, a `SeenIds` and an `EmptyRun` of its own (it
pages on demand, a page at a time, and notes the page each row came on).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, NamedTuple, Protocol, Self, TypeVar

from screen_analysis.api.errors import (
    EmptyPagesError,
    InvalidResponseError,
    PageBoundError,
    PaginationLoopError,
)
from screen_analysis.api.models import AnalysisItem, AnalysisPage, RawPage
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
        self.last_page: PageT | None = None
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
        self.last_page = page
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
        elif ahead is not None and not ahead.cancelled():
            ahead.exception()  # mark a failure of the unread request as seen

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


class SeenIds:
    """The ids seen so far in one listing, each with the number of the page it came on.

    The one de-duplication of the project: a row that moves across a page boundary while
    someone pages is shown once. Items without an id (invalid items) always pass. With a
    `window`, only the ids of the last `window` pages are kept, so memory stays flat over a
    listing of any length (a row that moves further than that is not caught).
    """

    def __init__(self, window: int | None = None) -> None:
        self._page_of: dict[str, int] = {}
        self._window = window
        self._recent: deque[tuple[int, list[str]]] = deque()  # with a window: ids by page
        self.skipped = 0

    def take(self, item_id: object, page: int = 0) -> bool:
        """Whether a row with `item_id` is new (then recorded as seen on `page`); a row
        without a usable id (not a non-empty string) always is."""
        if not isinstance(item_id, str) or not item_id:
            return True
        if item_id in self._page_of:
            self.skipped += 1
            return False
        self._page_of[item_id] = page
        if self._window is not None:
            if not self._recent or self._recent[-1][0] != page:
                self._recent.append((page, []))
                self._forget_old_pages()
            self._recent[-1][1].append(item_id)
        return True

    def _forget_old_pages(self) -> None:
        while self._window is not None and len(self._recent) > self._window:
            page, ids = self._recent.popleft()
            for item_id in ids:
                if self._page_of.get(item_id) == page:
                    del self._page_of[item_id]

    def fresh(self, items: Iterable[AnalysisItem], page: int = 0) -> list[AnalysisItem]:
        """The items not seen before, now recorded as seen on `page`."""
        return [item for item in items if self.take(item.id, page)]

    def fresh_raw(self, objects: Iterable[Any], page: int = 0) -> list[Any]:
        """As `fresh`, for items as parsed from JSON (`RawPage.data`): an object's id is its
        `id` field when that is a non-empty string, as for models."""
        return [obj for obj in objects if self.take(_raw_id(obj), page)]

    def page_of(self, analysis_id: str) -> int | None:
        """The page an id was first seen on, or None."""
        return self._page_of.get(analysis_id)

    def __contains__(self, analysis_id: object) -> bool:
        return analysis_id in self._page_of

    def __len__(self) -> int:
        return len(self._page_of)


def _raw_id(obj: Any) -> object:
    return obj.get("id") if isinstance(obj, dict) else None


class PageRows(NamedTuple, Generic[PageT]):
    """How the walker reads the rows of one kind of page (models or raw JSON)."""

    fresh: Callable[[PageT, SeenIds, int], PageT]  # the page with only rows not seen before
    count: Callable[[PageT], int]  # how many rows it holds
    head: Callable[[PageT, int], PageT]  # the page with its first n rows only


def _models_where(page: AnalysisPage, keep: list[int]) -> AnalysisPage:
    raw = page.raw_items
    parallel = len(raw) == len(page.items)
    return page._replace(
        items=[page.items[i] for i in keep],
        raw_items=[raw[i] for i in keep] if parallel else raw,
    )


def _fresh_models(page: AnalysisPage, seen: SeenIds, number: int) -> AnalysisPage:
    keep = [i for i, item in enumerate(page.items) if seen.take(item.id, number)]
    return page if len(keep) == len(page.items) else _models_where(page, keep)


def _fresh_raw(page: RawPage, seen: SeenIds, number: int) -> RawPage:
    kept = seen.fresh_raw(page.data, number)
    return page if len(kept) == len(page.data) else _raw_where(page, kept)


def _raw_where(page: RawPage, data: list[Any]) -> RawPage:
    return page._replace(data=data)


MODEL_ROWS: PageRows[AnalysisPage] = PageRows(
    _fresh_models, lambda page: len(page.items), lambda p, n: _models_where(p, list(range(n)))
)
RAW_ROWS: PageRows[RawPage] = PageRows(
    _fresh_raw, lambda page: len(page.data), lambda p, n: _raw_where(p, p.data[:n])
)


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
        self._empty.page(count, held, page.next_cursor, self._pages.last_request)
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
    def skipped_duplicates(self) -> int:
        """How many repeated rows were left out."""
        return self._seen.skipped

    @property
    def pages_fetched(self) -> int:
        """How many pages the server sent."""
        return self._pages.pages_fetched
