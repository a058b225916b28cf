"""Auto-refresh of the main screen: visible pending and processing rows, new arrivals at the
top, the status totals and project statistics, every few seconds.

One refresh at a time runs in the "auto-refresh" worker group; its answer carries the view's
generation and is dropped when the view changed meanwhile. Rows are replaced in place
(`AnalysesTable.update_items`), so the cursor and the scroll position stay where they are.
"""

from __future__ import annotations

import asyncio

from textual import work
from textual.timer import Timer
from textual.worker import WorkerState

from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.tui.live_refresh import (
    RefreshJob,
    RefreshResult,
    RefreshSchedule,
    newer_than,
    oldest_in_flight,
)
from screen_analysis.tui.screens.main_loader import MainLoader
from screen_analysis.tui.view_state import PAGE_SIZE, ViewKey
from screen_analysis.tui.widgets.status_filter import CHOICES


class LiveRefresh(MainLoader):
    """The main screen's loader plus the auto-refresh timer and its worker."""

    def init_live_refresh(self, interval_s: float) -> None:
        """Create the schedule (0 s: off); called from the screen's constructor."""
        self.schedule = RefreshSchedule(interval_s)
        self._refresh_timer: Timer | None = None
        self._refreshing = False

    @property
    def refreshing(self) -> bool:
        """Whether a refresh is under way."""
        return self._refreshing

    def start_auto_refresh(self) -> None:
        """Show the refresh state and arm the timer; called on mount."""
        self._arm_refresh_timer()

    def toggle_auto_refresh(self) -> None:
        """Pause or resume the auto-refresh."""
        self.schedule.toggle()
        self._arm_refresh_timer()

    def _arm_refresh_timer(self) -> None:
        if self._refresh_timer is not None:
            self._refresh_timer.stop()
            self._refresh_timer = None
        if self.schedule.enabled and not self._refreshing:
            self._refresh_timer = self.set_timer(self.schedule.interval_s, self._refresh_due)
        self.status_line.refresh_state = self.schedule.label()

    def _refresh_due(self) -> None:
        self._refresh_timer = None
        if not self.schedule.enabled or self._refreshing:
            return
        if self.paging.loading or not self.paging.started:
            self._arm_refresh_timer()  # the view itself is loading: its answer is fresh
            return
        self.refresh_now()

    def refresh_now(self) -> None:
        """Start one refresh of the current view (unless one is under way)."""
        if self._refreshing:
            return
        table = self.table
        visible = [table.items[index] for index in table.visible_rows]
        job = RefreshJob(
            self.paging.generation,
            self.view,
            since=oldest_in_flight(visible),
            fetch_top=table.scroll_y == 0 and self.paging.error is None,
        )
        self._refreshing = True
        self._jobs[self._run_refresh(job)] = job

    @work(group="auto-refresh", exit_on_error=False)
    async def _run_refresh(self, job: RefreshJob) -> RefreshResult:
        """The rows back to the oldest visible in-flight one, and the totals per status."""
        keys = [ViewKey(job.key.project_id, status) for status, _word in CHOICES]
        async with asyncio.TaskGroup() as group:
            rows = group.create_task(self._refresh_rows(job))
            pages = {
                key: group.create_task(
                    self.client.list_analyses(project_id=key.project_id, status=key.status, limit=1)
                )
                for key in keys
            }
        totals = {k: t.result().total for k, t in pages.items()}
        return RefreshResult(job, rows.result(), {k: v for k, v in totals.items() if v is not None})

    async def _refresh_rows(self, job: RefreshJob) -> list[AnalysisItem]:
        # The list endpoint is the only read: the project's unfiltered list, newest first,
        # holds every recent row with its current status, so pages back to `since` suffice.
        if job.since is None and not job.fetch_top:
            return []
        items: list[AnalysisItem] = []
        after: str | None = None
        for _ in range(job.max_pages):
            page = await self.client.list_analyses(
                project_id=job.key.project_id, limit=PAGE_SIZE, after=after
            )
            items.extend(page.items)
            last = page.items[-1] if page.items else None
            passed = (
                job.since is None
                or not isinstance(last, Analysis)
                or last.created_at is None
                or last.created_at < job.since
            )
            if page.next_cursor is None or passed:
                break
            after = page.next_cursor
        return items

    def refresh_done(
        self, job: RefreshJob, state: WorkerState, result: object, error: BaseException | None
    ) -> None:
        """Apply a refresh (unless its view is gone), back off after a failure, re-arm."""
        self._refreshing = False
        if state is WorkerState.SUCCESS and isinstance(result, RefreshResult):
            self.schedule.succeeded()
            if job.generation == self.paging.generation and job.key == self.view:
                self._apply_refresh(result)
        elif state is WorkerState.ERROR and error is not None:
            self.schedule.failed()
            if isinstance(error, AuthenticationError):
                self._show_problem(error)  # the key was refused: the user has to act
        if self.is_attached:
            self._arm_refresh_timer()

    def _apply_refresh(self, result: RefreshResult) -> None:
        for key, total in result.totals.items():
            self.counts.put(key, total)
        if self.view in result.totals:
            self.paging.total = result.totals[self.view]
        self._show_counts()
        table = self.table
        arrived: list[AnalysisItem] = []
        if result.job.fetch_top and table.scroll_y == 0 and self.paging.error is None:
            top = table.items[0] if table.items else None
            arrived = self.paging.prepend(newer_than(result.items, top, self.view))
            table.prepend_items(arrived)
        changed = set(table.update_items(result.items))
        item = table.highlighted_item
        if item is not None and item.id in changed:
            self.show_detail(item)
        rows = [*(i for i in result.items if i.id in changed), *arrived]
        touched = {i.project_id for i in rows if isinstance(i, Analysis)}
        if self.view.project_id is not None:
            touched = {self.view.project_id}
        for project_id in sorted(p for p in touched if isinstance(p, str)):
            self.fetch_project(project_id)
        self._update_status()
