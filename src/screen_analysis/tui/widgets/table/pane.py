"""The analyses of one view: the table, its status line, and the pages behind them.

Like Textual's `DirectoryTree`, the pane takes a source (`PageSource`, a view's headless
`browse.Pager`) and runs its own workers: the view's pages (fetched by need: as far as the
reader went, plus a look-ahead, one request at a time), the load of the rest (`L`) and the
auto-refresh rounds. It draws what the pager yields in its table and says how paging stands
in its status line; rows the local cache kept, and the pane offline, are its `KeptRows`.
It posts up only what other widgets need: the rows that arrived (their projects), a refresh
round that saw something move (the counts), a view's total, and a failure (for the screen's
one problem line).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import TypeAlias

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.notifications import SeverityLevel

from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse import Page, Refreshed, RefreshSchedule, ViewKey
from screen_analysis.browse.scope import Filter
from screen_analysis.cache.kept import unreachable
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.widgets.status_line import StatusLine
from screen_analysis.tui.widgets.table.cursor import LOOKAHEAD_ROWS
from screen_analysis.tui.widgets.table.kept import KeptRows
from screen_analysis.tui.widgets.table.live import apply_round
from screen_analysis.tui.widgets.table.messages import (
    Failed,
    Moved,
    OfflineChanged,
    RowsArrived,
    TotalSeen,
)
from screen_analysis.tui.widgets.table.paging_words import (
    LOADING,
    load_failure,
    nothing_shown,
    paging_status,
)
from screen_analysis.tui.widgets.table.paint import HEADER_HEIGHT
from screen_analysis.tui.widgets.table.rest import RestLoader
from screen_analysis.tui.widgets.table.rounds import RefreshRounds
from screen_analysis.tui.widgets.table.source import PageSource
from screen_analysis.tui.widgets.table.table import AnalysesTable
from screen_analysis.tui.workers import Workers

PAGE = "page"


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
        self._ever_loaded = False
        self._offline_mark = ""  # as last told to the other parts
        self._workers = Workers(self)
        self._rounds = RefreshRounds(source, schedule, self, self.set_timer, self._workers).timer
        self._rest = RestLoader(source, self, self._workers)
        self._kept = KeptRows(source, self, self._rounds, clock, self._workers)

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
        loading = self._source.loading or self._workers.busy(PAGE)
        return loading or self._rounds.running or self.loading_all or self._kept.busy

    @property
    def offline(self) -> bool:
        """Whether the server cannot be reached and the rows shown are the cache's."""
        return self._kept.offline

    @property
    def ever_loaded(self) -> bool:
        """Whether a page was ever shown."""
        return self._ever_loaded

    def say(self, text: str, severity: SeverityLevel = "information") -> None:
        """One notification (plain text)."""
        self.notify(text, severity=severity, markup=False)

    # Views and pages

    def show(self, key: ViewKey, *, pick: str | None = None, where: Filter | None = None) -> None:
        """Show `key`'s analyses from the first page (the old view's request is dropped),
        the cursor on `pick` when its rows hold it, else on the top row; with `where` (a
        saved view's scope), only the rows it matches, read by need until the screen is
        full (no look-ahead: a filter may need many pages for one screen)."""
        self.stop_load_all(quiet=True)
        table = self.table
        table.empty_message, table.can_grow = LOADING, False
        table.set_items([])
        self._source.open(key, where)
        table.lookahead = 0 if self._source.filtering else LOOKAHEAD_ROWS
        self._keep_id = (self._source.generation, pick) if pick is not None else None
        if not self._kept.opened(key):  # offline: no request, the retries ask
            self._load(cached=True)
        self.update_status()

    def reload(self) -> None:
        """Retry what failed (offline: retry at once), else reload the view keeping the
        highlighted analysis (also after a refused page cursor: from the top)."""
        if self._kept.retry_now():
            return
        self.stop_load_all(quiet=True)
        self._ask_again()

    def _ask_again(self) -> None:
        """What failed asked again, else the view from the top, keeping the highlighted
        analysis; then its page is asked for."""
        source = self._source
        if source.cursor_refused or not source.retry():
            source.reload()
            self._keep_id = (source.generation, self.table.highlighted_id)
        elif self._keep_id is not None:
            self._keep_id = (source.generation, self._keep_id[1])
        self._load()
        self.update_status()

    def retry_round(self) -> bool:
        """A retry while offline: read the view again (its answer brings the app back),
        keeping the highlighted analysis; False when a load is under way."""
        source = self._source
        if source.loading:
            return False
        if not source.retry():
            source.reload()
        self._keep_id = (source.generation, self.table.highlighted_id)
        self._load()
        self.update_status()
        return True

    def keep_pick(self) -> str | None:
        """The analysis a first page keeps the cursor on, if asked for this generation."""
        keep = self._keep_id
        return keep[1] if keep is not None and keep[0] == self._source.generation else None

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
        wanted = table.rows_wanted if table.growing else 0
        if self._source.filtering and table.can_grow:  # sorted too: fill the screen
            wanted = max(wanted, table.size.height - HEADER_HEIGHT)
        if wanted <= len(table.items):
            return
        if self._source.can_page and not self.loading_all:
            self._workers.run(self._next_page, PAGE, exclusive=False)

    def _load(self, *, cached: bool = False) -> None:
        """Ask for the view's first page (or what `retry` and `reload` asked for) in place
        of any page under way; with `cached`, the rows the cache kept are painted first."""
        self._workers.run(partial(self._next_page, cached=cached), PAGE)

    async def _next_page(self, *, cached: bool = False) -> None:
        """The next page the pager yields, drawn. With `cached` (a view just opened), the
        rows the cache kept are painted first, and the server is asked for as many, to
        replace them as a whole."""
        if cached and (shown := await self._kept.paint_first()):
            self._source.widen(shown)
            await self._painted()  # the kept rows reach the screen before the client is built
        self.call_next(self.update_status)  # "loading…" once the request below is sent
        try:
            page = await self._source.next_page()
        except Exception as error:
            self._page_failed(error)
            return
        if page is not None:
            self.draw(page)
            self._load_wanted()

    async def _painted(self) -> None:
        """Wait until the next frame has been drawn."""
        drawn = asyncio.get_running_loop().create_future()

        def done() -> None:
            if not drawn.done():
                drawn.set_result(None)

        self.call_after_refresh(done)
        await drawn

    def draw(self, page: Page) -> None:
        """A page the pager yielded: its rows in the table (in place of those shown, or
        below them), the paging state said, the other widgets told."""
        source, table = self._source, self.table
        self._ever_loaded = True
        table.can_grow = not source.done and source.error is None and not source.scan_stopped
        # A filtered view knows no total of its matches until it has read them all.
        filtered_total = source.loaded if source.done else None
        table.total = filtered_total if source.filtering else source.total
        self._kept.confirmed_at()
        for note in page.notes:  # once per view: an unknown total, rows off the filter
            self.say(note[:1].upper() + note[1:], "warning")
        if page.replace:
            keep_id = self._kept.replaced(self.keep_pick())
            table.set_items(page.items, keep_id=keep_id)
            if not page.items:
                table.empty_message = nothing_shown(source)
        else:
            table.append_items(page.items)
        if page.items:
            self.post_message(self.RowsArrived(page.items))
        if page.total is not None or page.odd_total is not None:
            self.post_message(self.TotalSeen(page.key, page.total))
        if page.loop_error is not None:
            self.say(describe_error(page.loop_error, prefix="Paging stopped"), "warning")
        self.update_status()

    def _page_failed(self, error: Exception) -> None:
        self.table.can_grow = False
        if not self._kept.failed(error, bool(self.table.items)):
            self.failed(error)

    def failed(self, error: Exception) -> None:
        """A failure to say (the screen's problem desk shows it): rows from the cache go,
        whatever failed (a refused key never sees them); an empty table says it too."""
        self.forget_kept(error)
        if not self.table.items:
            self.table.empty_message = nothing_shown(self._source)
        self.update_status()
        words = load_failure(self._source, error)
        self.post_message(self.Failed(error, self.reload, words, self._ever_loaded))

    def rest_failed(self, error: Exception, words: str) -> None:
        """The load of the rest failed: said in `words`; `r` on it loads the rest again."""
        self.post_message(self.Failed(error, self.load_all, words, True))

    def rows_shown(self, items: Sequence[AnalysisItem]) -> None:
        """Rows the cache kept were put in the table: the other widgets are told."""
        self.post_message(self.RowsArrived(items, kept=True))

    def update_status(self) -> None:
        """Say how paging stands in the status line (cached or offline: how old the rows
        are); tell the other parts when the pane went offline or came back."""
        status = paging_status(
            self._source,
            len(self.table.items),
            self._kept.words(),
            kept_total=self._kept.total,
            stale_total=self._kept.stale,  # as the tabs mark theirs
        )
        for status_line in self.query(StatusLine):
            status_line.status = status
        mark = self._kept.mark()
        if mark != self._offline_mark:
            self._offline_mark = mark
            self.post_message(self.OfflineChanged(mark))

    def forget_kept(self, error: Exception) -> bool:
        """Rows from the local cache go (a refused key never sees them; the server's rows
        stay); True when some were on screen."""
        return self._kept.forget(error)

    def went_offline(self) -> None:
        """The server cannot be reached: the rows stay, refresh rounds stop, retries begin."""
        self._kept.went_offline()

    def _unseen_changed(self, count: int) -> None:
        self.status_line.unseen = count

    # The rest of the view (`L`)

    def load_all(self) -> None:
        """Load every remaining page of the view (unless at the end or already loading)."""
        self._rest.start()

    def stop_load_all(self, *, quiet: bool = False) -> bool:
        """Stop a load of the rest under way (the rows that arrived stay); False when none."""
        return self._rest.stop(quiet=quiet)

    # Auto-refresh (the rounds' `RoundHooks`)

    def toggle_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self._rounds.toggle()

    def hold_refresh(self, reason: str, held: bool) -> None:
        """Hold refreshes and offline retries for `reason` ("focus", "suspended") or release
        them (whichever runs now)."""
        self._kept.hold(reason, held)

    def refresh_now(self) -> None:
        """Start a refresh round now (unless one is under way)."""
        self._rounds.run_now()

    def visible_rows(self) -> Sequence[AnalysisItem]:
        """The rows on screen."""
        table = self.table
        return [table.items[i] for i in table.visible_rows]

    def show_state(self, label: str) -> None:
        """Say the auto-refresh state."""
        for status_line in self.query(StatusLine):
            status_line.refresh_state = label

    def confirmed(self) -> None:
        """A round's answer came: the rows on screen are as of now."""
        self._kept.confirmed_at()

    def refreshed(self, refreshed: Refreshed) -> None:
        """A round's rows on the table (arrivals on top, changes in place); more arrived
        than a page holds, or every row left the view: the view is read again."""
        table = self.table
        if refreshed.gap or (refreshed.emptied and table.items):  # emptied: it says so
            self.reload()
        for message in apply_round(table, refreshed):
            self.post_message(message)
        self.update_status()

    def round_failed(self, error: Exception) -> None:
        """A round failed: the server is gone (offline), or the failure is said."""
        if unreachable(error):
            self.went_offline()
        else:
            self.post_message(self.Failed(error, lambda: None, "", self._ever_loaded))
