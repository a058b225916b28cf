"""What the client asks the server, and what it makes of answers that are not a page: the
filters, page size and cursor of each walk, the prefetch, a 429's hold on the next request,
the body's size cap met exactly, a status that is neither success nor error."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from tests.api.support import MakeClient, RecordedSleep, RecordingTransport, logged_requests
from tests.support.scripted_server import Reply, ScriptedServer

from screen_analysis.api import (
    APIConnectionError,
    APITimeoutError,
    InvalidArgumentError,
    InvalidResponseError,
    NotFoundError,
    RedirectError,
    ScreenAnalysisClient,
    ServerError,
)
from screen_analysis.api.responses import timeout_error, transport_message
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.demo.runner import DemoServer
from screen_analysis.numbers import format_count
from screen_analysis.secret import SecretStr


def page(ids: list[str], cursor: str | None) -> dict[str, Any]:
    data = [{"id": i, "project_id": "proj_1", "status": "pending"} for i in ids]
    return {"data": data, "next_cursor": cursor, "total": 9}


async def first_cursor_and_project(client: ScreenAnalysisClient) -> tuple[str, str]:
    """A project with completed analyses, and the cursor after its first two of them."""
    project = (await client.list_analyses(status="completed", limit=1)).analyses[0].project_id
    assert project is not None
    first = await client.list_analyses(project, "completed", limit=2)
    assert first.next_cursor is not None
    return first.next_cursor, project


async def test_a_walk_asks_with_the_filters_the_page_size_and_the_cursor_given(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    cursor, project = await first_cursor_and_project(client)
    walked = client.iter_pages(project, "completed", 3, cursor, max_items=4)
    async with walked:
        items = [item async for walk_page in walked for item in walk_page.items]
    raw = client.iter_raw_pages(project, "completed", 3, cursor, max_items=2)
    async with raw:
        objects = [obj async for raw_page in raw for obj in raw_page.data]
    asked = {"project_id": project, "status": "completed", "limit": "3", "after": cursor}
    logged = await logged_requests(fresh_demo_server, 4)
    assert [r.query for r in logged].count(asked) == 2  # each walk's first request
    assert len(items) == 4 and {item.project_id for item in items} == {project}
    assert [obj["id"] for obj in objects] == [item.id for item in items[:2]]
    assert all(isinstance(obj, dict) for obj in objects)  # as received, no models


async def test_one_page_asks_with_the_project_given(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    _, project = await first_cursor_and_project(client)
    listed = await client.list_analyses(project_id=project, limit=5)
    assert {analysis.project_id for analysis in listed.analyses} == {project}
    assert (await logged_requests(fresh_demo_server, 3))[2].query == {
        "project_id": project,
        "limit": "5",
    }


async def test_a_walk_asks_twenty_a_page_from_the_start_unless_told(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    async with client.iter_pages() as walked:
        await anext(aiter(walked))
    async with client.iter_raw_pages() as raw:
        await anext(aiter(raw))
    logged = await logged_requests(fresh_demo_server, 2)
    assert [r.query for r in logged] == [{"limit": "20"}, {"limit": "20"}]


async def test_the_next_page_is_asked_ahead_only_with_prefetch(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    async with client.iter_pages(limit=1) as walked:
        await anext(aiter(walked))
        # Another request, answered: a page asked ahead would have gone out before it ends.
        await client.list_analyses(limit=1)
        assert [r.query for r in await logged_requests(fresh_demo_server, 2)] == [
            {"limit": "1"},
            {"limit": "1"},
        ]
    async with client.iter_pages(limit=1, prefetch=True) as ahead:
        await anext(aiter(ahead))
        assert len(await logged_requests(fresh_demo_server, 4)) == 4
    async with client.iter_raw_pages(limit=1) as raw:
        await anext(aiter(raw))
        await client.list_analyses(limit=1)
        assert len(await logged_requests(fresh_demo_server, 6)) == 6
    async with client.iter_raw_pages(limit=1, prefetch=True) as raw_ahead:
        await anext(aiter(raw_ahead))
        assert len(await logged_requests(fresh_demo_server, 8)) == 8


async def test_no_page_is_asked_ahead_unless_told(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    """Counted as the client sends (a page asked ahead goes out as soon as the loop runs
    its task, during the next request), not as the server logs."""
    sent = RecordingTransport()
    client = make_client(demo_server, transport=sent)
    async with client.iter_pages(limit=1) as walked:
        await anext(aiter(walked))
        await client.list_analyses(limit=1)
    async with client.iter_raw_pages(limit=1) as raw:
        await anext(aiter(raw))
        await client.list_analyses(limit=1)
    assert [r.url.params.get("after") for r in sent.sent] == [None] * 4


async def test_a_dedup_window_lets_a_row_seen_long_ago_through(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    """A walk with a window forgets the ids of pages older than it (memory stays flat);
    one without keeps every id of the listing."""
    client = make_client(fresh_demo_server)
    pages = [page(["ana_a"], "c1"), page(["ana_b"], "c2"), page(["ana_a"], None)]

    async def ids(**options: Any) -> list[str | None]:
        for body in pages:
            fresh_demo_server.faults.inject(200, body=body)
        async with client.iter_pages(**options) as walked:
            return [item.id async for walk_page in walked for item in walk_page.items]

    assert await ids(dedup_window=1) == ["ana_a", "ana_b", "ana_a"]
    assert await ids() == ["ana_a", "ana_b"]


@pytest.mark.parametrize(
    ("options", "param"),
    [({"after": ""}, "after"), ({"max_items": 0}, "max_items"), ({"limit": 0}, "limit")],
)
async def test_a_walk_refuses_its_arguments_when_asked_for_not_when_walked(
    demo_server: DemoServer, make_client: MakeClient, options: dict[str, Any], param: str
) -> None:
    client = make_client(demo_server)
    for walk in (client.iter_pages, client.iter_raw_pages):
        with pytest.raises(InvalidArgumentError) as caught:
            walk(**options)
        assert caught.value.param == param


async def test_a_project_id_is_refused_by_its_name_or_sent_quoted(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(fresh_demo_server)
    with pytest.raises(InvalidArgumentError) as refused:
        await client.get_project("proj/1")
    assert refused.value.param == "project_id"
    assert str(refused.value).startswith("project_id: ")
    with pytest.raises(NotFoundError) as caught:
        await client.get_project("proj 1?x")
    assert caught.value.request == "GET /v1/projects/proj%201%3Fx"


@pytest.mark.parametrize("wait", [60, 1])
async def test_a_429_holds_the_clients_next_request_for_the_servers_wait(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep, wait: int
) -> None:
    """Retry-After is the server's word for the whole client, not for one request: after
    it, the next request waits out what is left of it (from 1 s to the 60 s trusted)."""
    client = make_client(fresh_demo_server)
    fresh_demo_server.faults.inject(429, headers={"Retry-After": str(wait)})
    await client.list_analyses(limit=1)
    assert sleeps.delays == [float(wait)]  # the request itself waits by its retry delay only
    await client.list_analyses(limit=1)
    assert len(sleeps.delays) == 2 and 0 < sleeps.delays[1] <= wait


async def test_a_retry_after_past_the_trusted_wait_holds_nothing(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    client = make_client(fresh_demo_server)
    fresh_demo_server.faults.inject(429, headers={"Retry-After": "61"})
    await client.list_analyses(limit=1)
    await client.list_analyses(limit=1)
    assert sleeps.delays == [0.5]  # the backoff, then no hold


@pytest.mark.parametrize("status", [300, 304])
async def test_a_status_neither_success_nor_error_is_an_invalid_response(
    fresh_demo_server: DemoServer, make_client: MakeClient, status: int
) -> None:
    fresh_demo_server.faults.inject(status, body=b"")
    with pytest.raises(InvalidResponseError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert str(caught.value) == (
        f"GET /v1/analyses?limit=20: invalid response: unexpected status {status}"
    )
    assert caught.value.status_code == status
    assert len(await logged_requests(fresh_demo_server, 1)) == 1


async def test_an_html_error_page_is_read_as_the_server_declares_it(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(
        502, headers={"Content-Type": "text/html"}, body="Bad gateway<br>try later", count=3
    )
    with pytest.raises(ServerError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert caught.value.message == "Bad gateway try later"


async def test_a_body_of_exactly_the_cap_is_read_and_one_byte_more_is_not(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    body = json.dumps(page(["ana_1"], None)).encode()
    fresh_demo_server.faults.inject(200, body=body, count=2)
    exact = make_client(fresh_demo_server, max_response_bytes=len(body))
    assert [a.id for a in (await exact.list_analyses()).analyses] == ["ana_1"]
    short = make_client(fresh_demo_server, max_response_bytes=len(body) - 1)
    with pytest.raises(InvalidResponseError) as caught:
        await short.list_analyses()
    assert caught.value.message == (
        f"response of {len(body)} bytes exceeds the {len(body) - 1}-byte limit; not read"
    )
    assert caught.value.status_code == 200
    assert caught.value.request == "GET /v1/analyses?limit=20"


async def test_a_body_without_a_length_is_read_up_to_the_cap_and_stopped_past_it() -> None:
    body = json.dumps(page(["ana_1"], None)).encode()
    third = len(body) // 3
    chunks = [body[third : 2 * third], body[2 * third :]]

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply(200, body[:third], {"Content-Type": "application/json"}, chunks=chunks)

    with ScriptedServer(answer) as server:
        for cap, read in ((len(body), True), (len(body) - 1, False)):
            async with ScreenAnalysisClient(
                server.base_url, SecretStr("k" * 24), max_retries=0, max_response_bytes=cap
            ) as client:
                if read:
                    assert [a.id for a in (await client.list_analyses()).analyses] == ["ana_1"]
                    continue
                with pytest.raises(InvalidResponseError) as caught:
                    await client.list_analyses()
    assert str(caught.value) == (
        "GET /v1/analyses?limit=20: invalid response: "
        f"response exceeds the {format_count(len(body) - 1)}-byte limit; reading stopped"
    )
    assert caught.value.status_code == 200  # the answer was a success, cut by the cap


def _redirecting(location: str) -> httpx.MockTransport:
    """A server on a default port (80 or 443, which no test can listen on): the listing
    redirects once to `location`, which answers with a page."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/analyses":
            return httpx.Response(301, headers={"Location": location})
        return httpx.Response(200, json=page(["ana_1"], None))

    return httpx.MockTransport(answer)


