"""The time-boxed keyring: a working backend, and every way one fails, in one clear line."""

from __future__ import annotations

import asyncio
import time

import pytest
from keyring.backends import fail, null
from tests.auth.backends import (
    ForgetfulKeyring,
    HangingKeyring,
    MemoryKeyring,
    RaisingKeyring,
    failing_keyring,
    init_error_keyring,
    locked_keyring,
)

from screen_analysis.auth import (
    SERVICE,
    KeyringStoresNothingError,
    KeyringUnavailableError,
    KeyStore,
)
from screen_analysis.secret import SecretStr

URL = "https://api.example.com"
KEY = SecretStr("sk-live-abcdefghijklmnop-9876")
WITH_DBUS = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}


def _assert_one_clear_line(exc: KeyringUnavailableError) -> None:
    message = str(exc)
    assert "\n" not in message
    assert message.startswith("No usable keyring: ")
    assert "SCREEN_ANALYSIS_API_KEY" in message
    assert "screen-analysis login --insecure-storage" in message
    assert KEY.get_secret_value() not in message


def test_round_trip_uses_service_and_normalised_url(memory_keyring: MemoryKeyring) -> None:
    store = KeyStore()
    store.set("https://API.example.com/", KEY)
    assert memory_keyring.items == {(SERVICE, URL): KEY.get_secret_value()}
    assert store.get(URL) == KEY
    assert store.get("https://other.example.com") is None
    assert store.delete(URL) is True
    assert store.delete(URL) is False
    assert store.get(URL) is None


def test_one_key_per_server() -> None:
    store = KeyStore(MemoryKeyring())
    store.set("https://a.example.com", SecretStr("key-for-server-a-000"))
    store.set("https://b.example.com", SecretStr("key-for-server-b-000"))
    assert store.get("https://a.example.com") == SecretStr("key-for-server-a-000")
    assert store.get("https://b.example.com") == SecretStr("key-for-server-b-000")


def test_keyrings_fail_backend_without_dbus_names_dbus() -> None:
    store = KeyStore(fail.Keyring(), environ={})
    with pytest.raises(KeyringUnavailableError) as info:
        store.get(URL)
    _assert_one_clear_line(info.value)
    assert "D-Bus" in str(info.value)


def test_keyrings_fail_backend_with_dbus() -> None:
    with pytest.raises(KeyringUnavailableError, match="no keyring backend is available"):
        KeyStore(fail.Keyring(), environ=WITH_DBUS).set(URL, KEY)


def test_null_backend_is_refused_before_storing() -> None:
    with pytest.raises(KeyringUnavailableError, match="null keyring backend") as info:
        KeyStore(null.Keyring()).set(URL, KEY)
    _assert_one_clear_line(info.value)


@pytest.mark.parametrize(
    ("backend", "cause"),
    [
        (locked_keyring(), "the keyring is locked"),
        (init_error_keyring(), "could not start"),
        (failing_keyring(), "the keyring backend failed (backend exploded)"),
        (RaisingKeyring(OSError("disk gone")), "OSError: disk gone"),
    ],
)
def test_backend_errors_become_one_clear_line(backend: RaisingKeyring, cause: str) -> None:
    for call in (lambda s: s.get(URL), lambda s: s.set(URL, KEY), lambda s: s.delete(URL)):
        with pytest.raises(KeyringUnavailableError) as info:
            call(KeyStore(backend, environ=WITH_DBUS))
        _assert_one_clear_line(info.value)
        assert cause in str(info.value)


def test_error_text_quoting_the_key_is_redacted() -> None:
    backend = RaisingKeyring(RuntimeError(f"cannot store {KEY.get_secret_value()}"))
    with pytest.raises(KeyringUnavailableError) as info:
        KeyStore(backend).set(URL, KEY)
    assert KEY.get_secret_value() not in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_hanging_backend_is_given_up_on_in_time() -> None:
    backend = HangingKeyring()
    store = KeyStore(backend, timeout=0.3)
    started = time.monotonic()
    try:
        with pytest.raises(KeyringUnavailableError, match=r"did not answer within 0\.3 s") as info:
            store.get(URL)
        _assert_one_clear_line(info.value)
        assert time.monotonic() - started < 30  # given up on, not waited for (it never answers)
    finally:
        backend.release.set()


def test_timeout_comes_from_the_environment() -> None:
    assert KeyStore(environ={"SCREEN_ANALYSIS_KEYRING_TIMEOUT": "7.5"}).timeout == 7.5
    assert KeyStore(environ={"SCREEN_ANALYSIS_KEYRING_TIMEOUT": "nonsense"}).timeout == 3.0
    assert KeyStore(environ={}).timeout == 3.0


def test_backend_that_stores_nothing_is_detected() -> None:
    with pytest.raises(KeyringStoresNothingError, match="gave back nothing") as info:
        KeyStore(ForgetfulKeyring()).set(URL, KEY)
    _assert_one_clear_line(info.value)


async def test_async_wrappers_never_block_the_event_loop() -> None:
    backend = HangingKeyring()
    store = KeyStore(backend, timeout=60)  # a guard against a hang, never reached here
    asked = asyncio.create_task(store.aget(URL))
    try:

        async def keyring_asked() -> None:
            while backend.calls == 0:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(keyring_asked(), timeout=30)
        ran = asyncio.Event()
        asyncio.get_running_loop().call_soon(ran.set)
        await ran.wait()
        # The keyring hangs in its thread, and the loop runs callbacks meanwhile.
        assert not asked.done()
    finally:
        backend.release.set()
    assert await asyncio.wait_for(asked, timeout=30) is None  # answered once released


@pytest.mark.parametrize("timeout", [3.0, 0.3])  # the default, and one under half a second
async def test_async_round_trip(timeout: float) -> None:
    store = KeyStore(MemoryKeyring(), timeout=timeout)
    await store.aset(URL, KEY)
    assert await store.aget(URL) == KEY
    await store.acheck(URL)
    assert await store.adelete(URL) is True


def test_real_secret_service_backend_without_dbus_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from keyring.backends import SecretService

    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    started = time.monotonic()
    with pytest.raises(KeyringUnavailableError) as info:
        KeyStore(SecretService.Keyring()).set(URL, KEY)
    assert time.monotonic() - started < 5
    _assert_one_clear_line(info.value)
    assert "DBUS_SESSION_BUS_ADDRESS is not set" in str(info.value)


def test_repr_names_no_secret(memory_keyring: MemoryKeyring) -> None:
    store = KeyStore()
    store.set(URL, KEY)
    assert KEY.get_secret_value() not in repr(store)
    assert KEY.get_secret_value() not in repr(store.get(URL))
