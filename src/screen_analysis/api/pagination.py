"""Cursor pagination that cannot loop: pages and analyses as self-iterating async iterators.

`PageIterator` follows `next_cursor` until null and refuses any cursor it has already sent
(A→B→A as well as a page pointing at itself). `AnalysisIterator` flattens pages into items,
never yields the same id twice (it counts what it skipped) and gives up when several pages in
a row bring nothing new, which no honest server does forever.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, Protocol, Self, TypeVar

from screen_analysis.api.errors import PaginationLoopError
from screen_analysis.api.messages import clean_message
from screen_analysis.api.models import AnalysisItem, AnalysisPage


class CursorPage(Protocol):
    """What the walker needs of a page: the cursor of the next one."""

    @property
    def next_cursor(self) -> str | None:
        """The cursor to send as `after`; None on the last page."""


PageT = TypeVar("PageT", bound=CursorPage)

FetchAnyPage = Callable[[str | None], Awaitable[PageT]]
"""Fetch the page (model or raw) that starts after the given cursor (None: the first page)."""

FetchPage = FetchAnyPage[AnalysisPage]
"""Fetch the page of models that starts after the given cursor (None: the first page)."""

DescribeRequest = Callable[[str | None], str]
"""Name the request that fetches the page after the given cursor, for error messages."""

MAX_STALLED_PAGES = 5


def _short(cursor: str) -> str:
    return repr(clean_message(cursor, limit=40))


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
        self._loop: PaginationLoopError | None = None
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
    def loop_error(self) -> PaginationLoopError | None:
        """The loop found on the last page, raised when the next page is asked for."""
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
    someone pages is shown once. Items without an id (invalid items) always pass.
    """

    def __init__(self) -> None:
        self._page_of: dict[str, int] = {}
        self.skipped = 0

    def fresh(self, items: Iterable[AnalysisItem], page: int = 0) -> list[AnalysisItem]:
        """The items not seen before, now recorded as seen on `page`."""
        fresh: list[AnalysisItem] = []
        for item in items:
            if item.id is not None:
                if item.id in self._page_of:
                    self.skipped += 1
                    continue
                self._page_of[item.id] = page
            fresh.append(item)
        return fresh

    def fresh_raw(self, objects: Iterable[Any], page: int = 0) -> list[Any]:
        """As `fresh`, for items as parsed from JSON (`RawPage.data`): an object's id is its
        `id` field when that is a non-empty string, as for models."""
        fresh: list[Any] = []
        for obj in objects:
            item_id = obj.get("id") if isinstance(obj, dict) else None
            if isinstance(item_id, str) and item_id:
                if item_id in self._page_of:
                    self.skipped += 1
                    continue
                self._page_of[item_id] = page
            fresh.append(obj)
        return fresh

    def page_of(self, analysis_id: str) -> int | None:
        """The page an id was first seen on, or None."""
        return self._page_of.get(analysis_id)

    def __contains__(self, analysis_id: object) -> bool:
        return analysis_id in self._page_of

    def __len__(self) -> int:
        return len(self._page_of)


class AnalysisIterator:
    """Async iterator over the analyses of successive pages, each id yielded at most once.

    Items without an id (invalid items) are always yielded; `max_items` stops early without
    fetching further pages. `skipped_duplicates` counts repeated ids left out.
    """

    def __init__(
        self,
        pages: PageIterator[AnalysisPage],
        *,
        max_items: int | None = None,
        max_stalled_pages: int = MAX_STALLED_PAGES,
    ) -> None:
        self._pages = pages
        self._max_items = max_items
        self._max_stalled = max_stalled_pages
        self._buffer: deque[AnalysisItem] = deque()
        self._seen = SeenIds()
        self._stalled = 0
        self.yielded = 0
        self.total: int | None = None

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> AnalysisItem:
        if self._max_items is not None and self.yielded >= self._max_items:
            raise StopAsyncIteration
        while not self._buffer:
            page = await anext(self._pages)
            self.total = page.total
            self._take(page)
        self.yielded += 1
        return self._buffer.popleft()

    @property
    def skipped_duplicates(self) -> int:
        """How many repeated ids were left out."""
        return self._seen.skipped

    def _take(self, page: AnalysisPage) -> None:
        fresh = deque(self._seen.fresh(page.items, self._pages.pages_fetched))
        self._stalled = 0 if fresh else self._stalled + 1
        if self._stalled >= self._max_stalled and page.next_cursor is not None:
            raise PaginationLoopError(
                f"{self._stalled} pages in a row brought no new analyses",
                request=self._pages.last_request,
            )
        self._buffer = fresh