@pytest.mark.parametrize(
    ("base", "location"),
    [
        ("http://api.example.com", "http://api.example.com:80/v2/analyses"),
        ("https://api.example.com", "https://api.example.com:443/v2/analyses"),
        ("https://api.example.com:443", "https://api.example.com/v2/analyses"),
    ],
)
async def test_a_redirect_to_the_default_port_written_out_stays_on_the_origin(
    base: str, location: str
) -> None:
    async with ScreenAnalysisClient(
        base, SecretStr("k" * 24), transport=_redirecting(location)
    ) as client:
        assert [a.id for a in (await client.list_analyses()).analyses] == ["ana_1"]


@pytest.mark.parametrize(
    ("location", "origin"),
    [
        ("https://api.example.com/v2/analyses", "https://api.example.com"),
        ("http://api.example.com:8080/v2/analyses", "http://api.example.com:8080"),
        ("http://api.example.com:443/v2/analyses", "http://api.example.com:443"),
    ],
)
async def test_a_redirect_elsewhere_names_the_origin_it_was_not_followed_to(
    location: str, origin: str
) -> None:
    async with ScreenAnalysisClient(
        "http://api.example.com", SecretStr("k" * 24), transport=_redirecting(location)
    ) as client:
        with pytest.raises(RedirectError) as caught:
            await client.list_analyses()
    assert caught.value.message == (
        f"to another origin ({origin}) not followed, so the key is not sent there"
    )
    assert caught.value.status_code == 301


