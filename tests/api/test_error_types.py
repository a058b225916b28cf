"""The client's errors as a caller reads them: one line naming the request, the attempts made,
and the fields a caller acts on (status, type, param, Retry-After, the cursor to go on from).
The same errors reached over the wire: tests/api/test_errors.py."""

from __future__ import annotations

import pytest

from screen_analysis.api.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    EmptyPagesError,
    ImageFetchError,
    InvalidArgumentError,
    InvalidResponseError,
    NotFoundError,
    PageBoundError,
    PaginationLoopError,
    RateLimitError,
    RedirectError,
    ScreenAnalysisError,
    ServerError,
    error_for_status,
    reason_phrase,
)

REQUEST = "GET /v1/analyses?limit=20"


def test_the_line_names_the_request_then_what_went_wrong() -> None:
    error = ScreenAnalysisError("it\nbroke\x1b[2J", request=REQUEST)
    assert error.message == "it broke\u241b[2J"  # one line, control characters visible
    assert str(error) == f"{REQUEST}: it broke\u241b[2J"
    assert error.args == ("it broke\u241b[2J",)
    assert repr(error) == f"ScreenAnalysisError('{REQUEST}: it broke\u241b[2J')"
    assert str(ScreenAnalysisError("no request")) == "no request"
    assert ScreenAnalysisError("x").request is None


def test_the_attempts_are_named_only_when_there_were_more_than_one() -> None:
    error = ServerError("boom", request=REQUEST, status_code=503)
    assert error.attempts == 1 and str(error) == f"{REQUEST}: server error 503: boom"
    error.attempts = 2
    assert str(error) == f"{REQUEST}: server error 503: boom (after 2 attempts)"
    alone = APIConnectionError("refused")
    alone.attempts = 3
    assert str(alone) == "connection failed: refused (after 3 attempts)"


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (APIError("odd", request=REQUEST, status_code=418), "HTTP error 418: odd"),
        (
            AuthenticationError("no", request=REQUEST, status_code=403),
            "authentication failed 403: no",
        ),
        (NotFoundError("gone", request=REQUEST, status_code=404), "not found 404: gone"),
        (BadRequestError("bad", request=REQUEST, status_code=422), "bad request 422: bad"),
        (RateLimitError("slow", request=REQUEST), "rate limited 429: slow"),
        (ServerError("boom", request=REQUEST, status_code=500), "server error 500: boom"),
        (RedirectError("away", request=REQUEST, status_code=302), "redirect 302: away"),
        (APIConnectionError("reset", request=REQUEST), "connection failed: reset"),
        (APITimeoutError("read timeout", request=REQUEST), "timed out: read timeout"),
        (InvalidResponseError("not JSON", request=REQUEST), "invalid response: not JSON"),
        (PaginationLoopError("c1 again", request=REQUEST), "pagination loop: c1 again"),
        (PageBoundError("100 pages", request=REQUEST), "listing stopped: 100 pages"),
        (EmptyPagesError("50 empty", next_cursor="c", request=REQUEST), "50 empty"),
        (ImageFetchError("HTTP 404", request=REQUEST), "HTTP 404"),
    ],
)
def test_each_kind_says_what_it_is(error: ScreenAnalysisError, line: str) -> None:
    assert error.detail == line
    assert str(error) == f"{REQUEST}: {line}"


def test_the_fields_a_caller_acts_on_are_kept() -> None:
    limited = RateLimitError(
        "slow", request=REQUEST, error_type="rate_limited", param="limit", retry_after=2.5
    )
    assert (limited.status_code, limited.error_type, limited.param, limited.retry_after) == (
        429,
        "rate_limited",
        "limit",
        2.5,
    )
    assert RateLimitError("slow", request=REQUEST).retry_after is None
    assert RateLimitError("slow", request=REQUEST, status_code=503).status_code == 503
    reached = APIConnectionError("cut short", request=REQUEST, answered=True)
    assert reached.answered is True and reached.request == REQUEST
    assert APIConnectionError("refused").answered is False
    assert APITimeoutError("read", answered=True).answered is True
    invalid = InvalidResponseError("not JSON", request=REQUEST, status_code=200)
    assert (invalid.status_code, invalid.request, invalid.message) == (200, REQUEST, "not JSON")
    assert InvalidResponseError("x").status_code is None
    empty = EmptyPagesError("stopped after 50 empty pages", next_cursor="c50", request=REQUEST)
    assert (empty.next_cursor, empty.request, empty.message) == (
        "c50",
        REQUEST,
        "stopped after 50 empty pages",
    )


def test_a_refused_argument_names_it_and_is_a_value_error() -> None:
    error = InvalidArgumentError("limit: must be from 1 to 100, got 101", param="limit")
    assert isinstance(error, ValueError) and error.param == "limit"
    assert str(error) == "limit: must be from 1 to 100, got 101" and error.request is None
    assert InvalidArgumentError("bad").param is None


def test_an_image_failure_is_its_reason_in_one_line() -> None:
    error = ImageFetchError("not\nan image\x07", request="GET /img.png")
    assert error.reason == error.message == "not an image\u2407"
    assert str(error) == "GET /img.png: not an image\u2407"


def test_reason_phrases() -> None:
    assert reason_phrase(404) == "Not Found"
    assert reason_phrase(503) == "Service Unavailable"
    assert reason_phrase(599) == ""


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, AuthenticationError),
        (404, NotFoundError),
        (422, BadRequestError),
        (429, RateLimitError),
        (402, APIError),
        (499, APIError),
        (500, ServerError),
        (599, ServerError),
    ],
)
def test_each_status_has_its_kind(status: int, kind: type[APIError]) -> None:
    body = b'{"error": {"type": "some_type", "message": "words", "param": "after"}}'
    error = error_for_status(status, body, request=REQUEST)
    assert type(error) is kind
    assert (error.status_code, error.message, error.error_type, error.param, error.request) == (
        status,
        "words",
        "some_type",
        "after",
        REQUEST,
    )


def test_a_rate_limit_keeps_the_servers_hint() -> None:
    error = error_for_status(429, b"", request=REQUEST, retry_after=4.0)
    assert isinstance(error, RateLimitError) and error.retry_after == 4.0
    assert error.message == "Too Many Requests"  # no body: the reason phrase


def test_a_body_without_words_falls_back_to_the_reason_phrase() -> None:
    assert error_for_status(503, b"  ", request=REQUEST).message == "Service Unavailable"
    assert error_for_status(599, b"", request=REQUEST).message == "no message"


def test_an_html_error_page_is_read_as_html_when_it_says_so() -> None:
    page = b"Maintenance<br>until <b>noon</b>"
    error = error_for_status(502, page, request=REQUEST, content_type="text/HTML; charset=utf-8")
    assert error.message == "Maintenance until noon"
    as_text = error_for_status(502, page, request=REQUEST, content_type="text/plain")
    assert as_text.message == "Maintenance<br>until <b>noon</b>"
