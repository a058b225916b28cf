"""Typed errors of the API client, each one clear line naming the request that failed.

Errors keep only what is safe to show: the method, path and query of the request, the status
code and a message extracted from the body. Never headers, never the key.
"""

from __future__ import annotations

from http import HTTPStatus

from screen_analysis.api.messages import extract_error_details
from screen_analysis.safe_text import one_line


class ScreenAnalysisError(Exception):
    """Base of every error raised by the API client.

    `request` is "METHOD /path?query" (or None when no request was involved), `message` the
    detail. `str()` is one line: "<request>: <detail>".
    """

    def __init__(self, message: str, *, request: str | None = None) -> None:
        self.message = one_line(message)
        self.request = request
        self.attempts = 1
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """The error without the request part."""
        return self.message

    def __str__(self) -> str:
        text = self.detail
        if self.attempts > 1:
            text = f"{text} (after {self.attempts} attempts)"
        return f"{self.request}: {text}" if self.request else text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class APIError(ScreenAnalysisError):
    """The server answered with an error status."""

    label = "HTTP error"

    def __init__(
        self,
        message: str,
        *,
        request: str | None,
        status_code: int,
        error_type: str | None = None,
        param: str | None = None,
    ) -> None:
        super().__init__(message, request=request)
        self.status_code = status_code
        self.error_type = error_type
        self.param = param

    @property
    def detail(self) -> str:
        """Label, status and the server's message."""
        return f"{self.label} {self.status_code}: {self.message}"


class AuthenticationError(APIError):
    """401 or 403: the key is missing, wrong or not allowed to do this."""

    label = "authentication failed"


class NotFoundError(APIError):
    """404: the project (or path) does not exist."""

    label = "not found"


class BadRequestError(APIError):
    """400 or 422: the server refused the arguments."""

    label = "bad request"


class RateLimitError(APIError):
    """429: too many requests; `retry_after` is the server's hint in seconds, if any."""

    label = "rate limited"

    def __init__(
        self,
        message: str,
        *,
        request: str | None,
        status_code: int = 429,
        error_type: str | None = None,
        param: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(
            message, request=request, status_code=status_code, error_type=error_type, param=param
        )
        self.retry_after = retry_after


class ServerError(APIError):
    """5xx: the server failed."""

    label = "server error"


class RedirectError(APIError):
    """A redirect that was not followed (another origin, or too many hops)."""

    label = "redirect"


class APIConnectionError(ScreenAnalysisError):
    """The request did not get a complete response: refused, reset, DNS, proxy, TLS.

    `answered` is True when the server had begun its answer (its status line came) before
    the failure: it was reached, so the trouble is this answer, not the way to the server.
    """

    def __init__(self, message: str, *, request: str | None = None, answered: bool = False) -> None:
        super().__init__(message, request=request)
        self.answered = answered

    @property
    def detail(self) -> str:
        """What went wrong with the connection."""
        return f"connection failed: {self.message}"


class APITimeoutError(APIConnectionError):
    """The connection or the response took longer than the configured timeout."""

    @property
    def detail(self) -> str:
        """Which timeout expired."""
        return f"timed out: {self.message}"


class InvalidResponseError(ScreenAnalysisError):
    """The server answered, but not with what the API documents (not JSON, wrong shape)."""

    def __init__(
        self, message: str, *, request: str | None = None, status_code: int | None = None
    ) -> None:
        super().__init__(message, request=request)
        self.status_code = status_code

    @property
    def detail(self) -> str:
        """What was wrong with the response."""
        return f"invalid response: {self.message}"


class PaginationLoopError(InvalidResponseError):
    """The server's cursors went round in a circle or stopped making progress."""

    @property
    def detail(self) -> str:
        """Which cursor repeated."""
        return f"pagination loop: {self.message}"


class EmptyPagesError(ScreenAnalysisError):
    """A walk stopped on its own bound: many pages in a row brought no new analyses while
    each said more exist (a server that filters after paging may send them). Not the
    server's fault and not a loop: more may exist, from `next_cursor` on."""

    def __init__(self, message: str, *, next_cursor: str, request: str | None = None) -> None:
        super().__init__(message, request=request)
        self.next_cursor = next_cursor


class PageBoundError(PaginationLoopError):
    """A walk reached its bound of pages (`pagination.MAX_WALK_PAGES`) and the server
    still sent a next cursor: the listing did not end, so the walk stopped there."""

    @property
    def detail(self) -> str:
        """How far the walk went."""
        return f"listing stopped: {self.message}"


class InvalidArgumentError(ScreenAnalysisError, ValueError):
    """An argument refused before any request was sent."""

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


_STATUS_CLASSES: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: AuthenticationError,
    404: NotFoundError,
    422: BadRequestError,
}


def reason_phrase(status_code: int) -> str:
    """The standard phrase of an HTTP status ("Not Found"); "" for one it does not know."""
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return ""


def error_for_status(
    status_code: int,
    body: bytes,
    *,
    request: str,
    content_type: str | None = None,
    retry_after: float | None = None,
) -> APIError:
    """Build the typed error for an error response, its message taken from whatever came."""
    details = extract_error_details(
        body, content_type=content_type, reason=reason_phrase(status_code)
    )
    if status_code == 429:
        return RateLimitError(
            details.message,
            request=request,
            error_type=details.error_type,
            param=details.param,
            retry_after=retry_after,
        )
    cls = _STATUS_CLASSES.get(status_code)
    if cls is None:
        cls = ServerError if status_code >= 500 else APIError
    return cls(
        details.message,
        request=request,
        status_code=status_code,
        error_type=details.error_type,
        param=details.param,
    )


class ImageFetchError(ScreenAnalysisError):
    """An image that cannot be shown; `reason` is a few words ("HTTP 404", "not an image")."""

    def __init__(self, reason: str, *, request: str | None = None) -> None:
        super().__init__(reason, request=request)
        self.reason = self.message
