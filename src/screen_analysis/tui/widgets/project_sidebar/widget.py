"""The project sidebar: "All projects", then each known project with its count and average.

The sidebar owns its projects: it lists every project its rows name, by name (by id until
its details are known), always in the same order, sorted once per batch of new names. It
asks its source (`ProjectSource`, the headless `browse.Projects`) for a project's details in its
own workers, a bounded number per refresh (`asking`: those in view and the detail's
first; `r` asks again for those that failed). It starts with those the local cache kept,
once the key in use may see them, and forgets those when the key is refused. It posts up
what others need: the project chosen, projects that became known (their names, for the
table and the detail), one the user added (to remember), and a failure.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import ClassVar, Protocol, TypeAlias

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import AuthenticationError, NotFoundError
from screen_analysis.api.models import Project
from screen_analysis.browse.projects.asking import AskQueue
from screen_analysis.browse.projects.book import KnownProject, ProjectBook
from screen_analysis.browse.projects.from_cache import FromCache
from screen_analysis.safe_text import DISPLAY_LIMIT, TITLE_LIMIT, clean, shorten
from screen_analysis.state import LayoutPreferences
from screen_analysis.tui.widgets.project_sidebar.entries import listing_order, prompt, prompt_all
from screen_analysis.tui.widgets.project_sidebar.messages import (
    Added,
    Failed,
    Known,
    ProjectChosen,
)
from screen_analysis.tui.widgets.project_sidebar.project_list import ALL_ID, ProjectList
from screen_analysis.tui.workers import busy

FOLD_BELOW = 130  # columns: below this the sidebar starts folded (the label keeps its room)
SORT_FROM = 32  # projects moved at once: from this many, one sort rather than one by one


class ProjectSource(Protocol):
    """Where the sidebar's projects come from."""

    async def fetch_project(self, project_id: str) -> Project:
        """The project with `project_id`."""

    async def kept_projects(self) -> list[Project]:
        """The projects the local cache kept, once the key in use may see them (else none)."""


