"""Signing in from the app: check a key with one request, then keep it (headless).

The screens that ask for a key (login, welcome) share this flow; the composition root
supplies how a key is stored (`SaveKey`), so the app never touches the keyring itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    InvalidArgumentError,
    ScreenAnalysisError,
)
from screen_analysis.auth.errors import KeyringUnavailableError
from screen_analysis.config import ConfigError, Connection, save_config_values
from screen_analysis.safe_text import clean

ClientFactory = Callable[[Connection], ScreenAnalysisClient]
SaveKey = Callable[[Connection], Awaitable[None]]
"""Stores a checked key for its base URL; raises KeyringUnavailableError when it cannot."""

SESSION_ONLY = "Signed in for this session only (the key stays in memory)."


class SignInError(Exception):
    """The key was not accepted, or could not be checked; the message says what to do."""


class SignIn:
    """Check a key with `GET /v1/analyses?limit=1`, then store it with `save_key` and make
    its base URL the configured default. Messages never contain the key."""

    def __init__(
        self, make_client: ClientFactory, save_key: SaveKey | None, config_path: Path | None
    ) -> None:
        """Clients come from `make_client`; without `save_key` keys live for the session."""
        self._make_client = make_client
        self._save_key = save_key
        self._config_path = config_path

    @property
    def can_store(self) -> bool:
        """Whether accepted keys are kept beyond this session."""
        return self._save_key is not None

    async def check(self, connection: Connection) -> None:
        """One cheap request with the key; SignInError with advice when it is not accepted."""
        try:
            async with self._make_client(connection) as client:
                await client.list_analyses(limit=1)
        except AuthenticationError as exc:
            raise SignInError(
                "The server refused this key ("
                + _detail(exc, connection)
                + "). Check it and try again; nothing was stored."
            ) from None
        except APITimeoutError as exc:
            raise SignInError(
                "The server at "
                + clean(connection.base_url)
                + " did not answer in time ("
                + _detail(exc, connection)
                + "). Try again."
            ) from None
        except APIConnectionError as exc:
            raise SignInError(
                "Cannot reach the server at "
                + clean(connection.base_url)
                + " ("
                + _detail(exc, connection)
                + "). Is it running, and is the address right?"
            ) from None
        except InvalidArgumentError as exc:
            raise SignInError(_detail(exc, connection)) from None
        except ScreenAnalysisError as exc:
            raise SignInError(
                "The key could not be checked: " + _detail(exc, connection) + ". Try again."
            ) from None

    async def store(self, connection: Connection) -> tuple[Connection, str]:
        """Keep a checked key: the connection to go on with, and a note when the key could
        not be stored (the keyring's one-line cause and the options; session only)."""
        notes: list[str] = []
        if self._config_path is not None:
            try:
                await asyncio.to_thread(
                    save_config_values, self._config_path, base_url=connection.base_url
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


def _detail(error: ScreenAnalysisError, connection: Connection) -> str:
    """The error in a line, cleaned, with the key taken out should a server echo it."""
    text = clean(str(error))
    secret = connection.api_key.get_secret_value()
    return text.replace(secret, "[redacted]") if len(secret) >= 4 else text
