"""A connection's network: the profile's proxy and CA bundle as client options, and network
failures put into words that name the profile and the setting that fixes them.

`make_client` (the composition root) builds clients with `client_network`; the command line
and the app word failures with `network_problem`.
"""

from __future__ import annotations

import ssl
from typing import Any

from screen_analysis.api.errors import APIConnectionError, InvalidArgumentError
from screen_analysis.config import Connection
from screen_analysis.safe_text import clean

_CERT_WORDS = ("CERTIFICATE_VERIFY_FAILED", "certificate verify failed")
_PROXY_WORDS = ("proxy", "407", "socks")


def client_network(connection: Connection) -> dict[str, Any]:
    """The client's `proxy` and `verify` options for `connection` ({}: the environment's).

    InvalidArgumentError (named by the profile) when the CA bundle cannot be read.
    """
    options: dict[str, Any] = {}
    if connection.proxy:
        options["proxy"] = connection.proxy
    if connection.ca_bundle:
        try:
            options["verify"] = ssl.create_default_context(cafile=connection.ca_bundle)
        except (OSError, ssl.SSLError) as exc:
            raise InvalidArgumentError(
                f"{connection.label()}: ca_bundle {connection.ca_bundle} cannot be used: {exc}",
                param="ca_bundle",
            ) from None
    return options


def network_problem(error: BaseException, connection: Connection) -> str | None:
    """One line naming the profile and what to set, for a failure the network settings
    explain (an unknown CA, an unreachable proxy); None for any other failure."""
    if not isinstance(error, APIConnectionError):
        return None
    text = _chain_text(error)
    name = clean(connection.label())
    if any(word in text for word in _CERT_WORDS):
        if connection.ca_bundle:
            return f"{name}: certificate verify failed — check ca_bundle ({connection.ca_bundle})"
        return f"{name}: certificate verify failed — set ca_bundle"
    if connection.proxy and any(word in text.lower() for word in _PROXY_WORDS):
        return f"{name}: the proxy {clean(connection.proxy)} failed — check proxy ({text})"
    return None


def _chain_text(error: BaseException) -> str:
    """The messages of `error` and its causes, joined (the TLS reason sits in a cause)."""
    parts: list[str] = []
    seen: BaseException | None = error
    while seen is not None and len(parts) < 6:
        parts.append(str(seen))
        seen = seen.__cause__ or seen.__context__
    return clean(" | ".join(parts))
