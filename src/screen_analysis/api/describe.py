"""One short line for any failure: the words the app and the command line show."""

from __future__ import annotations

from screen_analysis.api.errors import APIError, RateLimitError, ScreenAnalysisError
from screen_analysis.safe_text import clean


def describe_error(error: BaseException) -> str:
    """One short cleaned line for the status line, notifications and error lines."""
    if isinstance(error, RateLimitError):
        return "rate limited by the server (429)"
    if isinstance(error, APIError):
        return clean(f"HTTP {error.status_code}: {error.detail}")
    if isinstance(error, ScreenAnalysisError):
        return clean(error.detail)
    return clean(str(error)) or type(error).__name__
