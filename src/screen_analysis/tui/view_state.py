"""The paging controller: which page the current view asks for next, and which answers count.

Headless (no Textual). A *view* is one (project, status) pair; each view, and each refresh of
one, gets a new generation. Requests and their answers carry that generation, so an answer
from an older view is recognised and dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from screen_analysis.api.models import AnalysisItem, AnalysisPage, AnalysisStatus

PAGE_SIZE = 100
COUNT_TTL_S = 30.0


@dataclass(frozen=True)
class ViewKey:
    """What the table shows: one project (or all) and one status (or all)."""

    project_id: str | None = None
    status: AnalysisStatus | None = None


@dataclass(frozen=True)
class PageRequest:
    """One load for one generation of a view.

    `replace` loads from the start and replaces the table's rows; it keeps following cursors
    until at least `fill_to` rows arrived (a refresh keeps as many rows as were loaded).
    """

    generation: int
    key: ViewKey
    after: str | None = None
    replace: bool = False
    fill_to: int = 0
    limit: int = PAGE_SIZE


@dataclass(frozen=True)
class PageBatch:
    """The pages that answered one request, in order."""

    request: PageRequest
    pages: Sequence[AnalysisPage]


@dataclass(frozen=True)
class Accepted:
    """Rows to show after a batch: all rows (replace) or rows to append, already de-duplicated."""

    items: list[AnalysisItem]
    replace: bool


class PaginationStuck(Exception):
    """The server handed back a cursor that was already followed in this view."""


@dataclass
class PagingController:
    """Bookkeeping for lazy paging of the current view.

    At most one request is in flight; each cursor is asked for once (a failed request may be
    retried); paging stops when `next_cursor` is null.
    """

    page_size: int = PAGE_SIZE
    key: ViewKey = field(default_factory=ViewKey)
    generation: int = 0
    total: int | None = None
    next_cursor: str | None = None
    done: bool = False
    in_flight: PageRequest | None = None
    failed: PageRequest | None = None
    error: BaseException | None = None
    _asked: set[str] = field(default_factory=set)
    _ids: set[str] = field(default_factory=set)
    loaded: int = 0
    started: bool = False

    def start(self, key: ViewKey) -> PageRequest:
        """Begin a new view: forget the old one and ask for its first page."""
        self.key = key
        self.total = None
        return self._begin(
            PageRequest(self.generation + 1, key, replace=True, limit=self.page_size)
        )

    def refresh(self) -> PageRequest:
        """Reload the current view from the start, as many rows as are loaded now."""
        fill_to = max(self.loaded, 1)
        return self._begin(
            PageRequest(
                self.generation + 1, self.key, replace=True, fill_to=fill_to, limit=self.page_size
            )
        )

    def _begin(self, request: PageRequest) -> PageRequest:
        self.generation = request.generation
        self.next_cursor = None
        self.done = False
        self.failed = None
        self.error = None
        self.started = True
        self.in_flight = request
        return request

    def next_request(self) -> PageRequest | None:
        """The next page to ask for, or None (loading, failed, at the end, or nothing started)."""
        if not self.started or self.in_flight or self.failed or self.done:
            return None
        if self.next_cursor is None or self.next_cursor in self._asked:
            return None
        self._asked.add(self.next_cursor)
        self.in_flight = PageRequest(
            self.generation, self.key, after=self.next_cursor, limit=self.page_size
        )
        return self.in_flight

    def retry(self) -> PageRequest | None:
        """Ask again for the request that failed; None when nothing failed."""
        failed = self.failed
        if failed is None:
            return None
        if failed.replace:
            return self._begin(replace(failed, generation=self.generation + 1))
        self.failed = None
        self.error = None
        self.in_flight = failed
        return failed

    def is_current(self, request: PageRequest) -> bool:
        """Whether `request` belongs to the view on screen now."""
        return request.generation == self.generation

    def accept(self, batch: PageBatch) -> Accepted | None:
        """Take a batch's rows; None when it belongs to an older view (dropped)."""
        request = batch.request
        if not self.is_current(request):
            return None
        self.in_flight = None
        if request.replace:
            self._ids = set()
            self._asked = set()
            self.loaded = 0
        items: list[AnalysisItem] = []
        for page in batch.pages:
            for item in page.items:
                if item.id is not None and item.id in self._ids:
                    continue  # a row that moved across a page boundary is shown once
                if item.id is not None:
                    self._ids.add(item.id)
                items.append(item)
            if page.total is not None:
                self.total = page.total
            self.next_cursor = page.next_cursor
        self.loaded += len(items)
        self.done = self.next_cursor is None
        if self.next_cursor is not None and self.next_cursor in self._asked:
            self.done = True
            self.failed = None
            self.error = PaginationStuck("the server repeated a page cursor; paging stopped")
        return Accepted(items, request.replace)

    def prepend(self, items: Sequence[AnalysisItem]) -> list[AnalysisItem]:
        """Record rows shown above the loaded ones (new arrivals); returns those not seen yet."""
        new = [item for item in items if item.id is None or item.id not in self._ids]
        self._ids.update(item.id for item in new if item.id is not None)
        self.loaded += len(new)
        return new

    def fail(self, request: PageRequest, error: BaseException) -> bool:
        """Record a failure; False when it belongs to an older view (ignored)."""
        if not self.is_current(request):
            return False
        self.in_flight = None
        if request.after is not None:
            self._asked.discard(request.after)
        self.failed = request
        self.error = error
        return True

    def cancel(self, request: PageRequest) -> None:
        """Forget a request whose worker was cancelled, so it can be asked again."""
        if self.in_flight == request:
            self.in_flight = None
            if request.after is not None:
                self._asked.discard(request.after)

    @property
    def loading(self) -> bool:
        """Whether a request of the current view is in flight."""
        return self.in_flight is not None


@dataclass
class CountCache:
    """Totals per (project, status), kept for a short time."""

    ttl_s: float = COUNT_TTL_S
    clock: Callable[[], float] = time.monotonic
    _values: dict[ViewKey, tuple[int, float]] = field(default_factory=dict)

    def get(self, key: ViewKey) -> int | None:
        """The cached total, or None when missing or too old."""
        entry = self._values.get(key)
        if entry is None or self.clock() - entry[1] > self.ttl_s:
            return None
        return entry[0]

    def put(self, key: ViewKey, total: int) -> None:
        """Remember a total seen now."""
        self._values[key] = (total, self.clock())

    def missing(self, keys: Sequence[ViewKey]) -> list[ViewKey]:
        """The keys with no fresh total."""
        return [key for key in keys if self.get(key) is None]

    def forget(self, project_id: str | None) -> None:
        """Drop a project's totals, so they are asked again."""
        self._values = {k: v for k, v in self._values.items() if k.project_id != project_id}
