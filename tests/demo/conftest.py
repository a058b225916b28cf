"""HTTP clients on the reference server, and a cursor walk helper."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from screen_analysis.demo.runner import DemoServer

Walk = Callable[..., list[dict[str, Any]]]


def client_for(server: DemoServer) -> httpx.Client:
    """A plain httpx client with the server's key."""
    return httpx.Client(
        base_url=server.base_url,
        headers={"Authorization": f"Bearer {server.api_key}"},
        timeout=10,
    )


@pytest.fixture(scope="session")
def api(demo_server: DemoServer) -> Iterator[httpx.Client]:
    """A client on the session's reference server."""
    with client_for(demo_server) as client:
        yield client


@pytest.fixture
def fresh_api(fresh_demo_server: DemoServer) -> Iterator[httpx.Client]:
    """A client on a reference server of the test's own."""
    with client_for(fresh_demo_server) as client:
        yield client


def walk_pages(client: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    """Every analysis for `params`, following next_cursor until it is null."""
    items: list[dict[str, Any]] = []
    query = {k: v for k, v in params.items() if v is not None}
    for _ in range(100_000):
        response = client.get("/v1/analyses", params=query)
        assert response.status_code == 200, response.text
        body = response.json()
        items.extend(body["data"])
        if body["next_cursor"] is None:
            return items
        query["after"] = body["next_cursor"]
    raise AssertionError("the cursor walk did not end")


@pytest.fixture(scope="session")
def walk() -> Walk:
    """`walk(client, **params)`: the whole listing through cursors."""
    return walk_pages
