"""The main screen's view and the keys that change it or act on it: which project and
status is shown (`show_view`), refresh, the rest of the view, find, the sidebar and the
detail's width, a project added, the overview and the export.

`ViewKeys` is the screen `MainScreen` builds on, as it builds on `AnalysisKeys` for the
keys that act on the highlighted analysis: it holds the view's headless sources (a pager
for the table, the totals, the projects) and the widgets' public methods it calls; the
screen composes the widgets and routes what crosses them. The bindings themselves are the
main screen's (`keys.MAIN_KEYS`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from textual.content import Content

from screen_analysis.api.current import CurrentClient
from screen_analysis.browse import Sources, ViewKey
from screen_analysis.browse.order import SERVER_ORDER, SortOrder
from screen_analysis.config import Settings
from screen_analysis.safe_text import clean
from screen_analysis.state import RememberedPlace, RememberedProjects
from screen_analysis.tui.keys import bound_keys
from screen_analysis.tui.one import One
from screen_analysis.tui.screens.main.actions import FindInRows
from screen_analysis.tui.screens.main.analysis_keys import AnalysisKeys
from screen_analysis.tui.screens.main.place import PlaceKeeper
from screen_analysis.tui.screens.main.saved import SavedViews, columns_words, read_columns
from screen_analysis.tui.widgets.analysis_detail import AnalysisDetail
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.screen_image import ImagePreviews
from screen_analysis.tui.widgets.status_filter import CHOICES, StatusFilter
from screen_analysis.tui.widgets.table import AnalysesPane
from screen_analysis.tui.widgets.view_tabs import ViewTabs
from screen_analysis.tui.workers import Workers

if TYPE_CHECKING:
    from screen_analysis.browse.scope import Filter
    from screen_analysis.browse.scope_model import SavedView


class ViewKeys(AnalysisKeys):
    """A screen showing one view of a connection's analyses, and the keys on it."""

    pane = One(AnalysesPane)
    sidebar = One(ProjectSidebar)
    detail = One(AnalysisDetail)
    status_filter = One(StatusFilter)
    view_tabs = One(ViewTabs)

    def __init__(
        self,
        current: CurrentClient,
        sources: Sources,
        *,
        settings: Settings,
        remembered: RememberedProjects,
        previews: ImagePreviews | None,
        clock: Callable[[], datetime],
    ) -> None:
        """Browse with the client `current` holds, through `sources`; pinned projects from
        `settings`, others from `remembered`; images through `previews`; `clock` tells the
        ages."""
        super().__init__(lambda: current.base_url, previews, clock)
        self.clock = clock
        self.current = current
        self.sources = sources
        self.pager = sources.pager()
        self.settings = settings
        self.remembered = remembered
        self.finder = FindInRows(self.services, self.pager, lambda ids: bound_keys(self, ids))
        server, state_path = remembered.server, settings.state_path
        kept = RememberedPlace(state_path, server, settings.profile) if server else None
        self.place = PlaceKeeper(kept, self.set_timer, self.services.background)
        self.saved = SavedViews(settings, self.services)

    @property
    def view(self) -> ViewKey:
        """The (project, status) on screen."""
        return self.pager.view

    def opening(self) -> tuple[ViewKey, str | None, str | None]:
        """Where the screen opens: the view, the analysis to pick in it (None: the top
        row) and the saved view shown (None: none) — `--view NAME`, else where the last
        run was left."""
        view, pick = self.place.opening()
        return view, pick, self.saved.opening() or self.place.saved_view

    def asked_view(self, key: ViewKey, saved: str | None) -> ViewKey:
        """What the server is asked for to show `key`, or the saved view `saved`."""
        return self._scope(key, saved)[2]

    def _scope(
        self, key: ViewKey, saved: str | None
    ) -> tuple[SavedView | None, Filter | None, ViewKey]:
        """The saved view `saved` (None: none, or not one of the views), its filter now,
        and what the server is asked for: its listing, else `key`."""
        view = self.saved.views.get(saved) if saved is not None else None
        where = view.at(self.clock()) if view is not None else None
        return view, where, where.server_key if where is not None else key

    # Views

    def show_view(self, key: ViewKey, *, pick: str | None = None, saved: str | None = None) -> None:
        """Show `key`'s analyses (or the saved view `saved`'s: its scope, sort and
        columns): the table from the top (or at `pick`), the filter's totals, no detail
        yet. Any other view leaves the saved view shown."""
        views = self.saved
        view, where, key = self._scope(key, saved)
        was, views.current = views.current, saved if view is not None else None
        self.view_tabs.current = views.current
        self.status_filter.show_view(key)
        self.detail.show(None, None)
        self.pane.show(key, pick=pick, where=where)
        if view is not None:
            self.table.show_columns(view.columns)
            self.table.sort_by(SortOrder.written(view.sort))
        elif was is not None:
            self.table.show_columns(None)
            self.table.sort_by(SERVER_ORDER)
        self.title_view()
        self.place.moved(key, pick, views.current)
        self.sidebar.recount()

    def title_view(self) -> None:
        """The pane's title: "Analyses · Lumen Banking · Completed"."""
        view = self.view
        parts = ["Analyses"]
        if self.saved.current is not None:
            parts.append(f"view {clean(self.saved.current)}")
        if view.project_id is not None:
            parts.append(self.sidebar.names.get(view.project_id, clean(view.project_id)))
        parts.append(next(word for status, word in CHOICES if status == view.status))
        self.pane.border_title = Content(" · ".join(parts))

    def choose_project(self, project_id: str | None) -> None:
        """Show `project_id`'s analyses (None: all) with the current status filter."""
        self.sidebar.mark_current(project_id)
        if project_id is not None:
            self.remember(project_id)
            self.sidebar.recount([project_id])  # fresh statistics on selection
        self.show_view(ViewKey(project_id, self.view.status))

    def remember(self, project_id: str) -> None:
        """Remember a project for the next run (the state file is written off the loop)."""
        remembered = self.remembered
        if project_id not in remembered.ids:
            self.services.background(asyncio.to_thread(remembered.add, project_id), "state-file")

    # Actions (keys: MAIN_KEYS)

    def action_status(self, index: int) -> None:
        """Filter by the status at `index` of the filter bar."""
        self.show_view(ViewKey(self.view.project_id, CHOICES[index][0]))

    def action_next_view(self, step: int) -> None:
        """Show the saved view `step` tabs away (the first when none is shown)."""
        name = self.saved.step(step)
        if name is not None:
            self.show_view(self.view, saved=name)

    def action_pick_columns(self) -> None:
        """Ask for the table's columns (by name, in order); kept with a saved view shown."""
        from screen_analysis.tui.dialogs.prompt import PICK_COLUMNS, PromptDialog

        def chosen(text: str | None) -> None:
            if not text:
                return
            try:
                columns = read_columns(text)
            except ValueError as exc:
                self.services.say(str(exc), "error")
                return
            self.table.show_columns(columns)
            self.saved.columns_chosen(columns)

        shown = columns_words(self.table.shown_columns)
        self.services.show(PromptDialog(PICK_COLUMNS, shown), chosen)

    def action_save_view(self) -> None:
        """Save the filter, sort and columns shown as a view of the config."""
        from screen_analysis.tui.dialogs.prompt import SAVE_VIEW, PromptDialog

        def named(name: str | None) -> None:
            if not name:
                return
            table = self.table
            self.saved.save_as(
                name, self.view, table.row_order, table.shown_columns, self._view_saved
            )

        self.services.show(PromptDialog(SAVE_VIEW, self.saved.current or ""), named)

    def _view_saved(self, name: str) -> None:
        self.view_tabs.names = self.saved.names
        self.view_tabs.current = self.saved.current = name
        self.title_view()

    def action_refresh(self) -> None:
        """Retry what failed, else reload the view keeping the highlighted analysis."""
        self.pane.reload()
        self.status_filter.recount(self.view)
        self.sidebar.recount([self.view.project_id] if self.view.project_id else [])

    def action_toggle_auto_refresh(self) -> None:
        """Pause or resume the auto-refresh (the status line shows which)."""
        self.pane.toggle_refresh()

    def action_load_all(self) -> None:
        """Load every page of the view (up to 100,000 rows), e.g. before sorting."""
        self.pane.load_all()

    def action_close_detail(self) -> None:
        """Stop loading the rest, or go back from the detail to the table."""
        if self.pane.stop_load_all():
            return
        if self.has_class("-detail-open") or self.detail.has_focus_within:
            self.remove_class("-detail-open")
            self.table.focus()

    def action_detail_width(self, step: int) -> None:
        """Give the detail pane `step` percent more of the width (less when negative)."""
        self.detail.widen(step)

    def action_toggle_sidebar(self) -> None:
        """Fold the project sidebar away to give the table the width, or bring it back."""
        self.sidebar.toggle_fold()

    def action_add_project(self) -> None:
        """Ask for a project id and add it to the sidebar."""
        from screen_analysis.tui.dialogs.prompt import AddProjectDialog

        def added(project_id: str | None) -> None:
            if project_id:
                self.sidebar.add(project_id)

        self.services.show(AddProjectDialog(), added)

    def action_find(self) -> None:
        """Ask for text to find in the loaded labels."""
        self.finder.ask(self.table)

    def action_find_next(self) -> None:
        """Find the next row matching the last search (ask when there was none)."""
        self.finder.next(self.table)

    def action_overview(self) -> None:
        """The overview of the project shown, or of all projects."""
        self.insight.overview(self.current, self.view.project_id, self.sources.offline_cache)

    def action_export(self) -> None:
        """Write the view (the loaded rows or every page) to a CSV or JSON Lines file."""
        from screen_analysis.tui.screens.main.export import ExportRequest, export_view

        table, pager = self.table, self.pager
        request = ExportRequest(
            self.view,
            list(table.items),
            table.row_order,
            pager.total,
            pager.done,
            self.current,
            pager.where,
            table.shown_columns,
        )
        Workers(self).run(partial(export_view, self.services, request), "export")
