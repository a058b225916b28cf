"""Headless client of the Screen Analysis Service API. Never imports Textual, click or demo."""

from screen_analysis.api.models import (
    CRITERIA,
    STATUSES,
    Analysis,
    AnalysisItem,
    AnalysisPage,
    AnalysisStatus,
    Criterion,
    InvalidAnalysis,
    Project,
    parse_status,
)

__all__ = [
    "CRITERIA",
    "STATUSES",
    "Analysis",
    "AnalysisItem",
    "AnalysisPage",
    "AnalysisStatus",
    "Criterion",
    "InvalidAnalysis",
    "Project",
    "parse_status",
]
