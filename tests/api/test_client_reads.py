"""What the client reads of an answer and says of it: a body that arrives in several reads
(a connection gives at most 64 KiB a read), whole or stopped at the cap; the line logged for
each answer; a base URL's path kept to the letter — against scripted loopback servers."""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from tests.api.support import MakeClient, RecordedSleep
from tests.support.scripted_server import Reply, ScriptedServer

from screen_analysis import __version__
from screen_analysis.api import (
    APIError,
    APITimeoutError,
    InvalidArgumentError,
    InvalidResponseError,
    RedirectError,
    ScreenAnalysisClient,
)
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.secret import SecretStr

PAGE = {"data": [{"id": "ana_1", "project_id": "proj_1", "status": "pending"}], "total": 1}
# A page of some 200 KB: several reads of the connection, whatever its timing.
ROWS = [
    {"id": f"ana_{i}", "project_id": "proj_1", "status": "pending", "label": "x" * 150}
    for i in range(1000)
]
LARGE = json.dumps({"data": ROWS, "next_cursor": None, "total": 1000}).encode()


def streamed(path: str, query: dict[str, str]) -> Reply:
    """The large page, without a length: read until the connection ends."""
    return Reply(200, LARGE[:1000], {"Content-Type": "application/json"}, chunks=[LARGE[1000:]])


async def test_a_body_in_several_reads_is_read_whole_under_the_cap() -> None:
    with ScriptedServer(streamed) as server:
        async with ScreenAnalysisClient(server.base_url, SecretStr("k" * 24)) as client:
            page = await client.list_analyses()
    assert [(a.id, a.label) for a in page.analyses] == [(r["id"], r["label"]) for r in ROWS]


async def test_a_body_past_the_cap_in_reads_each_under_it_is_stopped() -> None:
    """The cap counts every read, not the last one."""
    with ScriptedServer(streamed) as server:
        async with ScreenAnalysisClient(
            server.base_url, SecretStr("k" * 24), max_retries=0, max_response_bytes=150_000
        ) as client:
            with pytest.raises(InvalidResponseError, match="150,000-byte limit; reading stopped"):
                await client.list_analyses()


async def test_each_answer_is_logged_with_its_request_and_status(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def answer(path: str, query: dict[str, str]) -> Reply:
        time.sleep(0.1)  # the server takes its time: the line says at least as much
        return Reply.json(PAGE)

    caplog.set_level(logging.DEBUG, logger="screen_analysis.api")
    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(server.base_url, SecretStr("k" * 24)) as client:
            before = time.monotonic()
            await client.list_analyses(limit=1)
            around = (time.monotonic() - before) * 1000
    lines = [r.getMessage() for r in caplog.records if r.name == "screen_analysis.api"]
    assert len(lines) == 1
    said = re.fullmatch(r"GET /v1/analyses\?limit=1 -> (\d+) in (\d+) ms", lines[0])
    assert said is not None and said[1] == "200"
    assert int(said[2]) <= around + 1, "the time it took, measured inside the call"
    assert int(said[2]) >= 100, "milliseconds, at least the server's 0.1 s"


async def test_a_base_urls_path_is_kept_to_the_letter() -> None:
    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply.json(PAGE)

    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(f"{server.base_url}/FX/", SecretStr("k" * 24)) as client:
            await client.list_analyses(limit=1)
    assert [seen.path for seen in server.seen] == ["/FX/v1/analyses"]


@pytest.mark.parametrize(("status", "hint", "asked"), [(503, "false", 1), (400, "true", 3)])
async def test_the_servers_word_on_a_retry_is_followed(
    make_client: MakeClient, sleeps: RecordedSleep, status: int, hint: str, asked: int
) -> None:
    """`x-should-retry` overrides what the status alone would mean: a 503 not retried, a
    400 retried (two retries here)."""

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply.json({"error": {"message": "busy"}}, status, **{"x-should-retry": hint})

    with ScriptedServer(answer) as server:
        client = make_client(base_url=server.base_url, max_retries=2)
        with pytest.raises(APIError) as caught:
            await client.list_analyses(limit=1)
    assert len(server.seen) == caught.value.attempts == asked
    assert len(sleeps.delays) == asked - 1


async def test_a_retry_and_a_hold_are_each_logged_in_a_line(
    make_client: MakeClient, sleeps: RecordedSleep, caplog: pytest.LogCaptureFixture
) -> None:
    """What `--verbose` shows of a rate-limited server: the request retried after the
    server's wait, then the client's next request held for what is left of it."""
    answers = [Reply.json({"error": {"message": "slow down"}}, 429, **{"Retry-After": "30"})]

    def answer(path: str, query: dict[str, str]) -> Reply:
        return answers.pop(0) if answers else Reply.json(PAGE)

    caplog.set_level(logging.INFO, logger="screen_analysis.api")
    with ScriptedServer(answer) as server:
        client = make_client(base_url=server.base_url)
        await client.list_analyses(limit=1)
        await client.list_analyses(limit=1)
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "screen_analysis.api" and r.levelno == logging.INFO
    ]
    assert len(lines) == 2 and sleeps.delays[0] == 30.0
    assert re.fullmatch(r"GET /v1/analyses\?limit=1: .+; retrying in 30\.00 s", lines[0])
    held = re.fullmatch(
        r"holding requests for (\d+\.\d\d) s \(the server asked to slow down\)", lines[1]
    )
    assert held is not None and 0 < float(held[1]) <= 30


