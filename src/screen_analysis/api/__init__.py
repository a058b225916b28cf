"""Headless client of the Screen Analysis Service API. Never imports Textual, click or demo.

The names below are imported from their modules on first use (PEP 562): a part of the
command line that only words errors (`api.errors`, `api.describe`) does not load the client
(httpx) or the resources, so `--help` and `--version` stay quick; a reader that checks what
it can itself (the local cache's rows, `api.plain_resources`) asks for `parse_item`, and
with it pydantic, only for what it leaves to pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screen_analysis.lazy_names import names_on_first_use

if TYPE_CHECKING:
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.api.errors import (
        APIConnectionError,
        APIError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        EmptyPagesError,
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
    from screen_analysis.api.pagination import PageIterator
    from screen_analysis.api.parsing import parse_item
    from screen_analysis.api.retry import RetryPolicy
    from screen_analysis.api.timeouts import Timeouts

_MODULE_OF = {
    "ScreenAnalysisClient": "client",
    "APIConnectionError": "errors",
    "APIError": "errors",
    "APITimeoutError": "errors",
    "AuthenticationError": "errors",
    "BadRequestError": "errors",
    "EmptyPagesError": "errors",
    "InvalidArgumentError": "errors",
    "InvalidResponseError": "errors",
    "NotFoundError": "errors",
    "PaginationLoopError": "errors",
    "RateLimitError": "errors",
    "RedirectError": "errors",
    "ScreenAnalysisError": "errors",
    "ServerError": "errors",
    "extract_message": "messages",
    "CRITERIA": "models",
    "STATUSES": "models",
    "Analysis": "models",
    "AnalysisItem": "models",
    "AnalysisPage": "models",
    "AnalysisStatus": "models",
    "Criterion": "models",
    "InvalidAnalysis": "models",
    "Project": "models",
    "parse_status": "models",
    "PageIterator": "pagination",
    "parse_item": "parsing",
    "RetryPolicy": "retry",
    "Timeouts": "timeouts",
}


__getattr__ = names_on_first_use(__name__, _MODULE_OF)


__all__ = [
    "CRITERIA",
    "STATUSES",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "Analysis",
    "AnalysisItem",
    "AnalysisPage",
    "AnalysisStatus",
    "AuthenticationError",
    "BadRequestError",
    "Criterion",
    "EmptyPagesError",
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
    "parse_item",
    "parse_status",
]
