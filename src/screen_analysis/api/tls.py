"""The certificates a client trusts by default, read once per process.

httpx builds a new SSL context for every client, and loading the CA bundle is most of that
(about 50 ms of CPU). A program that makes a client per profile, per key renewal or per
command pays it each time, for the same file. `default_context` builds the context httpx
would build (SSL_CERT_FILE, else SSL_CERT_DIR, else certifi's bundle) and keeps it while
those settings and the bundle file stay the same; a changed variable or a rewritten bundle
gives a new one.

Sharing one context between clients is what Python's ssl module intends; httpx sets only the
ALPN protocols on it per connection, and every client here speaks HTTP/1.1 alone, so each
sets the same value.
"""

from __future__ import annotations

import functools
import os
import ssl


def default_context() -> ssl.SSLContext:
    """The SSL context of httpx's defaults (`verify=True, trust_env=True`), shared while the
    environment's certificate settings and the bundle's file are unchanged.

    A named bundle that does not exist raises FileNotFoundError, as httpx's would."""
    cert_file = os.environ.get("SSL_CERT_FILE") or None
    cert_dir = None if cert_file else os.environ.get("SSL_CERT_DIR") or None
    if cert_dir is not None:
        return _built(cert_dir, None)
    return _built(None, _signature(cert_file or _certifi_bundle()))


def _certifi_bundle() -> str:
    import certifi  # httpx's own dependency, where httpx finds its default bundle

    return str(certifi.where())


def _signature(path: str) -> tuple[str, int, int]:
    """What tells a rewritten file from the one read: its path, size and change time."""
    status = os.stat(path)
    return (path, status.st_size, status.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _built(cert_dir: str | None, bundle: tuple[str, int, int] | None) -> ssl.SSLContext:
    # What httpx.create_ssl_context does for verify=True with trust_env, from the key alone.
    if bundle is not None:
        return ssl.create_default_context(cafile=bundle[0])
    return ssl.create_default_context(capath=cert_dir)
