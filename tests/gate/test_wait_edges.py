"""`--wait` against a scripted server whose listings change between rounds: each round's
state word for word (after a failed round, a read one, a round the deadline cut off and
where it stood), `--last N` waiting for the N newest in flight only, and the last round
falling on the deadline. Time is the stepped clock's; a deadline is reached as an event."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from tests.support.clock import SteppedClock
from tests.support.scripted_server import Raw, Reply, ScriptedServer, analysis, page

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.gate import Scope, wait_for_scoring
from screen_analysis.gate.wait import WaitState
from screen_analysis.secret import SecretStr

KEY = "sk-test-wait-edges-not-real"
DOWN = "HTTP 503: server error 503: down"


def row(n: int, status: str, created: str | None = "2026-10-01T12:00:00Z") -> dict[str, Any]:
    return analysis(n, status=status, score=None, completed_at=None, created_at=created)


class World:
    """What the server lists as pending and processing in each round (`round`, moved on by
    the clock's sleeps), a page of `size` rows at a time; a round in `failing` answers 503."""

    def __init__(self, size: int = 100) -> None:
        self.round = 1
        self.size = size
        self.failing: set[int] = set()
        self.pending: dict[int, list[dict[str, Any]]] = {}
        self.processing: dict[int, list[dict[str, Any]]] = {}
        self.on_page: Any = None  # (status, page number) -> Reply | Raw | None

    def script(self, path: str, query: dict[str, str]) -> Reply | Raw:
        if self.round in self.failing:
            return Reply.json({"error": {"message": "down"}}, status=503)
        status = query["status"]
        start = int(query.get("after", "0"))
        if self.on_page is not None:
            special = self.on_page(status, start // self.size + 1)
            if special is not None:
                return special
        listing = (self.pending if status == "pending" else self.processing).get(self.round, [])
        rows = listing[start : start + self.size]
        following = str(start + self.size) if start + self.size < len(listing) else None
        return page(rows, following, len(listing))

    def advance(self, _elapsed: float) -> None:
        self.round += 1


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[list[World], ScriptedServer]]:
    """One server for the module (each stop costs its poll interval); each test its world."""
    current = [World()]
    with ScriptedServer(lambda path, query: current[0].script(path, query)) as running:
        yield current, running


@pytest.fixture
def world(server: tuple[list[World], ScriptedServer]) -> tuple[World, ScriptedServer]:
    current, running = server
    current[0] = World()
    return current[0], running


def client(server: ScriptedServer) -> ScreenAnalysisClient:
    return ScreenAnalysisClient(server.base_url, SecretStr(KEY), max_retries=0)


async def test_last_n_waits_for_the_n_newest_in_flight_only(
    world: tuple[World, ScriptedServer],
) -> None:
    state, server = world
    newest, second = (
        row(1, "pending", "2026-10-05T00:00:00Z"),
        row(4, "processing", "2026-10-04T00:00:00Z"),
    )
    older, undated = row(2, "pending", "2026-10-01T00:00:00Z"), row(3, "pending", None)
    state.pending[1] = [older, undated, newest]
    state.processing[1] = [second]
    state.pending[2] = [older, undated]  # the two newest finished; the older ones go on
    states: list[WaitState] = []
    clock = SteppedClock(on_sleep=state.advance)
    async with client(server) as api:
        outcome = await wait_for_scoring(
            api,
            Scope(label="Screen*", last=2),
            clock=clock,
            timeout=600,
            interval=2,
            on_round=states.append,
        )
    assert (states[0].waiting, states[0].pending, states[0].processing) == (2, 1, 1)
    assert outcome.done and outcome.state.rounds == 2 and clock.sleeps == [2]


async def test_each_rounds_state_after_failed_and_read_rounds(
    world: tuple[World, ScriptedServer],
) -> None:
    state, server = world
    state.size = 2
    state.failing = {1, 3}
    in_flight = [row(1, "pending"), row(2, "pending"), row(3, "pending")]
    state.pending[2] = state.pending[3] = in_flight  # two pages of pending
    state.processing[2] = state.processing[3] = [row(4, "processing")]
    states: list[WaitState] = []
    clock = SteppedClock(on_sleep=state.advance)
    clock.elapsed = 100.0  # a clock that did not start at zero
    async with client(server) as api:
        outcome = await wait_for_scoring(
            api, Scope(), clock=clock, timeout=60, interval=2, on_round=states.append
        )
    read = WaitState(4, 3, 1, 4.0, 60, 2, finished_rounds=1)
    assert states == [
        WaitState(0, 0, 0, 0.0, 60, 1, failed_round=DOWN),
        read,
        read._replace(elapsed=6.0, rounds=3, failed_round=DOWN),
        WaitState(0, 0, 0, 10.0, 60, 4, finished_rounds=2),
    ]
    assert outcome == (True, states[-1])
    assert clock.sleeps == [4, 2, 4]  # a failure after a read round backs off afresh


async def test_the_last_round_falls_on_the_deadline(world: tuple[World, ScriptedServer]) -> None:
    state, server = world
    for number in range(1, 10):
        state.pending[number] = [row(1, "pending")]
    clock = SteppedClock(on_sleep=state.advance)
    async with client(server) as api:
        outcome = await wait_for_scoring(api, Scope(), clock=clock, timeout=10.5, interval=5)
    assert clock.sleeps == [5, 5, 0.5]
    assert outcome.done is False and outcome.state.rounds == 4 and outcome.state.elapsed == 10.5


class DeadlineClock(SteppedClock):
    """A stepped clock whose deadline a test reaches at a moment of its choosing (a
    request it never answers): the block is cut off there, as the real clock does."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.when: float | None = None
        self.timeout: asyncio.Timeout | None = None

    def deadline(self, when: float) -> AbstractAsyncContextManager[object]:
        self.when, self.timeout = when, asyncio.timeout(None)
        return self.timeout

    def reach_deadline(self) -> None:
        assert self.when is not None and self.timeout is not None
        self.elapsed = self.when
        self.timeout.reschedule(asyncio.get_running_loop().time())


@pytest.mark.parametrize(
    ("status", "number", "where"),
    [
        ("pending", 3, "page 3 of the pending listing"),
        ("processing", 1, "page 1 of the processing listing"),
    ],
)
async def test_a_round_cut_off_by_the_deadline_says_where_it_stood(
    world: tuple[World, ScriptedServer], status: str, number: int, where: str
) -> None:
    state, server = world
    state.size = 2
    state.failing = {1}
    state.pending[2] = [row(n, "pending") for n in range(1, 9)]
    clock = DeadlineClock(on_sleep=state.advance)
    clock.elapsed = 100.0  # a clock that did not start at zero
    loop = asyncio.get_running_loop()

    def hang_there(listing: str, page_number: int) -> Raw | None:
        if (listing, page_number) != (status, number):
            return None
        loop.call_soon_threadsafe(clock.reach_deadline)
        return Raw(lambda _connection, stop: stop.wait())  # never answered

    state.on_page = hang_there
    states: list[WaitState] = []
    async with client(server) as api:
        outcome = await wait_for_scoring(
            api, Scope(), clock=clock, timeout=60, interval=2, on_round=states.append
        )
    cut = WaitState(0, 0, 0, 60.0, 60, 2, failed_round="", cut_short=where)
    assert outcome.done is False and outcome.state == cut
    assert states == [WaitState(0, 0, 0, 0.0, 60, 1, failed_round=DOWN), cut]


async def test_an_undated_analysis_is_the_oldest_for_last_n_as_the_gate_counts_it(
    world: tuple[World, ScriptedServer],
) -> None:
    """A server's "zero" time (0001-01-01) beside an analysis with no date: the gate's N
    newest rank the undated one oldest, so the wait must await the dated one."""
    state, server = world
    zero, undated = row(1, "pending", "0001-01-01T00:00:00Z"), row(2, "pending", None)
    state.pending[1] = [zero, undated]
    state.pending[2] = [undated]  # the dated one finished
    clock = SteppedClock(on_sleep=state.advance)
    async with client(server) as api:
        outcome = await wait_for_scoring(api, Scope(last=1), clock=clock, timeout=60, interval=2)
    assert outcome.done and outcome.state.rounds == 2
