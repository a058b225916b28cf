"""The project sidebar: "All projects", then each known project with its count and average."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from screen_analysis.safe_text import clean
from screen_analysis.state import LayoutPreferences
from screen_analysis.tui.formatting import DASH, format_score
from screen_analysis.tui.project_book import KnownProject

ALL_ID = "all"
FOLD_BELOW = 100  # columns: below this the sidebar starts folded, unless the user chose
_PREFIX = "p:"  # option ids of projects; "all" cannot collide with a prefixed id


def entry_lines(entry: KnownProject) -> tuple[str, str]:
    """The name line and the statistics line of an entry, as plain (cleaned) text."""
    project = entry.project
    if project is None:
        note = {"missing": "not found", "error": "couldn't load"}.get(entry.state, "loading…")
        return clean(entry.project_id) or DASH, note
    count = project.analysis_count
    counted = DASH if count is None else f"{count:,}"
    average = DASH if project.avg_score is None else format_score(project.avg_score)
    return clean(project.name) or clean(project.id) or DASH, f"{counted} · avg {average}"


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

    def __init__(self, *, id: str | None = None, state_path: Path | None = None) -> None:
        """Create the sidebar with only "All projects"; the fold is kept in `state_path`."""
        super().__init__(id=id, markup=False)
        self._entries: dict[str, KnownProject] = {}
        self._current: str | None = None
        preferences = LayoutPreferences(state_path) if state_path is not None else None
        self._preferences = preferences
        self._chosen = preferences.sidebar_folded if preferences else None
        self.add_option(Option(self._prompt_all(), id=ALL_ID))

    def on_mount(self) -> None:
        """Fold for the width now, and again whenever the screen is laid out anew."""
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self._fold())
        self._fold()

    @property
    def folded(self) -> bool:
        """Whether the sidebar is folded away."""
        return self.has_class("-folded")

    def toggle_fold(self) -> None:
        """Fold or unfold, and remember the choice."""
        folded = self._chosen = not self.folded
        if self._preferences is not None:
            self._preferences.remember_sidebar(folded)
        self._fold(folded)

    def _fold(self, folded: bool | None = None) -> None:
        if folded is None:
            chosen = self._chosen
            folded = self.screen.size.width < FOLD_BELOW if chosen is None else chosen
        if folded != self.folded:
            self.set_class(folded, "-folded")
            if folded and self.has_focus:
                self.screen.focus_next()

    @property
    def project_ids(self) -> tuple[str, ...]:
        """The projects listed, in order."""
        return tuple(self._entries)

    def entry(self, project_id: str) -> KnownProject | None:
        """What the sidebar knows about `project_id`."""
        return self._entries.get(project_id)

    def show_entry(self, entry: KnownProject) -> None:
        """Add the project, or update what is shown for it."""
        known = entry.project_id in self._entries
        self._entries[entry.project_id] = entry
        prompt = self._prompt(entry)
        if known:
            self.replace_option_prompt(_PREFIX + entry.project_id, prompt)
        else:
            self.add_option(Option(prompt, id=_PREFIX + entry.project_id))

    def remove_entry(self, project_id: str) -> None:
        """Drop a project from the list."""
        if self._entries.pop(project_id, None) is not None:
            self.remove_option(_PREFIX + project_id)

    def mark_current(self, project_id: str | None) -> None:
        """Mark which project the table shows."""
        previous, self._current = self._current, project_id
        for changed in {previous, project_id}:
            if changed is None:
                self.replace_option_prompt(ALL_ID, self._prompt_all())
            elif (entry := self._entries.get(changed)) is not None:
                self.replace_option_prompt(_PREFIX + changed, self._prompt(entry))

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
