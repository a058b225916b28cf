"""Where the API key comes from: the environment, then the keyring, then the opt-in file."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import ENV_VAR, KeyringUnavailableError, NoKeyError
from screen_analysis.auth.file_store import InsecureFileStore
from screen_analysis.auth.keystore import KeyStore
from screen_analysis.secret import SecretStr


class KeySource(StrEnum):
    """Where a resolved key was found."""

    ENV = "env"
    KEYRING = "keyring"
    FILE = "file"


class ResolvedKey(NamedTuple):
    """A key and where it came from; unpacks as `(api_key, source)`."""

    api_key: SecretStr
    source: KeySource


def env_api_key(environ: Mapping[str, str] | None = None) -> SecretStr | None:
    """SCREEN_ANALYSIS_API_KEY, stripped, or None when unset or blank."""
    value = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    return SecretStr(value) if value else None


def resolve_api_key(
    base_url: str,
    *,
    environ: Mapping[str, str] | None = None,
    keystore: KeyStore | None = None,
    file_store: InsecureFileStore | None = None,
) -> ResolvedKey:
    """The key for `base_url`: SCREEN_ANALYSIS_API_KEY, else the keyring entry for the
    normalised base URL, else the opt-in file (which warns). Raises NoKeyError, whose
    message names `screen-analysis login` and SCREEN_ANALYSIS_API_KEY (and the keyring's
    problem when there was one), or InsecureFileError for an unsafe key file.

    Blocking for up to the keyring timeout: call it from a worker thread in the TUI.
    """
    url = normalise_base_url(base_url)
    from_env = env_api_key(environ)
    if from_env is not None:
        return ResolvedKey(from_env, KeySource.ENV)
    keyring_problem: KeyringUnavailableError | None = None
    try:
        stored = (keystore or KeyStore(environ=environ)).get(url)
    except KeyringUnavailableError as exc:
        keyring_problem = exc
    else:
        if stored is not None:
            return ResolvedKey(stored, KeySource.KEYRING)
    from_file = (file_store or InsecureFileStore()).get(url)
    if from_file is not None:
        return ResolvedKey(from_file, KeySource.FILE)
    raise NoKeyError(url, keyring_problem)


async def aresolve_api_key(
    base_url: str,
    *,
    environ: Mapping[str, str] | None = None,
    keystore: KeyStore | None = None,
    file_store: InsecureFileStore | None = None,
) -> ResolvedKey:
    """`resolve_api_key` in a worker thread, so an event loop never waits on the keyring."""
    return await asyncio.to_thread(
        resolve_api_key, base_url, environ=environ, keystore=keystore, file_store=file_store
    )
