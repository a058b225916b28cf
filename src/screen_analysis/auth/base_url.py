"""The normalised form of a base URL: one spelling per server, used as the key's name."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from screen_analysis.auth.errors import InvalidBaseURLError

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise_base_url(url: str) -> str:
    """Scheme, host, port and path of `url`: scheme and host lowercased, no trailing slash.

    A default port (80 for http, 443 for https) is dropped, so both spellings name the
    same server; query, fragment and user info are dropped. Raises InvalidBaseURLError.
    """
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidBaseURLError(f"not a valid URL: {text!r} ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise InvalidBaseURLError(f"the base URL must start with https:// or http://: {text!r}")
    host = (parts.hostname or "").lower()
    if not host:
        raise InvalidBaseURLError(f"the base URL has no host: {text!r}")
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal keeps its brackets
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), "", ""))
