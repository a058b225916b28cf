"""`check --wait --timeout S` holds its deadline inside a poll, on the real clock, against
servers that would keep a round going for ever: cursors that never end, a request that
never gets an answer (whose read timeout and retries would outlast the deadline). Exit 7,
the timeout's, with the words of a deadline — never 5 and never minutes later.

The deadline is the event these tests wait for; the elapsed time is only guarded, far
above the timeout, so that a walk without bound fails here rather than hanging the suite.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from itertools import count

import pytest
from tests.support.scripted_server import Raw, Reply, ScriptedServer, analysis, page

from screen_analysis.cli.check import command
from screen_analysis.gate import SystemClock

KEY = "sk-test-deadline-not-real"
TIMEOUT_S = 2
GUARD_S = 30  # far above the deadline; before the fix these ran 92 s or for ever


@pytest.fixture(autouse=True)
def real_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is the real clock's: the stepped clock of the other tests stands still
    while a poll runs."""
    monkeypatch.setattr(command, "CLOCK", SystemClock())


def endless_pending(path: str, query: dict[str, str]) -> Reply:
    """Every pending page holds fresh analyses and a fresh cursor: the listing never ends."""
    if query.get("status") != "pending":
        return page([], None, 0)
    start = int(query.get("after", "0"))
    rows = [analysis(start + i, status="pending") for i in range(int(query["limit"]))]
    return page(rows, str(start + len(rows)), 10**9)


def never_answers(connection: socket.socket, stop: threading.Event) -> None:
    """The request is read; no byte of an answer ever comes (until the server stops)."""
    stop.wait()


@pytest.fixture
def endless(against) -> Iterator[ScriptedServer]:
    with ScriptedServer(endless_pending) as server:
        against(server.base_url, KEY)
        yield server


@pytest.fixture
def hanging(against) -> Iterator[ScriptedServer]:
    with ScriptedServer(lambda path, query: Raw(never_answers)) as server:
        against(server.base_url, KEY)
        yield server


def run_check(invoke, *extra: str):
    started = time.monotonic()
    waiting = ["--wait", "--timeout", str(TIMEOUT_S), "--poll-interval", "1"]
    result = invoke("check", *waiting, "--min-count", "1", *extra)
    assert time.monotonic() - started < GUARD_S
    return result


def test_cursors_that_never_end_are_cut_off_at_the_deadline(endless, invoke) -> None:
    result = run_check(invoke)
    assert result.exit_code == 7, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"Error: timed out after {TIMEOUT_S} s before a poll")
    assert "cut off at the deadline, reading page" in line
    assert "of the pending listing" in line
    pending = [s for s in endless.seen if s.query.get("status") == "pending"]
    assert len(pending) > 1  # it was walking the endless listing when the time was up


def test_a_poll_that_never_gets_an_answer_is_cut_off_at_the_deadline(hanging, invoke) -> None:
    result = run_check(invoke, "--format", "json")
    assert result.exit_code == 7, result.stderr
    waiting = json.loads(result.stdout)["waiting"]
    assert waiting["last_poll_cut_short"] == "page 1 of the pending listing"
    assert waiting["analyses"] is None  # no poll finished: nothing is known to be waited for
    assert len(hanging.seen) == 1  # one request, neither timed out nor retried by then


def test_a_wait_that_had_finished_polls_says_what_it_still_waited_for(against, invoke) -> None:
    polls = count()

    def script(path: str, query: dict[str, str]) -> Reply | Raw:
        if next(polls) < 2:  # the first round: one analysis pending
            rows = [analysis(1, status="pending")] if query.get("status") == "pending" else []
            return page(rows, None, len(rows))
        return Raw(never_answers)

    with ScriptedServer(script) as server:
        against(server.base_url, KEY)
        result = run_check(invoke)
    assert result.exit_code == 7, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert "1 analysis still being scored (1 pending, 0 processing)" in line
    assert line.endswith("cut off at the deadline, reading page 1 of the pending listing")
