"""The key stays secret: never in a repr, an error, a traceback or a log line, and never sent
to another origin by a redirect."""

from __future__ import annotations

import logging
import traceback

import httpx
import pytest
from tests.api.support import MakeClient, RecordingTransport, api_requests, logged_requests
from tests.conftest import Serve
from tests.support.scripted_server import Reply, ScriptedServer

from screen_analysis.api import (
    APIConnectionError,
    InvalidResponseError,
    RedirectError,
    ScreenAnalysisClient,
    ScreenAnalysisError,
)
from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

SECRET = "sk-live-0123456789abcdefSECRET"


@pytest.fixture
def secret_server(served: Serve) -> DemoServer:
    """A reference server that accepts SECRET."""
    return served(DemoConfig(analyses=30, seed=3, api_key=SECRET))


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text
        assert SECRET[8:24] not in text


def everything_about(error: BaseException) -> list[str]:
    return [str(error), repr(error), "".join(traceback.format_exception(error)), repr(error.args)]


async def test_client_repr_and_attributes_hide_the_key(
    secret_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(secret_server)
    assert_no_secret(repr(client), str(client), repr(vars(client)))
    assert (
        repr(client) == f"ScreenAnalysisClient(base_url={secret_server.base_url!r}, max_retries=2)"
    )


async def test_requests_on_the_wire_carry_it_but_their_reprs_do_not(
    secret_server: DemoServer, make_client: MakeClient
) -> None:
    transport = RecordingTransport()
    await make_client(secret_server, transport=transport).list_analyses(limit=1)
    (request,) = transport.sent
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    assert_no_secret(repr(request), repr(request.headers), str(request.url))


@pytest.mark.parametrize(
    ("inject", "expected"),
    [
        ((401, None), "authentication failed 401"),
        ((503, None), "server error 503"),
        ((429, None), "rate limited 429"),
        ((200, "<html>oops</html>"), "invalid response"),
        ((200, {"data": "x", "total": 1}), "invalid response"),
    ],
)
async def test_errors_and_their_tracebacks_never_show_the_key(
    secret_server: DemoServer,
    make_client: MakeClient,
    caplog: pytest.LogCaptureFixture,
    inject: tuple[int, object],
    expected: str,
) -> None:
    status, body = inject
    secret_server.faults.inject(status, body=body, count=3)  # type: ignore[arg-type]
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ScreenAnalysisError) as caught:
        await make_client(secret_server).list_analyses()
    assert expected in str(caught.value)
    assert_no_secret(*everything_about(caught.value), caplog.text)
    assert_no_secret(*(repr(vars(record)) for record in caplog.records))


async def test_a_server_echoing_the_key_does_not_leak_it(
    secret_server: DemoServer, make_client: MakeClient
) -> None:
    secret_server.faults.inject(400, body={"error": {"message": f"bad key {SECRET} here"}})
    with pytest.raises(ScreenAnalysisError) as caught:
        await make_client(secret_server).list_analyses()
    assert "bad key [redacted] here" in str(caught.value)
    assert_no_secret(*everything_about(caught.value))

    secret_server.faults.inject(200, body=f"<html><title>{SECRET}</title></html>")
    with pytest.raises(InvalidResponseError) as caught_invalid:
        await make_client(secret_server).list_analyses()
    assert_no_secret(*everything_about(caught_invalid.value))


