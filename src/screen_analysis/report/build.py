"""Gather what a report needs from the API: the overview and the names of its projects."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import ScreenAnalysisError
from screen_analysis.insight.aggregates import Overview
from screen_analysis.insight.collect import Progress, collect_overview
from screen_analysis.report.render import ReportData

MAX_NAMED_PROJECTS = 50


async def project_names(client: ScreenAnalysisClient, overview: Overview) -> dict[str, str]:
    """Names of the projects the overview's tables mention (ids stay where a look-up fails)."""
    ids = {
        ref.project_id
        for ref in (*overview.best, *overview.worst, *overview.failures)
        if ref.project_id
    }
    if overview.project_id is not None:
        ids.discard(overview.project_id)
    names = {overview.project_id: overview.scope} if overview.project_id else {}
    for project_id in sorted(ids)[:MAX_NAMED_PROJECTS]:
        with contextlib.suppress(ScreenAnalysisError):
            names[project_id] = (await client.get_project(project_id)).name
    return names


async def gather_report(
    client: ScreenAnalysisClient,
    *,
    clock: Callable[[], datetime],
    project_id: str | None = None,
    status: str | None = None,
    since: datetime | None = None,
    on_page: Progress | None = None,
) -> ReportData:
    """Walk the listing once and return the report's data."""
    overview = await collect_overview(
        client, project_id=project_id, status=status, since=since, on_page=on_page
    )
    names = await project_names(client, overview)
    return ReportData(overview, clock(), status=status, since=since, project_names=names)
