"""Why a keyring cannot be used, in words, for every kind of failure with and without a
D-Bus session; a keyring that hung stays given up on, for every store of the process, only
while its call still waits."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import keyring.errors
import pytest
from keyring.backends import chainer, fail, null
from tests.auth.backends import HangingKeyring, MemoryKeyring, RaisingKeyring

from screen_analysis.auth import KeyringUnavailableError, KeyStore
from screen_analysis.auth.keystore import describe_failure
from screen_analysis.secret import SecretStr

URL = "https://api.example.com"
WITH_DBUS = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}
NO_DBUS: dict[str, str] = {}
NO_BUS = "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set, as is usual over SSH), "
NO_BUS += "so no Secret Service"
NO_BACKEND = "no keyring backend is available"


def _from(module: str, name: str = "DBusErrorResponse") -> type[Exception]:
    """An exception class as a D-Bus library defines it (only its module matters)."""
    return type(name, (Exception,), {"__module__": module})


@pytest.mark.parametrize(
    ("exc", "environ", "cause"),
    [
        (keyring.errors.KeyringLocked("dismissed"), WITH_DBUS, "the keyring is locked (dismissed)"),
        (keyring.errors.InitError("no"), WITH_DBUS, "the keyring backend could not start (no)"),
        (keyring.errors.NoKeyringError("x"), NO_DBUS, NO_BUS),
        (keyring.errors.NoKeyringError("x"), WITH_DBUS, NO_BACKEND),
        (_from("secretstorage.exceptions")("gone"), NO_DBUS, NO_BUS),
        (_from("jeepney.wrappers")("gone"), NO_DBUS, NO_BUS),
        (_from("dbus")("gone"), NO_DBUS, NO_BUS),
        (
            _from("secretstorage.exceptions")("gone"),
            WITH_DBUS,
            "the Secret Service is not reachable over D-Bus (gone)",
        ),
        (_from("jeepney")("gone"), WITH_DBUS, "the Secret Service is not reachable over D-Bus"),
        (_from("dbus.exceptions")("x"), WITH_DBUS, "the Secret Service is not reachable"),
        (_from("secretstoragex")("x"), WITH_DBUS, "the keyring backend failed (DBusErrorResponse"),
        # Words that name D-Bus, from any library: without a bus, the bus is the cause.
        (RuntimeError("Cannot autolaunch D-Bus"), NO_DBUS, NO_BUS),
        (RuntimeError("org.freedesktop.DBus.Error"), NO_DBUS, NO_BUS),
        (RuntimeError("SecretService unusable"), NO_DBUS, NO_BUS),
        (RuntimeError("Cannot autolaunch D-Bus"), WITH_DBUS, "the keyring backend failed (Cannot"),
        (
            RuntimeError("backend exploded"),
            NO_DBUS,
            "the keyring backend failed (backend exploded)",
        ),
        (RuntimeError(), WITH_DBUS, "the keyring backend failed (RuntimeError)"),
        (OSError("disk\n  gone"), WITH_DBUS, "the keyring backend failed (OSError: disk gone)"),
    ],
)
def test_each_failure_has_its_cause_in_words(
    exc: Exception, environ: dict[str, str], cause: str
) -> None:
    said = describe_failure(exc, environ, keyring.errors)
    assert said.startswith(cause) and (said == cause or not cause.endswith(")"))


def test_a_long_cause_is_cut_to_one_line_of_200_characters() -> None:
    whole = describe_failure(RuntimeError("x" * 200), WITH_DBUS, keyring.errors)
    assert whole == f"the keyring backend failed ({'x' * 200})"  # met exactly: whole
    cut = describe_failure(RuntimeError("y" * 201), WITH_DBUS, keyring.errors)
    assert cut == f"the keyring backend failed ({'y' * 199}…)"


@pytest.mark.parametrize(
    ("backend", "environ", "cause"),
    [
        (fail.Keyring(), NO_DBUS, NO_BUS),
        (fail.Keyring(), WITH_DBUS, NO_BACKEND),
        (null.Keyring(), NO_DBUS, "the null keyring backend is configured, and it stores nothing"),
    ],
)
def test_a_backend_that_cannot_hold_a_key_is_refused_with_why(
    backend: object, environ: dict[str, str], cause: str
) -> None:
    with pytest.raises(KeyringUnavailableError) as refused:
        KeyStore(backend, environ=environ).get(URL)
    assert str(refused.value).startswith(f"No usable keyring: {cause}")


def test_a_chain_of_no_backend_is_refused_and_a_chain_of_some_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    with pytest.raises(KeyringUnavailableError, match=NO_BACKEND):
        KeyStore(chainer.ChainerBackend(), environ=WITH_DBUS).get(URL)
    with pytest.raises(KeyringUnavailableError, match="no D-Bus session bus"):
        KeyStore(chainer.ChainerBackend(), environ=NO_DBUS).get(URL)
    memory = MemoryKeyring()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [memory])
    store = KeyStore(chainer.ChainerBackend(), environ=NO_DBUS)
    store.set(URL, SecretStr("sk-test-chained-0001"))
    assert store.get(URL) == SecretStr("sk-test-chained-0001") and len(memory.items) == 1


def test_a_backend_that_is_no_chain_is_used_even_with_a_backends_attribute() -> None:
    memory = MemoryKeyring()
    memory.backends = []  # type: ignore[attr-defined]
    assert KeyStore(memory, environ=NO_DBUS).get(URL) is None


def test_the_backend_is_named_for_people() -> None:
    assert KeyStore(MemoryKeyring()).backend_name() == "backends MemoryKeyring"

    class Plain:  # no `name`: its class name
        def get_password(self, service: str, username: str) -> None:
            return None

    assert KeyStore(Plain()).backend_name() == "Plain"


@pytest.mark.parametrize(("value", "timeout"), [("0", 3.0), ("-2", 3.0), ("0.5", 0.5)])
def test_a_timeout_of_nothing_or_less_is_the_default(value: str, timeout: float) -> None:
    store = KeyStore(environ={"SCREEN_ANALYSIS_KEYRING_TIMEOUT": value})
    assert store.timeout == timeout and repr(store).endswith(f"timeout={timeout:g})")


def _keyring_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "screen-analysis-keyring"]


def test_a_hung_keyring_is_not_asked_again_while_its_call_waits() -> None:
    hanging = HangingKeyring()
    waiting_before = set(_keyring_threads())
    try:
        with pytest.raises(KeyringUnavailableError) as first:
            KeyStore(hanging, timeout=0.2).get(URL)
        assert "did not answer within 0.2 s (it may be locked" in str(first.value)
        assert "earlier in this run" not in str(first.value)
        stuck = [t for t in _keyring_threads() if t not in waiting_before]
        assert len(stuck) == 1 and stuck[0].daemon  # never keeps the process alive
        for store in (KeyStore(hanging, timeout=0.2), KeyStore(hanging, timeout=5)):
            with pytest.raises(KeyringUnavailableError) as again:
                store.get(URL)
            assert " s earlier in this run and is still waiting (it may be locked" in str(
                again.value
            )
        assert hanging.calls == 1  # asked once, however many stores asked after
        working = KeyStore(MemoryKeyring(), timeout=0.2)
        assert working.get(URL) is None  # another keyring is not held up
    finally:
        hanging.release.set()
    stuck[0].join(5)
    assert not stuck[0].is_alive()
    assert KeyStore(hanging, timeout=0.2).get(URL) is None  # answered: asked again
    assert hanging.calls == 2


def test_a_call_given_up_on_before_it_reached_a_given_keyring_still_holds_that_keyring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A busy machine: the call is given up on while its thread has not yet asked the
    keyring it was given (still checking it can hold a key); the keyring is still the one
    it waits on, so the next store does not ask it again."""
    from screen_analysis.auth import keystore

    hanging = HangingKeyring()
    refusal, go = keystore._refusal, threading.Event()

    def slow_refusal(backend: Any, environ: Mapping[str, str]) -> str | None:
        assert go.wait(5)
        return refusal(backend, environ)

    monkeypatch.setattr(keystore, "_refusal", slow_refusal)
    waiting_before = set(_keyring_threads())
    try:
        with pytest.raises(KeyringUnavailableError, match=r"within 0\.2 s \(it may"):
            KeyStore(hanging, timeout=0.2).get(URL)
        go.set()  # the given-up call goes on to the keyring, which hangs
        with pytest.raises(KeyringUnavailableError, match="earlier in this run"):
            KeyStore(hanging, timeout=0.2).get(URL)
        assert hanging.calls <= 1  # only the given-up call's
    finally:
        go.set()
        hanging.release.set()
    for thread in set(_keyring_threads()) - waiting_before:
        thread.join(5)


