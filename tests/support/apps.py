"""The one way the tests, the snapshots and the screenshots script build the app.

As the composition root builds it (`ScreenAnalysisApp(settings, start, projects, ...)`),
with a fixed clock, its config and state files in a folder of the caller's, and a client
whose retries, timeouts and transport the caller chooses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.retry import RetryPolicy
from screen_analysis.api.timeouts import Timeouts
from screen_analysis.auth.connection import NotConnected
from screen_analysis.config import Connection, Settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)  # the app's clock in every test and shot


def demo_connection(server: DemoServer, *, api_key: str | None = None) -> Connection:
    """A connection to `server`, shown as "demo" so no port number reaches a picture."""
    return Connection(
        server.base_url, SecretStr(api_key or server.api_key), key_source="demo", is_demo=True
    )


def build_app(
    folder: Path,
    start: Connection | NotConnected | None,
    *,
    settings: Settings | None = None,
    max_retries: int = 0,
    timeout: Timeouts | None = None,
    retry: RetryPolicy | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], datetime] = lambda: NOW,
    state_file: str = "state.json",
    clients: list[ScreenAnalysisClient] | None = None,
    **options: Any,
) -> ScreenAnalysisApp:
    """The app, its config and state files in `folder` (unless `settings` names others).

    `options` are Settings fields (`projects`, `refresh_interval`, `keymap`, `theme`, …)
    and, where Settings has no such field, the App's own (`graphics`, `start_demo`, …).
    Every client the app makes is appended to `clients` when given.
    """
    fields = {name: value for name, value in options.items() if name in SETTINGS_FIELDS}
    app_options = {name: value for name, value in options.items() if name not in fields}
    state = folder / state_file
    if settings is None:
        settings = Settings(state_path=state, config_path=folder / "config.toml", **fields)
    elif fields:
        settings = settings.with_overrides(**fields)

    def client(connection: Connection) -> ScreenAnalysisClient:
        extra: Mapping[str, Any] = {"timeout": timeout} if timeout is not None else {}
        made = ScreenAnalysisClient(
            connection.base_url,
            connection.api_key,
            max_retries=max_retries,
            retry=retry,
            transport=transport,
            **extra,
        )
        if clients is not None:
            clients.append(made)
        return made

    return ScreenAnalysisApp(
        settings,
        start,
        RememberedProjects(settings.state_path),
        clock=clock,
        make_client=client,
        **app_options,
    )


SETTINGS_FIELDS = frozenset(field.name for field in dataclasses.fields(Settings))
