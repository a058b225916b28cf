"""Fixtures for the cache's tests: a reference server with a recognisable key, and pages
of its listing as the app would have loaded them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from tests.conftest import demo_config

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.models import AnalysisItem
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

FAKE_KEY = "sk-test-cache-NEVER-STORED-123"


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
