"""Typed errors by status, one clear line each, and which of them are retried."""

from __future__ import annotations

import pytest
from tests.api.support import MakeClient, RecordedSleep, logged_requests

from screen_analysis.api import (
    APIError,
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    RateLimitError,
    ScreenAnalysisError,
    ServerError,
)
from screen_analysis.demo.runner import DemoServer


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and text.strip() == text and text
    return text


async def test_wrong_key_is_authentication_error_not_retried(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    client = make_client(fresh_demo_server, api_key="sk-wrong-key-0000")
    with pytest.raises(AuthenticationError) as caught:
        await client.list_analyses(status="failed", limit=20)
    error = caught.value
    assert error.status_code == 401
    assert one_line(error) == (
        "GET /v1/analyses?status=failed&limit=20: authentication failed 401: Invalid API key"
    )
    assert error.error_type == "authentication_error"
    assert len(await logged_requests(fresh_demo_server, 1)) == 1
    assert sleeps.delays == []


async def test_unknown_project_is_not_found_not_retried(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    with pytest.raises(NotFoundError) as caught:
        await make_client(fresh_demo_server).get_project("proj_does_not_exist")
    assert caught.value.status_code == 404
    assert one_line(caught.value).startswith(
        "GET /v1/projects/proj_does_not_exist: not found 404: "
    )
    assert len(await logged_requests(fresh_demo_server, 1)) == 1
    assert sleeps.delays == []


async def test_server_refusing_a_cursor_is_bad_request_not_retried(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    with pytest.raises(BadRequestError) as caught:
        await make_client(fresh_demo_server).list_analyses(after="not-a-real-cursor")
    assert caught.value.status_code == 400
    assert caught.value.param == "after"
    assert one_line(caught.value).startswith(
        "GET /v1/analyses?limit=20&after=not-a-real-cursor: bad request 400: "
    )
    assert len(await logged_requests(fresh_demo_server, 1)) == 1
    assert sleeps.delays == []


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, AuthenticationError),
        (404, NotFoundError),
        (422, BadRequestError),
        (402, APIError),
        (410, APIError),
    ],
)
async def test_client_errors_map_to_classes_and_are_not_retried(
    fresh_demo_server: DemoServer,
    make_client: MakeClient,
    sleeps: RecordedSleep,
    status: int,
    cls: type[APIError],
) -> None:
    fresh_demo_server.faults.inject(status, count=3)
    with pytest.raises(cls) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert type(caught.value) is cls and caught.value.status_code == status
    one_line(caught.value)
    assert len(await logged_requests(fresh_demo_server, 1)) == 1
    assert sleeps.delays == []


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_server_errors_are_retried_twice_with_backoff_then_raised(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep, status: int
) -> None:
    fresh_demo_server.faults.inject(status, body={"message": "Service unavailable"}, count=5)
    with pytest.raises(ServerError) as caught:
        await make_client(fresh_demo_server).list_analyses(status="failed", limit=20)
    assert one_line(caught.value) == (
        f"GET /v1/analyses?status=failed&limit=20: server error {status}: "
        "Service unavailable (after 3 attempts)"
    )
    assert caught.value.attempts == 3
    assert len(await logged_requests(fresh_demo_server, 3)) == 3
    assert sleeps.delays == [0.5, 1.0]


@pytest.mark.parametrize("status", [408, 409])
async def test_408_and_409_are_retried(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep, status: int
) -> None:
    fresh_demo_server.faults.inject(status)
    page = await make_client(fresh_demo_server).list_analyses(limit=3)
    assert len(page.items) == 3
    assert [r.status for r in await logged_requests(fresh_demo_server, 2)] == [status, 200]
    assert sleeps.delays == [0.5]


async def test_recovery_after_a_503_returns_the_page(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.inject(503, count=2)
    page = await make_client(fresh_demo_server).list_analyses(limit=5)
    assert len(page.items) == 5
    assert [r.status for r in await logged_requests(fresh_demo_server, 3)] == [503, 503, 200]
    assert sleeps.delays == [0.5, 1.0]


async def test_429_retry_after_seconds_is_honoured(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.inject(429, headers={"Retry-After": "3"}, count=2)
    page = await make_client(fresh_demo_server).list_analyses(limit=2)
    assert len(page.items) == 2
    assert [r.status for r in await logged_requests(fresh_demo_server, 3)] == [429, 429, 200]
    assert sleeps.delays == [3.0, 3.0]


async def test_429_from_the_servers_rate_limiter(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.rate_limit_rate = 1.0
    fresh_demo_server.faults.retry_after_s = 2
    with pytest.raises(RateLimitError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert caught.value.retry_after == 2.0
    assert caught.value.error_type == "rate_limited"
    assert one_line(caught.value) == (
        "GET /v1/analyses?limit=20: rate limited 429: Too many requests (after 3 attempts)"
    )
    assert len(await logged_requests(fresh_demo_server, 3)) == 3
    assert sleeps.delays == [2.0, 2.0]


async def test_retry_after_ms_and_http_date(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.inject(429, headers={"retry-after-ms": "1500"})
    fresh_demo_server.faults.inject(503, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})
    await make_client(fresh_demo_server).list_analyses(limit=1)
    # The date is in the past: not a sane wait, so the second retry backs off instead.
    assert sleeps.delays == [1.5, 1.0]


async def test_retry_after_over_the_cap_falls_back_to_backoff(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.inject(429, headers={"Retry-After": "3600"}, count=2)
    await make_client(fresh_demo_server).list_analyses(limit=1)
    assert sleeps.delays == [0.5, 1.0]


async def test_max_retries_is_configurable(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.inject(503, count=10)
    with pytest.raises(ServerError):
        await make_client(fresh_demo_server, max_retries=4).list_analyses()
    assert len(await logged_requests(fresh_demo_server, 5)) == 5
    assert sleeps.delays == [0.5, 1.0, 2.0, 4.0]

    fresh_demo_server.faults.clear()
    fresh_demo_server.faults.inject(503, count=10)
    with pytest.raises(ServerError) as caught:
        await make_client(fresh_demo_server, max_retries=0).list_analyses()
    assert caught.value.attempts == 1 and "attempts" not in str(caught.value)


async def test_random_faults_are_survived_by_iteration(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.error_rate = 0.2
    client = make_client(fresh_demo_server, max_retries=8)
    items = [a async for page in client.iter_pages(limit=25) for a in page.items]
    assert len(items) == 300 and len({a.id for a in items}) == 300


async def test_every_error_is_a_screen_analysis_error(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(418, body="I'm a teapot")
    with pytest.raises(ScreenAnalysisError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert one_line(caught.value) == "GET /v1/analyses?limit=20: HTTP error 418: I'm a teapot"
