"""Addresses as httpx reads them: the API's base URL, an origin, a path on the API's server.

`plain_address.read_plain` gives the same answers without importing httpx for the plain
addresses the first frame shows; this module is the reference (and the answer for the rest).
"""

from __future__ import annotations

import httpx

from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.plain_address import Origin


def check_base_url(value: object) -> httpx.URL:
    """An absolute http(s) URL, without query or fragment; trailing slashes removed."""
    try:
        url = httpx.URL(value) if isinstance(value, str | httpx.URL) else None
    except (httpx.InvalidURL, TypeError, ValueError):
        url = None
    try:
        # Decoded when read: an international name that does not decode ("xn--") fails here.
        host = url.host if url is not None else ""
    except ValueError:
        raise InvalidArgumentError(
            "base URL's host is not a valid international name", param="base_url"
        ) from None
    if url is None or url.scheme not in ("http", "https") or not host:
        raise InvalidArgumentError(
            "base URL must be an absolute http:// or https:// URL", param="base_url"
        )
    if url.userinfo:
        # httpx would turn them into Basic auth, replacing the Bearer key.
        raise InvalidArgumentError(
            "base URL must not carry a user name or password", param="base_url"
        )
    if url.query or url.fragment:
        raise InvalidArgumentError("base URL must not carry a query or fragment", param="base_url")
    return url.copy_with(path=url.path.rstrip("/") or "/")


def origin_of(url: httpx.URL) -> Origin:
    """Scheme, host and port (the default port made explicit)."""
    default = {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host.lower(), url.port or default


def api_path(url: str, base: httpx.URL) -> str | None:
    """`url`'s path and query when it is on `base`'s scheme, host and port; None when it is
    elsewhere or does not parse."""
    try:
        parsed = httpx.URL(url)
        if origin_of(parsed) != origin_of(base):
            return None
    except (httpx.InvalidURL, TypeError, ValueError):
        return None
    return parsed.raw_path.decode("ascii", "replace")
