"""`--wait` headless: polls the reference server while a test moves its live simulation on
with each (instant) sleep; no test waits on real time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config
from tests.support.clock import SteppedClock

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import AuthenticationError, ServerError
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.gate import Scope, wait_for_scoring
from screen_analysis.secret import SecretStr


@pytest.fixture
def server(served: Serve) -> DemoServer:
    return served(demo_config())


def client_for(
    server: DemoServer, key: str | None = None, **options: object
) -> ScreenAnalysisClient:
    return ScreenAnalysisClient(
        server.base_url, SecretStr(key or server.api_key), max_retries=0, **options
    )


def polls(server: DemoServer) -> list[str]:
    return [r.query.get("status", "") for r in server.request_log if r.path == "/v1/analyses"]


async def test_wait_ends_at_the_first_round_after_the_in_flight_finish(server: DemoServer) -> None:
    simulator = LiveSimulator(server.config, server.store)
    awaited = {row.id for row in server.store.in_flight()}
    assert len(awaited) == 6
    finished: list[bool] = []

    def advance(elapsed: float) -> None:
        simulator.tick(DEMO_NOW + timedelta(seconds=elapsed))
        finished.append(not awaited & {row.id for row in server.store.in_flight()})

    clock = SteppedClock(on_sleep=advance)
    async with client_for(server) as client:
        outcome = await wait_for_scoring(client, Scope(), clock=clock, timeout=600, interval=2)
    assert outcome.done
    assert finished.index(True) == len(finished) - 1  # no round after they finished
    assert outcome.state.rounds == len(clock.sleeps) + 1 == len(finished) + 1
    assert clock.sleeps == [2.0] * len(clock.sleeps)
    # Analyses that arrived meanwhile were not waited for; some are still in flight.
    assert server.store.in_flight() and not awaited & {r.id for r in server.store.in_flight()}
    assert polls(server) == ["pending", "processing"] * outcome.state.rounds


async def test_wait_only_for_the_scope(server: DemoServer) -> None:
    rows = server.store.in_flight()
    project = rows[-1].project_id
    mine = {r.id for r in rows if r.project_id == project}
    simulator = LiveSimulator(server.config, server.store)
    finished: list[bool] = []

    def advance(elapsed: float) -> None:
        simulator.tick(DEMO_NOW + timedelta(seconds=elapsed))
        finished.append(not mine & {row.id for row in server.store.in_flight()})

    clock = SteppedClock(on_sleep=advance)
    async with client_for(server) as client:
        outcome = await wait_for_scoring(
            client, Scope(project_id=project), clock=clock, timeout=600, interval=1
        )
    assert outcome.done and finished.index(True) == len(finished) - 1
    queries = [r.query for r in server.request_log if r.path == "/v1/analyses"]
    assert all(q["project_id"] == project for q in queries)


async def test_nothing_in_flight_is_one_round(server: DemoServer) -> None:
    clock = SteppedClock()
    async with client_for(server) as client:
        outcome = await wait_for_scoring(
            client, Scope(label="no such label"), clock=clock, timeout=600, interval=2
        )
    assert outcome.done and outcome.state.rounds == 1 and clock.sleeps == []
    assert polls(server) == ["pending", "processing"]


async def test_the_wait_times_out_on_the_deadline(server: DemoServer) -> None:
    clock = SteppedClock()  # nothing moves on the server
    states = []
    async with client_for(server) as client:
        outcome = await wait_for_scoring(
            client, Scope(), clock=clock, timeout=12, interval=5, on_round=states.append
        )
    assert not outcome.done
    assert clock.sleeps == [5, 5, 2]  # the last round falls on the deadline itself
    assert outcome.state.rounds == 4 and outcome.state.elapsed == 12
    assert (outcome.state.waiting, outcome.state.pending, outcome.state.processing) == (6, 3, 3)
    assert len(states) == 4


async def test_a_429_holds_the_next_round_for_its_retry_after(server: DemoServer) -> None:
    held: list[float] = []

    async def client_sleep(seconds: float) -> None:  # the client's own hold, not waited
        held.append(seconds)

    server.faults.inject(429, {"Retry-After": "20"})
    clock = SteppedClock()
    states = []
    async with client_for(server, retry=RetryPolicy(sleep=client_sleep)) as client:
        outcome = await wait_for_scoring(
            client,
            Scope(label="nothing"),
            clock=clock,
            timeout=600,
            interval=2,
            on_round=states.append,
        )
    assert outcome.done
    assert clock.sleeps == [20]  # not the 2 s interval, nor its 4 s back-off
    assert states[0].failed_round == "rate limited by the server (429)"
    assert held and 0 < held[0] <= 20  # and the client held its next request too


async def test_server_errors_back_off_then_recover(server: DemoServer) -> None:
    server.faults.inject(503, count=2)
    clock = SteppedClock()
    async with client_for(server) as client:
        outcome = await wait_for_scoring(
            client, Scope(label="nothing"), clock=clock, timeout=600, interval=2
        )
    assert outcome.done and clock.sleeps == [4, 8]


async def test_a_server_down_for_over_a_thousand_polls_is_still_waited_for(
    server: DemoServer,
) -> None:
    """The pause was `interval * 2.0**failures`, which overflowed at the 1,024th failed poll
    in a row (a long --timeout against a server that stays down): an OverflowError in place
    of the wait. The one backoff stays at its cap however many polls fail."""
    server.faults.inject(503, count=1_100)
    clock = SteppedClock()
    async with client_for(server) as client:
        outcome = await wait_for_scoring(
            client, Scope(label="nothing"), clock=clock, timeout=30 * 86_400, interval=1
        )
    assert outcome.done
    assert len(clock.sleeps) == 1_100 and set(clock.sleeps[6:]) == {60}


async def test_an_error_still_failing_at_the_deadline_is_raised(server: DemoServer) -> None:
    server.faults.inject(503, count=100)
    clock = SteppedClock()
    async with client_for(server) as client:
        with pytest.raises(ServerError):
            await wait_for_scoring(client, Scope(), clock=clock, timeout=10, interval=2)
    assert clock.elapsed == 10


async def test_a_refused_key_ends_the_wait_at_once(server: DemoServer) -> None:
    clock = SteppedClock()
    async with client_for(server, key="sk-wrong-not-real") as client:
        with pytest.raises(AuthenticationError):
            await wait_for_scoring(client, Scope(), clock=clock, timeout=600, interval=2)
    assert clock.sleeps == []
