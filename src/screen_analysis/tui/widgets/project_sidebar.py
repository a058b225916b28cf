"""The project sidebar: "All projects", then each known project with its count and average.

The sidebar owns its projects: it asks its source (`ProjectSource`, the main view's feed)
for each one it is told about, once, in its own workers, and again when told their counts
moved; it lists them by name, always in the same order. It starts with those the local
cache kept, once the key in use may see them, and forgets those when the key is refused.
It posts up what others need: the project chosen, a project that became known (its name,
for the table and the detail), one the user added (to remember), and a failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar, Protocol

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import AuthenticationError, NotFoundError
from screen_analysis.api.models import Project
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import DISPLAY_LIMIT, clean, shorten
from screen_analysis.state import LayoutPreferences
from screen_analysis.tui.formatting import DASH, format_score
from screen_analysis.tui.project_book import KnownProject, ProjectBook

ALL_ID = "all"
FOLD_BELOW = 130  # columns: below this the sidebar starts folded (the label keeps its room)
_PREFIX = "p:"  # option ids of projects; "all" cannot collide with a prefixed id


class ProjectSource(Protocol):
    """Where the sidebar's projects come from."""

    async def fetch_project(self, project_id: str) -> Project:
        """The project with `project_id`."""

    async def kept_projects(self) -> list[Project]:
        """The projects the local cache kept, once the key in use may see them (else none)."""


def entry_lines(entry: KnownProject) -> tuple[str, str]:
    """The name line and the statistics line of an entry, as plain (cleaned) text."""
    project = entry.project
    if project is None:
        note = {"missing": "not found", "error": "couldn't load"}.get(entry.state, "loading…")
        return clean(entry.project_id, limit=DISPLAY_LIMIT) or DASH, note
    count = project.analysis_count
    counted = DASH if count is None else f"{format_count(count)}"
    average = DASH if project.avg_score is None else format_score(project.avg_score)
    name = clean(project.name, limit=DISPLAY_LIMIT) or clean(project.id, limit=DISPLAY_LIMIT)
    return name or DASH, f"{counted} · avg {average}"


def listing_order(entry: KnownProject) -> tuple[str, str]:
    """Projects are listed by name (case folded), then id: the same order every run."""
    return entry_lines(entry)[0].casefold(), entry.project_id


