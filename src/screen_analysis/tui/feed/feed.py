"""The main view's data, headless: the current view, its paging, what an auto-refresh asks
for, and the requests behind the totals per status and the projects.

The analyses pane (`widgets/table/pane.py`) holds one `Feed` as its page source: it runs the
feed's coroutines (`load`, `run_refresh`) in named workers and hands each outcome back
(`accept`, `fail`, `apply_refresh`); the status filter asks it for totals (`fetch_totals`).
Every load carries its view's generation; an answer for an older generation is dropped. The
client is read from the one holder (`CurrentClient`) at each request, so a renewed key
reaches the feed at once. No Textual here: tests drive a feed against the reference server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.describe import describe_error, retry_can_help
from screen_analysis.api.errors import BadRequestError, EmptyPagesError
from screen_analysis.api.models import AnalysisItem, AnalysisPage, Project
from screen_analysis.api.oddities import ListingNotes
from screen_analysis.api.pagination import EmptyRun
from screen_analysis.cache import LocalCache
from screen_analysis.tui.feed.kept import KeptCache, KeyTrust
from screen_analysis.tui.feed.paging import (
    Accepted,
    Listing,
    PageBatch,
    PageLoad,
    Paging,
    Refreshed,
)
from screen_analysis.tui.feed.refresh import (
    RefreshJob,
    RefreshResult,
    newer_than,
    page_to_ask_again,
)
from screen_analysis.tui.feed.totals import Totals, fetch_totals
from screen_analysis.tui.feed.views import PAGE_SIZE, ViewKey
from screen_analysis.words import capitalised


@contextlib.asynccontextmanager
async def _first_failure() -> AsyncIterator[None]:
    """Requests sent together fail as the first of them failed (not as an exception group),
    so a refused key is still recognised as one."""
    try:
        yield
    except ExceptionGroup as group:
        raise group.exceptions[0] from group


RELOAD_MAX_ROWS = 2000  # a reload brings back at most this many rows; paging goes on from there
PROJECT_FETCHES_AT_ONCE = 4


class Feed:
    """The current view of the main table and everything loaded for it."""

    def __init__(
        self,
        current: CurrentClient,
        *,
        page_size: int = PAGE_SIZE,
        cache: LocalCache | None = None,
        trust: KeyTrust | None = None,
    ) -> None:
        """Page through views with the client `current` holds; `page_size` rows a page;
        what is loaded is kept in `cache` (None: no local cache) and shown from it as
        `kept` allows (`trust`: whether the key in use was accepted before)."""
        self.current = current
        self.cache = cache if cache is not None and cache.usable else None
        self.kept = KeptCache(self.cache, trust)
        self.page_size = page_size
        self.view = ViewKey()
        self.generation = 0
        self.total: int | None = None
        self.total_unknown = False  # the server's last total was no count: shown as "?"
        self.notes = ListingNotes()  # what the view's answers said that was odd, told once
        self.loaded = 0
        self.done = False
        self.started = False
        self.in_flight: PageLoad | None = None
        self.failed: PageLoad | None = None
        self.error: BaseException | None = None
        self._listing = self._new_listing()
        self._newest: AnalysisItem | None = None  # the first row of the listing
        self._project_slots = asyncio.Semaphore(PROJECT_FETCHES_AT_ONCE)

    # Paging

    def open(self, key: ViewKey) -> PageLoad:
        """Switch to `key` (a new generation) and ask for its first page."""
        if key != self.view or not self.started:  # the same view again: said once already
            self.notes = ListingNotes(key.project_id, key.status)
        self.view = key
        self.total, self.total_unknown = None, False
        return self._begin(fill_to=0)

    def reload(self) -> PageLoad:
        """Reload the view from the top, as many rows as are loaded now (a new generation)."""
        return self._begin(fill_to=max(self.loaded, 1))

    def _begin(self, fill_to: int) -> PageLoad:
        self.generation += 1
        self._listing = self._new_listing()
        self.done = False
        self.failed = None
        self.error = None
        self.started = True
        self.in_flight = PageLoad(self.generation, self.view, self._listing, True, fill_to)
        return self.in_flight

    def _new_listing(self) -> Listing:
        key, size = self.view, self.page_size

        async def fetch(after: str | None) -> AnalysisPage:
            return await self.current.client.list_analyses(
                project_id=key.project_id, status=key.status, limit=size, after=after
            )

        return Listing(fetch, key)

    def widen(self, load: PageLoad, fill_to: int) -> PageLoad:
        """The same first load of the view, asked to bring at least `fill_to` rows (the rows a
        cached view showed, so the server's answer replaces them as a whole)."""
        wider = load._replace(fill_to=max(load.fill_to, fill_to))
        if self.in_flight == load:
            self.in_flight = wider
        return wider

    def more(self) -> PageLoad | None:
        """The next page to ask for, or None (loading, failed, at the end, nothing started)."""
        if not self.started or self.in_flight or self.failed or self.done:
            return None
        if not self._listing.has_more:
            return None
        self.in_flight = PageLoad(self.generation, self.view, self._listing)
        return self.in_flight

    def retry(self) -> PageLoad | None:
        """Ask again for what failed (a first page or a reload starts a new generation)."""
        failed = self.failed
        if failed is None:
            return None
        if failed.replace and not isinstance(self.error, EmptyPagesError):
            return self._begin(failed.fill_to)
        self.failed = None
        self.error = None
        self.in_flight = failed
        return failed

    async def load(self, load: PageLoad) -> PageBatch:
        """Fetch what `load` asks for (run in a worker): pages until at least one new row
        came (a reload: `fill_to` rows), or the end. Pages that bring nothing while saying
        more exist are read on, up to `EmptyRun`'s bound: then EmptyPagesError, unless
        rows came before it (`retry` goes on from there)."""
        listing = load.listing
        need = max(min(load.fill_to, RELOAD_MAX_ROWS), 1) if load.replace else 1
        items: list[AnalysisItem] = []
        empty = EmptyRun()
        while True:
            page, fresh = await listing.next_page()
            items.extend(fresh)
            if not listing.has_more or len(items) >= need:
                break
            try:
                empty.page(len(fresh), len(page.items), listing.next_cursor, None)
            except EmptyPagesError:
                if not items:
                    raise
                break
        done = not listing.has_more
        return PageBatch(
            load, items, page.total, done, listing.loop_error, page.odd_total, page.odd_cursor
        )

    def accept(self, batch: PageBatch) -> Accepted | None:
        """Take a batch's rows; None when it belongs to an older generation (dropped)."""
        load = batch.load
        self.kept.answered()
        if load.generation != self.generation:
            return None
        self.in_flight = None
        if load.replace:
            self.loaded = 0
            self._newest = batch.items[0] if batch.items else None
        self.loaded += len(batch.items)
        if batch.total is not None or batch.odd_total is not None:
            self.total, self.total_unknown = batch.total, batch.total is None
        notes = (*self.notes.page(batch, cursor=False), *self.notes.new_rows(batch.items))
        self.done = batch.done
        if self.cache is not None:
            key = load.key
            self.cache.store_page(
                key.project_id, key.status, batch.items,
                total=self.total, done=batch.done, first=load.replace,
            )  # fmt: skip
            if batch.total is not None:
                self.cache.store_totals(key.project_id, {key.status: batch.total})
        if batch.loop_error is not None:
            self.error = batch.loop_error
        return Accepted(batch.items, load.replace, notes)

    def fail(self, load: PageLoad, error: BaseException) -> bool:
        """Record a failure; False when it belongs to an older generation (ignored)."""
        self.kept.failed(error)
        if load.generation != self.generation:
            return False
        self.in_flight = None
        self.failed = load
        self.error = error
        return True

    def cancelled(self, load: PageLoad) -> None:
        """A load's worker was cancelled: it may be asked again."""
        if self.in_flight == load:
            self.in_flight = None

    @property
    def loading(self) -> bool:
        """Whether a load of the current view is under way."""
        return self.in_flight is not None

    @property
    def cursor_refused(self) -> bool:
        """Whether the last load failed because the server refused its own cursor (expired,
        or the data moved under it) while the first page, same filters, was accepted."""
        failed = self.failed
        return isinstance(self.error, BadRequestError) and failed is not None and not failed.replace

    def paging_state(self) -> Paging:
        """What the status line says of paging: idle, loading, end, error or stopped, the
        error's words ("Couldn't load more: HTTP 503: …") and what `r` does then."""
        error = self.error
        if error is None:
            return Paging("loading" if self.loading else "end" if self.done else "idle")
        if self.loading:
            return Paging("loading")  # `r` was pressed: what failed is being asked again
        words = describe_error(error)
        if isinstance(error, EmptyPagesError):
            return Paging("stopped", capitalised(words), "read on")
        if self.failed is None:  # the server repeated a cursor, or sent one that cannot be read
            return Paging(
                "error", describe_error(error, prefix="Paging stopped"), "reload from the top"
            )
        if self.cursor_refused:
            restart = "restart the listing from the top"
            return Paging("error", describe_error(error, prefix="Page cursor refused"), restart)
        prefix = "Couldn't load" if self.failed.replace else "Couldn't load more"
        again = "retry" if retry_can_help(error) else "ask again"
        return Paging("error", describe_error(error, prefix=prefix), again)

    # Totals per status (the status filter's source)

    async def fetch_totals(self, keys: Sequence[ViewKey]) -> Totals:
        """The total of each key, from a limit=1 request each living or dying on its own
        (`totals.fetch_totals`; run in a worker)."""
        async with self.kept.told():
            return await fetch_totals(lambda key: self._first(key, limit=1), keys, self.cache)

    # Auto-refresh

    def plan_refresh(self, visible: Sequence[AnalysisItem]) -> RefreshJob:
        """A refresh of the view on screen: its first page, and the page of the visible
        pending or processing rows when that is further down."""
        return RefreshJob(self.generation, self.view, page_to_ask_again(self._listing, visible))

    async def run_refresh(self, job: RefreshJob) -> RefreshResult:
        """Ask for the refresh's pages at once (run in a worker)."""
        async with self.kept.told(), _first_failure(), asyncio.TaskGroup() as group:
            top = group.create_task(self._first(job.key, limit=self.page_size))
            again = group.create_task(self._again(job)) if job.again is not None else None
        rows, refused = again.result() if again is not None else ((), False)
        page = top.result()
        more = page.next_cursor is not None
        return RefreshResult(job, page.items, page.total, rows, refused, more, page.odd_total)

    async def _again(self, job: RefreshJob) -> tuple[Sequence[AnalysisItem], bool]:
        try:
            page = await self.current.client.list_analyses(
                project_id=job.key.project_id,
                status=job.key.status,
                limit=self.page_size,
                after=job.again,
            )
        except BadRequestError:
            return (), True  # the old cursor is no longer taken: the first page still counts
        return page.items, False

    def apply_refresh(self, result: RefreshResult) -> Refreshed | None:
        """What a refresh changes on screen; None when its view or generation is gone.
        Rows newer than the listing's first row arrive on top; the table keeps the view
        still around them."""
        job = result.job
        if job.generation != self.generation or job.key != self.view:
            return None
        arrived: list[AnalysisItem] = []
        gap = False
        if self.error is None:
            newer = newer_than(result.top, self._newest, self.view)
            gap = self._newest is not None and result.more and len(newer) >= len(result.top)
            arrived = [] if gap else self._listing.seen.fresh(newer, 0)
            if arrived:
                self._newest = arrived[0]
                self.loaded += len(arrived)
        total_changed = result.total != self.total and (
            result.total is not None or result.odd_total is not None
        )
        if result.total is not None or result.odd_total is not None:
            self.total, self.total_unknown = result.total, result.total is None
        if self.cache is not None:
            if arrived:
                self.cache.store_arrivals(job.key.project_id, job.key.status, arrived, self.total)
            self.cache.store_updates(job.key.project_id, job.key.status, result.rows)
        return Refreshed(arrived, result.rows, total_changed, result.cursor_refused, gap)

    # Projects (the sidebar's source)

    async def fetch_project(self, project_id: str) -> Project:
        """One project (a few at a time; run in a worker)."""
        async with self._project_slots, self.kept.told():
            project = await self.current.client.get_project(project_id)
        if self.cache is not None:
            self.cache.store_project(project)
        return project

    # The local cache, as the key in use may see it (`kept`: the pane reads its views)

    async def kept_projects(self) -> list[Project]:
        """The projects the cache kept, once the key in use may see them (the sidebar's)."""
        kept = await self.kept.when_open(self.kept.projects, None)
        return [project for project, _at in kept or ()]

    async def kept_totals(self, project_id: str | None) -> dict[str | None, tuple[int, datetime]]:
        """The totals the cache kept for a project, once the key in use may see them."""
        return await self.kept.when_open(lambda: self.kept.totals(project_id), {})

    async def _first(self, key: ViewKey, *, limit: int) -> AnalysisPage:
        return await self.current.client.list_analyses(
            project_id=key.project_id, status=key.status, limit=limit
        )
