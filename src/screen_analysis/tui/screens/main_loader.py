"""The data side of the main screen: workers for pages, projects and totals, and their outcomes.

Every worker is registered with the job it does; `on_worker_state_changed` is the one place
where results are applied and failures handled. Page answers carry their view's generation
and are dropped when the view has changed since.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import work
from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    RateLimitError,
    ScreenAnalysisError,
)
from screen_analysis.api.models import Analysis, AnalysisItem, AnalysisPage, Project
from screen_analysis.safe_text import clean, shorten
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.browser import open_in_browser
from screen_analysis.tui.live_refresh import RefreshJob
from screen_analysis.tui.memory import settle_loaded_rows
from screen_analysis.tui.project_book import KnownProject, ProjectBook
from screen_analysis.tui.screens.error import ErrorScreen, explain
from screen_analysis.tui.view_state import (
    CountCache,
    PageBatch,
    PageRequest,
    PaginationStuck,
    PagingController,
    ViewKey,
)
from screen_analysis.tui.widgets.analyses_table import AnalysesTable
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.status_filter import CHOICES, StatusFilter
from screen_analysis.tui.widgets.status_line import PagingStatus, StatusLine

PROJECT_FETCHES_AT_ONCE = 4
REFRESH_MAX_ROWS = 2000  # a refresh reloads at most this many rows; paging goes on from there


@dataclass(frozen=True)
class ProjectJob:
    """Fetching one project; `adding` when the user asked to add it."""

    project_id: str
    adding: bool = False


@dataclass(frozen=True)
class CountJob:
    """Fetching the per-status totals of one project (or all)."""

    project_id: str | None


@dataclass(frozen=True)
class OpenJob:
    """Opening an address in a browser."""

    url: str


Job = PageRequest | ProjectJob | CountJob | OpenJob | RefreshJob


def short_error(error: BaseException) -> str:
    """One short line for the status line and notifications (cleaned)."""
    if isinstance(error, RateLimitError):
        return "rate limited by the server (429)"
    if isinstance(error, APIError):
        return clean(f"HTTP {error.status_code}: {error.detail}")
    if isinstance(error, ScreenAnalysisError):
        return clean(error.detail)
    return clean(str(error)) or type(error).__name__


class MainLoader(Screen[None]):
    """Base of the main screen: the loading machinery and access to the widgets."""

    client: ScreenAnalysisClient
    remembered: RememberedProjects
    base_url: str

    @dataclass
    class ChangeConnection(Message):
        """The user wants to connect to another server or with another key."""

    @dataclass
    class KeyRejected(Message):
        """The server refused the key: the app asks for another, then calls `resume`."""

        screen: MainLoader
        detail: str

    def init_loader(self) -> None:
        """Create the bookkeeping; called from the screen's constructor."""
        self.paging = PagingController()
        self.counts = CountCache()
        self.book = ProjectBook()
        self.view = ViewKey()
        self._jobs: dict[Worker[Any], Job] = {}
        self._project_slots = asyncio.Semaphore(PROJECT_FETCHES_AT_ONCE)
        self._keep: tuple[int, str | None, int] | None = None  # generation, id, row
        self._ever_loaded = False
        self._problem_open = False
        self._refused: list[Job] = []  # refused with 401/403, retried with the next key

    @property
    def busy(self) -> bool:
        """Whether any request of this screen is still under way."""
        return any(not self._never_ran(worker) for worker in self._jobs)

    def _never_ran(self, worker: Worker[Any]) -> bool:
        """Whether `worker` was cancelled before its task started: Textual then reports no
        state change, so its job would otherwise count as in flight for ever."""
        return (
            worker.is_cancelled
            and worker.state is WorkerState.RUNNING
            and worker not in self._app.workers
        )

    def _forget_never_ran(self) -> None:
        for worker in [w for w in self._jobs if self._never_ran(w)]:
            job = self._jobs.pop(worker)
            if isinstance(job, PageRequest):
                self.paging.cancel(job)

    @property
    def _app(self) -> App[Any]:
        return self.app

    @property
    def table(self) -> AnalysesTable:
        """The analyses table."""
        return self.query_one(AnalysesTable)

    @property
    def sidebar(self) -> ProjectSidebar:
        """The project sidebar."""
        return self.query_one(ProjectSidebar)

    @property
    def detail(self) -> AnalysisDetail:
        """The detail pane."""
        return self.query_one(AnalysisDetail)

    @property
    def status_filter(self) -> StatusFilter:
        """The status filter bar."""
        return self.query_one(StatusFilter)

    @property
    def status_line(self) -> StatusLine:
        """The status line."""
        return self.query_one(StatusLine)

    def show_detail(self, item: AnalysisItem | None) -> None:
        """Show `item` in the detail pane with what is known of its project."""
        project_id = item.project_id if isinstance(item, Analysis) else None
        self.detail.show(item, self.book.get(project_id) if project_id else None)

    # Views and pages

    def show_view(self, key: ViewKey) -> None:
        """Switch the table to `key`: the old view's request is cancelled, its rows cleared."""
        self.view = key
        self.status_filter.current = key.status
        self.table.empty_message = "Loading…"
        self.table.set_items([])
        self.show_detail(None)
        self._keep = None
        self._run_page(self.paging.start(key))
        self._show_counts()  # the totals are asked for once the first page is in

    def load_more(self) -> None:
        """Ask for the next page of the view, unless one is in flight or the end is reached."""
        request = self.paging.next_request()
        if request is not None:
            self._run_page(request)

    def refresh_or_retry(self) -> None:
        """Retry the failed request, or reload the view keeping the selected row (also when
        the server refused a page cursor: the listing restarts from the top)."""
        request = None if self._cursor_refused() else self.paging.retry()
        if request is None:
            item = self.table.highlighted_item
            request = self.paging.refresh()
            self._keep = (request.generation, item.id if item else None, self.table.cursor_row)
            self.counts.forget(self.view.project_id)
            self._load_counts()
            if self.view.project_id is not None:
                self.fetch_project(self.view.project_id)
        elif request.replace and self._keep is not None:
            self._keep = (request.generation, self._keep[1], self._keep[2])
        self._run_page(request)

    def _cursor_refused(self) -> bool:
        """Whether the last page failed because the server refused its own cursor (expired,
        or the data moved under it): the first page, same filters, was accepted."""
        failed = self.paging.failed
        refused = isinstance(self.paging.error, BadRequestError)
        return refused and failed is not None and failed.after is not None

    def _run_page(self, request: PageRequest) -> None:
        self._jobs[self._load_pages(request)] = request
        self._update_status()

    @work(exclusive=True, group="page", exit_on_error=False)
    async def _load_pages(self, request: PageRequest) -> PageBatch:
        """One page, or for a reload the pages up to the rows that were loaded."""
        pages: list[AnalysisPage] = []
        after, rows, seen = request.after, 0, set[str]()
        fill_to = min(request.fill_to, REFRESH_MAX_ROWS)
        while True:
            page = await self.client.list_analyses(
                project_id=request.key.project_id,
                status=request.key.status,
                limit=request.limit,
                after=after,
            )
            pages.append(page)
            rows += len(page.items)
            cursor = page.next_cursor
            if not request.replace or cursor is None or rows >= fill_to or cursor in seen:
                return PageBatch(request, pages)
            seen.add(cursor)
            after = cursor

    def _apply_batch(self, batch: PageBatch) -> None:
        accepted = self.paging.accept(batch)
        if accepted is None:
            return  # a late answer for a view that is gone
        self._ever_loaded = True
        table = self.table
        if accepted.replace:
            self._load_counts()
            keep = self._keep if self._keep and self._keep[0] == batch.request.generation else None
            table.set_items(accepted.items, keep_id=keep[1] if keep else None)
            if keep and keep[1] and table.index_of(keep[1]) is None and accepted.items:
                table.move_cursor(min(keep[2], len(accepted.items) - 1))
            if not accepted.items:
                table.empty_message = "No analyses match this project and status."
                self.show_detail(None)
        else:
            table.append_items(accepted.items)
        if self.paging.total is not None:
            self.counts.put(self.view, self.paging.total)
            self._show_counts()
        self.want_projects(i.project_id for i in accepted.items if isinstance(i, Analysis))
        if isinstance(self.paging.error, PaginationStuck):
            self.notify(str(self.paging.error), severity="warning", markup=False)
        self._update_status()
        settle_loaded_rows(len(table.items))
        if table.near_end:
            self.load_more()  # at once: a NearEnd message would wait behind queued key presses

    def _update_status(self) -> None:
        paging = self.paging
        state, error = "idle", ""
        if paging.error is not None:
            state = "error"
            more = paging.failed is not None and paging.failed.after is not None
            prefix = "Couldn't load more" if more else "Couldn't load"
            if isinstance(paging.error, PaginationStuck):
                prefix = "Paging stopped"
            elif self._cursor_refused():
                prefix = "Page cursor refused, r restarts from the top"
            error = prefix + ": " + short_error(paging.error)
        elif paging.loading:
            state = "loading"
        elif paging.done:
            state = "end"
        self.status_line.status = PagingStatus(len(self.table.items), paging.total, state, error)

    # Totals per status

    def _load_counts(self) -> None:
        self._show_counts()
        keys = [ViewKey(self.view.project_id, status) for status, _ in CHOICES]
        missing = [k for k in self.counts.missing(keys) if k != self.view]
        if missing:
            self._jobs[self._fetch_counts(missing)] = CountJob(self.view.project_id)

    def _show_counts(self) -> None:
        counts = {}
        for status, _word in CHOICES:
            total = self.counts.get(ViewKey(self.view.project_id, status))
            if total is not None:
                counts[status] = total
        self.status_filter.counts = counts

    @work(exclusive=True, group="counts", exit_on_error=False)
    async def _fetch_counts(self, keys: Sequence[ViewKey]) -> dict[ViewKey, int]:
        """The total of each key, from a limit=1 request each."""
        async with asyncio.TaskGroup() as group:
            tasks = {
                key: group.create_task(
                    self.client.list_analyses(project_id=key.project_id, status=key.status, limit=1)
                )
                for key in keys
            }
        return {k: t.result().total for k, t in tasks.items() if t.result().total is not None}  # type: ignore[misc]

    # Projects

    def want_projects(self, project_ids: Iterable[str | None]) -> None:
        """Fetch (once each) the projects not seen before, and list them."""
        for project_id in self.book.claim(project_ids):
            self.sidebar.show_entry(KnownProject(project_id))
            self.fetch_project(project_id)

    def add_project(self, project_id: str) -> None:
        """Add a project by id once the server confirms it exists."""
        known = self.book.get(project_id)
        if known is not None and known.state == "ok":
            self.notify("That project is already listed.", markup=False)
            return
        self.book.claim([project_id])
        self.fetch_project(project_id, adding=True)

    def fetch_project(self, project_id: str, *, adding: bool = False) -> None:
        """Fetch a project in the background (a few at a time)."""
        self._jobs[self._get_project(project_id)] = ProjectJob(project_id, adding)

    @work(group="projects", exit_on_error=False)
    async def _get_project(self, project_id: str) -> Project:
        """One project."""
        async with self._project_slots:
            return await self.client.get_project(project_id)

    def _project_arrived(self, job: ProjectJob, project: Project) -> None:
        known = KnownProject(job.project_id, project, "ok")
        self.book.record(known)
        self.sidebar.show_entry(known)
        self.table.set_project_names(self.book.names())
        if job.adding:
            self.remembered.add(job.project_id)
            self.notify("Added the project " + clean(project.name), markup=False)
        item = self.table.highlighted_item
        if isinstance(item, Analysis) and item.project_id == job.project_id:
            self.show_detail(item)

    def _project_failed(self, job: ProjectJob, error: BaseException) -> None:
        label = shorten(clean(job.project_id))
        if job.adding:
            if isinstance(error, NotFoundError):
                text = "No project " + label + " on this server; it was not added."
            else:
                text = "Couldn't check the project " + label + ": " + short_error(error)
            self.notify(text, severity="error", markup=False)
            if self.sidebar.entry(job.project_id) is None:
                self.book.forget(job.project_id)
                return
        state = "missing" if isinstance(error, NotFoundError) else "error"
        known = KnownProject(job.project_id, None, state)
        self.book.record(known)
        self.sidebar.show_entry(known)

    # The one place where worker outcomes land

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Apply a finished worker's result or handle its failure."""
        self._forget_never_ran()
        worker = event.worker
        job = self._jobs.get(worker)
        if job is None or event.state in (WorkerState.PENDING, WorkerState.RUNNING):
            return
        del self._jobs[worker]
        if isinstance(job, RefreshJob):
            self.refresh_done(job, event.state, worker.result, worker.error)
        elif event.state is WorkerState.SUCCESS:
            self._succeeded(job, worker.result)
        elif event.state is WorkerState.ERROR and worker.error is not None:
            self._failed(job, worker.error)
        elif event.state is WorkerState.CANCELLED and isinstance(job, PageRequest):
            self.paging.cancel(job)

    def _succeeded(self, job: Job, result: object) -> None:
        if isinstance(job, PageRequest) and isinstance(result, PageBatch):
            self._apply_batch(result)
        elif isinstance(job, ProjectJob) and isinstance(result, Project):
            self._project_arrived(job, result)
        elif isinstance(job, CountJob) and isinstance(result, dict):
            for key, total in result.items():
                self.counts.put(key, total)
            self._show_counts()
        elif isinstance(job, OpenJob) and result is False:
            self.show_url(job.url, "No browser took the address; copy it:")

    def _failed(self, job: Job, error: BaseException) -> None:
        if isinstance(job, PageRequest):
            if not self.paging.fail(job, error):
                return  # a failure of a view that is gone
            self._update_status()
        elif isinstance(job, ProjectJob) and not isinstance(error, AuthenticationError):
            self._project_failed(job, error)
            return
        if isinstance(error, AuthenticationError):
            self._refused.append(job)
        if isinstance(error, AuthenticationError) or (
            isinstance(error, APIConnectionError) and not self._ever_loaded
        ):
            self._show_problem(error)
        elif isinstance(job, PageRequest) and self._cursor_refused():
            text = "The server refused the page cursor: " + short_error(error)
            text += " — press r to restart the listing from the top"
            self.notify(text, severity="warning", markup=False)
        elif isinstance(job, PageRequest):
            self.notify(short_error(error) + " — press r to retry", severity="error", markup=False)
        elif isinstance(job, OpenJob):
            self.show_url(job.url, "The browser could not be started; copy the address:")

    # Problems that need the user

    def _show_problem(self, error: BaseException) -> None:
        if self._problem_open:
            return
        self._problem_open = True
        if isinstance(error, AuthenticationError):
            detail = "The server said: " + short_error(error) + ". Paste a valid key to go on."
            self.post_message(self.KeyRejected(self, detail))
            return
        self._app.push_screen(ErrorScreen(explain(error, self.base_url)), self._problem_closed)

    def resume(self, client: ScreenAnalysisClient | None) -> None:
        """After the key was refused: with a new client, retry what failed; None: keep the
        rows and the error (r retries)."""
        self._problem_open = False
        if client is None:
            return
        self.client = client
        refused, self._refused = self._refused, []
        if self.paging.error is not None:
            self.refresh_or_retry()
        for job in refused:
            if isinstance(job, ProjectJob):
                self.fetch_project(job.project_id, adding=job.adding)
        if any(isinstance(job, CountJob) for job in refused):
            self._load_counts()

    def _problem_closed(self, choice: str | None) -> None:
        self._problem_open = False
        if choice == "retry":
            self.refresh_or_retry()
        elif choice == "connect":
            self.post_message(self.ChangeConnection())

    def refresh_done(
        self, job: RefreshJob, state: WorkerState, result: object, error: BaseException | None
    ) -> None:
        """An auto-refresh ended; the screen provides it."""
        raise NotImplementedError

    # Browser

    def open_url(self, url: str) -> None:
        """Open `url` in a browser from a thread (webbrowser blocks)."""
        self._jobs[self._open_in_browser(url)] = OpenJob(url)

    @work(thread=True, group="browser", exit_on_error=False)
    def _open_in_browser(self, url: str) -> bool:
        """Hand the address to the browser."""
        return open_in_browser(url)

    def show_url(self, url: str, reason: str) -> None:
        """Show an address to copy; the screen provides it."""
        raise NotImplementedError
