"""A plain address read without httpx, exactly as httpx reads it.

The detail pane of the first frame shows an image's address as its path when it is on the
API's own server; asking httpx would import it (and its 80 modules) before the first rows.
A *plain* address — http(s), an ASCII host name or IPv4 address, digits for a port, a path
and query of visible ASCII without dot segments, no user, no fragment — is read here with
the same scheme, host, port and path httpx gives it; anything else is not read (None) and
httpx answers (`api.addresses`). tests/api/test_plain_address.py compares both readings
over generated addresses.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple

Origin = tuple[str, str, int | None]
"""Scheme, host and port (the default port made explicit)."""

_DEFAULT_PORTS = {"http": 80, "https": 443}
# Characters httpx keeps as they are in a path and a query (visible ASCII but these).
_PATH = r"[!$-;=@-_a-z|~]"
_QUERY = r"[!$-;=?-~]"
_PLAIN = re.compile(
    rf"(?P<scheme>[A-Za-z]+)://(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>[0-9]{{0,5}}))?"
    rf"(?P<path>/{_PATH}*)?(?:\?(?P<query>{_QUERY}*))?"
)
_IPV4_STYLE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+")


class PlainAddress(NamedTuple):
    """A plain address's origin and its path with the query, as httpx's `raw_path`."""

    origin: Origin
    raw_path: str


def read_plain(url: str) -> PlainAddress | None:
    """`url`'s origin and path as httpx reads them, or None when `url` is not plain."""
    match = _PLAIN.fullmatch(url)
    if match is None:
        return None
    scheme, host = match["scheme"].lower(), match["host"].lower()
    path, query = match["path"] or "/", match["query"]
    if scheme not in _DEFAULT_PORTS or host.startswith("xn--"):
        return None  # another scheme's defaults, or a host httpx decodes (IDNA)
    if _IPV4_STYLE.fullmatch(host) and not _is_ipv4(host):
        return None  # httpx refuses it
    segments = path.split("/")
    if "." in segments or ".." in segments:
        return None  # httpx removes dot segments
    # As `addresses.origin_of`: no port, an empty one or 0 is the scheme's default.
    port = int(match["port"] or 0) or _DEFAULT_PORTS[scheme]
    raw_path = path if query is None else f"{path}?{query}"
    return PlainAddress((scheme, host, port), raw_path)


def _is_ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ipaddress.AddressValueError:
        return False
    return True
