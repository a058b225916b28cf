"""The image fetch's answers word for word, against a scripted loopback server: how long an
image may be kept, its size cap met exactly, a 304, the redirects allowed, and each failure
in the few words the detail pane shows. The key's policy: tests/api/test_image_fetch.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import httpx
import pytest
from tests.api.image_servers import png_bytes
from tests.support.scripted_server import Reply, ScriptedServer

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.image_fetch import (
    ImageBytes,
    ImageFetchError,
    check_image_url,
    is_loopback_host,
)
from screen_analysis.api.plain_address import read_plain
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.secret import SecretStr

PNG = png_bytes()
# An image of 3,000 bytes: a PNG with padding after its end (decoders stop at IEND).
PADDED = PNG + b"\0" * (3000 - len(PNG))
# Larger than one read of the connection (64 KiB), so that it arrives in several.
LARGE = PNG + bytes(range(256)) * 1000


def _answer(path: str, query: dict[str, str]) -> Reply:
    if path == "/cache":
        return Reply(200, PNG, {"Cache-Control": query["v"]})
    if path == "/padded":
        return Reply(200, PADDED)
    if path == "/streamed":  # no length: three chunks, 3,000 bytes in all
        return Reply(200, PADDED[:1000], chunks=[PADDED[1000:2000], PADDED[2000:]])
    if path == "/304":
        return Reply(304, headers={"Cache-Control": "max-age=60", **query})
    if path.startswith("/hop/"):
        left = int(path.rsplit("/", 1)[1])
        if left == 0:
            return Reply(200, PNG, {"ETag": '"v1"'})
        return Reply(302, headers={"Location": f"/hop/{left - 1}"})
    if path == "/nowhere":
        return Reply(302)
    if path == "/gzip":
        return Reply(200, b"not gzip at all", {"Content-Encoding": "gzip"})
    if path == "/cut":
        return Reply(200, PNG[:10], declared_length=len(PNG))
    if path == "/large":
        return Reply(200, LARGE)
    if path == "/declared":  # says 1,025 KiB: refused before any byte is read
        return Reply(200, PNG, declared_length=1025 * 1024)
    if path == "/wave":  # a RIFF file, but a sound: no image
        return Reply(200, b"RIFF\x24\x00\x00\x00WAVEfmt " + b"\0" * 32)
    raise AssertionError(path)


@pytest.fixture
def images() -> Iterator[ScriptedServer]:
    with ScriptedServer(_answer) as server:
        yield server


@pytest.fixture
async def client() -> AsyncIterator[ScreenAnalysisClient]:
    """A client whose API is on another port: the image server is another origin."""
    async with ScreenAnalysisClient(
        "https://api.example.com", SecretStr("k" * 24), timeout=Timeouts(read=0.5)
    ) as api:
        yield api


async def reason(client: ScreenAnalysisClient, url: str, **options: object) -> str:
    with pytest.raises(ImageFetchError) as caught:
        await client.fetch_image(url, **options)
    return caught.value.reason


@pytest.mark.parametrize(
    ("cache_control", "max_age"),
    [
        ("max-age=300", 300.0),
        ("public, Max-Age = 60", 60.0),
        ("no-store", 0.0),
        ("no-cache, max-age=300", 0.0),
        ("private", None),
    ],
)
async def test_how_long_an_image_may_be_kept_is_the_servers_word(
    client: ScreenAnalysisClient, images: ScriptedServer, cache_control: str, max_age: float | None
) -> None:
    url = f"{images.base_url}/cache?v={cache_control}"
    image = await client.fetch_image(url)
    assert image == ImageBytes(str(httpx.URL(url)), PNG, "image/png", None, max_age)


async def test_an_image_of_exactly_the_cap_is_fetched_whole(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    for path in ("/padded", "/streamed"):
        image = await client.fetch_image(f"{images.base_url}{path}", max_bytes=3000)
        assert image.data == PADDED and image.media_type == "image/png"


async def test_an_image_one_byte_over_the_cap_is_refused_in_kib(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    declared = await reason(client, f"{images.base_url}/padded", max_bytes=2999)
    assert declared == "too large (2 KiB)"  # 3,000 bytes declared, refused unread
    streamed = await reason(client, f"{images.base_url}/streamed", max_bytes=2999)
    assert streamed == "too large (over 2 KiB)"


async def test_an_image_that_arrives_in_several_reads_is_whole(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    image = await client.fetch_image(f"{images.base_url}/large")
    assert image.data == LARGE


async def test_the_size_refused_is_said_in_whole_kib(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    declared = await reason(client, f"{images.base_url}/declared", max_bytes=1024 * 1024)
    assert declared == "too large (1,025 KiB)"
    streamed = await reason(client, f"{images.base_url}/streamed", max_bytes=2048)
    assert streamed == "too large (over 2 KiB)"


async def test_an_image_is_asked_for_as_one_of_the_types_shown(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    await client.fetch_image(f"{images.base_url}/padded")
    assert [seen.headers.get("Accept") for seen in images.seen] == [
        "image/png, image/jpeg, image/webp, image/gif;q=0.8"
    ]


async def test_not_modified_keeps_the_etag_the_caller_has_unless_a_new_one_comes(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    url = f"{images.base_url}/304"
    kept = await client.fetch_image(url, etag='"v1"')
    assert kept == ImageBytes(url, b"", "", '"v1"', 60.0, not_modified=True)
    renewed = await client.fetch_image(f"{url}?ETag=%22v2%22", etag='"v1"')
    assert renewed.etag == '"v2"' and renewed.not_modified
    assert images.seen[0].headers.get("If-None-Match") == '"v1"'
    assert await reason(client, url) == "HTTP 304"  # not asked with an etag: not an answer


async def test_five_redirects_are_followed_and_a_sixth_is_not(
    client: ScreenAnalysisClient, images: ScriptedServer
) -> None:
    image = await client.fetch_image(f"{images.base_url}/hop/5")
    assert image.url == f"{images.base_url}/hop/0" and image.etag == '"v1"'
    assert await reason(client, f"{images.base_url}/hop/6") == "more than 5 redirects"


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/nowhere", "HTTP 302 without a Location"),
        ("/gzip", "body could not be decoded"),
        ("/cut", "connection cut short"),
        ("/wave", "not an image"),
    ],
)
async def test_each_failure_is_a_few_words(
    client: ScreenAnalysisClient, images: ScriptedServer, path: str, words: str
) -> None:
    assert await reason(client, f"{images.base_url}{path}") == words


async def test_an_address_that_cannot_be_read_is_refused_unasked(
    client: ScreenAnalysisClient,
) -> None:
    assert await reason(client, "http://[::1") == "invalid address"


async def test_a_server_that_stops_answering_times_out_in_two_words(
    client: ScreenAnalysisClient,
) -> None:
    def silent(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no bytes", request=request)

    assert await _mocked_reason(silent) == "timed out"


async def test_a_connection_lost_while_reading_is_a_failed_connection() -> None:
    """A reset at a chosen moment is what no loopback server can time: the transport
    raises it."""

    def reset(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadError("connection reset by peer", request=request)

    assert await _mocked_reason(reset) == "connection failed"


async def _mocked_reason(handler: Callable[[httpx.Request], httpx.Response]) -> str:
    async with ScreenAnalysisClient(
        "https://api.example.com", SecretStr("k" * 24), transport=httpx.MockTransport(handler)
    ) as api:
        return await reason(api, "https://cdn.example.com/a.png")


async def test_an_https_image_may_move_to_another_https_host_and_to_loopback_http() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        if request.url.host == "api.example.com":
            return httpx.Response(302, headers={"Location": "https://cdn.example.com/b.png"})
        if request.url.host == "cdn.example.com":
            return httpx.Response(302, headers={"Location": "http://127.0.0.1:9/c.png"})
        return httpx.Response(200, content=PNG)

    async with ScreenAnalysisClient(
        "https://api.example.com", SecretStr("k" * 24), transport=httpx.MockTransport(answer)
    ) as api:
        image = await api.fetch_image("https://api.example.com/a.png")
    assert image.url == "http://127.0.0.1:9/c.png" and image.data == PNG
    assert seen == [
        "https://api.example.com/a.png",
        "https://cdn.example.com/b.png",
        "http://127.0.0.1:9/c.png",
    ]


async def test_plain_http_to_the_apis_own_origin_carries_the_key() -> None:
    """A user who chose a plain http API gets its images over it too, with the key."""
    keys: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        keys.append(request.headers.get("Authorization"))
        return httpx.Response(200, content=PNG)

    async with ScreenAnalysisClient(
        "http://api.example.com", SecretStr("k" * 24), transport=httpx.MockTransport(answer)
    ) as api:
        image = await api.fetch_image("http://api.example.com:80/v1/images/a.png")
    assert image.data == PNG and keys == [f"Bearer {'k' * 24}"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://cdn.example.com/a.png", "not an http(s) address"),
        ("https://user:pw@cdn.example.com/a.png", "refused: the address carries credentials"),
        ("http://cdn.example.com/a.png", "refused: plain http to another host"),
    ],
)
def test_each_refusal_says_why(url: str, words: str) -> None:
    origin = read_plain("https://api.example.com")
    assert origin is not None
    with pytest.raises(ImageFetchError) as caught:
        check_image_url(httpx.URL(url), origin.origin)
    assert caught.value.reason == words


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LocalHost", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("10.0.0.1", False),
        ("[::2]", False),
        ("example.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback
