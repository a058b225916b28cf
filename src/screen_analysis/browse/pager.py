"""One view's pages, headless: the view shown, its generations, its loads, its refreshes.

A widget (the analyses pane) holds a `Pager` and draws what it yields: `open` a view (a new
generation), then `await next_page()` as the reader needs rows — the first page, a reload
brought back to as many rows as were loaded, a failure asked again after `retry`, else the
page after the last. The pager keeps its own books: one load at a time, an answer for an
older generation dropped (None), a cancelled load left to be asked again, a failure of the
view recorded (`paging_state` words it) and raised. Every page comes from the one walk
(`api.pagination.Walk`, through `CurrentClient.iter_pages`: each page asked of the client
in use then, so a renewed key reaches the next page at once). What it loads is kept in the
local cache, and the cache's view is read as the key in use may see it (`cache.kept`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import BadRequestError, EmptyPagesError
from screen_analysis.api.models import AnalysisItem, AnalysisPage
from screen_analysis.api.oddities import ListingNotes
from screen_analysis.api.page_rows import SeenIds
from screen_analysis.browse.paging import (
    Generation,
    Page,
    PageLoad,
    Paging,
    Refreshed,
    failed_paging,
    fetch_rows,
)
from screen_analysis.browse.refresh import RefreshJob, ask_refresh, newer_than, page_to_ask_again
from screen_analysis.browse.scope import Filter
from screen_analysis.browse.views import PAGE_SIZE, ViewKey
from screen_analysis.cache import CachedView, LocalCache
from screen_analysis.cache.kept import KeptCache

RELOAD_MAX_ROWS = 2000  # a reload brings back at most this many rows; paging goes on from there
SCAN_BUDGET = 2000  # rows a filtered view reads by need before it waits for `scan_all` (L)


class Pager:
    """The pages of the view shown, loaded as they are needed (see the module)."""

    def __init__(
        self,
        current: CurrentClient,
        kept: KeptCache,
        *,
        cache: LocalCache | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        """Page with the client `current` holds, `page_size` rows a page; tell `kept` what
        each request said of the key; keep what is loaded in `cache` (None: nothing kept)."""
        self._current = current
        self._kept = kept
        self._cache = cache
        self.page_size = page_size
        self.view = ViewKey()
        self.generation = 0
        self.total: int | None = None
        self.total_unknown = False  # the server's last total was no count: shown as "?"
        self.notes = ListingNotes()  # what the view's answers said that was odd, told once
        self.loaded = 0
        self.where: Filter | None = None  # a scope filtered here (None: the server's only)
        self.scanned = 0  # rows read from the server in this generation, matching or not
        self.scan_budget: int | None = SCAN_BUDGET  # None: read on to the end (`scan_all`)
        self.done = False
        self.started = False
        self.error: BaseException | None = None
        self._run = self._new_generation()
        self._first_due = False  # the generation's first load has not been accepted yet
        self._fill_to = 0  # how many rows that first load brings
        self._running: PageLoad | None = None  # under way in `next_page`
        self._failed: PageLoad | None = None

    # The view

    def open(self, key: ViewKey, where: Filter | None = None) -> None:
        """Show `key` (a new generation), its rows filtered by `where` when that scope
        filters here (its `server_key` is then `key`); its first page is what `next_page`
        brings next."""
        if key != self.view or not self.started:  # the same view again: said once already
            self.notes = ListingNotes(key.project_id, key.status)
        self.view = key
        self.where = where if where is not None and (where.client_side or where.last) else None
        self.total, self.total_unknown = None, False
        self._begin(fill_to=0)

    def reload(self) -> None:
        """The view again from the top (a new generation): `next_page` brings back as many
        rows as are loaded now (up to `RELOAD_MAX_ROWS`)."""
        self._begin(fill_to=max(self.loaded, 1))

    def retry(self) -> bool:
        """Ask again for what failed with the next `next_page` (a first page or a reload:
        a new generation; after a run of empty pages: read on from where it stopped);
        False when nothing failed."""
        failed = self._failed
        if failed is None:
            return False
        if failed.replace and not isinstance(self.error, EmptyPagesError):
            self._begin(failed.fill_to)
        else:
            self._failed, self.error = None, None
        return True

    def widen(self, fill_to: int) -> None:
        """The view's first load, not under way yet, brings at least `fill_to` rows (the
        rows the cache showed, so the server's answer replaces them as a whole)."""
        if self._first_due:
            self._fill_to = max(self._fill_to, fill_to)

    @property
    def filtering(self) -> bool:
        """Whether rows are filtered here (the server's total then counts more)."""
        return self.where is not None

    @property
    def scan_stopped(self) -> bool:
        """Whether a filtered view stopped reading at its budget, more rows remaining
        (`scan_all` reads on)."""
        budget = self.scan_budget
        return self.filtering and budget is not None and self.scanned >= budget and not self.done

    def scan_all(self) -> None:
        """Read a filtered view on to its end, by need (`L`: the load of the rest)."""
        self.scan_budget = None

    def _begin(self, fill_to: int) -> None:
        self.generation += 1
        self.scanned, self.scan_budget = 0, SCAN_BUDGET
        self._run = self._new_generation()
        self.done = False
        self._failed, self.error = None, None
        self.started = True
        self._running = None
        self._first_due, self._fill_to = True, fill_to

    def _new_generation(self) -> Generation:
        key = self.view
        walk = self._current.iter_pages(key.project_id, key.status, self.page_size)
        return Generation(self.generation, key, walk)

    # Pages

    @property
    def loading(self) -> bool:
        """Whether a load of the view is under way."""
        return self._running is not None and self._current_run(self._running)

    @property
    def can_page(self) -> bool:
        """Whether `next_page` would ask for the page after the last now (not before the
        view's first page, while a load is under way, after a failure until `retry`, nor
        at the end)."""
        if not self.started or self._first_due or self.loading or self.scan_stopped:
            return False
        return self._failed is None and not self.done and self._run.has_more

    def _current_run(self, load: PageLoad) -> bool:
        return load.generation.number == self.generation

    def _next_load(self) -> PageLoad | None:
        """What `next_page` asks for now: nothing while a load is under way or a failure
        waits for `retry`; the generation's first load until it came; else the next page."""
        if not self.started or self.loading or self._failed is not None:
            return None
        if self._first_due:
            return PageLoad(self._run, True, self._fill_to)
        return PageLoad(self._run) if self.can_page else None

    async def next_page(self) -> Page | None:
        """The next rows of the view (`_next_load`): pages until at least one new row came
        (a first page or a reload: `fill_to` rows), or the end. Pages that bring nothing
        while saying more exist are read on up to the walk's bound; then `EmptyPagesError`,
        unless rows came before it (`retry` reads on from there).

        None when nothing is to be asked now, or when the view changed meanwhile (the
        answer is dropped). A failure of the view is recorded and raised; a cancelled load
        is asked again by the next call."""
        self._current.release()  # the view's own rows are drawn or asked: the others may ask
        load = self._next_load()
        if load is None:
            return None
        self._running = load
        try:
            items, read, page = await self._fetch(load)
        except asyncio.CancelledError:
            self._cancelled(load)
            raise
        except Exception as error:
            self._kept.failed(error)
            if not self._current_run(load):
                return None
            self._running, self._failed, self.error = None, load, error
            raise
        return self._accept(load, items, read, page)

    def _cancelled(self, load: PageLoad) -> None:
        """A load stopped half way: a first load whose walk went on starts on a new walk
        (same generation), so the next asks from the top again."""
        if self._running is not load:
            return
        self._running = None
        if load.replace and load.generation.walk.pages_fetched:
            self._run = self._new_generation()

    async def _fetch(
        self, load: PageLoad
    ) -> tuple[list[AnalysisItem], list[AnalysisItem], AnalysisPage]:
        """Pages until `need` rows came (that match, in a filtered view: within its scan
        budget), or the end; the rows that match and every row read."""
        need = max(min(load.fill_to, RELOAD_MAX_ROWS), 1) if load.replace else 1
        where = self.where
        if where is not None and where.last is not None:
            need = min(need, max(where.last - (0 if load.replace else self.loaded), 0))
        return await fetch_rows(
            load.generation,
            need=need,
            where=where,
            scanned=0 if load.replace else self.scanned,
            budget=self.scan_budget if where is not None else None,
        )

    def _accept(
        self,
        load: PageLoad,
        items: list[AnalysisItem],
        read: list[AnalysisItem],
        page: AnalysisPage,
    ) -> Page | None:
        self._kept.answered()
        if not self._current_run(load):
            return None
        self._running = None
        run, key = load.generation, load.generation.key
        if load.replace:
            self._first_due = False
            self.loaded = self.scanned = 0
            run.newest = read[0] if read else None
        self.loaded += len(items)
        self.scanned += len(read)
        last = self.where.last if self.where is not None else None
        if page.total is not None or page.odd_total is not None:
            self.total, self.total_unknown = page.total, page.total is None
        notes = (*self.notes.page(page, cursor=False), *self.notes.new_rows(read))
        self.done = not run.has_more or (last is not None and self.loaded >= last)
        if self._cache is not None:  # every row read: the cache keeps the server's view
            self._cache.store_page(
                key.project_id,
                key.status,
                read,
                total=self.total,
                done=self.done,
                first=load.replace,
            )
            if page.total is not None:
                self._cache.store_totals(key.project_id, {key.status: page.total})
        loop_error = run.walk.loop_error
        if loop_error is not None:
            self.error = loop_error
        return Page(
            key,
            self.generation,
            items,
            load.replace,
            page.total,
            self.done,
            loop_error,
            page.odd_total,
            notes,
        )

    # What the status line says

    @property
    def cursor_refused(self) -> bool:
        """Whether the last load failed because the server refused its own cursor (expired,
        or the data moved under it) while the first page, same filters, was accepted."""
        failed = self._failed
        return isinstance(self.error, BadRequestError) and failed is not None and not failed.replace

    def paging_state(self) -> Paging:
        """What the status line says of paging: idle, loading, end, error or stopped, the
        error's words ("Couldn't load more: HTTP 503: …") and what `r` does then."""
        error = self.error
        if error is None:
            return Paging("loading" if self.loading else "end" if self.done else "idle")
        if self.loading:
            return Paging("loading")  # `r` was pressed: what failed is being asked again
        first = None if self._failed is None else self._failed.replace
        return failed_paging(error, first=first, cursor_refused=self.cursor_refused)

    # The view as the local cache kept it

    async def kept_view(self, *, offline: bool = False) -> CachedView | None:
        """The view shown as the cache kept it, if the key in use may see it now (`offline`:
        else the kept rows of its project's unfiltered view that have its status); None
        when nothing is kept, or when the view or the key changed while it was read."""
        generation, (project_id, status) = self.generation, self.view
        if offline:
            matching = self._kept.matching
            view = await self._kept.read_now(lambda: matching(project_id, status), None)
        else:
            view = await self._kept.view_now(project_id, status)
        if view is None or generation != self.generation:
            return None
        where = self.where
        if where is None:
            return view
        rows = [item for item in view.items if where.matches(item)][: where.last]
        return view._replace(items=rows)

    def cursor_of(self, analysis_id: str) -> str | None:
        """The cursor the page holding `analysis_id` was asked with in this view (None: the
        first page, or not loaded here)."""
        found = self._run.cursor_of(analysis_id)
        return None if found is None else found[1]

    # Auto-refresh

    def plan_refresh(self, visible: Sequence[AnalysisItem]) -> RefreshJob:
        """A refresh of the view on screen: its first page, and the page of the visible
        pending or processing rows when that is further down."""
        return RefreshJob(self.generation, self.view, page_to_ask_again(self._run, visible))

    async def refresh(self, job: RefreshJob) -> Refreshed | None:
        """Ask for the refresh's pages at once (an old cursor the server no longer takes
        is said, the first page still counts) and apply them: rows newer than the view's
        first row arrive on top, the others are updated in place. None when the view or its
        generation changed meanwhile; a failure is raised."""
        pages = await ask_refresh(self._current, self._kept, job, self.page_size)
        return self._apply_refresh(job, pages.top, pages.again, pages.refused)

    def _apply_refresh(
        self, job: RefreshJob, top: AnalysisPage, again: Sequence[AnalysisItem], refused: bool
    ) -> Refreshed | None:
        if job.generation != self.generation or job.key != self.view:
            return None
        run = self._run
        rows = SeenIds().fresh([*top.items, *again])  # newest first, each once
        arrived: list[AnalysisItem] = []
        taken: list[AnalysisItem] = []  # every new row, for the cache: the server's view
        gap = False
        if self.error is None and not self._first_due:  # else the first page brings them
            newer = newer_than(top.items, run.newest, self.view)
            more = top.next_cursor is not None
            gap = run.newest is not None and more and len(newer) >= len(top.items)
            taken = arrived = [] if gap else run.walk.take(newer)
            if taken:
                run.newest = taken[0]
                self.scanned += len(taken)
                if self.where is not None:  # taken into the walk, shown when they match
                    arrived = [item for item in taken if self.where.matches(item)]
                self.loaded += len(arrived)
        known = top.total is not None or top.odd_total is not None
        total_changed = known and top.total != self.total
        if known:
            self.total, self.total_unknown = top.total, top.total is None
        if self._cache is not None:
            if taken:
                self._cache.store_arrivals(job.key.project_id, job.key.status, taken, self.total)
            self._cache.store_updates(job.key.project_id, job.key.status, rows)
        emptied = top.total == 0 and not top.items
        return Refreshed(
            job.key,
            arrived,
            rows,
            top.total,
            total_changed,
            refused,
            gap,
            top.odd_total,
            emptied,
            job.spare,
        )