async def test_a_redirect_without_a_location_names_the_request(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(307, body="")
    with pytest.raises(InvalidResponseError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert str(caught.value) == (
        "GET /v1/analyses?limit=20: invalid response: redirect 307 without a Location"
    )
    assert caught.value.status_code == 307


async def test_a_location_that_cannot_be_read_is_an_answer_cut_short(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    """httpx refuses such a Location while receiving the answer, before the client looks
    at the redirect: it reads as a connection failure, and is retried as one."""
    fresh_demo_server.faults.inject(308, headers={"Location": "http://[::1"}, body="", count=3)
    with pytest.raises(APIConnectionError) as caught:
        await make_client(fresh_demo_server).list_analyses()
    assert str(caught.value).startswith(
        "GET /v1/analyses?limit=20: connection failed: response cut short (Invalid URL"
    )


async def test_the_client_reads_an_address_on_its_own_server_as_a_path(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    base = demo_server.base_url.rstrip("/")
    assert client.api_path(f"{base}/v1/images/a.png?s=1") == "/v1/images/a.png?s=1"
    assert client.api_path("https://cdn.example.com/v1/images/a.png") is None


def test_a_timeout_names_its_phase_and_limit_or_says_none_came() -> None:
    limits = Timeouts(connect=1.5, read=2.0, write=3.0, pool=4.0)
    read = timeout_error(httpx.ReadTimeout("x"), "GET /v1/x", limits, answered=True)
    assert (read.message, read.request, read.answered) == (
        "read timeout after 2 s",
        "GET /v1/x",
        True,
    )
    pool = timeout_error(httpx.PoolTimeout("x"), "GET /v1/x", limits, answered=False)
    assert (pool.message, pool.answered) == ("pool timeout after 4 s", False)
    other = timeout_error(httpx.TimeoutException("x"), "GET /v1/x", limits, answered=True)
    assert isinstance(other, APITimeoutError)
    assert (other.message, other.request, other.answered) == (
        "no response in time",
        "GET /v1/x",
        True,
    )


def test_a_transport_failure_is_short_and_never_empty() -> None:
    long = transport_message(httpx.ConnectError("x" * 500))
    assert len(long) == 160 and long.endswith("…")
    assert transport_message(httpx.ConnectError("")) == "ConnectError"
    assert transport_message(httpx.ReadError("reset")) == (
        "connection lost while reading the response (reset)"
    )
