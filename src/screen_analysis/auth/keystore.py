"""The OS keyring, time-boxed: a broken or hanging backend becomes one clear error.

Every call runs in a daemon thread and is given up after `timeout` seconds, so a
Secret Service waiting for an unlock prompt nobody sees cannot hang the caller (a
thread left waiting never keeps the process alive). A keyring given up on stays unusable
while that call is still waiting: every later call, from any `KeyStore` of the process,
fails at once with the same cause rather than waiting again (`auth status` over twenty
profiles waits once, not twenty times). The async wrappers run the time-boxed calls in a
worker thread, so they never block an event loop either. `keyring` is imported on first
use: start-up does not pay for backend discovery.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import KeyringStoresNothingError, KeyringUnavailableError
from screen_analysis.safe_text import shorten
from screen_analysis.secret import SecretStr, redact

SERVICE = "screen-analysis"
DEFAULT_TIMEOUT = 3.0
TIMEOUT_ENV_VAR = "SCREEN_ANALYSIS_KEYRING_TIMEOUT"

T = TypeVar("T")

# Calls given up on, by backend (None: stuck finding one): while such a thread still
# waits, that keyring is not asked again.
_stuck: dict[object, threading.Thread] = {}
_stuck_lock = threading.Lock()


def _still_stuck(backend: object) -> bool:
    """Whether a call given up on earlier is still waiting on `backend`."""
    with _stuck_lock:
        earlier = _stuck.get(backend)
        if earlier is not None and not earlier.is_alive():
            del _stuck[backend]
            return False
        return earlier is not None


class _Unusable(Exception):
    """Raised inside the worker for a backend that cannot store anything."""


class KeyStore:
    """One API key per server in the OS keyring: service `screen-analysis`, username the
    normalised base URL. Every method raises KeyringUnavailableError with the cause when
    the keyring cannot be used, and never waits longer than about `timeout` seconds."""

    def __init__(
        self,
        backend: Any = None,
        *,
        timeout: float | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._environ = os.environ if environ is None else environ
        self._backend = backend
        self.timeout = timeout if timeout is not None else _timeout_from(self._environ)

    def __repr__(self) -> str:
        return f"KeyStore(backend={self._backend!r}, timeout={self.timeout:g})"

    def get(self, base_url: str) -> SecretStr | None:
        """The key stored for `base_url`, or None when there is none."""
        user = normalise_base_url(base_url)
        value = self._run(lambda backend: backend.get_password(SERVICE, user))
        return SecretStr(value) if isinstance(value, str) and value else None

    def set(self, base_url: str, api_key: SecretStr) -> None:
        """Store `api_key` for `base_url` and read it back: a backend that keeps nothing
        raises KeyringStoresNothingError (the key is never written anywhere else)."""
        user = normalise_base_url(base_url)
        secret = api_key.get_secret_value()
        self._run(lambda backend: backend.set_password(SERVICE, user, secret), secret=secret)
        stored = self._run(lambda backend: backend.get_password(SERVICE, user), secret=secret)
        if stored != secret:
            what = "nothing" if stored is None else "a different value"
            raise KeyringStoresNothingError(
                f"the keyring backend {self.backend_name()} accepted the key "
                f"but gave back {what} when read"
            )

    def delete(self, base_url: str) -> bool:
        """Remove the key stored for `base_url`; False when there was none."""
        user = normalise_base_url(base_url)

        def remove(backend: Any) -> bool:
            from keyring.errors import PasswordDeleteError

            try:
                backend.delete_password(SERVICE, user)
            except PasswordDeleteError:
                return False
            return True

        return self._run(remove)

    def check(self, base_url: str) -> None:
        """Raise KeyringUnavailableError unless the keyring answers a read for `base_url`."""
        self.get(base_url)

    def backend_name(self) -> str:
        """A readable name of the backend in use (resolving it if needed)."""
        backend = self._run(lambda backend: backend)
        return str(getattr(type(backend), "name", type(backend).__name__))

    async def aget(self, base_url: str) -> SecretStr | None:
        """`get` without blocking the event loop."""
        return await self._in_thread(self.get, base_url)

    async def aset(self, base_url: str, api_key: SecretStr) -> None:
        """`set` without blocking the event loop."""
        await self._in_thread(self.set, base_url, api_key)

    async def adelete(self, base_url: str) -> bool:
        """`delete` without blocking the event loop."""
        return await self._in_thread(self.delete, base_url)

    async def acheck(self, base_url: str) -> None:
        """`check` without blocking the event loop."""
        await self._in_thread(self.check, base_url)

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        # Each sync call is time-boxed already; the outer bound covers set's two calls.
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), 2 * self.timeout + 1)
        except TimeoutError:
            raise KeyringUnavailableError(self._timeout_cause()) from None

    def _resolve_backend(self) -> Any:
        if self._backend is None:
            import keyring

            self._backend = keyring.get_keyring()
        backend = self._backend
        refusal = _refusal(backend, self._environ)
        if refusal:
            raise _Unusable(refusal)
        return backend

    def _run(self, action: Callable[[Any], T], *, secret: str | None = None) -> T:
        """Run `action(backend)` in a daemon thread, given up after `self.timeout`."""
        import keyring.errors  # imported here so the worker never takes the import lock

        if _still_stuck(self._backend if self._backend is not None else None):
            raise KeyringUnavailableError(self._timeout_cause(earlier=True))
        outcome: list[tuple[bool, Any]] = []
        asked: list[object] = []  # the backend the call waits on, once found

        def work() -> None:
            try:
                backend = self._resolve_backend()
                if _still_stuck(backend):
                    raise _Unusable(self._timeout_cause(earlier=True))
                asked.append(backend)
                outcome.append((True, action(backend)))
            except Exception as exc:
                outcome.append((False, exc))

        thread = threading.Thread(target=work, name="screen-analysis-keyring", daemon=True)
        thread.start()
        thread.join(self.timeout)
        if thread.is_alive() or not outcome:
            # not yet asked (a busy machine): it waits on the keyring it was given or has
            # found, or, still finding one, on finding (None)
            with _stuck_lock:
                _stuck[asked[0] if asked else self._backend] = thread
            raise KeyringUnavailableError(self._timeout_cause())
        ok, value = outcome[0]
        if ok:
            return value  # type: ignore[no-any-return]
        cause = describe_failure(value, self._environ, keyring.errors)
        raise KeyringUnavailableError(redact(cause, [secret or ""])) from None

    def _timeout_cause(self, *, earlier: bool = False) -> str:
        when = " earlier in this run and is still waiting" if earlier else ""
        return (
            f"the keyring did not answer within {self.timeout:g} s{when} (it may be locked and "
            f"waiting for an unlock prompt; {TIMEOUT_ENV_VAR} sets a longer wait)"
        )


def _timeout_from(environ: Mapping[str, str]) -> float:
    try:
        value = float(environ.get(TIMEOUT_ENV_VAR, ""))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def _refusal(backend: Any, environ: Mapping[str, str]) -> str | None:
    """Why `backend` cannot hold a key (keyring's fail, null or an empty chain), or None."""
    module = type(backend).__module__
    if module == "keyring.backends.fail":
        return _no_backend_cause(environ)
    if module == "keyring.backends.null":
        return "the null keyring backend is configured, and it stores nothing"
    if module == "keyring.backends.chainer" and not getattr(backend, "backends", True):
        return _no_backend_cause(environ)
    return None


def _no_dbus(environ: Mapping[str, str]) -> bool:
    return sys.platform.startswith("linux") and not environ.get("DBUS_SESSION_BUS_ADDRESS")


def _no_backend_cause(environ: Mapping[str, str]) -> str:
    if _no_dbus(environ):
        return (
            "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set, as is usual over SSH), "
            "so no Secret Service"
        )
    return "no keyring backend is available"


def _one_line(text: str, limit: int = 200) -> str:
    return shorten(" ".join(text.split()), limit)


def _mentions_dbus(detail: str) -> bool:
    lowered = detail.lower()
    return "dbus" in lowered or "d-bus" in lowered or "secretservice" in lowered


def describe_failure(exc: BaseException, environ: Mapping[str, str], errors: Any) -> str:
    """The cause of a keyring failure in a few words (`errors` is `keyring.errors`)."""
    detail = _one_line(str(exc)) or type(exc).__name__
    if isinstance(exc, _Unusable):
        return detail
    if isinstance(exc, errors.KeyringLocked):
        return f"the keyring is locked ({detail})"
    if isinstance(exc, errors.InitError):
        return f"the keyring backend could not start ({detail})"
    if isinstance(exc, errors.NoKeyringError):
        return _no_backend_cause(environ)
    from_dbus = type(exc).__module__.split(".")[0] in {"secretstorage", "jeepney", "dbus"}
    if _no_dbus(environ) and (from_dbus or _mentions_dbus(detail)):
        return _no_backend_cause(environ)
    if from_dbus:
        return f"the Secret Service is not reachable over D-Bus ({detail})"
    if isinstance(exc, RuntimeError):
        return f"the keyring backend failed ({detail})"
    return f"the keyring backend failed ({type(exc).__name__}: {detail})"
