"""Helpers shared by the API tests."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.demo.runner import DemoServer

MakeClient = Callable[..., ScreenAnalysisClient]


class RecordedSleep:
    """Stands in for asyncio.sleep: remembers each delay, returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


class RecordingTransport(httpx.AsyncHTTPTransport):
    """The real network transport, remembering each request it sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        return await super().handle_async_request(request)


def api_requests(server: DemoServer) -> list[Any]:
    """The /v1 requests the server has logged so far."""
    return [r for r in server.request_log if r.path.startswith("/v1/")]


async def answered(server: DemoServer, timeout: float = 10.0) -> None:
    """Wait until the server has answered every request it received."""
    deadline = time.monotonic() + timeout
    while server.requests_in_flight:
        assert time.monotonic() < deadline, "the server is still answering"
        await asyncio.sleep(0.01)


async def logged_requests(server: DemoServer, expected: int) -> list[Any]:
    """The /v1 requests once `expected` are logged and every request is answered (each is
    logged before its answer goes out, so the log is whole once the server is idle)."""
    deadline = time.monotonic() + 10.0
    while len(api_requests(server)) < expected and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    await answered(server)
    return api_requests(server)


async def no_requests_since(server: DemoServer, before: int) -> bool:
    """Whether no /v1 request was logged after the first `before`, once the server is idle."""
    await answered(server)
    return len(api_requests(server)) == before


def pydantic_loaded_by(code: str) -> list[str]:
    """The pydantic modules a fresh interpreter holds once `code` has run (and ended well):
    what a reader that should not need pydantic brought in."""
    script = (
        f"{code}\nimport json, sys\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('pydantic'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded
