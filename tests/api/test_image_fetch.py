"""Image fetching policy against real loopback servers: the key stays with the API's origin,
hostile bodies are refused, nothing hangs."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from tests.api.image_servers import authorizations, other_origin, png_bytes
from tests.support.scripted_server import ScriptedServer

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.image_fetch import (
    ImageFetchError,
    check_image_url,
    origin_of,
    sniff_image_type,
)
from screen_analysis.demo.runner import DemoServer
from screen_analysis.images.decode import ImageDecodeError, prepare
from screen_analysis.secret import SecretStr


@pytest.fixture
def other() -> Iterator[ScriptedServer]:
    with other_origin() as server:
        yield server


@pytest.fixture
async def client(fresh_demo_server: DemoServer) -> AsyncIterator[ScreenAnalysisClient]:
    async with ScreenAnalysisClient(
        fresh_demo_server.base_url, SecretStr(fresh_demo_server.api_key), max_retries=0
    ) as api:
        yield api


async def _image_url(client: ScreenAnalysisClient) -> str:
    page = await client.list_analyses(limit=1)
    url = page.analyses[0].image_url
    assert url is not None
    return url


async def test_same_origin_image_is_fetched_with_the_key(client: ScreenAnalysisClient) -> None:
    image = await client.fetch_image(await _image_url(client))
    assert image.media_type == "image/png" and image.etag and image.max_age_s == 300
    again = await client.fetch_image(image.url, etag=image.etag)
    assert again.not_modified and again.data == b""


async def test_another_origin_never_receives_the_key(
    client: ScreenAnalysisClient, other: ScriptedServer
) -> None:
    image = await client.fetch_image(f"{other.base_url}/ok.png")
    assert image.data == png_bytes()
    assert other.seen and authorizations(other) == []


async def test_redirect_to_another_origin_is_followed_without_the_key(
    client: ScreenAnalysisClient, fresh_demo_server: DemoServer, other: ScriptedServer
) -> None:
    url = await _image_url(client)
    fresh_demo_server.faults.inject(302, {"Location": f"{other.base_url}/ok.png"}, b"")
    image = await client.fetch_image(url)
    assert image.data == png_bytes()
    assert [seen.path for seen in other.seen] == ["/ok.png"]
    assert authorizations(other) == []


async def test_redirect_chain_back_to_the_api_gets_the_key_again(
    client: ScreenAnalysisClient, other: ScriptedServer
) -> None:
    url = await _image_url(client)
    image = await client.fetch_image(f"{other.base_url}/redirect?to={url}")
    assert image.media_type == "image/png"  # the API's route needs the key: it was sent there
    assert authorizations(other) == []


async def test_wrong_type_is_refused_whatever_the_header(
    client: ScreenAnalysisClient, fresh_demo_server: DemoServer, other: ScriptedServer
) -> None:
    with pytest.raises(ImageFetchError, match="not an image"):
        await client.fetch_image(f"{other.base_url}/html")
    url = await _image_url(client)
    fresh_demo_server.faults.image_fault = "not-image"
    with pytest.raises(ImageFetchError, match="not an image"):
        await client.fetch_image(url)


async def test_endless_body_stops_at_the_cap(
    client: ScreenAnalysisClient, other: ScriptedServer
) -> None:
    with pytest.raises(ImageFetchError, match="too large"):
        await client.fetch_image(f"{other.base_url}/endless", max_bytes=1_000_000)


async def test_trickling_body_meets_the_deadline(
    client: ScreenAnalysisClient, other: ScriptedServer
) -> None:
    with pytest.raises(ImageFetchError, match="timed out"):
        await client.fetch_image(f"{other.base_url}/trickle", timeout_s=0.5)


async def test_slow_image_times_out(
    client: ScreenAnalysisClient, fresh_demo_server: DemoServer
) -> None:
    url = await _image_url(client)
    fresh_demo_server.faults.image_fault = "slow"
    with pytest.raises(ImageFetchError, match="timed out"):
        await client.fetch_image(url, timeout_s=0.3)


async def test_status_errors_are_one_short_reason(
    client: ScreenAnalysisClient, fresh_demo_server: DemoServer
) -> None:
    url = await _image_url(client)
    fresh_demo_server.faults.image_fault = "404"
    with pytest.raises(ImageFetchError) as caught:
        await client.fetch_image(url)
    assert caught.value.reason == "HTTP 404"


async def test_bomb_is_fetched_but_never_decoded(
    client: ScreenAnalysisClient, fresh_demo_server: DemoServer
) -> None:
    url = await _image_url(client)
    fresh_demo_server.faults.image_fault = "huge"
    image = await client.fetch_image(url)
    with pytest.raises(ImageDecodeError, match="too large"):
        prepare(image.data, (100, 100))


async def test_unreachable_host_is_one_line(
    client: ScreenAnalysisClient, other: ScriptedServer
) -> None:
    port = other.base_url.rsplit(":", 1)[1]
    other.httpd.server_close()
    with pytest.raises(ImageFetchError, match=r"unreachable|failed"):
        await client.fetch_image(f"http://127.0.0.1:{port}/ok.png", timeout_s=2)


async def test_a_port_nobody_listens_on_is_an_unreachable_host() -> None:
    # A socket bound but not listening: the port is ours, and each connection is refused.
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        async with ScreenAnalysisClient("https://api.example.com", SecretStr("k" * 24)) as api:
            with pytest.raises(ImageFetchError) as caught:
                await api.fetch_image(f"http://127.0.0.1:{port}/ok.png", timeout_s=2)
    assert caught.value.reason == "host unreachable"


def test_plain_http_only_to_loopback_or_the_api() -> None:
    api = origin_of(httpx.URL("https://api.example.com"))
    check_image_url(httpx.URL("https://cdn.example.com/a.png"), api)
    check_image_url(httpx.URL("http://127.0.0.1:9/a.png"), api)
    check_image_url(httpx.URL("http://localhost/a.png"), api)
    for bad in ("http://cdn.example.com/a.png", "ftp://x/a.png", "https://u:p@cdn.example.com/a"):
        with pytest.raises(ImageFetchError):
            check_image_url(httpx.URL(bad), api)


async def test_https_to_plain_http_redirect_is_refused() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "http://cdn.example.com/a.png"})

    async with ScreenAnalysisClient(
        "https://api.example.com", SecretStr("k"), transport=httpx.MockTransport(handler)
    ) as api:
        with pytest.raises(ImageFetchError) as caught:
            await api.fetch_image("https://api.example.com/a.png")
    assert caught.value.reason == "refused: redirect from https to plain http"


def test_sniffing() -> None:
    assert sniff_image_type(png_bytes()) == "image/png"
    assert sniff_image_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert sniff_image_type(b"RIFF1234WEBPVP8 ") == "image/webp"
    assert sniff_image_type(b"RIFF1234WAVEfmt ") is None  # a sound
    assert sniff_image_type(b"RIFX1234WEBPVP8 ") is None
    assert sniff_image_type(b"<svg") is None
