"""The default TLS context, built ahead in a thread.

Reading the CA bundle takes tens of milliseconds, and OpenSSL does it without holding the
interpreter lock: started first thing, it is done while the app imports Textual. The
context is the one httpx would build itself (`httpx.create_ssl_context`, honouring
SSL_CERT_FILE and SSL_CERT_DIR); a profile's own `ca_bundle` never uses it.
"""

from __future__ import annotations

import atexit
import contextlib
import ssl
import threading
from concurrent.futures import Future

import httpx

EXIT_WAIT_S = 5.0  # a CA bundle on a hung network file system does not hold the exit longer
_lock = threading.Lock()
_ahead: Future[ssl.SSLContext] | None = None


def build_ahead() -> None:
    """Start building the default context in a daemon thread (once per process)."""
    global _ahead
    with _lock:
        if _ahead is not None:
            return
        _ahead = Future()
    # A program that ends at once (`--help`) waits for the thread, for a bounded time, rather
    # than end while OpenSSL reads the bundle: OpenSSL's own clean-up at exit then ran under
    # the thread and crashed the process in about a quarter of `--help` runs.
    atexit.register(_wait_at_exit, _ahead)
    threading.Thread(target=_build, args=(_ahead,), name="tls-context", daemon=True).start()


def _wait_at_exit(ahead: Future[ssl.SSLContext]) -> None:
    with contextlib.suppress(Exception):  # a timeout, or the build's own error
        ahead.exception(timeout=EXIT_WAIT_S)


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