def _trickled(stop: threading.Event) -> Iterator[bytes]:
    """A page's first bytes, then a byte every 0.05 s for two seconds or until the client
    has gone (a slow server: each read is quick, the whole comes too late)."""
    for _ in range(40):
        if stop.is_set():
            return
        yield b" "
        stop.wait(0.05)


async def test_an_answer_that_never_completes_is_a_timeout_of_the_whole_attempt() -> None:
    stop = threading.Event()

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply(
            200, b'{"data": [', {"Content-Type": "application/json"}, chunks=_trickled(stop)
        )

    caught = await _timed_out(answer, Timeouts(total=0.3), stop)
    assert caught.request == "GET /v1/analyses?limit=1"
    assert caught.detail.endswith("no complete response within 0.3 s")
    assert caught.answered, "the server was reached: its status line came"


async def test_an_answer_that_stalls_after_its_status_line_was_answered() -> None:
    """A read timeout after the status line: the server was reached (the cache does not
    take it for being offline)."""
    stop = threading.Event()

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply(200, b"", {"Content-Type": "application/json"}, chunks=_stalled(stop))

    caught = await _timed_out(answer, Timeouts(read=0.2), stop)
    assert caught.detail.endswith("read timeout after 0.2 s") and caught.answered


async def _timed_out(
    answer: Callable[[str, dict[str, str]], Reply], timeouts: Timeouts, stop: threading.Event
) -> APITimeoutError:
    """The time-out a client with `timeouts` and no retry meets asking a page of `answer`;
    `stop` then lets the server's answer go."""
    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(
            server.base_url, SecretStr("k" * 24), max_retries=0, timeout=timeouts
        ) as client:
            with pytest.raises(APITimeoutError) as caught:
                await client.list_analyses(limit=1)
        stop.set()
    return caught.value


def _stalled(stop: threading.Event) -> Iterator[bytes]:
    stop.wait(10)  # until the client has gone
    yield b""


async def test_a_body_that_does_not_decode_is_an_invalid_response_naming_its_request() -> None:
    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply(200, b"not gzip at all", {"Content-Encoding": "gzip"})

    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(server.base_url, SecretStr("k" * 24)) as client:
            with pytest.raises(InvalidResponseError) as caught:
                await client.list_analyses(limit=1)
    assert str(caught.value).startswith(
        "GET /v1/analyses?limit=1: invalid response: body could not be decoded: "
    )


