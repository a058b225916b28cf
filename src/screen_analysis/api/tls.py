"""The default TLS context, built ahead in a thread.

Reading the CA bundle takes tens of milliseconds, and OpenSSL does it without holding the
interpreter lock: started first thing, it is done while the app imports Textual. The
context is the one httpx would build itself (`httpx.create_ssl_context`, honouring
SSL_CERT_FILE and SSL_CERT_DIR); a profile's own `ca_bundle` never uses it.
"""

from __future__ import annotations

import ssl
import threading
from concurrent.futures import Future

import httpx

_lock = threading.Lock()
_ahead: Future[ssl.SSLContext] | None = None


def build_ahead() -> None:
    """Start building the default context in a thread (once per process)."""
    global _ahead
    with _lock:
        if _ahead is not None:
            return
        _ahead = Future()
    # Not a daemon: a program that ends at once (`--help`) waits the few milliseconds left
    # rather than end while OpenSSL is reading the bundle (which crashed it: OpenSSL's own
    # clean-up at exit ran under the thread).
    threading.Thread(target=_build, args=(_ahead,), name="tls-context", daemon=False).start()


def _build(result: Future[ssl.SSLContext]) -> None:
    try:
        result.set_result(httpx.create_ssl_context(trust_env=True))
    except BaseException as exc:  # handed to whoever asks
        result.set_exception(exc)


def built_ahead() -> ssl.SSLContext | None:
    """The context `build_ahead` started (waiting for it); None when none was started or
    building it failed: the client then builds its own and reports any problem itself."""
    ahead = _ahead
    if ahead is None:
        return None
    try:
        return ahead.result()
    except Exception:  # the client's own attempt says what is wrong
        return None
