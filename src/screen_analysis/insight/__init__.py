"""Headless aggregates over analyses (a project overview), used by the app and the report."""

from screen_analysis.insight.aggregates import (
    PLATFORM_DEFAULTS,
    CriterionMean,
    Overview,
    OverviewBuilder,
    ScreenRef,
)
from screen_analysis.insight.collect import collect_overview, fill
from screen_analysis.insight.timeline import Timeline, TimePoint

__all__ = [
    "PLATFORM_DEFAULTS",
    "CriterionMean",
    "Overview",
    "OverviewBuilder",
    "ScreenRef",
    "TimePoint",
    "Timeline",
    "collect_overview",
    "fill",
]
