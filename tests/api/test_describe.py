"""describe_error: the one place that turns an error into words."""

from __future__ import annotations

import pytest

from screen_analysis.api.describe import describe_error, retry_can_help
from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    EmptyPagesError,
    InvalidResponseError,
    NotFoundError,
    PaginationLoopError,
    RateLimitError,
    ServerError,
)
from screen_analysis.config import ConfigError
from screen_analysis.problems import explain

REQUEST = "GET /v1/projects/proj_x"


@pytest.mark.parametrize(
    ("error", "short"),
    [
        (NotFoundError("no such project", request=REQUEST, status_code=404),
         "HTTP 404: not found 404: no such project"),
        (AuthenticationError("Invalid API key", request=REQUEST, status_code=401),
         "HTTP 401: authentication failed 401: Invalid API key"),
        (RateLimitError("slow down", request=REQUEST, retry_after=2.0),
         "rate limited by the server (429)"),
        (ServerError("boom", request=REQUEST, status_code=503), "HTTP 503: server error 503: boom"),
        (APIConnectionError("refused", request=REQUEST), "connection failed: refused"),
        (APITimeoutError("read timeout", request=REQUEST), "timed out: read timeout"),
        (InvalidResponseError("not JSON", request=REQUEST), "invalid response: not JSON"),
        (PaginationLoopError("cursor c1 again"), "pagination loop: cursor c1 again"),
        (ConfigError("cannot read config file"), "cannot read config file"),
        (RuntimeError(), "RuntimeError"),
    ],
)  # fmt: skip
def test_one_short_line_per_kind(error: BaseException, short: str) -> None:
    assert describe_error(error) == short


def test_with_the_request_and_the_attempts() -> None:
    error = ServerError("boom", request=REQUEST, status_code=503)
    error.attempts = 3
    assert describe_error(error, with_request=True) == (
        REQUEST + ": server error 503: boom (after 3 attempts)"
    )
    assert describe_error(ValueError("plain"), with_request=True) == "plain"


def test_what_failed_goes_in_front_as_the_prefix() -> None:
    """Every caller once built its own prefix around the line ("Stopped: " + …); the one
    wording takes it as an argument, for the short line and the explained one alike."""
    error = ServerError("boom", request=REQUEST, status_code=503)
    assert describe_error(error, prefix="Couldn't load more") == (
        "Couldn't load more: HTTP 503: server error 503: boom"
    )
    assert describe_error(error, prefix="") == describe_error(error)
    problem = explain(error, "https://sa.example")
    assert problem.line(prefix="Nothing was written") == "Nothing was written: " + problem.line()


def test_server_text_is_one_clean_line() -> None:
    error = NotFoundError("no\x1b[2J such\nproject", request=REQUEST, status_code=404)
    for text in (describe_error(error), describe_error(error, with_request=True)):
        assert "\x1b" not in text and "\n" not in text
    assert describe_error(RuntimeError("\x1b[31mred\nline")) == "␛[31mred line"


@pytest.mark.parametrize(
    ("error", "helps"),
    [
        (APIConnectionError("refused", request=REQUEST), True),
        (APITimeoutError("read timeout after 30 s", request=REQUEST), True),
        (ServerError("boom", request=REQUEST, status_code=503), True),
        (RateLimitError("slow down", request=REQUEST), True),
        (BadRequestError("bad cursor", request=REQUEST, status_code=400), False),
        (APIError("conflict", request=REQUEST, status_code=409), True),
        (InvalidResponseError("not a valid page: data: field required", request=REQUEST), False),
        (PaginationLoopError("next_cursor 'A' repeats", request=REQUEST), False),
        (EmptyPagesError("stopped after 50 empty pages", next_cursor="c50"), False),
        (AuthenticationError("bad key", request=REQUEST, status_code=401), False),
        (NotFoundError("no such project", request=REQUEST, status_code=404), False),
    ],
)
def test_try_again_is_offered_only_where_a_retry_can_help(error: Exception, helps: bool) -> None:
    from screen_analysis.problems import explain

    assert retry_can_help(error) is helps
    advice = explain(error).advice.lower()
    if not helps:
        assert "try again" not in advice
    elif isinstance(error, ServerError | RateLimitError | APITimeoutError):
        assert "try again" in advice
