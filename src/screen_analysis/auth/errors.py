"""Errors of key resolution and storage; their messages never contain a key."""

from __future__ import annotations

ENV_VAR = "SCREEN_ANALYSIS_API_KEY"
LOGIN_COMMAND = "screen-analysis login"


class AuthError(Exception):
    """Base of the errors raised by `screen_analysis.auth`."""


class InvalidBaseURLError(AuthError, ValueError):
    """The base URL is not an absolute http(s) URL."""


class InsecureTransportError(AuthError):
    """Plain http:// to a host that is not loopback, without the explicit opt-in."""


class KeyringUnavailableError(AuthError):
    """No usable keyring: the message gives the cause and the options, in one line."""

    def __init__(self, cause: str) -> None:
        self.cause = cause
        super().__init__(
            f"No usable keyring: {cause}. Set {ENV_VAR}, or run "
            f"`{LOGIN_COMMAND} --insecure-storage` to keep the key in a file only you can read."
        )


class KeyringStoresNothingError(KeyringUnavailableError):
    """The backend accepted the key but did not give it back when read."""


class InsecureFileError(AuthError):
    """The opt-in key file cannot be read or written safely."""


class NoKeyError(AuthError):
    """No key for the base URL in the environment, the keyring or the opt-in file."""

    def __init__(self, base_url: str, keyring_problem: KeyringUnavailableError | None = None):
        self.base_url = base_url
        self.keyring_problem = keyring_problem
        if keyring_problem is not None:
            message = (
                f"No API key for {base_url}, and no usable keyring: {keyring_problem.cause}. "
                f"Set {ENV_VAR}, or run `{LOGIN_COMMAND} --insecure-storage`."
            )
        else:
            message = f"No API key for {base_url}. Run `{LOGIN_COMMAND}` or set {ENV_VAR}."
        super().__init__(message)
