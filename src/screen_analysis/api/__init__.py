"""Headless client of the Screen Analysis Service API. Never imports Textual, click or demo."""

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InvalidArgumentError,
    InvalidResponseError,
    NotFoundError,
    PaginationLoopError,
    RateLimitError,
    RedirectError,
    ScreenAnalysisError,
    ServerError,
)
from screen_analysis.api.messages import extract_message
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
from screen_analysis.api.pagination import AnalysisIterator, PageIterator
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.api.timeouts import Timeouts

__all__ = [
    "CRITERIA",
    "STATUSES",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "Analysis",
    "AnalysisItem",
    "AnalysisIterator",
    "AnalysisPage",
    "AnalysisStatus",
    "AuthenticationError",
    "BadRequestError",
    "Criterion",
    "InvalidAnalysis",
    "InvalidArgumentError",
    "InvalidResponseError",
    "NotFoundError",
    "PageIterator",
    "PaginationLoopError",
    "Project",
    "RateLimitError",
    "RedirectError",
    "RetryPolicy",
    "ScreenAnalysisClient",
    "ScreenAnalysisError",
    "ServerError",
    "Timeouts",
    "extract_message",
    "parse_status",
]
