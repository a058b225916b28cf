"""The analyses of one view: the table, its status line, and the pages behind them.

Like Textual's `DirectoryTree`, the pane takes a source (`PageSource`, the main view's
headless feed) and runs its own workers: the view's pages (fetched by need: as far as the
reader went, plus a look-ahead, one request at a time), the load of the rest (`L`) and the
auto-refresh rounds. It applies what they bring to its table and says how paging stands in
its status line. It posts up only what other widgets need: the rows that arrived (their
projects), a refresh round that saw something move (the counts), a view's total, and a
failure (for the screen's one problem line).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.numbers import format_count
from screen_analysis.tui.feed import (
    Accepted,
    PageBatch,
    PageLoad,
    PageSource,
    RefreshJob,
    RefreshSchedule,
    ViewKey,
)
from screen_analysis.tui.feed.load_all import LoadProgress, load_rest
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.widgets.status_line import PagingStatus, StatusLine
from screen_analysis.tui.widgets.table.live import RefreshTimer
from screen_analysis.tui.widgets.table.table import AnalysesTable

EMPTY_VIEW = "No analyses match this project and status."


class AnalysesPane(Vertical):
    """The table of one view and its status line; pages, refreshes and loads its rows."""

    class RowsArrived(Message):
        """Rows were added to the table (their projects may be new)."""

        def __init__(self, items: Sequence[AnalysisItem]) -> None:
            super().__init__()
            self.items = items

        @property
        def project_ids(self) -> list[str]:
            """The projects of the rows, each once, in order."""
            ids = (i.project_id for i in self.items if isinstance(i, Analysis))
            return list(dict.fromkeys(p for p in ids if p))

    class Moved(Message):
        """A refresh round saw rows arrive or change, or the view's total move: counts
        elsewhere are worth reading again (`project_ids`: the projects touched)."""

        def __init__(self, view: ViewKey, project_ids: frozenset[str]) -> None:
            super().__init__()
            self.view = view
            self.project_ids = project_ids

    class TotalSeen(Message):
        """The server said how many analyses a view holds (with a page of it)."""

        def __init__(self, view: ViewKey, total: int) -> None:
            super().__init__()
            self.view = view
            self.total = total

    class Failed(Message):
        """A request of the pane failed. `again` asks it again; `words` say it for a person;
        `loaded` whether the view had shown rows before."""

        def __init__(
            self, error: Exception, again: Callable[[], None], words: str, loaded: bool
        ) -> None:
            super().__init__()
            self.error = error
            self.again = again
            self.words = words
            self.loaded = loaded

    def __init__(
        self,
        source: PageSource,
        schedule: RefreshSchedule,
        *,
        clock: Callable[[], datetime] = now_utc,
        id: str | None = None,
    ) -> None:
        """Page through `source`'s views; refresh on `schedule`; `clock` for the ages."""
        super().__init__(id=id)
        self._source = source
        self._clock = clock
        self._keep_id: tuple[int, str | None] | None = None  # (generation, id) of a reload
        self._generation = 0
        self._ever_loaded = False
        self._rounds = RefreshTimer(schedule, self.set_timer, self._start_round, self._show_state)

    def compose(self) -> ComposeResult:
        """The table, then the status line under it."""
        yield AnalysesTable(clock=self._clock, empty_message="Loading…", id="table")
        yield StatusLine(id="status-line")

    def on_mount(self) -> None:
        """Keep "↑ N new" in the status line; arm the auto-refresh."""
        self.watch(self.table, "unseen_above", self._unseen_changed)
        self._rounds.arm()

    @property
    def table(self) -> AnalysesTable:
        """The pane's table."""
        return self.query_one(AnalysesTable)

    @property
    def status_line(self) -> StatusLine:
        """The pane's status line."""
        return self.query_one(StatusLine)

    @property
    def view(self) -> ViewKey:
        """The (project, status) shown."""
        return self._source.view

    @property
    def schedule(self) -> RefreshSchedule:
        """When auto-refreshes run."""
        return self._rounds.schedule

    @property
    def refreshing(self) -> bool:
        """Whether an auto-refresh round is under way (until its answer is applied)."""
        return self._rounds.running

    @property
    def refresh_armed(self) -> bool:
        """Whether an auto-refresh round is waiting for its time."""
        return self._rounds.armed

    @property
    def loading_all(self) -> bool:
        """Whether the rest of the view is being loaded (`L`)."""
        return self._worker_running("load-all")

    @property
    def busy(self) -> bool:
        """Whether a request of the pane is under way."""
        return self._source.loading or self._rounds.running or self.loading_all

    def _worker_running(self, group: str) -> bool:
        return any(w.node is self and w.group == group and not w.is_finished for w in self.workers)

    # Views and pages

    def show(self, key: ViewKey) -> None:
        """Show `key`'s analyses from the first page (the old view's request is dropped)."""
        self.stop_load_all(quiet=True)
        table = self.table
        table.empty_message = "Loading…"
        table.can_grow = False
        table.set_items([])
        self._keep_id = None
        self._run(self._source.open(key))

    def reload(self) -> None:
        """Retry what failed, or reload the view keeping the highlighted analysis (also when
        the server refused a page cursor: the listing restarts from the top)."""
        self.stop_load_all(quiet=True)
        source = self._source
        load = None if source.cursor_refused else source.retry()
        if load is None:
            load = source.reload()
            self._keep_id = (load.generation, self.table.highlighted_id)
        elif load.replace and self._keep_id is not None:
            self._keep_id = (load.generation, self._keep_id[1])
        self._run(load)

    def _run(self, load: PageLoad) -> None:
        self._generation = load.generation
        self._load(load)
        self._update_status()

    @on(AnalysesTable.SortChanged)
    def _sort_changed(self, event: AnalysesTable.SortChanged) -> None:
        self.status_line.sorted_by = event.order.describe()
        self._load_wanted()  # back in the server's order: the reader may need more rows

    @on(AnalysesTable.Wanted)
    def _wanted(self, event: AnalysesTable.Wanted) -> None:
        event.stop()
        self._load_wanted()

    def _load_wanted(self) -> None:
        """Ask for the next page when the reader needs more rows than are loaded (one
        request at a time: the answer checks again)."""
        table = self.table
        if self._source.loading or not table.growing or table.rows_wanted <= len(table.items):
            return
        load = self._source.more()
        if load is not None:
            self._run(load)

    @work(exclusive=True, group="page", exit_on_error=False)
    async def _load(self, load: PageLoad) -> None:
        """One page, or for a reload the pages up to the rows that were loaded."""
        try:
            batch = await self._source.load(load)
        except asyncio.CancelledError:
            self._source.cancelled(load)
            raise
        except Exception as error:
            self._page_failed(load, error)
            return
        self._page_loaded(batch)

    def _page_loaded(self, batch: PageBatch) -> None:
        source = self._source
        accepted = source.accept(batch)
        if accepted is None:
            return  # a late answer for a view that is gone
        self._ever_loaded = True
        table = self.table
        table.can_grow = not source.done and source.error is None
        table.total = source.total
        if accepted.replace:
            keep = self._keep_id
            keep_id = keep[1] if keep and keep[0] == batch.load.generation else None
            table.set_items(accepted.items, keep_id=keep_id)
            if not accepted.items:
                table.empty_message = EMPTY_VIEW
        else:
            table.append_items(accepted.items)
        if accepted.items:
            self.post_message(self.RowsArrived(accepted.items))
        if batch.total is not None:
            self.post_message(self.TotalSeen(batch.load.key, batch.total))
        if batch.loop_error is not None:
            self.notify("Paging stopped: " + describe_error(batch.loop_error),
                        severity="warning", markup=False)  # fmt: skip
        self._update_status()
        self._load_wanted()

    def _page_failed(self, load: PageLoad, error: Exception) -> None:
        if not self._source.fail(load, error):
            return  # a failure of a view that is gone
        self.table.can_grow = False
        self._update_status()
        if self._source.cursor_refused:
            words = "The server refused the page cursor: " + describe_error(error)
            words += " — press r to restart the listing from the top"
        else:
            words = describe_error(error) + " — press r to retry"
        self.post_message(self.Failed(error, self.reload, words, self._ever_loaded))

    def _update_status(self) -> None:
        state, error = self._source.paging_state()
        loaded = len(self.table.items)
        self.status_line.status = PagingStatus(loaded, self._source.total, state, error)

    def _unseen_changed(self, count: int) -> None:
        self.status_line.unseen = count

    # The rest of the view (`L`)

    def load_all(self) -> None:
        """Load every remaining page of the view (unless at the end or already loading)."""
        source = self._source
        if self.loading_all:
            self.notify("Already loading the rest; Esc stops.", markup=False)
        elif source.done:
            self.notify(f"All {format_count(source.loaded)} rows are loaded.", markup=False)
        elif source.loading:
            self.notify("A page is loading; try again in a moment.", markup=False)
        else:
            self._load_rest()
            self.notify("Loading the rest of the view… Esc stops.", markup=False)

    def stop_load_all(self, *, quiet: bool = False) -> bool:
        """Stop a load of the rest under way (the rows that arrived stay); False when none."""
        if not self.loading_all:
            return False
        for worker in self.workers:
            if worker.node is self and worker.group == "load-all":
                worker.cancel()
        if not quiet:
            self.notify(
                f"Stopped with {format_count(self._source.loaded)} rows loaded.", markup=False
            )
        self._update_status()
        return True

    @work(exclusive=True, group="load-all", exit_on_error=False)
    async def _load_rest(self) -> None:
        try:
            progress = await load_rest(self._source, self._rest_arrived)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._update_status()
            words = "Loading the rest stopped: " + describe_error(error) + " — r retries"
            self.post_message(self.Failed(error, self.load_all, words, self._ever_loaded))
            return
        self._update_status()
        self.notify(progress.describe(), markup=False)

    def _rest_arrived(self, accepted: Accepted, progress: LoadProgress) -> None:
        items = accepted.items
        self.table.append_items(items)
        self.table.can_grow = not self._source.done
        if items:
            self.post_message(self.RowsArrived(items))
        self._update_status()

    # Auto-refresh

    def toggle_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self._rounds.toggle()

    def hold_refresh(self, reason: str, held: bool) -> None:
        """Hold refreshes for `reason` ("focus", "suspended") or release them."""
        self._rounds.hold(reason, held)

    def refresh_now(self) -> None:
        """Start a refresh round now (unless one is under way)."""
        self._rounds.run_now()

    def _show_state(self, label: str) -> None:
        for status_line in self.query(StatusLine):
            status_line.refresh_state = label

    def _start_round(self) -> bool:
        source = self._source
        if source.loading or not source.started:
            return False  # the view itself is loading: its answer is fresh
        table = self.table
        visible = [table.items[i] for i in table.visible_rows]
        self._refresh(source.plan_refresh(visible))
        return True

    @work(exclusive=True, group="auto-refresh", exit_on_error=False)
    async def _refresh(self, job: RefreshJob) -> None:
        try:
            result = await self._source.run_refresh(job)
        except asyncio.CancelledError:
            self._rounds.cancelled()
            raise
        except Exception as error:
            self._rounds.ended(ok=False)
            self.post_message(self.Failed(error, lambda: None, "", self._ever_loaded))
            return
        refreshed = self._source.apply_refresh(result)
        note = ""
        if refreshed is not None:
            table = self.table
            if refreshed.gap:
                self.reload()  # more arrived than a page holds: read the view again
            table.prepend_items(refreshed.arrived)
            changed = set(table.update_items(refreshed.rows))
            if changed or refreshed.arrived or refreshed.total_changed:
                moved = [*refreshed.arrived, *(i for i in refreshed.rows if i.id in changed)]
                ids = {i.project_id for i in moved if isinstance(i, Analysis) and i.project_id}
                self.post_message(self.Moved(job.key, frozenset(ids)))
            if result.total is not None:
                self.post_message(self.TotalSeen(job.key, result.total))
            self._update_status()
            if refreshed.cursor_refused:
                note = "refresh: old page cursor refused, r reloads"
        self._rounds.ended(ok=True, note=note)
