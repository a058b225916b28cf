"""The main screen's projects: listed in the sidebar as they are seen, each fetched once
(a few at a time), added by id when the server knows them, remembered between runs.

A part the screen composes (`MainScreen.projects`); answers come back to the screen as
`ProjectLoaded` / `ProjectFailed`, which hands them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import NotFoundError
from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.safe_text import clean, shorten
from screen_analysis.tui.project_book import KnownProject, ProjectBook
from screen_analysis.tui.screens import main_outcomes as out

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen


class SidebarProjects:
    """What the main screen knows of projects, and the sidebar that lists them."""

    def __init__(self, screen: MainScreen, book: ProjectBook) -> None:
        self._screen = screen
        self.book = book

    def want(self, project_ids: Iterable[str | None]) -> None:
        """Fetch (once each) the projects not seen before, and list them."""
        for project_id in self.book.claim(project_ids):
            self._screen.sidebar.show_entry(KnownProject(project_id))
            self.fetch(project_id)

    def add(self, project_id: str) -> None:
        """Add a project by id once the server confirms it exists."""
        known = self.book.get(project_id)
        if known is not None and known.state == "ok":
            self._screen.notify("That project is already listed.", markup=False)
            return
        self.book.claim([project_id])
        self.fetch(project_id, adding=True)

    def fetch(self, project_id: str, *, adding: bool = False) -> None:
        """Fetch a project in the background (the feed lets a few run at a time)."""
        screen = self._screen
        work = out.report(
            screen,
            screen.feed.fetch_project(project_id),
            lambda project: out.ProjectLoaded(project_id, project, adding),
            lambda error: out.ProjectFailed(project_id, error, adding),
        )
        screen.run_worker(work, group="projects", exit_on_error=False)

    def loaded(self, event: out.ProjectLoaded) -> None:
        """A project arrived: list it, name it in the table, remember it when added."""
        screen = self._screen
        known = KnownProject(event.project_id, event.project, "ok")
        self.book.record(known)
        screen.sidebar.show_entry(known)
        screen.table.set_project_names(self.book.names())
        if event.adding:
            screen.remembered.add(event.project_id)
            screen.notify("Added the project " + clean(event.project.name), markup=False)

    def failed(self, event: out.ProjectFailed) -> None:
        """A project could not be fetched: say so when the user asked, mark it in the list."""
        screen, project_id, error = self._screen, event.project_id, event.error
        if event.adding:
            label = shorten(clean(project_id))
            if isinstance(error, NotFoundError):
                text = "No project " + label + " on this server; it was not added."
            else:
                text = "Couldn't check the project " + label + ": " + describe_error(error)
            screen.notify(text, severity="error", markup=False)
            if screen.sidebar.entry(project_id) is None:
                self.book.forget(project_id)
                return
        state = "missing" if isinstance(error, NotFoundError) else "error"
        known = KnownProject(project_id, None, state)
        self.book.record(known)
        screen.sidebar.show_entry(known)

    def refetch(self, rows: list[AnalysisItem]) -> None:
        """Fetch again the projects of rows that changed (their statistics moved)."""
        touched = {i.project_id for i in rows if isinstance(i, Analysis)}
        if self._screen.view.project_id is not None:
            touched = {self._screen.view.project_id}
        for project_id in sorted(p for p in touched if isinstance(p, str)):
            self.fetch(project_id)
