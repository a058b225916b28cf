"""Run the command line in-process against a server on a loopback port."""

from __future__ import annotations

from collections.abc import Callable

import pytest


@pytest.fixture
def against(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], None]:
    """Point the CLI at a base URL and key through the environment."""

    def point(base_url: str, key: str) -> None:
        monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", base_url)
        monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", key)

    return point
