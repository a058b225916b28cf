"""Refuse plain http:// to a host that is not loopback before anything is sent."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from screen_analysis.auth.errors import InsecureTransportError


def is_loopback_host(host: str) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address)."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def check_transport(base_url: str, *, allow_insecure_http: bool = False) -> None:
    """Raise InsecureTransportError for http:// to a non-loopback host unless allowed.

    The key travels in a header: over plain HTTP anyone on the path can read it.
    """
    parts = urlsplit(base_url)
    if parts.scheme.lower() != "http" or allow_insecure_http:
        return
    host = parts.hostname or ""
    if is_loopback_host(host):
        return
    raise InsecureTransportError(
        f"Refusing to send the API key over plain HTTP to {host}: use https://, "
        "or pass --allow-insecure-http if you trust every network in between."
    )
