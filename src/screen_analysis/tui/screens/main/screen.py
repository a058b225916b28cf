"""The main screen: project sidebar, status filter, analyses pane and detail.

The screen composes widgets that own their data, each with a headless source of the
connection (`browse.Sources`): the analyses pane pages, refreshes and loads its rows through
a pager, the status filter asks the totals, the sidebar the projects. The screen routes only
what crosses widgets (the highlighted analysis to the detail, rows and moves to the counts,
the view chosen) and every failure to its one problem desk; the view and the keys on it are
its base's (`ViewKeys`), the keys that act on the highlighted analysis that one's
(`AnalysisKeys`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.message import Message

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.browse import RefreshSchedule, Sources, ViewKey
from screen_analysis.cache import LocalCache
from screen_analysis.cache.kept import KeyTrust
from screen_analysis.config import Settings
from screen_analysis.state import RememberedProjects
from screen_analysis.state.watches import WatchedFile
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.one import One
from screen_analysis.tui.own_commands import CommandDesk, OwnSettings
from screen_analysis.tui.screens.main.keys import MAIN_KEYS
from screen_analysis.tui.screens.main.problems import ProblemDesk
from screen_analysis.tui.screens.main.view_keys import ViewKeys
from screen_analysis.tui.watching import ScreenTeller, WatchDesk
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.app_header import AppHeader
from screen_analysis.tui.widgets.key_bar import KeyBar
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.screen_image import ImagePreviews
from screen_analysis.tui.widgets.status_filter import StatusFilter
from screen_analysis.tui.widgets.status_line import StatusLine
from screen_analysis.tui.widgets.table import AnalysesPane, AnalysesTable
from screen_analysis.tui.widgets.view_tabs import ViewTabs
from screen_analysis.tui.workers import Workers, busy

# How long the first frame waits for the opening view's kept rows (being read since the
# screen was composed): drawn with them, not drawn again a moment later.
FIRST_ROWS_WAIT_S = 0.1


def width_class(breakpoints: list[tuple[int, str]], width: int) -> str:
    """The class of the widest breakpoint `width` reaches (Textual's rule for them)."""
    return next(name for at, name in sorted(breakpoints, reverse=True) if width >= at)


class MainScreen(ViewKeys):
    """Browse analyses: choose a project and a status, page through, read one in detail."""

    # Textual's own annotation makes a ClassVar annotation here a type error.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012
    AUTO_FOCUS = "AnalysesTable"

    BINDINGS: ClassVar[list[BindingType]] = MAIN_KEYS

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
        current: CurrentClient,
        *,
        settings: Settings,
        remembered: RememberedProjects,
        refresh_interval: float,
        clock: Callable[[], datetime] = now_utc,
        previews: ImagePreviews | None = None,
        schedule: RefreshSchedule | None = None,
        cache: LocalCache | None = None,
        trust: KeyTrust | None = None,
        own: OwnSettings | None = None,
    ) -> None:
        """Browse with the client `current` holds; pinned projects from `settings`, others
        from `remembered`; auto-refresh every `refresh_interval` seconds (0: off) unless a
        `schedule` is given; images through `previews`; `clock` tells the ages; what was
        seen is kept in `cache`, shown from it at once when `trust` knows the key in use,
        else once the server answered or cannot be reached (None: no local cache); `own`:
        your commands and how a watched analysis's end is told."""
        sources = Sources(current, cache=cache, trust=trust)
        super().__init__(
            current,
            sources,
            settings=settings,
            remembered=remembered,
            previews=previews,
            clock=clock,
        )
        # The width's class from the start, as Textual sets it at each resize: the first
        # frame is drawn with it, not drawn again for the first resize's change of class.
        self.add_class(width_class(self.HORIZONTAL_BREAKPOINTS, self.app.size.width), update=False)
        self._opening = self.opening()  # where it opens: its kept rows are read from compose
        self._clock = clock
        self._previews = previews
        self._schedule = schedule or RefreshSchedule(refresh_interval)
        own = own or OwnSettings(None, None)
        self.commands = CommandDesk(own.specs, self.services, web=lambda: self.app.is_web)
        server = remembered.server
        kept = WatchedFile(settings.state_path, server) if server else None
        self.watches = self.watch_desk = WatchDesk(
            current, self._schedule, ScreenTeller(self), Workers(self), kinds=own.notify, kept=kept
        )
        self.problems = ProblemDesk(
            self.services,
            self._ask_for_key,
            self._change_connection,
            demo=self.services.start_demo,
            nothing_kept=self._nothing_kept,
        )

    def compose(self) -> ComposeResult:
        """Filter bar, then sidebar, the analyses pane (table, status line) and detail.
        The opening view's kept rows are read meanwhile, for the first frame."""
        view, _pick, saved = self._opening
        self.sources.read_ahead(self.asked_view(view, saved))
        state_path = self.settings.state_path
        yield AppHeader()
        yield ViewTabs(self.saved.names, id="view-tabs")
        schedule = self._schedule
        yield StatusFilter(
            self.sources.totals,
            clock=self._clock,
            ticks=lambda: schedule.clock(),  # idle time: the one clock of the rounds
            id="status-filter",
        )
        with Horizontal(id="body"):
            width = self.app.size.width
            sidebar = ProjectSidebar(
                self.sources.projects, id="sidebar", state_path=state_path, width=width
            )
            sidebar.border_title = "Projects"
            yield sidebar
            yield AnalysesPane(self.pager, self._schedule, clock=self._clock, id="center")
            yield AnalysisDetail(self._previews, state_path=state_path, id="detail")
        yield KeyBar()

    async def on_mount(self) -> None:
        """List the known projects and open the view where the last run was left: with
        the rows the cache kept of it in the first frame, when they are read in time."""
        await self.sources.read_ahead_done(FIRST_ROWS_WAIT_S)
        view, pick, saved = self._opening
        self.sidebar.want([*self.settings.projects, *self.remembered.ids, view.project_id])
        self.sidebar.mark_current(view.project_id)
        self.saved.say_problems()
        self.show_view(view, pick=pick, saved=saved)
        self.set_interval(1.0, self.watch_desk.tick)  # a round when the refresh interval is due

    def spot(self, analysis_id: str) -> str | None:
        """Where the watch finds an analysis again: its page's cursor when the view is every
        project's, every status (the watch's own listing); else the first page."""
        return self.pager.cursor_of(analysis_id) if self.view == ViewKey() else None

    def on_unmount(self) -> None:
        """Keep the place for the next start."""
        self.place.leave()

    @property
    def narrow(self) -> bool:
        """Below 120 columns the detail opens in place of the table."""
        return self.has_class("-narrow")

    @property
    def busy(self) -> bool:
        """Whether any request or file write of the screen or its widgets is under way."""
        if self.pane.busy or self.status_filter.busy or self.sidebar.busy:
            return True
        return busy(self)

    @property
    def refreshing(self) -> bool:
        """Whether an auto-refresh round is under way (until its answer is applied)."""
        return self.pane.refreshing

    @property
    def schedule(self) -> RefreshSchedule:
        """When auto-refreshes run."""
        return self._schedule

    def hold_refresh(self, reason: str, held: bool) -> None:
        """Hold auto-refreshes for `reason` ("focus", "suspended"), or release them."""
        self.pane.hold_refresh(reason, held)

    # What crosses widgets

    @on(AnalysesTable.Highlighted)
    def _highlight_moved(self, event: AnalysesTable.Highlighted) -> None:
        self._show_detail(event.item)
        self.place.moved(self.view, event.item.id, self.saved.current)

    @on(AnalysesTable.Selected)
    def _selected(self, event: AnalysesTable.Selected) -> None:
        self._show_detail(event.item)
        if self.narrow:
            self.add_class("-detail-open")
        self.detail.focus()

    def _show_detail(self, item: AnalysisItem | None) -> None:
        project_id = item.project_id if isinstance(item, Analysis) else None
        self.detail.show(item, self.sidebar.look_up(project_id) if project_id else None)

    @on(AnalysesPane.RowsArrived)
    def _rows_arrived(self, event: AnalysesPane.RowsArrived) -> None:
        self.sidebar.want(event.project_ids, kept=event.kept)

    @on(AnalysesPane.TotalSeen)
    def _total_seen(self, event: AnalysesPane.TotalSeen) -> None:
        self.status_filter.seen(event.view, event.total, spare=event.spare)

    @on(AnalysesPane.OfflineChanged)
    def _offline_changed(self, event: AnalysesPane.OfflineChanged) -> None:
        self.detail.mark_offline(event.mark)
        self.status_filter.offline = bool(event.mark)
        if not event.mark:  # back: the totals marked meanwhile are asked again
            self.status_filter.recount(self.view)

    @on(AnalysesPane.Moved)
    def _moved(self, event: AnalysesPane.Moved) -> None:
        self.status_filter.recount(event.view)
        moved = {event.view.project_id} if event.view.project_id else event.project_ids
        self.sidebar.recount(p for p in moved if p)

    @on(ViewTabs.Chosen)
    def _view_chosen(self, event: ViewTabs.Chosen) -> None:
        self.show_view(self.view, saved=event.name)

    @on(StatusFilter.Chosen)
    def _status_chosen(self, event: StatusFilter.Chosen) -> None:
        self.show_view(ViewKey(self.view.project_id, event.status))

    @on(ProjectSidebar.ProjectChosen)
    def _project_chosen(self, event: ProjectSidebar.ProjectChosen) -> None:
        self.choose_project(event.project_id)
        self.table.focus()

    @on(ProjectSidebar.Known)
    def _project_known(self, event: ProjectSidebar.Known) -> None:
        self.table.set_project_names(event.names)
        known = {project.project_id for project in event.projects}
        if self.view.project_id in known:
            self.title_view()
        item = self.table.highlighted_item
        if isinstance(item, Analysis) and item.project_id in known:
            self._show_detail(item)

    @on(ProjectSidebar.Added)
    def _project_added(self, event: ProjectSidebar.Added) -> None:
        self.remember(event.project_id)

    @on(AnalysesPane.Failed)
    def _pane_failed(self, event: AnalysesPane.Failed) -> None:
        self._forget_kept(event.error)
        self.problems.handle(event.error, event.again, words=event.words, loaded=event.loaded)

    @on(StatusFilter.Failed)
    @on(ProjectSidebar.Failed)
    def _counts_failed(self, event: StatusFilter.Failed | ProjectSidebar.Failed) -> None:
        self._forget_kept(event.error)
        self.problems.handle(event.error, event.again, loaded=True)

    def _forget_kept(self, error: Exception) -> None:
        """A refused key never sees the server's cache (its sources shut it as the refusal
        came): whatever of it is on screen goes (rows, the detail of one, totals,
        projects)."""
        if not isinstance(error, AuthenticationError):
            return
        if self.pane.forget_kept(error) or self.table.highlighted_item is None:
            self.detail.show(None, None)
        self.status_filter.forget_kept()
        self.sidebar.forget_kept()

    def _nothing_kept(self) -> str:
        if not self.sources.caching:
            return "The local cache is off (cache = false or --no-cache): nothing is kept."
        return "Nothing from this server is kept on this computer to show instead."

    # The problem desk's host

    def _ask_for_key(self, detail: str) -> None:
        self.post_message(self.KeyRejected(self, detail))

    def _change_connection(self) -> None:
        self.post_message(self.ChangeConnection())

    def resume(self, renewed: bool) -> None:
        """After the key was refused: with a new key (`renewed`), run again what it was
        refused for; without, keep the rows and the error (r retries)."""
        self.problems.resume(renewed)
