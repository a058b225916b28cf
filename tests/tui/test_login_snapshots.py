"""How the login screen looks, at 80×24 and 120×40.

Regenerate with `uv run pytest tests/tui --snapshot-update` and look at the result.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from screen_analysis.auth import KeyringUnavailableError
from screen_analysis.auth.connection import NotConnected, Reason
from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.tui.screens.login import LoginScreen

from .conftest import answered, settled, wait_until, workers_done
from .test_login import login_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Compare = Callable[..., bool]
EXAMPLE = "https://api.example.com"
NO_DBUS = KeyringUnavailableError(
    "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set, as is usual over SSH), "
    "so no Secret Service"
)


class Forward(httpx.AsyncBaseTransport):
    """Sends requests for any address to `target`, so no port number reaches a snapshot."""

    def __init__(self, target: str) -> None:
        self._target = httpx.URL(target)
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(
            scheme=self._target.scheme, host=self._target.host, port=self._target.port
        )
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def typed_key(pilot: Pilot[Any]) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LoginScreen))
    await pilot.press(*"sk-live-typed-but-hidden")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_login(snap_compare: Compare, tmp_path: Path, size: Any) -> None:
    app = login_app(tmp_path, EXAMPLE, start_demo=lambda: None)
    assert snap_compare(app, terminal_size=size, run_before=typed_key)


@pytest.mark.parametrize("size", SIZES)
def test_login_without_a_keyring(snap_compare: Compare, tmp_path: Path, size: Any) -> None:
    why = NotConnected(Reason.NO_KEYRING, "", EXAMPLE, keyring_problem=str(NO_DBUS))
    app = login_app(tmp_path, EXAMPLE, why)
    assert snap_compare(app, terminal_size=size, run_before=typed_key)


@pytest.mark.parametrize("size", SIZES)
def test_login_after_a_refused_key(
    snap_compare: Compare, tmp_path: Path, fresh_demo_server: DemoServer, size: Any
) -> None:
    server = fresh_demo_server
    connection = Connection(EXAMPLE, SecretStr(server.api_key), key_source="keyring")
    app = login_app(tmp_path, EXAMPLE, connection, transport=Forward(server.base_url))

    async def refuse(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        await workers_done(pilot)  # the start's side reads would take the refusal
        await answered(pilot, server)
        server.faults.inject(401)
        await pilot.press("end")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, LoginScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=refuse)
