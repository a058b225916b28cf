"""Session-level protocol cases: a key revoked mid-session, 429 bursts, 5xx storms, a refused
cursor, cursor loops, duplicate ids, a changing total, redirects. App and command line.

Related single-layer tests: tests/tui/test_app_behaviour.py (401 on refresh),
tests/tui/test_app_paging.py (503 while paging), tests/api/test_retry.py (backoff maths),
tests/api/test_pagination_wire.py and tests/cli/test_exit_codes.py (loops, CLI exit codes).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page
from tests.tui.conftest import answered, workers_done

from screen_analysis.api.retry import RetryPolicy
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.widgets.status_line import describe

from .conftest import (
    KEY,
    CliRun,
    build_app,
    connection_to,
    scripted_connection,
    settled,
    wait_until,
)


def listing(server: DemoServer, limit: str = "100") -> list[dict[str, str]]:
    """Queries of the listing requests of one page size."""
    return [
        r.query
        for r in server.request_log
        if r.path == "/v1/analyses" and r.query.get("limit") == limit
    ]


class Timed:
    """A script wrapper that notes when each request arrived."""

    def __init__(self, script: Callable[[str, dict[str, str]], Reply]) -> None:
        self.script = script
        self.times: list[tuple[float, str, dict[str, str]]] = []

    def __call__(self, path: str, query: dict[str, str]) -> Reply:
        self.times.append((time.monotonic(), path, query))
        return self.script(path, query)

    def pages(self) -> list[float]:
        return [
            t for t, path, q in self.times if path == "/v1/analyses" and q.get("limit") == "100"
        ]


def numbered(first: int, count: int) -> list[dict[str, Any]]:
    return [analysis(n) for n in range(first, first + count)]


# --- 401 in the middle of a session -----------------------------------------------------


def test_cli_key_revoked_mid_listing_exits_3_after_the_rows(
    fresh_demo_server: DemoServer, cli_run: CliRun
) -> None:
    server = fresh_demo_server
    calls = {"n": 0}
    original = server.faults.take_injected

    def revoke_after_first(target: str = "") -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            server.faults.inject(401)
        return original(target)

    server.faults.take_injected = revoke_after_first  # type: ignore[method-assign]
    result = cli_run(
        server.base_url, "analyses", "list", "--all", "--format", "jsonl", key=server.api_key
    )
    assert result.exit_code == 3, result.stderr
    assert len(result.stdout.splitlines()) == 100
    assert "authentication failed 401" in result.stderr
    assert server.api_key not in result.stderr


# --- 429 bursts with Retry-After ----------------------------------------------------------


async def test_app_honours_retry_after_on_a_429_burst(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = build_app(tmp_path, connection_to(server), max_retries=2)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settled(pilot)
        before = len(listing(server))
        server.faults.inject(429, {"Retry-After": "1"}, count=2, matching="after=")
        started = time.monotonic()
        await pilot.press("end")
        await wait_until(pilot, lambda: len(screen.table.items) == 200)
        waited = time.monotonic() - started
        assert waited >= 2.0, "two Retry-After: 1 honoured"
        assert len(listing(server)) - before == 3, "two refusals, one success, nothing more"


async def test_app_gives_up_after_retries_on_a_long_429_burst_without_a_storm(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = build_app(tmp_path, connection_to(server), max_retries=2)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settled(pilot)
        await workers_done(pilot)  # the start's side reads (totals, project names) are over
        await answered(pilot, server)
        before = len(server.request_log)
        server.faults.inject(429, {"Retry-After": "1"}, count=100)
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.status_line.status.state == "error", 15)
        for _ in range(10):  # impatient keys do not turn into requests
            await pilot.press("end", "pagedown")
        await workers_done(pilot)
        await answered(pilot, server)
        assert "rate limited" in screen.status_line.status.error
        extra = server.request_log[before:]
        assert len(extra) == 3, "\n".join(f"{r.query} {r.status}" for r in extra)
        assert len(screen.table.items) == 100


def test_cli_honours_retry_after(fresh_demo_server: DemoServer, cli_run: CliRun) -> None:
    server = fresh_demo_server
    server.faults.inject(429, {"Retry-After": "1"}, count=2)
    started = time.monotonic()
    result = cli_run(server.base_url, "analyses", "list", "--limit", "5", key=server.api_key)
    assert result.exit_code == 0, result.stderr
    assert time.monotonic() - started >= 2.0
    assert len(listing(server, "5")) == 3


# --- 5xx storms: backoff, a bounded number of requests ------------------------------------


@pytest.fixture
def storm() -> Iterator[tuple[ScriptedServer, Timed]]:
    def script(path: str, query: dict[str, str]) -> Reply:
        return Reply.json({"error": {"type": "server_error", "message": "down"}}, 503)

    timed = Timed(script)
    with ScriptedServer(timed) as server:
        yield server, timed


def _gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(times)]


async def test_app_backs_off_in_a_5xx_storm_and_sends_no_storm_back(
    tmp_path: Path, storm: tuple[ScriptedServer, Timed]
) -> None:
    server, timed = storm
    app = build_app(
        tmp_path, scripted_connection(server.base_url), max_retries=2, retry=RetryPolicy()
    )
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settled(pilot)
        assert screen.status_line.status.state == "error"
        for _ in range(10):
            await pilot.press("end", "pagedown", "down")
        await workers_done(pilot)
        pages = timed.pages()
        assert len(pages) == 3, "one request and two retries, then the user decides"
        gaps = _gaps(pages)
        assert gaps[0] >= 0.5 * 0.75 and gaps[1] >= 1.0 * 0.75, gaps
        assert len(timed.times) <= 3 * 5, [(round(t, 2), p, q) for t, p, q in timed.times]
        await pilot.press("r")
        await settled(pilot)
        assert len(timed.pages()) == 6


def test_cli_backs_off_in_a_5xx_storm(storm: tuple[ScriptedServer, Timed], cli_run: CliRun) -> None:
    server, timed = storm
    result = cli_run(server.base_url, "analyses", "list", "--all")
    assert result.exit_code == 5
    assert "(after 3 attempts)" in result.stderr
    assert len(timed.times) == 3
    assert all(gap >= 0.05 * 0.75 for gap in _gaps([t for t, _, _ in timed.times]))


# --- A refused cursor: offer to restart the listing ---------------------------------------


CURSOR_REFUSED = {
    "error": {"type": "invalid_request", "message": "cursor expired", "param": "after"}
}


async def test_app_refused_cursor_offers_a_restart_from_the_top(
    tmp_path: Path, fresh_demo_server: DemoServer
) -> None:
    server = fresh_demo_server
    app = build_app(tmp_path, connection_to(server))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settled(pilot)
        screen.table.move_cursor(42)
        await pilot.pause()
        chosen = screen.table.highlighted_item
        server.faults.inject(400, body=CURSOR_REFUSED, matching="after=")
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.status_line.status.state == "error")
        notes = [n.message for n in app._notifications]
        assert any("restart the listing from the top" in n for n in notes), notes
        assert "restart" in describe(screen.status_line.status)[1]  # what the line says
        before = len(listing(server))
        await pilot.press("r")
        await settled(pilot)
        restarted = listing(server)[before:]
        assert restarted and restarted[0].get("after") is None, "from the top"
        assert len(screen.table.items) >= 100
        await pilot.press("end")
        await settled(pilot)
        ids = [item.id for item in screen.table.items]
        assert len(ids) == len(set(ids)) and len(ids) >= 200
        assert chosen is not None and chosen.id in ids


def test_cli_refused_cursor_mid_listing_says_to_run_again(
    fresh_demo_server: DemoServer, cli_run: CliRun
) -> None:
    server = fresh_demo_server
    original = server.faults.take_injected
    calls = {"n": 0}

    def refuse_second(target: str = "") -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            server.faults.inject(400, body=CURSOR_REFUSED)
        return original(target)

    server.faults.take_injected = refuse_second  # type: ignore[method-assign]
    result = cli_run(
        server.base_url, "analyses", "list", "--all", "--format", "jsonl", key=server.api_key
    )
    assert result.exit_code == 5, result.stderr
    assert len(result.stdout.splitlines()) == 100
    assert "run the command again to restart the listing" in result.stderr


# --- Loops, duplicates, a changing total --------------------------------------------------


def _pages(spec: dict[str, tuple[list[dict[str, Any]], str | None, int]]) -> Callable[..., Reply]:
    def script(path: str, query: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json({"id": "proj_scripted", "name": "Scripted"})
        if query.get("limit") == "1":
            return page([], None, 0)
        items, cursor, total = spec[query.get("after", "")]
        return page(items, cursor, total)

    return script


async def test_app_cursor_loop_stops_paging_with_a_message(tmp_path: Path) -> None:
    spec = {
        "": (numbered(1, 100), "A"),
        "A": (numbered(101, 100), "B"),
        "B": (numbered(201, 100), "A"),
    }
    timed = Timed(_pages({k: (*v, 300) for k, v in spec.items()}))
    with ScriptedServer(timed) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            for _ in range(6):
                await pilot.press("end")
                await settled(pilot)
            assert "Paging stopped" in screen.status_line.status.error
            assert len(timed.pages()) == 3, "no cursor asked twice"
            ids = [item.id for item in screen.table.items]
            assert len(ids) == 300 == len(set(ids))


async def test_app_duplicate_ids_across_pages_are_shown_once(tmp_path: Path) -> None:
    spec = {"": (numbered(1, 100), "A", 150), "A": (numbered(51, 100), None, 150)}
    with ScriptedServer(_pages(spec)) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            await pilot.press("end")
            await settled(pilot)
            ids = [item.id for item in screen.table.items]
            assert ids == [f"ana_{n:04d}" for n in range(1, 151)]
            assert screen.status_line.status.state == "end"


def test_cli_duplicate_ids_across_pages_are_written_once(cli_run: CliRun) -> None:
    spec = {"": (numbered(1, 100), "A", 150), "A": (numbered(51, 100), None, 150)}
    with ScriptedServer(_pages(spec)) as server:
        for fmt in ("jsonl", "csv", "table"):
            result = cli_run(server.base_url, "analyses", "list", "--all", "--format", fmt)
            assert result.exit_code == 0
            rows = [line for line in result.stdout.splitlines() if "ana_" in line]
            assert len(rows) == 150, fmt


async def test_app_total_changing_while_paging_shows_the_latest(tmp_path: Path) -> None:
    spec = {
        "": (numbered(1, 100), "A", 300),
        "A": (numbered(101, 100), "B", 250),
        "B": (numbered(201, 50), None, 260),
    }
    with ScriptedServer(_pages(spec)) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            assert screen.status_line.status.total == 300
            await pilot.press("end")
            await settled(pilot)
            assert screen.status_line.status.total == 250
            await pilot.press("end")
            await settled(pilot)
            status = screen.status_line.status
            assert (status.loaded, status.total, status.state) == (250, 260, "end")


def test_cli_total_changing_while_paging(cli_run: CliRun) -> None:
    spec = {"": (numbered(1, 100), "A", 300), "A": (numbered(101, 30), None, 130)}
    with ScriptedServer(_pages(spec)) as server:
        result = cli_run(server.base_url, "analyses", "list", "--max-items", "500")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 1 + 130


# --- Redirects: the key never goes to another host ----------------------------------------


@pytest.fixture
def elsewhere() -> Iterator[ScriptedServer]:
    """The other host: records whatever reaches it."""
    with ScriptedServer(_pages({"": (numbered(1, 3), None, 3)})) as server:
        yield server


def _redirecting(to: str) -> Callable[..., Reply]:
    def script(path: str, query: dict[str, str]) -> Reply:
        if path == "/moved/v1/analyses":
            return page(numbered(1, 5), None, 5)
        if path.startswith("/v1/projects/"):
            return Reply.json({"id": "proj_scripted", "name": "Scripted"})
        target = to or "/moved" + path + "?" + "&".join(f"{k}={v}" for k, v in query.items())
        return Reply(302, b"", {"Location": target})

    return script


@pytest.mark.parametrize("status", [301, 302, 307, 308])
async def test_app_redirect_to_another_host_is_refused_and_nothing_reaches_it(
    tmp_path: Path, elsewhere: ScriptedServer, status: int
) -> None:
    script = _redirecting(elsewhere.base_url + "/v1/analyses?limit=100")

    def with_status(path: str, query: dict[str, str]) -> Reply:
        reply = script(path, query)
        reply.status = status if reply.status == 302 else reply.status
        return reply

    with ScriptedServer(with_status) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            assert "not followed, so the key is not sent there" in screen.status_line.status.error
    assert elsewhere.seen == []


def test_cli_redirect_to_another_host_is_refused(
    elsewhere: ScriptedServer, cli_run: CliRun
) -> None:
    with ScriptedServer(_redirecting(elsewhere.base_url + "/v1/analyses")) as server:
        result = cli_run(server.base_url, "analyses", "list")
    assert result.exit_code == 5
    assert "not followed" in result.stderr and elsewhere.base_url.split(":")[-1] in result.stderr
    assert elsewhere.seen == [] and KEY not in result.stderr


def test_cli_follows_a_same_origin_redirect_with_the_key(cli_run: CliRun) -> None:
    with ScriptedServer(_redirecting("")) as server:
        result = cli_run(server.base_url, "analyses", "list", "--format", "jsonl")
        assert result.exit_code == 0 and len(result.stdout.splitlines()) == 5
        moved = [s for s in server.seen if s.path.startswith("/moved/")]
        assert moved and all(s.headers["Authorization"] == f"Bearer {KEY}" for s in moved)


async def test_app_follows_a_same_origin_redirect_with_the_key(tmp_path: Path) -> None:
    with ScriptedServer(_redirecting("")) as server:
        app = build_app(tmp_path, scripted_connection(server.base_url))
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await settled(pilot)
            assert len(screen.table.items) == 5
        moved = [s for s in server.seen if s.path.startswith("/moved/")]
        assert moved and all(s.headers["Authorization"] == f"Bearer {KEY}" for s in moved)
