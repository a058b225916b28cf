"""The reliability matrix: the app and the command line against broken servers.

Helpers build the app as the composition root does (with a chosen client), run the command
line in-process with short timeouts, and read what the app shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from tests.support import apps
from tests.tui.conftest import (
    connection_to,
    main_screen,
    settled,
    utc_local_time,
    wait_until,
)
from textual.app import App
from textual.widgets import Static

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.auth.connection import NotConnected
from screen_analysis.cli import root
from screen_analysis.config import Connection
from screen_analysis.secret import SecretStr
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.widgets.analysis_detail import DetailText
from screen_analysis.tui.widgets.table import AnalysesTable

__all__ = [
    "KEY",
    "connection_to",
    "main_screen",
    "settled",
    "utc_local_time",
    "wait_until",
]

KEY = "sk-reliability-0123456789abcdef"
SHORT = Timeouts(connect=2.0, read=1.0, write=2.0, pool=2.0, total=2.5)
FAST_RETRY = RetryPolicy(initial_delay=0.05, max_delay=0.2)


def scripted_connection(base_url: str, key: str = KEY) -> Connection:
    """A connection to a scripted server with the suite's key."""
    return Connection(base_url, SecretStr(key), key_source="env")


def build_app(
    tmp_path: Path, connection: Connection | NotConnected | None, **options: Any
) -> ScreenAnalysisApp:
    """The one factory's app with this suite's defaults: short timeouts, no retries, and no
    auto-refresh unless asked for, so request counts are the paging's own."""
    options.setdefault("timeout", SHORT)
    options.setdefault("refresh_interval", 0.0)
    return apps.build_app(tmp_path, connection, **options)


def table_text(table: AnalysesTable) -> str:
    """Every line the table renders now, as text."""
    return "\n".join(table.render_line(y).text for y in range(table.size.height))


def widget_texts(app: App[Any]) -> str:
    """The text of every Static, detail text and pane title on the current screen (and its
    ancestors' screens)."""
    parts = []
    for screen in app.screen_stack:
        for widget in screen.query(Static):
            parts.append(str(widget.render()))
        for text in screen.query(DetailText):
            parts.append(text.text)
        for node in screen.query("*"):
            if node.border_title:
                parts.append(str(node.border_title))
    return "\n".join(parts)


CliRun = Callable[..., Result]


@pytest.fixture
def cli_run(monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRun]:
    """Run the command line in-process against `base_url` with the suite's key.

    The CLI's client gets short timeouts and fast retries (the count of retries unchanged),
    so failure cases finish in about a second.
    """

    def make_client(self: root.CliContext) -> ScreenAnalysisClient:
        conn = self.connection()
        return ScreenAnalysisClient(conn.base_url, conn.api_key, timeout=SHORT, retry=FAST_RETRY)

    monkeypatch.setattr(root.CliContext, "make_client", make_client)
    runner = CliRunner()

    def run(base_url: str, *args: str, key: str = KEY, columns: int = 160) -> Result:
        env = {
            "SCREEN_ANALYSIS_BASE_URL": base_url,
            "SCREEN_ANALYSIS_API_KEY": key,
            "COLUMNS": str(columns),
        }
        return runner.invoke(root.cli, list(args), env=env, catch_exceptions=False)

    yield run
