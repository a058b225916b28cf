"""Redirects are followed by hand, and only within the origin the key was meant for.

httpx already drops Authorization on a cross-origin redirect; refusing such a redirect
outright also keeps the request (and its query) from going somewhere the user did not name.
"""

from __future__ import annotations

import httpx

from screen_analysis.api.errors import InvalidResponseError, RedirectError

MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    default = {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host, url.port or default


def redirect_target(response: httpx.Response, current: httpx.URL, request: str) -> httpx.URL:
    """Where a redirect leads, if it stays on the same scheme, host and port; else an error."""
    location = response.headers.get("location")
    if not location:
        raise InvalidResponseError(
            f"redirect {response.status_code} without a Location",
            request=request,
            status_code=response.status_code,
        )
    # A Location httpx cannot read never comes here: its send refuses it first, as a
    # protocol error (a connection error: "response cut short (Invalid URL …)").
    target = current.join(location)
    if _origin(target) != _origin(current):
        port = f":{target.port}" if target.port else ""
        raise RedirectError(
            f"to another origin ({target.scheme}://{target.host}{port}) not followed, "
            "so the key is not sent there",
            request=request,
            status_code=response.status_code,
        )
    return target
