"""`screen-analysis serve`: only the holder of the run's token, on the served address, gets
the page and the websocket; a real websocket client against a real running serve."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import httpx
import pytest
from click.testing import CliRunner
from tests.cli.serve_support import Served, running_serve

from screen_analysis.cli.root import cli
from screen_analysis.cli.serve import DEFAULT_HOST, is_loopback
from screen_analysis.cli.serve_guard import ServeGuard, served_url


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One running `serve --demo` for the module (its token is known to the tests)."""
    with running_serve(tmp_path_factory.mktemp("serve")) as server:
        yield server


ESCAPES = re.compile(r"\x1b\[[0-9;?$<>]*[A-Za-z]|\x1b\][^\x07]*\x07")


def drawn(received: list[str]) -> str:
    """The text in what the app sent, without escape sequences, spaces folded."""
    return re.sub(r"\s+", " ", ESCAPES.sub("", "".join(received)))


async def screen_text(served: Served, *, seconds: float = 20.0, until: str = "") -> str:
    """Connect the websocket as the user's tab does, and return the text the app drew."""
    headers = {"Origin": served.origin}
    received: list[str] = []
    async with (
        aiohttp.ClientSession(cookies=served.cookie) as session,
        session.ws_connect(
            f"ws://127.0.0.1:{served.port}/ws?width=120&height=40", headers=headers
        ) as ws,
    ):
        await ws.send_json(["resize", {"width": 120, "height": 40}])
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline and not (until and until in drawn(received)):
            try:
                message = await ws.receive(timeout=max(0.1, deadline - loop.time()))
            except TimeoutError:
                break
            if message.type == aiohttp.WSMsgType.BINARY:
                received.append(message.data.decode("utf-8", "replace"))
            elif message.type == aiohttp.WSMsgType.TEXT:
                received.append(message.data)
            else:
                break
    return drawn(received)


async def refused_websocket(served: Served, *, headers: dict[str, str], cookie: bool) -> int:
    """The status a websocket handshake gets with these headers (and the cookie or not)."""
    async with aiohttp.ClientSession(cookies=served.cookie if cookie else None) as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"ws://127.0.0.1:{served.port}/ws", headers=headers)
    return refused.value.status


def test_the_printed_address_carries_a_fresh_token(tmp_path: Path) -> None:
    with running_serve(tmp_path, token=None) as first:
        assert first.process.stdout is not None
        line = first.process.stdout.readline().decode()
    found = re.search(r"http://127\.0\.0\.1:\d+/\?token=([A-Za-z0-9_-]{40,})", line)
    assert found, line


def test_the_token_is_swapped_for_a_cookie_of_this_host_and_port(served: Served) -> None:
    url = served_url("127.0.0.1", served.port, served.token)
    response = httpx.get(url + "&fontsize=14")
    assert response.status_code == 303
    assert response.headers["location"] == "/?fontsize=14"  # the token leaves the address
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"screen-analysis-token-{served.port}={served.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Domain" not in cookie
    page = httpx.get(url, follow_redirects=True)
    assert page.status_code == 200
    assert f"ws://127.0.0.1:{served.port}/ws" in page.text
    assert "googleapis" not in page.text
    assert not re.search(r"(src|href)=\"https?://(?!127\.0\.0\.1)", page.text)


@pytest.mark.parametrize(
    "path", ["/", "/static/js/textual.js", "/fonts/symbols.ttf", "/download/x"]
)
def test_no_token_or_a_wrong_one_is_refused(served: Served, path: str) -> None:
    base = f"http://127.0.0.1:{served.port}"
    assert httpx.get(base + path).status_code == 403
    assert httpx.get(base + path + "?token=not-the-token").status_code == 403
    wrong = {f"screen-analysis-token-{served.port}": "not-the-token"}
    assert httpx.get(base + path, cookies=wrong).status_code == 403


def test_a_rebinding_host_is_refused_even_with_the_token(served: Served) -> None:
    response = httpx.get(
        f"http://127.0.0.1:{served.port}/",
        headers={"Host": f"evil.example.com:{served.port}"},
        cookies=served.cookie,
    )
    assert response.status_code == 403
    assert "Host" in response.text


def test_localhost_names_the_served_address_too(served: Served) -> None:
    page = httpx.get(f"http://localhost:{served.port}/", cookies=served.cookie)
    assert page.status_code == 200
    assert f"ws://localhost:{served.port}/ws" in page.text  # the websocket on the same host


async def test_a_foreign_origin_websocket_is_refused_even_with_the_cookie(served: Served) -> None:
    for origin in ("http://evil.example.com", f"http://evil.example.com:{served.port}", "null"):
        status = await refused_websocket(served, headers={"Origin": origin}, cookie=True)
        assert status == 403


async def test_a_websocket_without_origin_or_token_is_refused(served: Served) -> None:
    assert await refused_websocket(served, headers={}, cookie=True) == 403
    assert await refused_websocket(served, headers={"Origin": served.origin}, cookie=False) == 403
    rebinding = {"Origin": served.origin, "Host": f"evil.example.com:{served.port}"}
    assert await refused_websocket(served, headers=rebinding, cookie=True) == 403


async def test_the_right_token_gets_the_screen(served: Served) -> None:
    text = await screen_text(served, until="Processing")
    assert "screen-analysis" in text and "Processing" in text


async def test_a_damaged_state_file_is_a_warning_in_the_tab(tmp_path: Path) -> None:
    state = tmp_path / ".local" / "share" / "screen-analysis" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text("null", encoding="utf-8")
    with running_serve(tmp_path) as served:
        text = await screen_text(served, until="The state file")
    assert "The state file" in text and "Processing" in text  # a warning, and the app runs


def test_a_guard_for_another_host_accepts_that_host() -> None:
    guard = ServeGuard("t" * 20, "192.168.1.5", 9000)
    assert guard.authorities == {"127.0.0.1:9000", "localhost:9000", "192.168.1.5:9000"}
    assert "[::1]:9000" in ServeGuard("t" * 20, "::1", 9000).authorities
    assert served_url("::1", 9000, "abc") == "http://[::1]:9000/?token=abc"


def test_serve_listens_on_loopback_by_default() -> None:
    assert DEFAULT_HOST == "127.0.0.1"
    assert is_loopback(DEFAULT_HOST) and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.com")


def test_serve_refuses_an_unknown_theme() -> None:
    result = CliRunner().invoke(cli, ["--theme", "no-such-theme", "serve"])
    assert result.exit_code == 2
    assert "unknown theme" in result.output


def test_serve_refuses_a_short_token() -> None:
    result = CliRunner().invoke(cli, ["serve", "--token", "short"])
    assert result.exit_code == 2
    assert "--token needs at least 16 characters" in result.output
