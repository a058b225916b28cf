"""The one key check: a single cheap request that the server answers only for a good key.

Used by `login`, `auth status` and the app's sign-in forms alike; each front end puts the
`KeyProblem` into its own words (an exit code, a line under a form).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from screen_analysis.api.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    InvalidArgumentError,
    ScreenAnalysisError,
)
from screen_analysis.config import Connection

if TYPE_CHECKING:
    from screen_analysis.api.client import ScreenAnalysisClient

ClientFactory = Callable[[Connection], "ScreenAnalysisClient"]
"""Builds the client for a connection (the composition root's one factory)."""


class KeyProblem(StrEnum):
    """Why a key check did not end with "accepted"."""

    REFUSED = "refused"  # 401/403: the key is wrong, revoked or not allowed
    TIMED_OUT = "timed-out"  # the server did not answer in time
    UNREACHABLE = "unreachable"  # no connection (refused, DNS, TLS, proxy)
    INVALID = "invalid"  # refused before sending: the address or key cannot be used
    FAILED = "failed"  # the server answered with another error, or nonsense


class KeyCheckError(Exception):
    """The key was not accepted; `problem` says how, `error` is the client's typed error."""

    def __init__(self, problem: KeyProblem, error: ScreenAnalysisError) -> None:
        super().__init__(str(error))
        self.problem = problem
        self.error = error


def _problem_of(error: ScreenAnalysisError) -> KeyProblem:
    if isinstance(error, AuthenticationError):
        return KeyProblem.REFUSED
    if isinstance(error, APITimeoutError):
        return KeyProblem.TIMED_OUT
    if isinstance(error, APIConnectionError):
        return KeyProblem.UNREACHABLE
    if isinstance(error, InvalidArgumentError):
        return KeyProblem.INVALID
    return KeyProblem.FAILED


async def check_key(connection: Connection, make_client: ClientFactory) -> None:
    """`GET /v1/analyses?limit=1` with the connection's key, through a client from
    `make_client` (closed after); KeyCheckError when the key is not accepted, also when the
    client refuses the address or the key before sending anything."""
    try:
        async with make_client(connection) as client:
            await client.list_analyses(limit=1)
    except ScreenAnalysisError as exc:
        raise KeyCheckError(_problem_of(exc), exc) from None
