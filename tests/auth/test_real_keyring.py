"""Against a real Secret Service (gnome-keyring under dbus-run-session; see .ci/run):
login → list → logout through the command line. Run with `pytest -m keyring`."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner, Result

from screen_analysis.auth import SERVICE, KeyringUnavailableError, KeyStore
from screen_analysis.cli.root import cli
from screen_analysis.secret import SecretStr

pytestmark = pytest.mark.keyring


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_login_list_logout(demo_server, secret_service) -> None:
    url, key = demo_server.base_url, demo_server.api_key
    assert secret_service.get_password(SERVICE, url) is None

    login = invoke("login", "--base-url", url, "--api-key-stdin", input=f"{key}\n")
    assert login.exit_code == 0, login.stderr
    assert "SecretService" in login.stdout
    assert secret_service.get_password(SERVICE, url) == key

    status = invoke("auth", "status")
    assert status.exit_code == 0, status.stderr
    assert "Key source: keyring" in status.stdout
    assert "Server:     accepts the key" in status.stdout

    listing = invoke("analyses", "list", "--limit", "3", "--format", "json")
    assert listing.exit_code == 0, listing.stderr
    assert len(json.loads(listing.stdout)) == 3

    logout = invoke("logout")
    assert logout.exit_code == 0, logout.stderr
    assert secret_service.get_password(SERVICE, url) is None
    after = invoke("auth", "status")
    assert after.exit_code == 3
    for result in (login, status, listing, logout, after):
        assert key not in result.stdout + result.stderr


def test_keystore_round_trip_and_read_back(secret_service) -> None:
    store = KeyStore()
    url = "https://keyring-test.example.com"
    key = SecretStr("sk-real-keyring-0123456789")
    store.set(url, key)
    try:
        assert store.get(url) == key
    finally:
        assert store.delete(url) is True
    assert store.get(url) is None


@pytest.mark.locks_keyring
def test_a_locked_collection_is_time_boxed(secret_service) -> None:
    """A locked collection makes the backend ask for an unlock nobody can answer here.

    Run after every other keyring test (tests/conftest.py orders it): the collection stays
    locked for the rest of the session."""
    from secretstorage import dbus_init, get_default_collection

    connection = dbus_init()
    collection = get_default_collection(connection)
    collection.lock()
    try:
        store = KeyStore(timeout=2)
        started = time.monotonic()
        with pytest.raises(KeyringUnavailableError) as info:
            store.set("https://locked.example.com", SecretStr("sk-locked-0000000000"))
        assert time.monotonic() - started < 5
        assert "\n" not in str(info.value)
    finally:
        connection.close()
