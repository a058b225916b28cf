"""In-memory keyring backends for tests: one working, and one for each way a keyring fails."""

from __future__ import annotations

import threading

from keyring.backend import KeyringBackend
from keyring.errors import InitError, KeyringLocked, PasswordDeleteError


class _TestBackend(KeyringBackend):
    # Below keyring's fail backend (0): never picked by keyring's own discovery.
    priority = -10  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise NotImplementedError

    def set_password(self, service: str, username: str, password: str) -> None:
        raise NotImplementedError

    def delete_password(self, service: str, username: str) -> None:
        raise NotImplementedError


class MemoryKeyring(_TestBackend):
    """A working keyring in a dict."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError("not found")


class RaisingKeyring(_TestBackend):
    """Every call raises the given exception (a backend error, InitError, a locked one)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def get_password(self, service: str, username: str) -> str | None:
        raise self.error

    def set_password(self, service: str, username: str, password: str) -> None:
        raise self.error

    def delete_password(self, service: str, username: str) -> None:
        raise self.error


def locked_keyring() -> RaisingKeyring:
    """A keyring whose collection stays locked (the unlock prompt was dismissed)."""
    return RaisingKeyring(KeyringLocked("Failed to unlock the collection!"))


def init_error_keyring() -> RaisingKeyring:
    """A keyring that cannot start."""
    return RaisingKeyring(InitError("Failed to create the collection: Prompt dismissed."))


def failing_keyring() -> RaisingKeyring:
    """A keyring whose backend raises RuntimeError."""
    return RaisingKeyring(RuntimeError("backend exploded"))


class HangingKeyring(_TestBackend):
    """Every call waits until released, like a Secret Service waiting for an unlock prompt."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.calls = 0

    def _wait(self) -> None:
        self.calls += 1
        self.release.wait()

    def get_password(self, service: str, username: str) -> str | None:
        self._wait()
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        self._wait()

    def delete_password(self, service: str, username: str) -> None:
        self._wait()


class ForgetfulKeyring(_TestBackend):
    """Accepts every key and keeps none."""

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        return None

    def delete_password(self, service: str, username: str) -> None:
        raise PasswordDeleteError("not found")
