"""The plain reading of an address (without httpx, for the first frame) agrees with httpx's
on every address it reads, and the holder of the client answers alike before and after the
client is built: the path shown as "(API server)" is the same either way."""

from __future__ import annotations

import httpx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from screen_analysis.api.addresses import api_path, check_base_url, origin_of
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.plain_address import read_plain
from screen_analysis.secret import SecretStr

# Every visible ASCII character, a space, a tab, a few letters beyond ASCII.
CHARACTERS = st.sampled_from([chr(c) for c in range(0x20, 0x7F)] + ["\t", "é", "ß", "中"])
SEGMENT = st.one_of(
    st.sampled_from(["", ".", "..", "images", "a.png", "%2e", "%zz", "~x"]),
    st.text(CHARACTERS, max_size=6),
)
SCHEMES = st.sampled_from(["http", "https", "HTTP", "Https", "ftp", "ws", "h-t"])
HOSTS = st.one_of(
    st.sampled_from(
        [
            "api.example.com",
            "API.Example.COM",
            "127.0.0.1",
            "127.0.0.01",
            "1.2.3.999",
            "1.2.3",
            "localhost",
            "xn--bcher-kva.example",
            "XN--bcher-kva.example",
            "bücher.example",
            "[::1]",
            "[::zz]",
            "",
            "a..b",
            "-x-",
            "user@api.example.com",
            "user:pw@api.example.com",
        ]
    ),
    st.text(CHARACTERS, max_size=8),
)
PORTS = st.sampled_from(["", ":", ":0", ":80", ":443", ":080", ":8080", ":65535", ":99999", ":x"])
QUERIES = st.one_of(st.just(""), st.builds(lambda q: "?" + q, st.text(CHARACTERS, max_size=8)))
FRAGMENTS = st.sampled_from(["", "#", "#top", "#a b"])


@st.composite
def addresses(draw: st.DrawFn) -> str:
    """Addresses built of parts, plain and odd alike, and now and then any text at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(CHARACTERS, max_size=40))
    segments = draw(st.lists(SEGMENT, max_size=4))
    path = "".join("/" + segment for segment in segments)
    return f"{draw(SCHEMES)}://{draw(HOSTS)}{draw(PORTS)}{path}{draw(QUERIES)}{draw(FRAGMENTS)}"


# What a plain address is made of (api/plain_address.py), to reach its edges often.
PLAIN_TEXT = st.text(st.sampled_from([chr(c) for c in range(0x21, 0x7F) if chr(c) not in "#"]))


@st.composite
def plain_addresses(draw: st.DrawFn) -> str:
    """Addresses of a plain address's characters, most of them plain."""
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "hTtPs"]))
    host = draw(st.from_regex(r"[A-Za-z0-9.-]{1,12}", fullmatch=True))
    port = draw(st.one_of(st.just(""), st.from_regex(r":[0-9]{0,6}", fullmatch=True)))
    path = draw(st.one_of(st.just(""), st.builds("/".__add__, PLAIN_TEXT)))
    return f"{scheme}://{host}{port}{path}"


def httpx_reading(url: str) -> tuple[tuple[str, str, int | None], str] | None:
    try:
        parsed = httpx.URL(url)
        return origin_of(parsed), parsed.raw_path.decode("ascii")
    except (httpx.InvalidURL, TypeError, ValueError):
        return None


@settings(max_examples=1500, deadline=None)
@given(st.one_of(addresses(), plain_addresses()))
@example("https://api.example.com/a/./b.png")  # httpx removes dot segments
@example("https://api.example.com/a/../b.png")
def test_a_plain_address_reads_as_httpx_reads_it(url: str) -> None:
    plain = read_plain(url)
    if plain is not None:
        assert httpx_reading(url) == (plain.origin, plain.raw_path)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["http", "https"]), HOSTS, PORTS, st.lists(SEGMENT, max_size=3))
def test_the_base_urls_a_user_gives_read_as_the_client_reads_them(
    scheme: str, host: str, port: str, segments: list[str]
) -> None:
    base = f"{scheme}://{host}{port}" + "".join("/" + s for s in segments)
    try:
        checked = check_base_url(base)
    except InvalidArgumentError:
        return  # refused (a query, a user, no host…): never a client's base
    plain = read_plain(base)
    if plain is not None:
        assert plain.origin == origin_of(checked)


def test_the_addresses_of_the_first_frame_are_plain() -> None:
    # The reference server's images and a usual https API: read without httpx.
    for url in (
        "http://127.0.0.1:8765/images/an_01.png",
        "https://api.example.com/v1/images/an_01?size=large&v=2",
        "https://API.example.com:443/",
        "http://localhost:8000",
    ):
        assert read_plain(url) is not None, url


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["http://127.0.0.1:8765", "https://api.example.com/v1/"]),
    st.one_of(addresses(), plain_addresses()),
)
async def test_the_holder_answers_alike_before_and_after_the_client_is_built(
    base: str, url: str
) -> None:
    built: list[ScreenAnalysisClient] = []

    def build() -> ScreenAnalysisClient:
        built.append(ScreenAnalysisClient(base, SecretStr("sk-test-not-a-real-key")))
        return built[-1]

    current = CurrentClient()
    await current.open(build, base)
    before = current.api_path(url)
    if read_plain(url) is not None:
        assert not built, "a plain address is read without the client"
    assert before == api_path(url, check_base_url(base)) == current.client.api_path(url)
    await current.swap(None)
