"""Signing in from the app: check a key with one request, then keep it (headless).

The screens that ask for a key (login, welcome) share this flow; the composition root
supplies how a key is stored (`SaveKey`), so the app never touches the keyring itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path

from screen_analysis.auth.connection import with_network
from screen_analysis.auth.errors import KeyringUnavailableError
from screen_analysis.auth.key_check import ClientFactory, KeyCheckError, check_key
from screen_analysis.config import ConfigError, Connection, Settings
from screen_analysis.config_saves import save_base_url
from screen_analysis.problems import explain
from screen_analysis.safe_text import clean
from screen_analysis.secret import SecretStr, redact

SaveKey = Callable[[Connection], Awaitable[None]]
"""Stores a checked key for its base URL; raises KeyringUnavailableError when it cannot."""

SESSION_ONLY = "Signed in for this session only (the key stays in memory)."


class SignInError(Exception):
    """The key was not accepted, or could not be checked; the message says what to do."""


class SignIn:
    """Check a key with `GET /v1/analyses?limit=1`, then store it with `save_key` and make
    its base URL the configured default. Messages never contain the key."""

    def __init__(
        self,
        make_client: ClientFactory,
        save_key: SaveKey | None,
        config_path: Path | None,
        profile: Settings | None = None,
    ) -> None:
        """Clients come from `make_client`; without `save_key` keys live for the session.

        `profile`: the settings of the profile signed in to; its proxy and CA bundle go with
        the key check, and its `[profiles.NAME]` table gets the base URL.
        """
        self._make_client = make_client
        self._save_key = save_key
        self._config_path = config_path
        self._profile = profile

    def session_only(self) -> SignIn:
        """The same check, keeping nothing: the key lives in memory for this session."""
        return SignIn(self._make_client, None, None, self._profile)

    def _stamped(self, connection: Connection) -> Connection:
        """The connection with the profile's name and network settings."""
        return connection if self._profile is None else with_network(connection, self._profile)

    @property
    def can_store(self) -> bool:
        """Whether accepted keys are kept beyond this session."""
        return self._save_key is not None

    async def check(self, connection: Connection) -> None:
        """The one key check; SignInError with advice when the key is not accepted."""
        connection = self._stamped(connection)
        try:
            await check_key(connection, self._make_client)
        except KeyCheckError as exc:
            raise SignInError(sign_in_failure(exc.error, connection.api_key, connection)) from None

    async def store(self, connection: Connection) -> tuple[Connection, str]:
        """Keep a checked key: the connection to go on with, and a note when the key could
        not be stored (the keyring's one-line cause and the options; session only)."""
        connection = self._stamped(connection)
        notes: list[str] = []
        if self._config_path is not None:
            try:
                await asyncio.to_thread(
                    save_base_url, self._config_path, connection.base_url, connection.profile
                )
            except (OSError, ConfigError) as exc:
                notes.append("The base URL was not saved as the default: " + clean(str(exc)) + ".")
        if self._save_key is not None:
            try:
                await self._save_key(connection)
            except KeyringUnavailableError as exc:
                notes += [str(exc), SESSION_ONLY]
            else:
                connection = dataclasses.replace(connection, key_source="keyring")
        return connection, " ".join(notes)


def sign_in_failure(
    error: BaseException, api_key: SecretStr | str, connection: Connection | None = None
) -> str:
    """A sign-in failure as the line under the form: explained by the one `explain` (for
    the key just typed), with that key cut out should anything echo it."""
    problem = explain(error, connection=connection, signing_in=True)
    return redact(problem.sentence(), [api_key])
