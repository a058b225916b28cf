"""What the app knows about projects: each one fetched once, its state kept (headless)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from screen_analysis.api.models import Project
from screen_analysis.safe_text import DISPLAY_LIMIT, clean


class KnownProject(NamedTuple):
    """A project as far as it is known: fetched (ok), being fetched, unknown or unreachable."""

    project_id: str
    project: Project | None = None
    state: str = "loading"  # queued (named, not asked for yet) | loading | ok | missing | error


class ProjectBook:
    """Projects seen so far, in the order they were first seen."""

    def __init__(self) -> None:
        """Start knowing nothing."""
        self._known: dict[str, KnownProject] = {}
        self._names: dict[str, str] = {}  # kept as projects are recorded: read often
        self._failing: dict[str, None] = {}  # those whose last fetch failed, in order

    def get(self, project_id: str) -> KnownProject | None:
        """What is known about `project_id`."""
        return self._known.get(project_id)

    def claim(self, project_ids: Iterable[str | None], state: str = "loading") -> list[str]:
        """The ids not seen before, now known in `state` (each id is claimed once)."""
        new = []
        for project_id in project_ids:
            if project_id and project_id not in self._known:
                self._known[project_id] = KnownProject(project_id, None, state)
                new.append(project_id)
        return new

    def record(self, known: KnownProject) -> None:
        """Keep the latest state of a project."""
        self._known[known.project_id] = known
        if known.state == "error":
            self._failing[known.project_id] = None
        else:
            self._failing.pop(known.project_id, None)
        if known.project is not None:
            name = clean(known.project.name, limit=DISPLAY_LIMIT)
            if name:
                self._names[known.project_id] = name
            else:
                self._names.pop(known.project_id, None)

    def forget(self, project_id: str) -> None:
        """Drop a project (an unknown id that was not added)."""
        self._known.pop(project_id, None)
        self._names.pop(project_id, None)
        self._failing.pop(project_id, None)

    def failing(self) -> list[str]:
        """The projects whose last fetch failed (not a missing one: that is an answer)."""
        return list(self._failing)

    def names(self) -> dict[str, str]:
        """Cleaned names of the fetched projects, by id."""
        return dict(self._names)
