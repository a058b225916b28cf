"""The one place that turns an error into words: one short, cleaned line.

The status line, notifications, the app's error and sign-in screens and the command line's
stderr all word failures through `describe_error`, so a failure reads the same everywhere.
"""

from __future__ import annotations

from screen_analysis.api.errors import APIError, RateLimitError, ScreenAnalysisError
from screen_analysis.safe_text import clean


def describe_error(error: BaseException, *, with_request: bool = False) -> str:
    """One line for `error`, control characters made visible and whitespace folded.

    Short by default ("HTTP 404: not found 404: …", "rate limited by the server (429)",
    "connection failed: …"), for a status line or a notification. `with_request` puts the
    failed request in front and the attempts made behind ("GET /v1/…: … (after 3
    attempts)"), for a detail view or a script's stderr. Anything else is its own message,
    or its type's name when it has none.
    """
    if isinstance(error, ScreenAnalysisError):
        if with_request:
            return clean(str(error))
        if isinstance(error, RateLimitError):
            return "rate limited by the server (429)"
        if isinstance(error, APIError):
            return clean(f"HTTP {error.status_code}: {error.detail}")
        return clean(error.detail)
    return clean(str(error)) or type(error).__name__
