"""Property: for any data set, page size and filters, the cursor walk over HTTP equals the
full filtered set sorted newest first, computed independently from the generator."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.generator import AnalysisRow, generate_analyses, generate_projects
from screen_analysis.demo.runner import DemoServer

SIZES = (0, 1, 2, 19, 64, 150)
SEEDS = (1, 2)
STATUSES = (None, "pending", "processing", "completed", "failed")


class Fleet:
    """Servers started on first use, one per (size, seed), with their expected data."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.servers: dict[tuple[int, int], tuple[DemoServer, httpx.Client]] = {}

    def get(self, size: int, seed: int) -> tuple[DemoServer, httpx.Client]:
        if (size, seed) not in self.servers:
            server = DemoServer(DemoConfig(analyses=size, seed=seed, now=self.now)).start()
            auth = {"Authorization": f"Bearer {server.api_key}"}
            self.servers[size, seed] = server, httpx.Client(base_url=server.base_url, headers=auth)
        return self.servers[size, seed]

    def close(self) -> None:
        for _, client in self.servers.values():
            client.close()
        # Stopped side by side: each stop waits for uvicorn's shutdown tick.
        with ThreadPoolExecutor() as pool:
            list(pool.map(lambda pair: pair[0].stop(), self.servers.values()))


@pytest.fixture(scope="module")
def fleet(demo_now: datetime) -> Iterator[Fleet]:
    fleet = Fleet(demo_now)
    yield fleet
    fleet.close()


def expected_rows(config: DemoConfig) -> list[AnalysisRow]:
    rng = random.Random(config.seed)
    rows = list(generate_analyses(config, generate_projects(config, rng), rng))
    return sorted(rows, key=lambda r: (r.created_at, r.id), reverse=True)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    size=st.sampled_from(SIZES),
    seed=st.sampled_from(SEEDS),
    page_size=st.integers(1, 100),
    status=st.sampled_from(STATUSES),
    project_pick=st.integers(-1, 7),
)
def test_cursor_walk_equals_the_sorted_filtered_set(
    fleet: Fleet, size: int, seed: int, page_size: int, status: str | None, project_pick: int
) -> None:
    server, client = fleet.get(size, seed)
    projects = server.store.projects()
    project_id = None if project_pick < 0 else projects[project_pick].id
    expected = [
        row.id
        for row in expected_rows(server.config)
        if (project_id is None or row.project_id == project_id)
        and (status is None or row.status == status)
    ]
    params = {k: v for k, v in {"project_id": project_id, "status": status}.items() if v}
    params["limit"] = str(page_size)
    seen: list[str] = []
    pages = 0
    while True:
        body = client.get("/v1/analyses", params=params).json()
        pages += 1
        assert body["total"] == len(expected)
        assert len(body["data"]) <= page_size
        seen.extend(item["id"] for item in body["data"])
        if body["next_cursor"] is None:
            break
        assert len(body["data"]) == page_size
        params["after"] = body["next_cursor"]
    assert seen == expected
    assert pages == max(1, -(-len(expected) // page_size))
