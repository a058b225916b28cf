"""Fixtures for the cache's tests: a reference server with a recognisable key, and pages
of its listing as the app would have loaded them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import demo_config

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import AnalysisItem
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

FAKE_KEY = "sk-test-cache-NEVER-STORED-123"
TABLES = ("scopes", "analyses", "views", "view_rows", "projects", "totals", "keys")


def rows_in_file(path: Path) -> dict[str, int]:
    """How many rows each table of the file holds, read without the app's code."""
    db = sqlite3.connect(path)
    try:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        db.close()


@pytest.fixture(scope="module")
def keyed_server() -> Iterator[DemoServer]:
    """A reference server whose key is a recognisable fake one."""
    with DemoServer(demo_config(api_key=FAKE_KEY)) as server:
        yield server


def pages(
    server: DemoServer, count: int, **filters: object
) -> list[tuple[list[AnalysisItem], int | None, bool]]:
    """The first `count` pages of a listing: (items, total, done) each."""

    async def fetch() -> list[tuple[list[AnalysisItem], int | None, bool]]:
        client = ScreenAnalysisClient(server.base_url, SecretStr(server.api_key))
        found = []
        async with client, client.iter_pages(limit=50, **filters) as walk:  # type: ignore[arg-type]
            async for page in walk:
                found.append((list(page.items), page.total, page.next_cursor is None))
                if len(found) == count:
                    break
        return found

    return asyncio.run(fetch())


class Clock:
    """The time the test says it is."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


WRITES_SCOPE = CacheScope("https://writes.example.test", "work")


@pytest.fixture
def clock() -> Clock:
    """The time a test of the writes says it is (1,000 s after the epoch to start)."""
    return Clock()


@pytest.fixture
def opened(tmp_path: Path, clock: Clock) -> Iterator[Callable[..., LocalCache]]:
    """Open caches on one file with the test's clock; each closed at the end, passed or not
    (a writer thread left running would hold the test process open)."""
    made: list[LocalCache] = []

    def open_one(**options: Any) -> LocalCache:
        made.append(LocalCache(WRITES_SCOPE, path=tmp_path / "c.sqlite3", clock=clock, **options))
        return made[-1]

    yield open_one
    for cache in made:
        cache.close()
