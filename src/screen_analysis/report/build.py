"""Gather what a report needs from the API: the overview and the names of its projects."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.browse.scope import Filter
from screen_analysis.insight.collect import Progress, collect_overview, project_names
from screen_analysis.report.render import ReportData


async def gather_report(
    client: ScreenAnalysisClient,
    *,
    clock: Callable[[], datetime],
    project_id: str | None = None,
    status: str | None = None,
    since: datetime | None = None,
    on_page: Progress | None = None,
    where: Filter | None = None,
) -> ReportData:
    """Walk the listing once and return the report's data (of the analyses `where`
    matches: a scope, `report --view`)."""
    overview = await collect_overview(
        client, project_id=project_id, status=status, since=since, on_page=on_page, where=where
    )
    names = await project_names(client, overview)
    return ReportData(overview, clock(), status=status, since=since, project_names=names)