@pytest.mark.parametrize(("hops", "followed"), [(5, True), (6, False)])
async def test_five_redirects_on_the_server_are_followed_and_a_sixth_is_not(
    hops: int, followed: bool
) -> None:
    def answer(path: str, query: dict[str, str]) -> Reply:
        left = int(query.get("hop", hops))
        if left == 0:
            return Reply.json(PAGE)
        return Reply(302, headers={"Location": f"/v1/analyses?hop={left - 1}"})

    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(server.base_url, SecretStr("k" * 24)) as client:
            if followed:
                assert [a.id for a in (await client.list_analyses()).analyses] == ["ana_1"]
            else:
                with pytest.raises(RedirectError, match="more than 5 redirects") as caught:
                    await client.list_analyses()
                assert caught.value.request == "GET /v1/analyses?limit=20"
                assert caught.value.status_code == 302
    assert len(server.seen) == min(hops, 5) + 1


async def test_an_error_names_its_request_with_each_long_value_cut() -> None:
    """A 200-character cursor or id is cut to 80 characters where an error names the
    request; the rest of the request line is kept."""

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply.json({"error": {"message": "no such thing"}}, 404)

    with ScriptedServer(answer) as server:
        async with ScreenAnalysisClient(server.base_url, SecretStr("k" * 24)) as client:
            with pytest.raises(APIError) as listing:
                await client.list_analyses(after="c" * 200)
            with pytest.raises(APIError) as project:
                await client.get_project("p" * 200)
    assert listing.value.request == "GET /v1/analyses?limit=20&after=" + "c" * 79 + "…"
    assert project.value.request == "GET /v1/projects/" + "p" * 79 + "…"


@pytest.mark.parametrize("retries", [-1, True, "2", 2.0])
def test_a_retry_count_that_is_no_whole_number_of_zero_or_more_is_refused(
    retries: object,
) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        ScreenAnalysisClient("https://api.example.com", SecretStr("k" * 24), max_retries=retries)  # type: ignore[arg-type]
    assert str(caught.value) == "max_retries must be a non-negative integer"
    assert caught.value.param == "max_retries"


def test_each_time_limit_given_reaches_the_connection() -> None:
    limits = Timeouts(connect=1.0, read=2.0, write=3.0, pool=4.0).to_httpx()
    assert (limits.connect, limits.read, limits.write, limits.pool) == (1.0, 2.0, 3.0, 4.0)


async def test_the_client_names_itself_and_adds_only_what_it_is_given() -> None:
    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply.json(PAGE)

    with ScriptedServer(answer) as server:
        for given in (None, "nightly-job"):
            async with ScreenAnalysisClient(
                server.base_url, SecretStr("k" * 24), user_agent=given
            ) as client:
                await client.list_analyses(limit=1)
    agents = [seen.headers.get("User-Agent") for seen in server.seen]
    assert {seen.headers.get("Accept") for seen in server.seen} == {"application/json"}
    assert agents == [
        f"screen-analysis/{__version__}",
        f"screen-analysis/{__version__} nightly-job",
    ]


async def test_a_proxy_given_carries_every_request() -> None:
    """The proxy is a scripted server: it receives the request in absolute form."""

    def answer(path: str, query: dict[str, str]) -> Reply:
        return Reply.json(PAGE)

    with ScriptedServer(answer) as proxy:
        async with ScreenAnalysisClient(
            "http://api.example.test", SecretStr("k" * 24), proxy=proxy.base_url
        ) as client:
            await client.list_analyses(limit=1)
    assert proxy.lines() == ["GET http://api.example.test/v1/analyses?limit=1 HTTP/1.1"]


SOCKS_WORDS = "proxy: a socks proxy needs the socks extra (pip install 'screen-analysis[socks]')"


@pytest.mark.parametrize(
    ("proxy", "words"),
    [("socks5://127.0.0.1:1080", SOCKS_WORDS), ("ftp://127.0.0.1:21", "proxy: ")],
)
def test_a_proxy_that_cannot_be_used_is_refused_naming_it(proxy: str, words: str) -> None:
    if proxy.startswith("socks") and importlib.util.find_spec("socksio") is not None:
        pytest.skip("the socks extra is installed: a socks proxy is usable")
    with pytest.raises(InvalidArgumentError) as caught:
        ScreenAnalysisClient("https://api.example.com", SecretStr("k" * 24), proxy=proxy)
    assert str(caught.value).startswith(words) and caught.value.param == "proxy"
