"""The network as it really is: proxies, custom CAs, timeouts, refused and cut connections."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from tests.api.support import MakeClient, RecordedSleep, logged_requests
from tests.support.scripted_server import Reply, ScriptedServer

from screen_analysis.api import APIConnectionError, APITimeoutError, Timeouts, tls
from screen_analysis.demo.runner import DemoServer

PAGE = json.dumps({"data": [{"id": "ana_p"}], "total": 1, "next_cursor": None}).encode()
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


def canned_page(path: str, query: dict[str, str]) -> Reply:
    """Every request is answered with PAGE: the API behind a proxy, or over HTTPS."""
    return Reply(200, PAGE, {"Content-Type": "application/json"})


@pytest.fixture
def no_proxy_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def canned() -> Iterator[ScriptedServer]:
    with ScriptedServer(canned_page) as server:
        yield server


async def test_http_proxy_from_the_environment_is_used(
    no_proxy_env: None,
    canned: ScriptedServer,
    monkeypatch: pytest.MonkeyPatch,
    make_client: MakeClient,
) -> None:
    monkeypatch.setenv("HTTP_PROXY", canned.base_url)
    page = await make_client(base_url="http://api.example.test/prefix/").list_analyses(limit=3)
    assert [item.id for item in page.items] == ["ana_p"]
    assert canned.lines() == ["GET http://api.example.test/prefix/v1/analyses?limit=3 HTTP/1.1"]


async def test_no_proxy_bypasses_the_proxy(
    no_proxy_env: None,
    canned: ScriptedServer,
    demo_server: DemoServer,
    monkeypatch: pytest.MonkeyPatch,
    make_client: MakeClient,
) -> None:
    monkeypatch.setenv("HTTP_PROXY", canned.base_url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    page = await make_client(demo_server).list_analyses(limit=2)
    assert len(page.items) == 2
    assert canned.lines() == []


async def test_an_unreachable_proxy_is_a_connection_error(
    no_proxy_env: None, monkeypatch: pytest.MonkeyPatch, make_client: MakeClient
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    with pytest.raises(APIConnectionError):
        await make_client(base_url="http://api.example.test", max_retries=0).list_analyses()


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A certificate for 127.0.0.1 and its key, made with the openssl command."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    yield cert, key


@pytest.fixture
def tls_server(
    no_proxy_env: None, self_signed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ScriptedServer, Path]]:
    """An HTTPS server with the self-signed certificate, and the certificate's path; no
    SSL_CERT_FILE or SSL_CERT_DIR, so the default certificates do not hold it."""
    cert, key = self_signed
    serving = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    serving.load_cert_chain(cert, key)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with ScriptedServer(canned_page, tls=serving) as server:
        yield server, cert


async def test_ssl_cert_file_from_the_environment_is_trusted(
    tls_server: tuple[ScriptedServer, Path],
    monkeypatch: pytest.MonkeyPatch,
    make_client: MakeClient,
) -> None:
    server, cert = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    page = await make_client(base_url=server.base_url).list_analyses()
    assert page.total == 1

    monkeypatch.delenv("SSL_CERT_FILE")
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    client = make_client(base_url=server.base_url, max_retries=0)
    with pytest.raises(APIConnectionError, match="CERTIFICATE_VERIFY_FAILED"):
        await client.list_analyses()


async def test_a_context_given_is_the_trust_used(
    tls_server: tuple[ScriptedServer, Path], make_client: MakeClient
) -> None:
    """A profile's `ca_bundle` reaches the client as a context: that context decides, not
    the default certificates (which do not hold the test's)."""
    server, cert = tls_server
    trusting = ssl.create_default_context(cafile=str(cert))
    page = await make_client(base_url=server.base_url, verify=trusting).list_analyses()
    assert page.total == 1
    default = make_client(base_url=server.base_url, max_retries=0)
    with pytest.raises(APIConnectionError, match="CERTIFICATE_VERIFY_FAILED"):
        await default.list_analyses()


async def test_without_a_context_the_clients_trust_is_the_shared_default(
    tls_server: tuple[ScriptedServer, Path],
    monkeypatch: pytest.MonkeyPatch,
    make_client: MakeClient,
) -> None:
    """No `verify`: the client trusts what `api.tls.default_context` holds (the one context
    every client shares), and nothing of its own making."""
    server, cert = tls_server
    shared = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(tls, "default_context", lambda: shared)
    page = await make_client(base_url=server.base_url).list_analyses()
    assert page.total == 1


async def test_read_timeout_is_retried_then_a_timeout_error(
    fresh_demo_server: DemoServer, make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    fresh_demo_server.faults.latency_ms = 400
    client = make_client(fresh_demo_server, timeout=Timeouts(connect=2, read=0.05))
    with pytest.raises(APITimeoutError) as caught:
        await client.list_analyses()
    assert isinstance(caught.value, APIConnectionError)
    assert not caught.value.answered, "no status line came: the server counts as unreachable"
    assert str(caught.value) == (
        "GET /v1/analyses?limit=20: timed out: read timeout after 0.05 s (after 3 attempts)"
    )
    assert sleeps.delays == [0.5, 1.0]
    assert len(await logged_requests(fresh_demo_server, 3)) == 3


async def test_refused_connection_is_retried_then_a_connection_error(
    make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    with pytest.raises(APIConnectionError) as caught:
        await make_client(base_url="http://127.0.0.1:9").get_project("proj_1")
    assert str(caught.value).startswith("GET /v1/projects/proj_1: connection failed: ")
    assert not caught.value.answered
    assert str(caught.value).endswith("(after 3 attempts)")
    assert sleeps.delays == [0.5, 1.0]


class ResetMidBody(httpx.AsyncBaseTransport):
    """Sends headers and half a body, then the connection is reset.

    The reference server cannot drop a connection halfway, so this stands in for the wire.
    """

    def __init__(self) -> None:
        self.calls = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        return httpx.Response(200, headers={"content-type": "application/json"}, stream=_Cut())


class _Cut(httpx.AsyncByteStream):
    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'{"data": [{"id": "ana_1", "sta'
        raise httpx.ReadError("[Errno 104] Connection reset by peer")


async def test_a_connection_reset_mid_body_is_retried_then_one_line(
    make_client: MakeClient, sleeps: RecordedSleep
) -> None:
    transport = ResetMidBody()
    client = make_client(base_url="http://api.example.test", transport=transport)
    with pytest.raises(APIConnectionError) as caught:
        await client.list_analyses()
    assert str(caught.value) == (
        "GET /v1/analyses?limit=20: connection failed: connection lost while reading the "
        "response ([Errno 104] Connection reset by peer) (after 3 attempts)"
    )
    assert caught.value.answered, "the answer began: the server was reached"
    assert transport.calls == 3 and sleeps.delays == [0.5, 1.0]


async def test_base_url_prefix_and_trailing_slashes(make_client: MakeClient) -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        if "/projects/" in request.url.path:
            return httpx.Response(200, json={"id": "proj 1/x", "name": "P"})
        return httpx.Response(200, json={"data": [], "total": 0, "next_cursor": None})

    transport = httpx.MockTransport(answer)
    for base in ("https://h.example/api", "https://h.example/api/", "https://h.example/api//"):
        await make_client(base_url=base, transport=transport).list_analyses(status="failed")
    await make_client(base_url="https://h.example", transport=transport).get_project("proj 1?x")
    assert seen == [
        "https://h.example/api/v1/analyses?status=failed&limit=20",
        "https://h.example/api/v1/analyses?status=failed&limit=20",
        "https://h.example/api/v1/analyses?status=failed&limit=20",
        "https://h.example/v1/projects/proj%201%3Fx",
    ]


async def test_the_client_closes_its_connections(
    demo_server: DemoServer, make_client: MakeClient
) -> None:
    client = make_client(demo_server)
    async with client as same:
        assert same is client
        await client.list_analyses(limit=1)
    assert client.is_closed
