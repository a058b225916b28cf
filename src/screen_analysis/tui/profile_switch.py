"""Switching profiles in a running app: the new connection is resolved and checked first
(the one resolver, the one key check), and only a connection that works replaces the old one;
a profile without a usable key opens the login screen for it.

A part the app composes (`ScreenAnalysisApp.profile_switch`); the palette lists its
`targets()`. Everything that waits runs in one named worker (group `switch-profile`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any, Protocol

from screen_analysis.api.describe import describe_error
from screen_analysis.auth.connection import NotConnected, resolve_connection
from screen_analysis.auth.key_check import ClientFactory, KeyCheckError, KeyProblem, check_key
from screen_analysis.auth.network import network_problem
from screen_analysis.config import (
    ConfigError,
    Connection,
    Settings,
    profiles_in,
    settings_for_profile,
)
from screen_analysis.safe_text import clean
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.sign_in import SaveKey, SignIn


class SwitchHost(Protocol):
    """What a profile switch needs of the app: its settings and client factory, a way to
    browse a checked connection, and its dialogs, notifications and workers."""

    settings: Settings
    make_client: ClientFactory
    save_key: SaveKey | None

    def browse(self, connection: Connection, settings: Settings | None = None) -> Awaitable[None]:
        """Show the main screen for `connection` with the profile's `settings`."""

    def notify(self, message: str, *, severity: Any = ..., markup: bool = ...) -> None:
        """One notification."""

    def push_screen(self, screen: Any, callback: Any = ...) -> Any:
        """Push a screen; `callback` gets what it is dismissed with."""

    def run_worker(
        self,
        work: Callable[[], Coroutine[Any, Any, Any]],
        *,
        group: str = ...,
        exclusive: bool = ...,
        exit_on_error: bool = ...,
    ) -> Any:
        """Run `work` (an async function) in a named worker."""


class ProfileSwitcher:
    """Switch the app to another `[profiles.NAME]` without restarting."""

    def __init__(self, app: SwitchHost) -> None:
        """Switch `app` (the running app)."""
        self._app = app

    def targets(self) -> tuple[str, ...]:
        """The profiles one can switch to: every one the config names (read again, so a
        profile added since the start is offered) but the current."""
        settings = self._app.settings
        try:
            names = profiles_in(settings.config_path)
        except ConfigError:
            names = settings.profiles  # a damaged file: what it named when last read
        return tuple(name for name in names if name != settings.profile)

    def switch(self, name: str) -> None:
        """Resolve, check and open profile `name` (the current view stays until it works)."""
        self._app.run_worker(
            partial(self._switch, name),
            group="switch-profile",
            exclusive=True,
            exit_on_error=False,
        )

    def _say(self, text: str, severity: str = "error") -> None:
        self._app.notify(text, severity=severity, markup=False)

    async def _switch(self, name: str) -> None:
        shown = clean(name)
        try:
            settings = await asyncio.to_thread(settings_for_profile, self._app.settings, name)
        except (ConfigError, OSError) as exc:
            self._say(f"{shown}: {clean(str(exc))}")
            return
        found = await asyncio.to_thread(resolve_connection, settings)
        if isinstance(found, NotConnected):
            if found.reason.is_usage:
                self._say(f"{shown}: {clean(found.message)}")
            else:
                self._ask_key(settings, found.base_url or "", found.keyring_problem)
            return
        self._say(f"Checking {shown}…", "information")
        try:
            await check_key(found, self._app.make_client)
        except KeyCheckError as exc:
            if exc.problem is KeyProblem.REFUSED:
                self._ask_key(settings, found.base_url, "The server refused the stored key.")
                return
            detail = network_problem(exc.error, found)
            self._say(detail or describe_error(exc.error, prefix=shown))
            return
        await self._app.browse(found, settings)

    def _ask_key(self, settings: Settings, base_url: str, message: str) -> None:
        """The login screen for the profile (its URL fixed; Esc keeps the current view)."""
        app = self._app
        sign_in = SignIn(app.make_client, app.save_key, settings.config_path, settings)
        label = clean(settings.profile or base_url)
        screen = LoginScreen(
            sign_in,
            base_url=base_url,
            message=message,
            allow_insecure_http=settings.allow_insecure_http,
            renewing=True,
            title=f"Sign in to {label}",
        )

        async def signed_in(connection: Connection | None) -> None:
            if connection is not None:
                await app.browse(connection, settings)

        app.push_screen(screen, signed_in)
