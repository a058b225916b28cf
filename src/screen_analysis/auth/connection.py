"""The one connection resolver: Settings in, a `Connection` or a typed reason why not out.

Flags, environment and config file are already folded into `Settings`; this adds the key
(environment, time-boxed keyring, opt-in file). The address is checked before any key is
looked up, so a refused address never costs a keyring call. Nothing here raises for a
missing piece or prints: the command line maps a `NotConnected` to an exit code and one
line, the app to its login or welcome screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from enum import StrEnum
from typing import NamedTuple

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import (
    InsecureFileError,
    InsecureTransportError,
    InvalidBaseURLError,
    NoKeyError,
)
from screen_analysis.auth.file_store import InsecureFileStore
from screen_analysis.auth.keystore import KeyStore
from screen_analysis.auth.resolve import resolve_api_key
from screen_analysis.auth.transport_policy import check_transport
from screen_analysis.config import Connection, Settings

NO_SERVER_MESSAGE = "no server configured: pass --base-url URL or set SCREEN_ANALYSIS_BASE_URL"


class Reason(StrEnum):
    """Why there is no connection."""

    NO_SERVER = "no-server"  # no base URL anywhere
    BAD_URL = "bad-url"  # not an absolute http(s) URL
    INSECURE_HTTP = "insecure-http"  # plain http:// to another host, not allowed
    NO_KEY = "no-key"  # no key in the environment, the keyring or the opt-in file
    NO_KEYRING = "no-keyring"  # no key found, and the keyring could not be asked
    UNSAFE_KEY_FILE = "unsafe-key-file"  # the opt-in key file is unreadable or unsafe

    @property
    def is_usage(self) -> bool:
        """A problem with what was asked for (the address), not with the key."""
        return self in (Reason.NO_SERVER, Reason.BAD_URL, Reason.INSECURE_HTTP)


class NotConnected(NamedTuple):
    """No connection, and why: `message` is one line naming what to do (never the key).

    `keyring_problem` is the keyring's own line (cause and options) when it could not be
    asked; `base_url` the normalised address when there was a usable one.
    """

    reason: Reason
    message: str
    base_url: str | None = None
    keyring_problem: str = ""


def check_address(url: str, *, allow_insecure_http: bool) -> str | NotConnected:
    """The normalised address if the transport policy allows sending a key to it."""
    try:
        normalised = normalise_base_url(url)
    except InvalidBaseURLError as exc:
        return NotConnected(Reason.BAD_URL, str(exc))
    try:
        check_transport(normalised, allow_insecure_http=allow_insecure_http)
    except InsecureTransportError as exc:
        return NotConnected(Reason.INSECURE_HTTP, str(exc), normalised)
    return normalised


def configured_base_url(settings: Settings) -> str | NotConnected:
    """The configured address, normalised, without the transport check (to forget a key)."""
    if not settings.base_url:
        return NotConnected(Reason.NO_SERVER, NO_SERVER_MESSAGE)
    try:
        return normalise_base_url(settings.base_url)
    except InvalidBaseURLError as exc:
        return NotConnected(Reason.BAD_URL, str(exc))


def resolve_address(settings: Settings) -> str | NotConnected:
    """The configured address, normalised and allowed by the transport policy."""
    if not settings.base_url:
        return NotConnected(Reason.NO_SERVER, NO_SERVER_MESSAGE)
    return check_address(settings.base_url, allow_insecure_http=settings.allow_insecure_http)


def resolve_connection(
    settings: Settings,
    *,
    environ: Mapping[str, str] | None = None,
    keystore: KeyStore | None = None,
    file_store: InsecureFileStore | None = None,
) -> Connection | NotConnected:
    """The server and key to use: the address (checked first), then the key from
    SCREEN_ANALYSIS_API_KEY, the keyring (time-boxed) or the opt-in file (`file_store`
    carries the warning it gives when used).

    Blocking for up to the keyring timeout: an event loop calls it in a worker thread.
    """
    address = resolve_address(settings)
    if isinstance(address, NotConnected):
        return address
    try:
        api_key, source = resolve_api_key(
            address, environ=environ, keystore=keystore, file_store=file_store
        )
    except NoKeyError as exc:
        if exc.keyring_problem is not None:
            return NotConnected(Reason.NO_KEYRING, str(exc), address, str(exc.keyring_problem))
        return NotConnected(Reason.NO_KEY, str(exc), address)
    except InsecureFileError as exc:
        return NotConnected(Reason.UNSAFE_KEY_FILE, str(exc), address)
    return with_network(Connection(address, api_key, key_source=source.value), settings)


def with_network(connection: Connection, settings: Settings) -> Connection:
    """`connection` with the profile's name, proxy and CA bundle from `settings` (a key
    typed into a form starts without them)."""
    return replace(
        connection, profile=settings.profile, proxy=settings.proxy, ca_bundle=settings.ca_bundle
    )
