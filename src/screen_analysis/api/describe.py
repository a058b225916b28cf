"""The one place that turns an error into words: one short, cleaned line.

The status line, notifications, the app's error and sign-in screens and the command line's
stderr all word failures through `describe_error`, so a failure reads the same everywhere
(what failed goes in front as its `prefix`: "Stopped: HTTP 503: …");
`retry_can_help` says whether asking again may change the outcome, so "try again" is offered
only where it can.
"""

from __future__ import annotations

from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    RateLimitError,
    ScreenAnalysisError,
)
from screen_analysis.api.retry import is_retryable_status
from screen_analysis.safe_text import clean


def describe_error(error: BaseException, *, with_request: bool = False, prefix: str = "") -> str:
    """One line for `error`, control characters made visible and whitespace folded.

    Short by default ("HTTP 404: not found 404: …", "rate limited by the server (429)",
    "connection failed: …"), for a status line or a notification. `with_request` puts the
    failed request in front and the attempts made behind ("GET /v1/…: … (after 3
    attempts)"), for a detail view or a script's stderr. Anything else is its own message,
    or its type's name when it has none. `prefix` says what failed, in front: with
    "Couldn't load more", "Couldn't load more: HTTP 503: …" (`prefixed`).
    """
    return prefixed(prefix, _line(error, with_request=with_request))


def prefixed(prefix: str, words: str) -> str:
    """`words` behind what failed, as every failure is worded: "Stopped: HTTP 503: …";
    `words` alone when `prefix` is empty. The prefix is ours: server text in it is cleaned
    by the caller."""
    return f"{prefix}: {words}" if prefix else words


def _line(error: BaseException, *, with_request: bool) -> str:
    if isinstance(error, ScreenAnalysisError):
        if with_request:
            return clean(str(error))
        if isinstance(error, RateLimitError):
            return "rate limited by the server (429)"
        if isinstance(error, APIError):
            return clean(f"HTTP {error.status_code}: {error.detail}")
        return clean(error.detail)
    return clean(str(error)) or type(error).__name__


def retry_can_help(error: BaseException) -> bool:
    """Whether the same request sent again may fare otherwise: a connection that failed or
    timed out, a server error, a rate limit, a 408 or 409. Never an answer that could not
    be used (an invalid page, a looping cursor: the server would say the same), a refused
    key, argument or cursor, nor a walk stopped at its bound."""
    if isinstance(error, APIConnectionError):
        return True
    if isinstance(error, APIError):
        return isinstance(error, RateLimitError) or is_retryable_status(error.status_code)
    return False
