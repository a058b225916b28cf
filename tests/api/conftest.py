"""Clients for the API tests: real loopback servers, a recorded sleep instead of waiting."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from tests.api.support import MakeClient, RecordedSleep

from screen_analysis import validation
from screen_analysis.api import models
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


@pytest.fixture
def fresh_validators(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each validator of the test built for it: the resources' schemas (their kinds of
    field, the unknown fields kept) are made again in the test, not taken from an earlier
    test of the same process (nor the names of their documented fields), so what they
    decide is checked each time."""
    monkeypatch.setattr(validation, "_ADAPTERS", {})
    monkeypatch.setattr(models, "_DOCUMENTED", {})


@pytest.fixture
def sleeps() -> RecordedSleep:
    """The delays the client asked to sleep, in order."""
    return RecordedSleep()


@pytest.fixture
async def make_client(sleeps: RecordedSleep) -> AsyncIterator[MakeClient]:
    """Build clients for a server (or a base URL and key); closed after the test.

    Jitter is off (random returns 0) so backoff delays are exact.
    """
    made: list[ScreenAnalysisClient] = []

    def build(
        server: DemoServer | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        **options: Any,
    ) -> ScreenAnalysisClient:
        url = base_url if base_url is not None else server.base_url if server else None
        key = api_key if api_key is not None else server.api_key if server else "k" * 24
        assert url is not None
        options.setdefault("retry", RetryPolicy(sleep=sleeps, random=lambda: 0.0))
        client = ScreenAnalysisClient(url, SecretStr(key), **options)
        made.append(client)
        return client

    yield build
    for client in made:
        await client.aclose()
