"""The main screen: project sidebar, status filter, analyses table, status line and detail.

The screen composes headless parts and applies their results: the `Feed` (view, paging,
totals, refresh plan), the `ProjectBook` and the `RefreshSchedule`. Every request runs in a
named worker that reports one typed message (`main_outcomes`); each has one handler here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from screen_analysis import collector
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.config import Settings
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.feed import Feed, PageLoad, RefreshSchedule, ViewKey
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.memory import settle_loaded_rows
from screen_analysis.tui.one import One
from screen_analysis.tui.project_book import ProjectBook
from screen_analysis.tui.screens import main_outcomes as out
from screen_analysis.tui.screens.main_actions import HighlightActions
from screen_analysis.tui.screens.main_keys import MAIN_KEYS
from screen_analysis.tui.screens.main_load_all import LoadAll
from screen_analysis.tui.screens.main_problems import ProblemDesk
from screen_analysis.tui.screens.main_projects import SidebarProjects
from screen_analysis.tui.screens.main_refresh import AutoRefresh
from screen_analysis.tui.screens.main_totals import FilterTotals
from screen_analysis.tui.widgets.analyses_table import AnalysesTable
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.status_filter import CHOICES, StatusFilter
from screen_analysis.tui.widgets.status_line import PagingStatus, StatusLine
from screen_analysis.tui.widgets.table_pane import TablePane


class MainScreen(Screen[None]):
    """Browse analyses: choose a project and a status, page through, read one in detail."""

    # Textual's own annotation makes a ClassVar annotation here a type error.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012
    AUTO_FOCUS = "AnalysesTable"

    BINDINGS: ClassVar[list[BindingType]] = MAIN_KEYS

    table = One(AnalysesTable)
    sidebar = One(ProjectSidebar)
    detail = One(AnalysisDetail)
    status_filter = One(StatusFilter)
    status_line = One(StatusLine)

    class ChangeConnection(Message):
        """The user wants to connect to another server or with another key."""

    class KeyRejected(Message):
        """The server refused the key: the app asks for another, then calls `resume`."""

        def __init__(self, screen: MainScreen, detail: str) -> None:
            super().__init__()
            self.screen = screen
            self.detail = detail

    def __init__(
        self,
        client: ScreenAnalysisClient,
        *,
        settings: Settings,
        remembered: RememberedProjects,
        base_url: str,
        refresh_interval: float,
        clock: Callable[[], datetime] = now_utc,
    ) -> None:
        """Browse with `client`; pinned projects from `settings`, others from `remembered`;
        auto-refresh every `refresh_interval` seconds (0: off)."""
        super().__init__()
        self.feed = Feed(client)
        self.book = ProjectBook()
        self.projects = SidebarProjects(self, self.book)
        self.refresher = AutoRefresh(self, RefreshSchedule(refresh_interval))
        self.settings = settings
        self.remembered = remembered
        self.base_url = base_url
        self.actions = HighlightActions(self)
        self._clock = clock
        self._keep: tuple[int, str | None, int] | None = None  # generation, id, row
        self._ever_loaded = False
        self._after_pages = 0  # pages whose totals and projects are still to be asked for
        self.problems = ProblemDesk(self)
        self.totals = FilterTotals(self)
        self.load_all = LoadAll(self)
        # The first page is asked for now, while the screen is built, not once it is shown.
        self._first: PageLoad | None = self.feed.open(ViewKey())
        self._load(self._first)

    def compose(self) -> ComposeResult:
        """Filter bar, then sidebar, the centre column (table, status line) and detail."""
        yield Header()
        yield StatusFilter(id="status-filter")
        with Horizontal(id="body"):
            yield ProjectSidebar(id="sidebar", state_path=self.settings.state_path)
            with TablePane(id="center"):
                yield AnalysesTable(clock=self._clock, empty_message="Loading…", id="table")
                yield StatusLine(id="status-line")
            yield AnalysisDetail(id="detail")
        yield KeyBar()

    def on_mount(self) -> None:
        """Fill the sidebar with known projects, load the first page, arm the refresh."""
        self.projects.want([*self.settings.projects, *self.remembered.ids])
        self.sidebar.mark_current(None)
        self.show_view(ViewKey(), started=self._first)
        self._first = None
        self.refresher.start(self._app)

    @property
    def _app(self) -> App[Any]:
        return self.app

    @property
    def view(self) -> ViewKey:
        """The (project, status) on screen."""
        return self.feed.view

    @property
    def narrow(self) -> bool:
        """Below 120 columns the detail opens in place of the table."""
        return self.has_class("-narrow")

    @property
    def busy(self) -> bool:
        """Whether any request of this screen is under way or about to be asked for."""
        return self._after_pages > 0 or any(
            w.node is self and not w.is_finished and not w.is_cancelled and w.group != "browser"
            for w in self._app.workers
        )

    @property
    def refreshing(self) -> bool:
        """Whether an auto-refresh is under way (until its answer has been applied)."""
        return self.refresher.running

    @property
    def schedule(self) -> RefreshSchedule:
        """When auto-refreshes run."""
        return self.refresher.schedule

    def show_detail(self, item: AnalysisItem | None) -> None:
        """Show `item` in the detail pane with what is known of its project."""
        project_id = item.project_id if isinstance(item, Analysis) else None
        self.detail.show(item, self.book.get(project_id) if project_id else None)

    # Messages from the widgets

    @on(AnalysesTable.Highlighted)
    def _highlighted(self, event: AnalysesTable.Highlighted) -> None:
        self.show_detail(event.item)

    @on(AnalysesTable.Selected)
    def _selected(self, event: AnalysesTable.Selected) -> None:
        self.show_detail(event.item)
        if self.narrow:
            self.add_class("-detail-open")
        self.detail.focus()

    @on(AnalysesTable.NearEnd)
    def _near_end(self, event: AnalysesTable.NearEnd) -> None:
        self.load_more()

    @on(StatusFilter.Chosen)
    def _status_chosen(self, event: StatusFilter.Chosen) -> None:
        self.show_view(ViewKey(self.view.project_id, event.status))

    @on(ProjectSidebar.ProjectChosen)
    def _project_chosen(self, event: ProjectSidebar.ProjectChosen) -> None:
        self.choose_project(event.project_id)
        self.table.focus()

    def choose_project(self, project_id: str | None) -> None:
        """Show `project_id`'s analyses (None: all) with the current status filter."""
        self.sidebar.mark_current(project_id)
        if project_id is not None:
            self.remembered.add(project_id)
            self.projects.fetch(project_id)  # fresh statistics on selection
        self.show_view(ViewKey(project_id, self.view.status))

    # Actions (keys: BINDINGS; those on the highlighted analysis: HighlightActions)

    def action_status(self, index: int) -> None:
        """Filter by the status at `index` of the filter bar."""
        self.show_view(ViewKey(self.view.project_id, CHOICES[index][0]))

    def action_refresh(self) -> None:
        """Retry what failed, else reload the view keeping the selected row."""
        self.refresh_or_retry()

    def action_toggle_auto_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self.refresher.toggle()

    def action_load_all(self) -> None:
        """Load every page of the view (up to 100,000 rows), e.g. before sorting."""
        self.load_all.start()

    @on(out.AllLoaded)
    def _all_loaded(self, event: out.AllLoaded) -> None:
        self.load_all.ended(event.progress)

    @on(out.LoadAllFailed)
    def _load_all_failed(self, event: out.LoadAllFailed) -> None:
        if not self._needs_user(event.error, self.load_all.start):
            self.load_all.ended(None, event.error)

    def action_close_detail(self) -> None:
        """Stop loading the rest, or go back from the detail to the table."""
        if self.load_all.stop():
            return
        if self.has_class("-detail-open") or self.detail.has_focus_within:
            self.remove_class("-detail-open")
            self.table.focus()

    def action_act(self, name: str) -> None:
        """An action of `HighlightActions` by name (find, copy_id, toggle_sidebar, …)."""
        if name == "ask_project":
            self.actions.ask_project(self.projects.add)
        elif name in HighlightActions.NAMES:
            getattr(self.actions, name)()

    # Views and pages

    def show_view(self, key: ViewKey, *, started: PageLoad | None = None) -> None:
        """Switch the table to `key`: the old view's request is cancelled, its rows cleared
        (`started`: the view's first page is already asked for)."""
        self.load_all.stop(quiet=True)
        self.status_filter.current = key.status
        self.table.empty_message = "Loading…"
        self.table.set_items([])
        self.show_detail(None)
        self._keep = None
        if started is None:
            self._load(self.feed.open(key))
        self.update_status()
        self.totals.show()  # the totals are asked for once the first page is in

    def load_more(self) -> None:
        """Ask for the next page of the view, unless one is in flight or the end is reached."""
        load = self.feed.more()
        if load is not None:
            self._run_load(load)

    def refresh_or_retry(self) -> None:
        """Retry the failed load, or reload the view keeping the selected row (also when the
        server refused a page cursor: the listing restarts from the top)."""
        self.load_all.stop(quiet=True)
        load = None if self.feed.cursor_refused else self.feed.retry()
        if load is None:
            item = self.table.highlighted_item
            load = self.feed.reload()
            self._keep = (load.generation, item.id if item else None, self.table.cursor_row)
            self.feed.totals.forget(self.view.project_id)
            self.totals.load()
            if self.view.project_id is not None:
                self.projects.fetch(self.view.project_id)
        elif load.replace and self._keep is not None:
            self._keep = (load.generation, self._keep[1], self._keep[2])
        self._run_load(load)

    def _run_load(self, load: PageLoad) -> None:
        self._load(load)
        self.update_status()

    @work(exclusive=True, group="page", exit_on_error=False)
    async def _load(self, load: PageLoad) -> None:
        """One page, or for a reload the pages up to the rows that were loaded."""
        await out.report(
            self, self.feed.load(load), out.PageLoaded, lambda e: out.PageFailed(load, e)
        )

    @on(out.PageLoaded)
    def _page_loaded(self, event: out.PageLoaded) -> None:
        accepted = self.feed.accept(event.batch)
        if accepted is None:
            return  # a late answer for a view that is gone
        self._ever_loaded = True
        table = self.table
        if accepted.replace:
            keep = self._keep if self._keep and self._keep[0] == self.feed.generation else None
            table.set_items(accepted.items, keep_id=keep[1] if keep else None)
            if keep and keep[1] and table.index_of(keep[1]) is None and accepted.items:
                table.move_cursor(min(keep[2], len(accepted.items) - 1))
            if not accepted.items:
                table.empty_message = "No analyses match this project and status."
                self.show_detail(None)
        else:
            table.append_items(accepted.items)
        # The rows are painted first; the totals and the sidebar's projects ask after.
        self._after_pages += 1
        self.call_after_refresh(self._after_page, accepted.items, accepted.replace)
        if event.batch.loop_error is not None:
            self.notify("Paging stopped: " + describe_error(event.batch.loop_error),
                        severity="warning", markup=False)  # fmt: skip
        self.update_status()
        settle_loaded_rows(len(table.items))
        if table.near_end:
            self.load_more()  # at once: a NearEnd message would wait behind queued key presses

    def _after_page(self, items: Sequence[AnalysisItem], first: bool) -> None:
        self._after_pages -= 1
        collector.release()  # the first rows are on screen: start-up is over
        (self.totals.load if first else self.totals.show)()  # load shows what is known too
        self.projects.want(i.project_id for i in items if isinstance(i, Analysis))

    @on(out.PageFailed)
    def _page_failed(self, event: out.PageFailed) -> None:
        if not self.feed.fail(event.load, event.error):
            return  # a failure of a view that is gone
        self.update_status()
        if self._needs_user(event.error, lambda: None):
            return
        if self.feed.cursor_refused:
            text = "The server refused the page cursor: " + describe_error(event.error)
            self.notify(text + " — press r to restart the listing from the top",
                        severity="warning", markup=False)  # fmt: skip
        else:
            self.notify(describe_error(event.error) + " — press r to retry",
                        severity="error", markup=False)  # fmt: skip

    def update_status(self) -> None:
        """Say in the status line how many rows are loaded and how paging stands."""
        state, error = self.feed.paging_state()
        self.status_line.status = PagingStatus(len(self.table.items), self.feed.total, state, error)

    # Totals per status (the part `FilterTotals` keeps)

    @on(out.TotalsLoaded)
    def _totals_loaded(self, event: out.TotalsLoaded) -> None:
        self.totals.loaded(event.totals)

    @on(out.TotalsFailed)
    def _totals_failed(self, event: out.TotalsFailed) -> None:
        self._needs_user(event.error, lambda: self.totals.load())

    # Projects (the part `SidebarProjects` keeps; its answers land here)

    @on(out.ProjectLoaded)
    def _project_loaded(self, event: out.ProjectLoaded) -> None:
        self.projects.loaded(event)

    @on(out.ProjectFailed)
    def _project_failed(self, event: out.ProjectFailed) -> None:
        again = partial(self.projects.fetch, event.project_id, adding=event.adding)
        if not self._needs_user(event.error, again):
            self.projects.failed(event)

    # Problems that need the user (the part `ProblemDesk` handles)

    def _needs_user(self, error: Exception, again: Callable[[], None]) -> bool:
        return self.problems.needs_user(error, again, loaded=self._ever_loaded)

    def resume(self, client: ScreenAnalysisClient | None) -> None:
        """After the key was refused: with a new client, retry what failed; None: keep the
        rows and the error (r retries)."""
        if self.problems.resume(client) and client is not None:
            self.feed.client = client
            if self.feed.error is not None:
                self.refresh_or_retry()
            self.problems.retry_refused()

    # Auto-refresh (the part `AutoRefresh` decides; its answers land here)

    @on(out.RefreshLoaded)
    def _refresh_loaded(self, event: out.RefreshLoaded) -> None:
        self.refresher.loaded(event.result)

    @on(out.RefreshFailed)
    def _refresh_failed(self, event: out.RefreshFailed) -> None:
        if isinstance(event.error, AuthenticationError):
            self._needs_user(event.error, lambda: None)  # the key was refused: the user acts
        self.refresher.ended(ok=False)
