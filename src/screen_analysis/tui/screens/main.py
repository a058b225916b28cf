"""The main screen: project sidebar, status filter, analyses table, status line and detail.

The screen mediates: widgets get data through methods and attributes, and post messages
up; all I/O runs in workers of the loader (see `MainLoader`, and `LiveRefresh` for the
auto-refresh), whose outcomes come back here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.config import Settings
from screen_analysis.safe_text import clean
from screen_analysis.state import LayoutPreferences, RememberedProjects
from screen_analysis.tui.browser import has_graphical_browser, is_web_url
from screen_analysis.tui.clipboard import copy_text
from screen_analysis.tui.formatting import now_utc
from screen_analysis.tui.screens.add_project import AddProjectDialog
from screen_analysis.tui.screens.find import FindDialog
from screen_analysis.tui.screens.live_refresh import LiveRefresh
from screen_analysis.tui.screens.show_url import ShowUrlDialog
from screen_analysis.tui.view_state import ViewKey
from screen_analysis.tui.widgets.analyses_table import AnalysesTable
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.status_filter import CHOICES, StatusFilter
from screen_analysis.tui.widgets.status_line import StatusLine


def find_label(items: list[AnalysisItem], query: str, start: int) -> int | None:
    """The first row at or after `start` (wrapping) whose label contains `query`, any case."""
    needle = query.casefold()
    count = len(items)
    for step in range(count):
        index = (start + step) % count
        item = items[index]
        if isinstance(item, Analysis) and needle in clean(item.label).casefold():
            return index
    return None


class MainScreen(LiveRefresh):
    """Browse analyses: choose a project and a status, page through, read one in detail."""

    # Textual's own annotation makes a ClassVar annotation here a type error.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012
    AUTO_FOCUS = "AnalysesTable"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "status(0)", "All", show=False),
        Binding("2", "status(1)", "Pending", show=False),
        Binding("3", "status(2)", "Processing", show=False),
        Binding("4", "status(3)", "Completed", show=False),
        Binding("5", "status(4)", "Failed", show=False),
        Binding("r", "refresh", "Refresh", tooltip="Reload the view, or retry what failed"),
        Binding("p", "toggle_auto_refresh", "Pause", tooltip="Pause or resume the auto-refresh"),
        Binding("slash", "find", "Find", tooltip="Find in the loaded rows by label"),
        Binding("n", "find_next", "Next match", show=False),
        Binding("a", "add_project", "Add project", tooltip="Add a project by id"),
        Binding("y", "copy_id", "Copy id", tooltip="Copy the analysis id (OSC 52)"),
        Binding("Y", "copy_url", "Copy URL", show=False),
        Binding("o", "open_image", "Open", tooltip="Open the image in a browser"),
        Binding("escape", "close_detail", "Back", show=False),
        Binding("b", "toggle_sidebar", "Sidebar", id="sidebar", tooltip="Fold the projects away"),
    ]

    def __init__(
        self,
        client: ScreenAnalysisClient,
        *,
        settings: Settings,
        remembered: RememberedProjects,
        base_url: str,
        clock: Callable[[], datetime] = now_utc,
    ) -> None:
        """Browse with `client`; pinned projects from `settings`, others from `remembered`."""
        super().__init__()
        self.client = client
        self.settings = settings
        self.remembered = remembered
        self.base_url = base_url
        self._clock = clock
        self._find_query = ""
        self.init_loader()
        self.init_live_refresh(settings.refresh_interval)

    def compose(self) -> ComposeResult:
        """Filter bar, then sidebar, the centre column (table, status line) and detail."""
        yield Header()
        yield StatusFilter(id="status-filter")
        with Horizontal(id="body"):
            yield ProjectSidebar(
                id="sidebar", preferences=LayoutPreferences(self.settings.state_path)
            )
            with Vertical(id="center"):
                yield AnalysesTable(clock=self._clock, empty_message="Loading…", id="table")
                yield StatusLine(id="status-line")
            yield AnalysisDetail(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the sidebar with known projects and load the first page."""
        self.want_projects([*self.settings.projects, *self.remembered.ids])
        self.sidebar.mark_current(None)
        self.show_view(ViewKey())
        self.start_auto_refresh()

    @property
    def narrow(self) -> bool:
        """Below 120 columns the detail opens in place of the table."""
        return self.has_class("-narrow")

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

    @on(AnalysesTable.SortChanged)
    def _sort_changed(self, event: AnalysesTable.SortChanged) -> None:
        self.status_line.sorted_by = event.order.describe()

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
            self.fetch_project(project_id)  # fresh statistics on selection
        self.show_view(ViewKey(project_id, self.view.status))

    # Actions

    def action_status(self, index: int) -> None:
        """Filter by the status at `index` of the filter bar."""
        self.show_view(ViewKey(self.view.project_id, CHOICES[index][0]))

    def action_refresh(self) -> None:
        """Retry what failed, else reload the view keeping the selected row."""
        self.refresh_or_retry()

    def action_toggle_auto_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self.toggle_auto_refresh()

    def action_close_detail(self) -> None:
        """Back from the detail to the table."""
        if self.has_class("-detail-open") or self.detail.has_focus_within:
            self.remove_class("-detail-open")
            self.table.focus()

    def action_toggle_sidebar(self) -> None:
        """Fold the project sidebar away, or bring it back (remembered)."""
        self.sidebar.toggle_fold()

    def action_find(self) -> None:
        """Ask for text to find in the loaded labels."""
        self._app.push_screen(FindDialog(self._find_query), self._find_from_dialog)

    def _find_from_dialog(self, query: str | None) -> None:
        if query:
            self._find_query = query
            self._find(self.table.cursor_row)

    def action_find_next(self) -> None:
        """Find the next row matching the last search."""
        if self._find_query:
            self._find(self.table.cursor_row + 1)
        else:
            self.action_find()

    def _find(self, start: int) -> None:
        items = list(self.table.items)
        index = find_label(items, self._find_query, start) if items else None
        if index is None:
            self.notify(
                "No loaded row has a label containing " + repr(clean(self._find_query)),
                severity="warning",
                markup=False,
            )
            return
        self.table.move_cursor(index)
        self.table.focus()

    def action_add_project(self) -> None:
        """Ask for a project id and add it when the server knows it."""
        self._app.push_screen(AddProjectDialog(), self._add_from_dialog)

    def _add_from_dialog(self, project_id: str | None) -> None:
        if project_id:
            self.add_project(project_id)

    def _highlighted_analysis(self) -> Analysis | None:
        item = self.table.highlighted_item
        if isinstance(item, Analysis):
            return item
        self.notify("No analysis is highlighted.", severity="warning", markup=False)
        return None

    def action_copy_id(self) -> None:
        """Copy the highlighted analysis's id."""
        if (item := self._highlighted_analysis()) is not None:
            copied = copy_text(self._app, item.id)
            self.notify("Copied the id " + copied, markup=False)

    def action_copy_url(self) -> None:
        """Copy the highlighted analysis's image URL."""
        if (item := self._highlighted_analysis()) is None:
            return
        if not item.image_url:
            self.notify("This analysis has no image URL.", severity="warning", markup=False)
            return
        copy_text(self._app, item.image_url)
        self.notify("Copied the image URL.", markup=False)

    def action_open_image(self) -> None:
        """Open the image URL in a browser, or show it to copy."""
        if (item := self._highlighted_analysis()) is None:
            return
        url = item.image_url or ""
        if not is_web_url(url):
            reason = "This image address is not an http(s) URL, so it is not opened:"
            self.show_url(url or "(none)", reason)
        elif has_graphical_browser():
            self.open_url(url)
        else:
            self.show_url(url, "No browser on this machine; copy the address:")

    def show_url(self, url: str, reason: str) -> None:
        """Show an address with the offer to copy it."""

        def copy_if_asked(copy: bool | None) -> None:
            if copy:
                copy_text(self._app, url)
                self.notify("Copied the image URL.", markup=False)

        self._app.push_screen(ShowUrlDialog(url, reason), copy_if_asked)