def test_a_keyring_that_hangs_while_being_found_holds_up_finding_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import keyring as keyring_module

    release = threading.Event()

    def slow_discovery() -> MemoryKeyring:
        release.wait()
        return MemoryKeyring()

    monkeypatch.setattr(keyring_module, "get_keyring", slow_discovery)
    waiting_before = set(_keyring_threads())
    try:
        with pytest.raises(KeyringUnavailableError, match=r"did not answer within 0\.2 s"):
            KeyStore(timeout=0.2).get(URL)
        with pytest.raises(KeyringUnavailableError, match="earlier in this run"):
            KeyStore(timeout=0.2).get(URL)
        assert KeyStore(MemoryKeyring(), timeout=0.2).get(URL) is None  # a given one: used
    finally:
        release.set()
    for thread in set(_keyring_threads()) - waiting_before:
        thread.join(5)


def test_a_cause_that_quotes_nothing_secret_is_left_whole() -> None:
    backend = RaisingKeyring(RuntimeError("XXXX refused"))
    with pytest.raises(KeyringUnavailableError, match=r"failed \(XXXX refused\)"):
        KeyStore(backend, environ=WITH_DBUS).get(URL)


def test_a_hung_keyring_found_by_discovery_is_not_asked_again_either(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import keyring as keyring_module

    hanging = HangingKeyring()
    monkeypatch.setattr(keyring_module, "get_keyring", lambda: hanging)
    waiting_before = set(_keyring_threads())
    try:
        with pytest.raises(KeyringUnavailableError, match=r"within 0\.2 s \(it may"):
            KeyStore(timeout=0.2).get(URL)
        with pytest.raises(KeyringUnavailableError) as again:
            KeyStore(timeout=0.2).get(URL)  # found anew, and known to be stuck
        assert "within 0.2 s earlier in this run and is still waiting" in str(again.value)
        assert hanging.calls == 1
    finally:
        hanging.release.set()
    for thread in set(_keyring_threads()) - waiting_before:
        thread.join(5)