class ProjectSidebar(ProjectList):
    """Projects to choose from; Enter or a click posts `ProjectChosen` (None: all projects).

    It folds away (class `-folded`) to give the table the width: by default below
    `FOLD_BELOW` columns, else as the user last chose (`toggle_fold`, remembered).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="sidebar-down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="sidebar-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="sidebar-page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="sidebar-page-up"),
        Binding("home", "first", "To All projects", show=False, id="sidebar-first"),
        Binding("end", "last", "To the last project", show=False, id="sidebar-last"),
        Binding("enter", "select", "Show the project", show=False, id="sidebar-select"),
    ]

    DEFAULT_CSS = """
    ProjectSidebar {
        height: 1fr;
        max-height: 100%;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    ProjectChosen: TypeAlias = ProjectChosen
    Known: TypeAlias = Known
    Added: TypeAlias = Added
    Failed: TypeAlias = Failed

    def __init__(
        self,
        source: ProjectSource | None = None,
        *,
        id: str | None = None,
        state_path: Path | None = None,
        width: int | None = None,
    ) -> None:
        """Create the sidebar with only "All projects"; projects come from `source`; the
        fold is kept in `state_path`'s folder (read once mounted, off the event loop);
        `width`, the screen's at start: folded from the first frame when it is narrow."""
        super().__init__(self._prompt_of, id=id)
        if width is not None and width < FOLD_BELOW:
            self.add_class("-folded", update=False)
        self._source = source
        self._book = ProjectBook()
        self._asks = AskQueue()
        self._keys: dict[str, tuple[str, str]] = {}  # where each project is listed
        self._listed: list[str] = []
        self._cached = FromCache()  # what the local cache gave, until the server's word
        self._current: str | None = None
        self._state_path = state_path
        self._preferences: LayoutPreferences | None = None
        self._chosen: bool | None = None

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

    def want(self, project_ids: Iterable[str | None], *, kept: bool = False) -> None:
        """List the projects not seen before (by id, until their details are asked for).
        The server's rows came: a project the cache listed that they name, and every one
        that failed to load, is asked for again. They are asked for as far as the current
        refresh allows, those in the sidebar's view first; the others wait for a later
        refresh, or to be looked at. `kept`: named by rows the local cache kept, so a
        project new here is listed for the cache alone (a refused key drops it), until
        something else names it."""
        wanted = [p for p in project_ids if p]
        new = self._book.claim(wanted, state="queued")
        confirm = self._cached.named(wanted, new, kept=kept)
        self._asks.wait(new)
        self._asks.wait([*self._failed_ones(), *confirm], first=True)
        if new:
            self._list(new)
            self._asks.wait(self._queued_in_view(), first=True)
        self._ask()

    def look_up(self, project_id: str) -> KnownProject | None:
        """What is known of `project_id`, asked for now if it was not yet: the reader is
        looking at it (the detail shows one of its analyses)."""
        if self._cached.looked_at(project_id) or self._state(project_id) == "queued":
            self._asks.urge([project_id])
            self._ask()
        return self._book.get(project_id)

    def recount(self, project_ids: Iterable[str] = ()) -> None:
        """A refresh (a view shown, `r`, counts that moved): ask again for these projects
        (their counts moved), then for those that failed, then for others not asked for
        yet, as far as a refresh allows (`asking.PER_REFRESH`)."""
        known = [p for p in dict.fromkeys(project_ids) if self._book.get(p) is not None]
        self._asks.refresh()
        self._asks.wait([*known, *self._failed_ones()], first=True)
        self._ask()

    def _failed_ones(self) -> list[str]:
        return self._book.failing()

    def seed(self, projects: Iterable[Project]) -> None:
        """Projects as the local cache kept them: listed at once, fetched again the first
        time they are wanted."""
        seeded = []
        for project in projects:
            known = KnownProject(project.id, project, "ok")
            self._cached.kept(project.id, new=bool(self._book.claim([project.id])))
            self._book.record(known)
            seeded.append(known)
        if seeded:
            self._list([known.project_id for known in seeded])
            self.post_message(self.Known(seeded, self._book.names()))

    def forget_kept(self) -> None:
        """What the local cache gave goes (the key was refused: it never sees it): projects
        listed for the cache alone are dropped, the others shown as not loaded."""
        dropped, unloaded = self._cached.forget()
        for project_id in dropped:
            self._book.forget(project_id)
            self._asks.forget(project_id)
            self._keys.pop(project_id, None)
        if dropped:
            self._listed = [p for p in self._listed if p not in dropped]
            self.set_order(self._listed)
        for project_id in unloaded:
            self._book.record(KnownProject(project_id, None, "error"))
        self._list(unloaded)

    def add(self, project_id: str) -> None:
        """Add a project by id once the server confirms it exists (the user asked)."""
        known = self._book.get(project_id)
        if known is not None and known.state == "ok":
            self.notify("That project is already listed.", markup=False)
            return
        self._book.claim([project_id])
        self._asks.forget(project_id)
        self._fetch(project_id, adding=True)

    def remove_entry(self, project_id: str) -> None:
        """Drop a project from the list (and forget it)."""
        self._book.forget(project_id)
        self._asks.forget(project_id)
        self._keys.pop(project_id, None)
        if project_id in self._listed:
            self._listed.remove(project_id)
            self.set_order(self._listed)

    def _state(self, project_id: str) -> str | None:
        known = self._book.get(project_id)
        return None if known is None else known.state

    def _queued_in_view(self) -> list[str]:
        """The entries in view that were not asked for yet."""
        return [p for p in self.in_view() if self._state(p) == "queued"]

    def _ask(self) -> None:
        """Start the fetches the queue allows now."""
        for project_id in self._asks.take():
            known = self._book.get(project_id)
            if known is not None and known.project is None and known.state != "loading":
                self._book.record(KnownProject(project_id, None, "loading"))
                self.changed([project_id])
            self._fetch(project_id)

    def _fetch(self, project_id: str, *, adding: bool = False) -> None:
        if self._source is not None:
            self.run_worker(self._get(project_id, adding), group="projects", exit_on_error=False)
        else:
            self._asks.done(project_id)

    async def _get(self, project_id: str, adding: bool) -> None:
        assert self._source is not None
        try:
            project = await self._source.fetch_project(project_id)
        except asyncio.CancelledError:
            self._asks.done(project_id)
            raise
        except Exception as error:
            self._asks.done(project_id)
            self._failed(project_id, error, adding)
            self._ask()
            return
        self._asks.done(project_id)
        known = KnownProject(project_id, project, "ok")
        self._book.record(known)
        self._cached.fetched(project_id)
        self._list([project_id])
        self.post_message(self.Known([known], self._book.names()))
        if adding:
            self.post_message(self.Added(project_id))
            name = clean(project.name, limit=TITLE_LIMIT)
            self.notify("Added the project " + name, markup=False)
        self._ask()

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
            label = shorten(clean(project_id, limit=DISPLAY_LIMIT))
            if isinstance(error, NotFoundError):
                text = "No project " + label + " on this server; it was not added."
            else:
                text = describe_error(error, prefix="Couldn't check the project " + label)
            self.notify(text, severity="error", markup=False)
            if project_id not in self._listed:
                self._book.forget(project_id)
                return
        state = "missing" if isinstance(error, NotFoundError) else "error"
        self._book.record(KnownProject(project_id, None, state))
        self._list([project_id])

    @property
    def busy(self) -> bool:
        """Whether projects are being fetched."""
        return busy(self)

    # The list

    def _list(self, project_ids: Sequence[str]) -> None:
        """List these projects, or show them anew, in their places by name: a few moved
        are put in place one by one (a binary search each), a batch is one sort."""
        moved = [p for p in project_ids if self._keys.get(p) != listing_order(self._known(p))]
        if len(moved) > SORT_FROM:
            for project_id in moved:
                if project_id not in self._keys:
                    self._listed.append(project_id)
                self._keys[project_id] = listing_order(self._known(project_id))
            self._listed.sort(key=self._keys.__getitem__)
        for project_id in moved if len(moved) <= SORT_FROM else ():
            if project_id in self._keys:
                self._listed.remove(project_id)
            self._keys[project_id] = listing_order(self._known(project_id))
            bisect.insort(self._listed, project_id, key=self._keys.__getitem__)
        if moved:
            self.set_order(self._listed)
        self.changed(project_ids)

    def _known(self, project_id: str) -> KnownProject:
        return self._book.get(project_id) or KnownProject(project_id)

    def mark_current(self, project_id: str | None) -> None:
        """Mark which project the table shows."""
        previous, self._current = self._current, project_id
        self.changed([ALL_ID if p is None else p for p in {previous, project_id}])

    def _marker(self, project_id: str | None) -> str:
        return "▸ " if project_id == self._current else "  "

    def _prompt_of(self, option_id: str) -> Content:
        if option_id == ALL_ID:
            return prompt_all(self._marker(None))
        return prompt(self._known(option_id), self._marker(option_id))

    def on_project_list_chosen(self, event: ProjectList.Chosen) -> None:
        """Turn the entry into a project id."""
        event.stop()
        project_id = None if event.option_id == ALL_ID else event.option_id
        self.post_message(ProjectChosen(self, project_id))

    def on_project_list_in_view(self, event: ProjectList.InView) -> None:
        """The reader scrolled or moved the highlight: ask for what came into view."""
        event.stop()
        self._asks.urge(self._queued_in_view())
        self._ask()