async def test_retry_log_lines_never_show_an_echoed_key(
    secret_server: DemoServer, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    secret_server.faults.inject(503, body={"message": f"overloaded for {SECRET}"})
    caplog.set_level(logging.DEBUG)
    await make_client(secret_server).list_analyses(limit=1)
    assert "retrying in 0.50 s" in caplog.text and "[redacted]" in caplog.text
    assert_no_secret(caplog.text)


def test_user_agent_suffix_cannot_break_the_header() -> None:
    client = ScreenAnalysisClient(
        "http://127.0.0.1:1", SecretStr("key"), user_agent="my-tool/2\r\nX-Evil: 1 é"
    )
    assert client.user_agent.endswith(" my-tool/2 X-Evil: 1")


async def test_connection_errors_and_their_chain_never_show_the_key(
    make_client: MakeClient,
) -> None:
    client = make_client(base_url="http://127.0.0.1:9", api_key=SECRET, max_retries=1)
    with pytest.raises(APIConnectionError) as caught:
        await client.list_analyses()
    assert str(caught.value).startswith("GET /v1/analyses?limit=20: connection failed: ")
    assert caught.value.__cause__ is not None  # kept for --debug, and safe to show
    assert_no_secret(*everything_about(caught.value))


def test_a_key_that_would_break_the_header_is_refused_without_echoing_it() -> None:
    with pytest.raises(ValueError) as caught:
        ScreenAnalysisClient("http://127.0.0.1:1", SecretStr(f"{SECRET}\r\nX-Evil: 1"))
    assert_no_secret(*everything_about(caught.value))


async def test_same_origin_redirects_are_followed_with_the_key(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(307, headers={"location": "/v1/analyses?limit=2"})
    page = await make_client(fresh_demo_server).list_analyses(limit=5)
    assert len(page.items) == 2  # served by the redirect's target, which checked the key
    statuses = [r.status for r in await logged_requests(fresh_demo_server, 2)]
    assert statuses == [307, 200]


async def test_redirect_to_another_origin_is_refused_and_nothing_is_sent_there(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    with ScriptedServer(lambda path, query: Reply.json({"data": [], "total": 0})) as other:
        fresh_demo_server.faults.inject(302, headers={"location": f"{other.base_url}/v1/analyses"})
        with pytest.raises(RedirectError) as caught:
            await make_client(fresh_demo_server).list_analyses()
        assert other.seen == []
    port = other.base_url.rsplit(":", 1)[1]
    assert str(caught.value) == (
        f"GET /v1/analyses?limit=20: redirect 302: to another origin (http://127.0.0.1:{port}) "
        "not followed, so the key is not sent there"
    )


@pytest.mark.parametrize(
    "location",
    [
        "https://{host}:{port}/v1/analyses",
        "http://localhost:{port}/v1/analyses",
        "http://{host}:1/",
    ],
)
async def test_scheme_host_and_port_changes_are_other_origins(
    fresh_demo_server: DemoServer, make_client: MakeClient, location: str
) -> None:
    url = httpx.URL(fresh_demo_server.base_url)
    fresh_demo_server.faults.inject(
        301, headers={"location": location.format(host=url.host, port=url.port)}
    )
    with pytest.raises(RedirectError):
        await make_client(fresh_demo_server).list_analyses()
    assert len(await logged_requests(fresh_demo_server, 1)) == 1


async def test_httpx_itself_strips_authorization_on_cross_origin_redirects(
    fresh_demo_server: DemoServer,
) -> None:
    """Why following by hand is belt and braces: httpx's own rule, checked on the wire."""
    with ScriptedServer(lambda path, query: Reply.json({"data": [], "total": 0})) as other:
        fresh_demo_server.faults.inject(302, headers={"location": f"{other.base_url}/landing"})
        async with httpx.AsyncClient(follow_redirects=True, trust_env=False) as http:
            response = await http.get(
                f"{fresh_demo_server.base_url}/v1/analyses",
                headers={"Authorization": f"Bearer {SECRET}"},
            )
        assert response.status_code == 200 and len(other.seen) == 1
        assert "authorization" not in {name.lower() for name in other.seen[0].headers}


async def test_redirect_loops_and_missing_locations_are_clear_errors(
    fresh_demo_server: DemoServer, make_client: MakeClient
) -> None:
    fresh_demo_server.faults.inject(302, headers={"location": "/v1/analyses"}, count=10)
    with pytest.raises(RedirectError, match="more than 5 redirects"):
        await make_client(fresh_demo_server).list_analyses()
    fresh_demo_server.faults.clear()
    fresh_demo_server.faults.inject(302, body="")
    with pytest.raises(InvalidResponseError, match="redirect 302 without a Location"):
        await make_client(fresh_demo_server).list_analyses()
    assert all(r.path.startswith("/v1/") for r in api_requests(fresh_demo_server))
