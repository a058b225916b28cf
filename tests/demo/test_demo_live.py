"""Live simulation: arrivals and transitions in simulated time, deterministic per seed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import httpx
import pytest
from tests.support.threads import threads_left

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.live import LiveLoop, LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import DemoStore, iter_all

ORDER = {"pending": 0, "processing": 1, "completed": 2, "failed": 2}


@pytest.fixture
def config(demo_now: datetime) -> DemoConfig:
    return DemoConfig(analyses=200, seed=5, now=demo_now)


@pytest.fixture
def store(config: DemoConfig) -> Iterator[DemoStore]:
    store = DemoStore.build(config)
    yield store
    store.close()


def statuses(store: DemoStore) -> dict[str, str]:
    return {item["id"]: item["status"] for item in iter_all(store)}


def test_new_analyses_arrive_pending_then_process_then_finish(
    config: DemoConfig, store: DemoStore
) -> None:
    simulator = LiveSimulator(config, store)
    seeded = statuses(store)
    history: dict[str, list[str]] = {}
    for second in range(1, 121):
        simulator.tick(config.now + timedelta(seconds=second))
        for analysis_id, status in statuses(store).items():
            if analysis_id not in seeded:
                steps = history.setdefault(analysis_id, [])
                if not steps or steps[-1] != status:
                    steps.append(status)
    assert len(history) >= 15  # one arrival every 2 to 6 s
    for steps in history.values():
        assert steps[0] in ("pending", "processing")
        assert [ORDER[s] for s in steps] == sorted(ORDER[s] for s in steps)
    assert any(steps[:3] == ["pending", "processing", "completed"] for steps in history.values())
    finished = [s[-1] for s in history.values() if s[-1] in ("completed", "failed")]
    assert len(finished) >= 10


def test_seeded_in_flight_analyses_finish_too(config: DemoConfig, store: DemoStore) -> None:
    seeded_in_flight = {i for i, s in statuses(store).items() if s in ("pending", "processing")}
    assert seeded_in_flight
    LiveSimulator(config, store).tick(config.now + timedelta(seconds=30))
    after = statuses(store)
    assert all(after[i] in ("completed", "failed") for i in seeded_in_flight)


def test_result_does_not_depend_on_tick_granularity(config: DemoConfig) -> None:
    stepped, jumped = DemoStore.build(config), DemoStore.build(config)
    try:
        fine = LiveSimulator(config, stepped)
        for tenth in range(1, 901):
            fine.tick(config.now + timedelta(seconds=tenth / 10))
        LiveSimulator(config, jumped).tick(config.now + timedelta(seconds=90))
        assert list(iter_all(stepped)) == list(iter_all(jumped))
    finally:
        stepped.close()
        jumped.close()


def test_completed_rows_are_complete_and_stats_follow(config: DemoConfig, store: DemoStore) -> None:
    before = {p.id: store.get_project(p.id) for p in store.projects()}
    LiveSimulator(config, store).tick(config.now + timedelta(minutes=10))
    assert store.tallies() == store.recount()
    grown = 0
    for project in store.projects():
        now, then = store.get_project(project.id), before[project.id]
        assert now is not None and then is not None
        grown += now["analysis_count"] - then["analysis_count"]
    assert grown == store.count_analyses(None, None) - 200 > 90
    for item in iter_all(store):
        if item["status"] == "completed":
            assert item["score"] is not None and item["breakdown"] and item["feedback"]
            assert item["completed_at"] > item["created_at"]


def test_live_loop_ticks_on_an_injected_clock(config: DemoConfig, store: DemoStore) -> None:
    simulator = LiveSimulator(config, store)
    ticks = iter(range(1, 10_000))
    reached = threading.Event()

    def clock() -> datetime:
        step = next(ticks)
        if step > 30:
            reached.set()
        return config.now + timedelta(seconds=step * 2)

    loop = LiveLoop(simulator, 0.001, clock)
    loop.start()
    assert reached.wait(5)
    loop.stop()
    assert simulator.now >= config.now + timedelta(seconds=60)
    assert store.count_analyses(None, None) > 200


def test_server_with_live_on_serves_the_simulation(demo_now: datetime) -> None:
    before = set(threading.enumerate())
    config = DemoConfig(analyses=50, seed=5, now=demo_now, live=True, live_interval_s=60)
    with DemoServer(config) as server:
        assert server.live is not None
        server.live.simulator.tick(demo_now + timedelta(seconds=40))
        headers = {"Authorization": f"Bearer {server.api_key}"}
        body = httpx.get(server.base_url + "/v1/analyses", headers=headers).json()
        assert body["total"] > 50
        assert body["data"][0]["created_at"] > "2026-11-01T12:00:00Z"
    assert threads_left(before) == set()


def test_live_is_off_by_default(demo_server: DemoServer) -> None:
    assert demo_server.live is None