class ProjectSidebar(OptionList):
    """Projects to choose from; Enter or a click posts `ProjectChosen` (None: all projects).

    It folds away (class `-folded`) to give the table the width: by default below
    `FOLD_BELOW` columns, else as the user last chose (`toggle_fold`, remembered).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="sidebar-down"),
        Binding("k", "cursor_up", "Up", show=False, id="sidebar-up"),
    ]

    DEFAULT_CSS = """
    ProjectSidebar {
        height: 1fr;
        max-height: 100%;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    class ProjectChosen(Message):
        """A project (or all projects, None) was chosen."""

        def __init__(self, sidebar: ProjectSidebar, project_id: str | None) -> None:
            super().__init__()
            self.sidebar = sidebar
            self.project_id = project_id

        @property
        def control(self) -> ProjectSidebar:
            """The sidebar that posted the message."""
            return self.sidebar

    class Known(Message):
        """A project was fetched: its name and statistics are known (or known again)."""

        def __init__(self, project: KnownProject, names: dict[str, str]) -> None:
            super().__init__()
            self.project = project
            self.names = names

    class Added(Message):
        """The user added a project by id and the server knows it: worth remembering."""

        def __init__(self, project_id: str) -> None:
            super().__init__()
            self.project_id = project_id

    class Failed(Message):
        """Fetching a project failed in a way the user must act on (a refused key)."""

        def __init__(self, error: Exception, again: Callable[[], None]) -> None:
            super().__init__()
            self.error = error
            self.again = again

    def __init__(
        self,
        source: ProjectSource | None = None,
        *,
        id: str | None = None,
        state_path: Path | None = None,
    ) -> None:
        """Create the sidebar with only "All projects"; projects come from `source`; the
        fold is kept in `state_path`'s folder (read once mounted, off the event loop)."""
        super().__init__(id=id, markup=False)
        self._source = source
        self._book = ProjectBook()
        self._unconfirmed: set[str] = set()  # listed from the cache, not fetched yet
        self._from_cache: set[str] = set()  # shown as the cache kept it, not fetched since
        self._kept_only: set[str] = set()  # of those, listed for the cache alone
        self._listed: list[str] = []
        self._current: str | None = None
        self._state_path = state_path
        self._preferences: LayoutPreferences | None = None
        self._chosen: bool | None = None
        self.add_option(Option(self._prompt_all(), id=ALL_ID))

    def on_mount(self) -> None:
        """Fold for the width now, and again whenever the screen is laid out anew; read the
        user's last choice."""
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self._fold())
        self._fold()
        if self._state_path is not None:
            self._read_preferences(self._state_path)
        if self._source is not None:
            self._seed_kept(self._source)

    @work(group="kept", exit_on_error=False)
    async def _seed_kept(self, source: ProjectSource) -> None:
        self.seed(await source.kept_projects())

    def on_unmount(self) -> None:
        """Stop following the screen's layout."""
        self.screen.screen_layout_refresh_signal.unsubscribe(self)

    # Folding

    @work(group="sidebar-file", exit_on_error=False)
    async def _read_preferences(self, state_path: Path) -> None:
        preferences = await asyncio.to_thread(LayoutPreferences, state_path)
        self._preferences = preferences
        if self._chosen is None:
            self._chosen = preferences.sidebar_folded
            self._fold()

    @property
    def folded(self) -> bool:
        """Whether the sidebar is folded away."""
        return self.has_class("-folded")

    def toggle_fold(self) -> None:
        """Fold or unfold, and remember the choice (written off the event loop)."""
        folded = self._chosen = not self.folded
        if self._preferences is not None:
            self._remember_fold(self._preferences, folded)
        self._fold(folded)

    @work(group="sidebar-file", exit_on_error=False)
    async def _remember_fold(self, preferences: LayoutPreferences, folded: bool) -> None:
        await asyncio.to_thread(preferences.remember_sidebar, folded)

    def _fold(self, folded: bool | None = None) -> None:
        if folded is None:
            chosen = self._chosen
            folded = self.screen.size.width < FOLD_BELOW if chosen is None else chosen
        if folded != self.folded:
            self.set_class(folded, "-folded")
            if folded and self.has_focus:
                self.screen.focus_next()

    # Projects

    @property
    def project_ids(self) -> tuple[str, ...]:
        """The projects listed, in order."""
        return tuple(self._listed)

    def entry(self, project_id: str) -> KnownProject | None:
        """What the sidebar knows about `project_id` (also while it is being fetched)."""
        return self._book.get(project_id)

    @property
    def names(self) -> dict[str, str]:
        """Cleaned names of the fetched projects, by id."""
        return self._book.names()

    def want(self, project_ids: Iterable[str | None]) -> None:
        """List and fetch (once each) the projects not seen before (a project the cache
        listed is fetched the first time the server's rows name it)."""
        wanted = list(project_ids)
        for project_id in self._book.claim(wanted):
            self._show(KnownProject(project_id))
            self._fetch(project_id)
        for project_id in self._unconfirmed.intersection(p for p in wanted if p):
            self._unconfirmed.discard(project_id)
            self._fetch(project_id)

    def seed(self, projects: Iterable[Project]) -> None:
        """Projects as the local cache kept them: listed at once, fetched again the first
        time they are wanted."""
        for project in projects:
            known = KnownProject(project.id, project, "ok")
            self._kept_only.update(self._book.claim([project.id]))
            self._book.record(known)
            self._unconfirmed.add(project.id)
            self._from_cache.add(project.id)
            self._show(known)
            self.post_message(self.Known(known, self._book.names()))

    def forget_kept(self) -> None:
        """What the local cache gave goes (the key was refused: it never sees it): projects
        listed for the cache alone are dropped, the others shown as not loaded."""
        for project_id in sorted(self._from_cache):
            if project_id in self._kept_only:
                self.remove_entry(project_id)
            else:
                known = KnownProject(project_id, None, "error")
                self._book.record(known)
                self._show(known)
        self._unconfirmed.clear()
        self._from_cache.clear()
        self._kept_only.clear()

    def recount(self, project_ids: Iterable[str]) -> None:
        """Fetch these projects again: their counts moved."""
        for project_id in sorted(set(project_ids)):
            if self._book.get(project_id) is not None:
                self._fetch(project_id)

    def add(self, project_id: str) -> None:
        """Add a project by id once the server confirms it exists (the user asked)."""
        known = self._book.get(project_id)
        if known is not None and known.state == "ok":
            self.notify("That project is already listed.", markup=False)
            return
        self._book.claim([project_id])
        self._fetch(project_id, adding=True)

    def remove_entry(self, project_id: str) -> None:
        """Drop a project from the list (and forget it)."""
        self._book.forget(project_id)
        if project_id in self._listed:
            self._listed.remove(project_id)
            self.remove_option(_PREFIX + project_id)

    def _fetch(self, project_id: str, *, adding: bool = False) -> None:
        if self._source is not None:
            self.run_worker(self._get(project_id, adding), group="projects", exit_on_error=False)

    async def _get(self, project_id: str, adding: bool) -> None:
        assert self._source is not None
        try:
            project = await self._source.fetch_project(project_id)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._failed(project_id, error, adding)
            return
        known = KnownProject(project_id, project, "ok")
        self._book.record(known)
        self._from_cache.discard(project_id)
        self._kept_only.discard(project_id)
        self._show(known)
        self.post_message(self.Known(known, self._book.names()))
        if adding:
            self.post_message(self.Added(project_id))
            name = clean(project.name, limit=DISPLAY_LIMIT)
            self.notify("Added the project " + name, markup=False)

    def _failed(self, project_id: str, error: Exception, adding: bool) -> None:
        known = self._book.get(project_id)
        if known is None and not adding:
            return  # dropped meanwhile (what the cache listed, for a refused key)
        if not adding and known is not None and known.project is not None:
            if isinstance(error, AuthenticationError):
                self.post_message(self.Failed(error, lambda: self._fetch(project_id)))
            return  # what was known (from the cache, or an earlier fetch) stays
        if isinstance(error, AuthenticationError):
            again = lambda: self._fetch(project_id, adding=adding)  # noqa: E731
            self.post_message(self.Failed(error, again))
        if adding:
            label = shorten(clean(project_id))
            if isinstance(error, NotFoundError):
                text = "No project " + label + " on this server; it was not added."
            else:
                text = "Couldn't check the project " + label + ": " + describe_error(error)
            self.notify(text, severity="error", markup=False)
            if project_id not in self._listed:
                self._book.forget(project_id)
                return
        state = "missing" if isinstance(error, NotFoundError) else "error"
        known = KnownProject(project_id, None, state)
        self._book.record(known)
        self._show(known)

    @property
    def busy(self) -> bool:
        """Whether projects are being fetched."""
        return any(w.node is self and not w.is_finished for w in self.workers)

    # The list

    def _show(self, entry: KnownProject) -> None:
        """List the project, or update what is shown for it, in its place by name."""
        project_id = entry.project_id
        order = sorted(
            {*self._listed, project_id},
            key=lambda i: listing_order(entry if i == project_id else self._known(i)),
        )
        if order == self._listed:
            self.replace_option_prompt(_PREFIX + project_id, self._prompt(entry))
            return
        highlighted = self.highlighted_option.id if self.highlighted_option else None
        self._listed = order
        self.clear_options()
        self.add_options(
            [Option(self._prompt_all(), id=ALL_ID)]
            + [Option(self._prompt(self._known(i)), id=_PREFIX + i) for i in order]
        )
        if highlighted is not None:
            self.highlighted = self.get_option_index(highlighted)

    def _known(self, project_id: str) -> KnownProject:
        return self._book.get(project_id) or KnownProject(project_id)

    def mark_current(self, project_id: str | None) -> None:
        """Mark which project the table shows."""
        previous, self._current = self._current, project_id
        for changed in {previous, project_id}:
            if changed is None:
                self.replace_option_prompt(ALL_ID, self._prompt_all())
            elif changed in self._listed:
                self.replace_option_prompt(_PREFIX + changed, self._prompt(self._known(changed)))

    def _marker(self, project_id: str | None) -> str:
        return "▸ " if project_id == self._current else "  "

    def _prompt_all(self) -> Content:
        return Content(self._marker(None)) + Content.styled("All projects", "bold")

    def _prompt(self, entry: KnownProject) -> Content:
        name, stats = entry_lines(entry)
        marker = self._marker(entry.project_id)
        return Content.assemble(marker, (name, "bold"), "\n", "  ", (stats, "dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Turn the option into a project id."""
        event.stop()
        option_id = event.option.id or ALL_ID
        project_id = None if option_id == ALL_ID else option_id.removeprefix(_PREFIX)
        self.post_message(self.ProjectChosen(self, project_id))
