"""The overview of what the local cache kept, for when the server cannot be reached: the same
aggregates (`OverviewBuilder`) over the analyses kept for a project (or for all), with when
their view was fetched and the names of the projects kept. Headless; it reads the database
and adds up every row kept, so run it in a thread."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from screen_analysis.api.models import Project
from screen_analysis.browse.scope import Filter
from screen_analysis.cache import LocalCache
from screen_analysis.insight.aggregates import Overview, OverviewBuilder


class KeptOverview(NamedTuple):
    """An overview of the analyses the cache kept: how many, the time their view was fetched
    (None: no view of this scope was kept, only rows of others), the projects' names."""

    overview: Overview
    kept: int
    fetched_at: datetime | None
    project_names: dict[str, str]


def kept_overview(
    cache: LocalCache,
    project_id: str | None,
    *,
    status: str | None = None,
    since: datetime | None = None,
    where: Filter | None = None,
) -> KeptOverview | None:
    """The overview of what `cache` holds for `project_id` (None: all projects), with
    `status` only and from `since` on; None when it holds no analysis of that scope."""
    items = cache.analyses(project_id)
    if status is not None:
        items = [i for i in items if str(getattr(i, "status", "")) == status]
    if not items:
        return None
    projects = {project.id: project for project, _fetched in cache.projects()}
    project = None
    if project_id is not None:
        # A project never fetched is named by its id rather than taken for all projects.
        unnamed = {"id": project_id, "name": project_id}
        project = projects.get(project_id) or Project.model_validate(unnamed)
    builder = OverviewBuilder(project, since=since, by_project=project_id is None, where=where)
    builder.add_page(items, None)
    names = {pid: kept.name for pid, kept in projects.items()}
    return KeptOverview(builder.result(), len(items), _fetched_at(cache, project_id, status), names)


def _fetched_at(cache: LocalCache, project_id: str | None, status: str | None) -> datetime | None:
    """When the view the kept rows stand for was fetched: the scope's own, else its
    unfiltered one, else the one of all projects."""
    for project, wanted in dict.fromkeys([(project_id, status), (project_id, None), (None, None)]):
        view = cache.view(project, wanted)
        if view is not None:
            return view.fetched_at
    return None
