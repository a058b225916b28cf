"""What the project sidebar posts up (reached as `ProjectSidebar.Known` and so on)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.message import Message
from textual.widget import Widget

from screen_analysis.tui.project_book import KnownProject


class ProjectChosen(Message):
    """A project (or all projects, None) was chosen."""

    def __init__(self, sidebar: Widget, project_id: str | None) -> None:
        super().__init__()
        self.sidebar = sidebar
        self.project_id = project_id

    @property
    def control(self) -> Widget:
        """The sidebar that posted the message."""
        return self.sidebar


class Known(Message):
    """Projects were fetched (or read from the cache): their names and statistics are
    known (or known again)."""

    def __init__(self, projects: Sequence[KnownProject], names: dict[str, str]) -> None:
        super().__init__()
        self.projects = projects
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
