"""Run the command line in-process against a server on a loopback port."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from screen_analysis.cli.root import cli

Invoke = Callable[..., Result]


@pytest.fixture
def invoke() -> Invoke:
    """Invoke the CLI with arguments; stdout and stderr kept apart."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return run


@pytest.fixture
def against(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], None]:
    """Point the CLI at a base URL and key through the environment."""

    def point(base_url: str, key: str) -> None:
        monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", base_url)
        monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", key)

    return point
