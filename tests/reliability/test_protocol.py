"""Protocol matrix: broken answers on the first page and in the middle of a session, for the
app (rows kept, a clear message, r recovers) and the command line (one line, exit code).

Client-only versions of several cases live in tests/api (test_malformed, test_network,
test_security, test_pagination_wire) and CLI ones in tests/cli/test_exit_codes.py; here each
case runs through the whole stack.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.support.scripted_server import Raw, Reply, ScriptedServer, analysis

from screen_analysis.api.client import MAX_RESPONSE_BYTES

from .conftest import KEY, CliRun, build_app, scripted_connection, settled, wait_until
from .raw_answers import drip, head, reset, stream

PAGE = 100
Broken = Callable[[socket.socket, threading.Event], None]


def page_bytes(first: int, count: int, cursor: str | None, total: int) -> bytes:
    items = [analysis(n) for n in range(first, first + count)]
    return json.dumps({"data": items, "next_cursor": cursor, "total": total}).encode()


def _send(body: bytes, status: int = 200, **headers: str) -> Broken:
    def answer(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head(status, len(body), **headers) + body)

    return answer


def _truncated_json(conn: socket.socket, stop: threading.Event) -> None:
    body = page_bytes(101, 100, None, 200)[:700]
    conn.sendall(head(200, len(body)) + body)


def _short_body(conn: socket.socket, stop: threading.Event) -> None:
    body = page_bytes(101, 100, None, 200)
    conn.sendall(head(200, len(body)) + body[:700])  # promised more, then an orderly close


def _reset_mid_body(conn: socket.socket, stop: threading.Event) -> None:
    body = page_bytes(101, 100, None, 200)
    conn.sendall(head(200, len(body)) + body[:700])
    time.sleep(0.05)
    reset(conn)


def _slow_drip(conn: socket.socket, stop: threading.Event) -> None:
    body = page_bytes(101, 100, None, 200)
    conn.sendall(head(200, len(body)))
    drip(conn, body, 0.1, stop)  # one byte every 0.1 s: each read is quick, the whole is not


def _huge_declared(conn: socket.socket, stop: threading.Event) -> None:
    size = 50 * 1024 * 1024
    conn.sendall(head(200, size) + b'{"data": [' + b" " * 65536)
    stream(conn, iter(lambda: b" " * 65536 if not stop.is_set() else b"", b""))


def _huge_undeclared(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(head(200) + b'{"data": [')
    sent = 0
    chunk = b" " * 65536

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        while sent < 50 * 1024 * 1024 and not stop.is_set():
            sent += len(chunk)
            yield chunk

    stream(conn, chunks())


HTML = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@dataclass(frozen=True)
class Case:
    """One broken answer and what the user must be told about it."""

    name: str
    answer: Broken
    says: str  # a fragment of the message shown (status line) and printed (CLI)
    cli_exit: int = 5


CASES = [
    Case("truncated JSON", _truncated_json, "malformed or truncated JSON"),
    Case("body shorter than its length", _short_body, "response cut short"),
    Case("HTML error page", _send(HTML, 502, Content_Type="text/html"), "502"),
    Case("HTML with 200", _send(HTML, 200, Content_Type="text/html"), "body is not JSON"),
    Case("200 wrong shape", _send(b'{"items": []}'), "not a valid page: data: field required"),
    Case(
        "200 data not a list",
        _send(b'{"data": {}, "total": 1}'),
        "data: should be a list, not an object",
    ),
    Case("204 no content", _send(b"", 204), "empty body"),
    Case("200 empty body", _send(b""), "empty body"),
    Case("reset mid-body", _reset_mid_body, "connection"),
    Case("slow-drip body", _slow_drip, "no complete response within"),
    Case("50 MB declared", _huge_declared, "exceeds the"),
    Case("50 MB undeclared", _huge_undeclared, "exceeds the"),
]


class Switchable:
    """Page 1 is fine; page 2 (after=c1) is broken until `fixed` is set."""

    def __init__(self, case: Case, *, broken_first: bool = False) -> None:
        self.case = case
        self.broken_first = broken_first
        self.fixed = False
        self.server = ScriptedServer(self.handle)

    def handle(self, path: str, query: dict[str, str]) -> Reply | Raw:
        if path.startswith("/v1/projects/"):
            return Reply.json({"id": "proj_scripted", "name": "Scripted"})
        after = query.get("after")
        broken = (after == "c1") != self.broken_first and query.get("limit") != "1"
        if broken and not self.fixed:
            return Raw(self.case.answer)
        if after == "c1":
            body = page_bytes(101, PAGE, None, 200)
        else:
            body = page_bytes(1, 1 if query.get("limit") == "1" else PAGE, "c1", 200)
        return Reply(200, body, {"Content-Type": "application/json"})

    def page_requests(self) -> int:
        return sum(1 for seen in self.server.seen if seen.query.get("limit") == "100")


@pytest.fixture
def switchable(request: pytest.FixtureRequest) -> Iterator[Callable[..., Switchable]]:
    made: list[Switchable] = []

    def make(case: Case, **options: bool) -> Switchable:
        made.append(Switchable(case, **options))
        return made[-1].server.__enter__() and made[-1]

    yield make
    for server in made:
        server.server.__exit__()


# --- The app ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
async def test_app_mid_session_keeps_rows_says_why_and_r_recovers(
    tmp_path: Path, switchable: Callable[..., Switchable], case: Case
) -> None:
    server = switchable(case)
    app = build_app(tmp_path, scripted_connection(server.server.base_url))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await settled(pilot)
        assert len(screen.table.items) == PAGE
        started = time.monotonic()
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.status_line.status.state == "error", 15)
        assert time.monotonic() - started < 10, "bounded in time"
        status = screen.status_line.status
        assert case.says in status.error, status.error
        assert app.screen is screen, "mid-session problems stay on the main screen"
        assert len(screen.table.items) == PAGE, "loaded rows are kept"
        server.fixed = True
        await pilot.press("r")
        await settled(pilot)
        ids = [item.id for item in screen.table.items]
        assert len(ids) == 2 * PAGE == len(set(ids))
        assert screen.status_line.status.state == "end"


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in CASES
        if c.name
        in (
            "truncated JSON",
            "HTML error page",
            "204 no content",
            "reset mid-body",
            "50 MB declared",
        )
    ],
    ids=lambda c: c.name,
)
async def test_app_first_page_broken_says_why_and_r_recovers(
    tmp_path: Path, switchable: Callable[..., Switchable], case: Case
) -> None:
    server = switchable(case, broken_first=True)
    app = build_app(tmp_path, scripted_connection(server.server.base_url))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: app.screen.__class__.__name__ != "Screen")
        main = app.screen_stack[1]
        await wait_until(pilot, lambda: main.status_line.status.state == "error")  # type: ignore[attr-defined]
        server.fixed = True
        if app.screen is not main:  # a connection failure before any row: the error screen
            assert type(app.screen).__name__ == "ErrorScreen"
        await pilot.press("r")
        screen = await settled(pilot)
        assert len(screen.table.items) == PAGE


# --- The command line ------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cli_mid_listing_prints_the_rows_then_one_line(
    switchable: Callable[..., Switchable], cli_run: CliRun, case: Case
) -> None:
    server = switchable(case)
    tracemalloc.start()
    started = time.monotonic()
    try:
        result = cli_run(server.server.base_url, "analyses", "list", "--all", "--format", "jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    elapsed = time.monotonic() - started
    assert result.exit_code == case.cli_exit, result.stderr
    assert len(result.stdout.splitlines()) == PAGE, "the first page was streamed"
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("Error: GET /v1/analyses?"), errors
    assert case.says in errors[0]
    assert KEY not in result.stdout + result.stderr
    assert elapsed < 15
    assert peak < 2 * MAX_RESPONSE_BYTES + 8 * 1024 * 1024, f"peak {peak:,} bytes"
