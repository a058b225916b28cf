"""The scope watch and its book, headless, against the reference server: the live
simulation moves on with each (instant) sleep of a stepped clock; no test waits on time."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import timedelta

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config
from tests.support.clock import SteppedClock

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.browse.scope_watch import ScopeWatch, WatchEnd, run_watch
from screen_analysis.browse.watch import Ask, EventKind, WatchBook, WatchEvent
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


@pytest.fixture
def server(served: Serve) -> DemoServer:
    return served(demo_config())


async def instant(seconds: float) -> None:
    return None


def client_for(server: DemoServer) -> ScreenAnalysisClient:
    # The client's own hold after a 429 sleeps through `instant`: no test waits on time.
    return ScreenAnalysisClient(
        server.base_url, SecretStr(server.api_key), max_retries=0, retry=RetryPolicy(sleep=instant)
    )


def listings(server: DemoServer) -> int:
    return sum(r.path == "/v1/analyses" for r in server.request_log)


async def test_until_done_ends_at_the_first_round_after_the_last_in_flight_finishes(
    server: DemoServer,
) -> None:
    simulator = LiveSimulator(server.config, server.store)
    awaited = {row.id for row in server.store.in_flight()}
    assert awaited
    finished: list[bool] = []
    per_round: list[int] = []

    def advance(elapsed: float) -> None:
        simulator.tick(DEMO_NOW + timedelta(seconds=elapsed))
        finished.append(not awaited & {row.id for row in server.store.in_flight()})
        per_round.append(listings(server))

    said: list[WatchEvent] = []

    async def on_events(events: Sequence[WatchEvent]) -> None:
        said.extend(events)

    clock = SteppedClock(on_sleep=advance)
    async with client_for(server) as client:
        watch = ScopeWatch(client)
        outcome = await run_watch(
            watch, clock=clock, interval=2, on_events=on_events, until_done=True
        )
    assert outcome.end is WatchEnd.DONE
    # Within one interval: the round right after the sleep in which the last one finished.
    assert finished.index(True) == len(finished) - 1
    assert clock.sleeps == [2.0] * len(clock.sleeps)
    ended = {e.analysis.id: e for e in said if e.kind in (EventKind.COMPLETED, EventKind.FAILED)}
    assert awaited <= ended.keys()
    for event in ended.values():
        assert event.analysis.completed_at is not None
        if event.kind is EventKind.COMPLETED:
            assert event.analysis.score is not None
    # Arrivals meanwhile were said as created, and not waited for.
    assert any(e.kind is EventKind.CREATED for e in said)
    # The budget: three requests for the baseline, then at most two a round.
    counts = [per_round[0], *(b - a for a, b in itertools.pairwise(per_round))]
    assert counts[0] == 3
    assert all(count <= 2 for count in counts[1:])
    assert listings(server) - per_round[-1] <= 2


async def test_a_timed_out_watch_says_what_is_still_awaited(server: DemoServer) -> None:
    awaited = {row.id for row in server.store.in_flight()}
    clock = SteppedClock()  # nothing moves on

    async def on_events(events: Sequence[WatchEvent]) -> None:
        raise AssertionError(f"no change expected: {events}")

    async with client_for(server) as client:
        outcome = await run_watch(
            ScopeWatch(client),
            clock=clock,
            interval=5,
            on_events=on_events,
            until_done=True,
            timeout=12,
        )
    assert outcome.end is WatchEnd.TIMED_OUT
    assert outcome.waiting == awaited
    assert sum(clock.sleeps) == 12  # the last sleep falls on the deadline itself


async def test_a_rate_limited_round_waits_as_long_as_retry_after_says(server: DemoServer) -> None:
    server.faults.inject(429, {"Retry-After": "45"}, count=1)
    failures: list[float] = []
    clock = SteppedClock()

    async def on_events(events: Sequence[WatchEvent]) -> None:
        return None

    async with client_for(server) as client:
        await run_watch(
            ScopeWatch(client),
            clock=clock,
            interval=5,
            on_events=on_events,
            timeout=60,
            on_failure=lambda exc, pause: failures.append(pause),
        )
    assert failures == [45.0]
    assert clock.sleeps[0] == 45.0 and clock.sleeps[1] == 5.0


async def test_errors_back_off_through_the_one_backoff(server: DemoServer) -> None:
    server.faults.inject(503, count=3)
    pauses: list[float] = []

    async def on_events(events: Sequence[WatchEvent]) -> None:
        return None

    async with client_for(server) as client:
        await run_watch(
            ScopeWatch(client),
            clock=SteppedClock(),
            interval=5,
            on_events=on_events,
            timeout=100,
            on_failure=lambda exc, pause: pauses.append(pause),
        )
    assert pauses == [10.0, 20.0, 40.0]


def test_the_book_asks_one_page_whatever_is_watched() -> None:
    book = WatchBook()
    assert book.due() is None
    for n in range(100):
        assert book.watch(f"ana_{n}", "pending", None if n < 50 else "cur_b")
    assert book.due() == Ask(None)  # most of them, none waited yet
    book.seen([], Ask(None), next_cursor="cur_a")  # not on the first page: further down
    assert book.due() == Ask("cur_b")  # those not looked for since: their turn
    book.seen([], Ask("cur_b"), next_cursor="cur_c")
    assert book.due() == Ask("cur_a")
    assert not book.watch("ana_done", "completed")  # finished already: nothing to watch


def test_a_full_book_refuses_more() -> None:
    book = WatchBook(limit=2)
    assert book.watch("a", "pending") and book.watch("b", "pending")
    assert not book.watch("c", "pending")
    assert book.watch("a", "processing")  # already watched: updated
