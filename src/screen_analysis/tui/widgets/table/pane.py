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
from collections.abc import Callable
from datetime import datetime
from typing import TypeAlias

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical

from screen_analysis.api.describe import describe_error
from screen_analysis.cache import CachedView
from screen_analysis.tui.feed import (
    PageBatch,
    PageLoad,
    PageSource,
    RefreshSchedule,
    ViewKey,
    unreachable,
)
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.widgets.status_line import StatusLine
from screen_analysis.tui.widgets.table.messages import (
    Failed,
    Moved,
    OfflineChanged,
    RowsArrived,
    TotalSeen,
)
from screen_analysis.tui.widgets.table.offline import OfflineWatch
from screen_analysis.tui.widgets.table.paging_words import (
    LOADING,
    load_failure,
    nothing_shown,
    paging_status,
)
from screen_analysis.tui.widgets.table.rest import RestLoader
from screen_analysis.tui.widgets.table.rounds import RefreshRounds
from screen_analysis.tui.widgets.table.table import AnalysesTable

KEPT_NOTE = "kept rows only"  # offline, a filter on the kept rows of the unfiltered view
NOTHING_KEPT = "Nothing of this view is kept in the local cache."


class AnalysesPane(Vertical):
    """The table of one view and its status line; pages, refreshes and loads its rows."""

    RowsArrived: TypeAlias = RowsArrived
    Moved: TypeAlias = Moved
    TotalSeen: TypeAlias = TotalSeen
    OfflineChanged: TypeAlias = OfflineChanged
    Failed: TypeAlias = Failed

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
        self._fresh_at: datetime | None = None  # when the server last confirmed the rows
        self._offline_mark = ""  # as last told to the other parts
        self._kept_total: int | None = None  # the total the cache kept with the rows shown
        self._refresher = RefreshRounds(self, source, schedule, lambda: self.table, self)
        self._rounds = self._refresher.timer
        self._rest = RestLoader(self, source, lambda: self.table, self.update_status)
        self._watch = OfflineWatch(
            self._rounds, self.set_timer, self.set_interval, self._retry_round,
            self.update_status, clock,
        )  # fmt: skip

    def compose(self) -> ComposeResult:
        """The table, then the status line under it."""
        yield AnalysesTable(clock=self._clock, empty_message=LOADING, id="table")
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
        return self._rest.running

    @property
    def busy(self) -> bool:
        """Whether a request of the pane is under way."""
        loading = self._source.loading or self._worker_running("page", "kept")
        return loading or self._rounds.running or self.loading_all or self._watch.retrying

    @property
    def offline(self) -> bool:
        """Whether the server cannot be reached and the rows shown are the cache's."""
        return self._watch.offline

    def _worker_running(self, *groups: str) -> bool:
        return any(w.node is self and w.group in groups and not w.is_finished for w in self.workers)

    # Views and pages

    def show(self, key: ViewKey, *, pick: str | None = None) -> None:
        """Show `key`'s analyses from the first page (the old view's request is dropped),
        the cursor on `pick` when its rows hold it, else on the top row."""
        self.stop_load_all(quiet=True)
        table = self.table
        table.empty_message, table.can_grow = LOADING, False
        table.set_items([])
        load = self._source.open(key)
        self._keep_id = (load.generation, pick) if pick is not None else None
        self._generation, self._kept_total = load.generation, None
        self._watch.showing_cached_none()
        if self._watch.offline:
            self._source.cancelled(load)  # no request while offline: the retries ask
            self._paint_offline(key, load.generation)
        else:
            self._load(load, cached=True)
        self.update_status()

    def reload(self) -> None:
        """Retry what failed (offline: retry at once), else reload the view keeping the
        highlighted analysis (also after a refused page cursor: from the top)."""
        if self._watch.offline and not self._watch.retrying:
            self._watch.retry_now()
            return
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
        self.update_status()

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
    async def _load(self, load: PageLoad, *, cached: bool = False) -> None:
        """One page, or for a reload the pages up to the rows that were loaded. With
        `cached` (a view just opened), the rows the cache kept are painted first, and the
        server is asked for as many, to replace them as a whole."""
        if cached:
            kept = self._source.kept
            epoch = kept.epoch
            view = await asyncio.to_thread(kept.view, load.key)
            fresh = load.generation == self._generation and kept.still_open(epoch)
            if view is not None and view.items and fresh:
                self._show_kept(view)
                self.update_status()
                load = self._source.widen(load, len(view.items))
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
        self._fresh_at = self._clock()
        for note in accepted.notes:  # once per view: an unknown total, rows off the filter
            self.notify(note[:1].upper() + note[1:], severity="warning", markup=False)
        if accepted.replace:
            keep = self._keep_id
            keep_id = keep[1] if keep and keep[0] == batch.load.generation else None
            if self._watch.stale:  # the cache's rows are replaced: the pick stays
                keep_id = table.highlighted_id or keep_id
            self._watch.confirmed()
            table.set_items(accepted.items, keep_id=keep_id)
            if not accepted.items:
                table.empty_message = nothing_shown(self._source)
        else:
            table.append_items(accepted.items)
        if accepted.items:
            self.post_message(self.RowsArrived(accepted.items))
        if batch.total is not None or batch.odd_total is not None:
            self.post_message(self.TotalSeen(batch.load.key, batch.total))
        if batch.loop_error is not None:
            self.notify(describe_error(batch.loop_error, prefix="Paging stopped"),
                        severity="warning", markup=False)  # fmt: skip
        self.update_status()
        self._load_wanted()

    def _page_failed(self, load: PageLoad, error: Exception) -> None:
        if not self._source.fail(load, error):
            return  # a failure of a view that is gone
        self.table.can_grow = False
        if unreachable(error) and (self.table.items or self._watch.offline):
            self.went_offline()  # the rows on screen stay; retries follow (back off)
        elif unreachable(error):  # nothing on screen: what the cache kept stands in
            self._paint_offline(load.key, load.generation, error)
        else:
            self._failed(error)

    def _failed(self, error: Exception) -> None:
        """A failure to say (the screen's problem desk shows it): rows from the cache go,
        whatever failed (a refused key never sees them); an empty table says it too."""
        self.forget_kept(error)
        if not self.table.items:
            self.table.empty_message = nothing_shown(self._source)
        self.update_status()
        words = load_failure(self._source, error)
        self.post_message(self.Failed(error, self.reload, words, self._ever_loaded))

    def update_status(self) -> None:
        """Say how paging stands in the status line (cached or offline: how old the rows
        are); tell the other parts when the pane went offline or came back."""
        status = paging_status(
            self._source,
            len(self.table.items),
            self._watch.words(),
            kept_total=self._kept_total,
            stale_total=self._watch.stale,  # as the tabs mark theirs
        )
        for status_line in self.query(StatusLine):
            status_line.status = status
        mark = self._watch.mark()
        if mark != self._offline_mark:
            self._offline_mark = mark
            self.post_message(self.OfflineChanged(mark))

    # Cached and offline rows

    def _show_kept(self, view: CachedView, note: str = "") -> None:
        """Rows the cache kept (and the view's total then): at once while the server is
        asked, or offline; rows it could not read are said."""
        self._watch.showing_cached(view.fetched_at, note)
        self._kept_total = view.total
        table, keep = self.table, self._keep_id
        pick = keep[1] if keep is not None and keep[0] == self._generation else None
        table.set_items(view.items, keep_id=table.highlighted_id or pick)
        self.post_message(self.RowsArrived(view.items))
        if words := self._source.kept.skipped_note(view):
            self.notify(words, severity="warning", markup=False)

    @work(exclusive=True, group="kept", exit_on_error=False)
    async def _paint_offline(
        self, key: ViewKey, generation: int, error: Exception | None = None
    ) -> None:
        """Offline, or no server (`error`) while no row is shown: the view's kept rows, or
        its project's with its status (said so); retries follow. Nothing kept and nothing
        ever shown: the failure is said (the screen offers the demo)."""
        kept = self._source.kept
        epoch = kept.epoch
        view = await asyncio.to_thread(kept.matching, key)
        if generation != self._generation:
            return
        if view is None or not view.items or not kept.still_open(epoch):
            if error is not None and not self._ever_loaded:
                self._failed(error)
                return
            self.table.empty_message = NOTHING_KEPT
        else:
            self._show_kept(view, "" if view.total is not None or key.status is None else KEPT_NOTE)
        if error is not None:
            self.went_offline()
        self.update_status()

    def forget_kept(self, error: Exception) -> bool:
        """Rows from the local cache go (a refused key never sees them; the server's rows
        stay); True when some were on screen."""
        if not self._watch.stale:
            return False
        self._watch.confirmed()
        self._kept_total = None
        self.table.set_items([])
        self.table.empty_message = describe_error(error, prefix="Nothing to show")
        self.update_status()
        return True

    def went_offline(self) -> None:
        """The server cannot be reached: the rows stay, refresh rounds stop, retries begin."""
        self._watch.went_offline(self._fresh_at)
        self.update_status()

    def _retry_round(self) -> bool:
        """A retry while offline: read the view again (its answer brings the app back)."""
        source = self._source
        if source.loading:
            return False
        load = source.retry() or source.reload()
        self._keep_id = (load.generation, self.table.highlighted_id)
        self._run(load)
        return True

    def _unseen_changed(self, count: int) -> None:
        self.status_line.unseen = count

    # The rest of the view (`L`)

    def load_all(self) -> None:
        """Load every remaining page of the view (unless at the end or already loading)."""
        self._rest.start()

    def stop_load_all(self, *, quiet: bool = False) -> bool:
        """Stop a load of the rest under way (the rows that arrived stay); False when none."""
        return self._rest.stop(quiet=quiet)

    # Auto-refresh

    def toggle_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self._rounds.toggle()

    def hold_refresh(self, reason: str, held: bool) -> None:
        """Hold refreshes and offline retries for `reason` ("focus", "suspended") or release
        them (whichever runs now)."""
        self._watch.hold(reason, held)

    def refresh_now(self) -> None:
        """Start a refresh round now (unless one is under way)."""
        self._rounds.run_now()

    def show_state(self, label: str) -> None:
        """Say the auto-refresh state (`RoundHooks`)."""
        for status_line in self.query(StatusLine):
            status_line.refresh_state = label

    def confirmed(self) -> None:
        """A round's answer came (`RoundHooks`): the rows on screen are as of now."""
        self._fresh_at = self._clock()

    @property
    def ever_loaded(self) -> bool:
        """Whether a page was ever shown (`RoundHooks`)."""
        return self._ever_loaded
