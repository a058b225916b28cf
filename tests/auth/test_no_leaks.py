"""The key stays a secret: never in a repr, an exception, a traceback, a log or the output."""

from __future__ import annotations

import logging
import traceback

import pytest
from click.testing import CliRunner
from keyring.backends import fail
from tests.auth.backends import RaisingKeyring

from screen_analysis.auth import (
    InsecureFileStore,
    KeyringUnavailableError,
    KeyStore,
    aresolve_api_key,
    resolve_api_key,
)
from screen_analysis.cli.root import cli, require_connection
from screen_analysis.config import Settings
from screen_analysis.secret import SecretStr

SECRET = "sk-never-shown-0123456789abcdef"
URL = "https://api.example.com"


def test_reprs_hide_the_key() -> None:
    KeyStore().set(URL, SecretStr(SECRET))
    resolved = resolve_api_key(URL, environ={})
    connection = require_connection(Settings(base_url=URL))
    for thing in (resolved, connection, KeyStore(), InsecureFileStore()):
        assert SECRET not in repr(thing)
        assert SECRET not in str(thing)
    assert connection.api_key.get_secret_value() == SECRET
    assert connection.key_source == "keyring"


async def test_async_resolution() -> None:
    KeyStore().set(URL, SecretStr(SECRET))
    resolved = await aresolve_api_key(URL, environ={})
    assert resolved.api_key.get_secret_value() == SECRET


def test_exception_and_traceback_hide_the_key() -> None:
    backend = RaisingKeyring(RuntimeError(f"refused {SECRET}"))
    with pytest.raises(KeyringUnavailableError) as info:
        KeyStore(backend).set(URL, SecretStr(SECRET))
    text = "".join(traceback.format_exception(info.value))
    assert SECRET not in text
    assert SECRET not in repr(info.value)


def test_nothing_logged_carries_the_key(
    demo_server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    runner = CliRunner()
    args = ["--debug", "login", "--base-url", demo_server.base_url, "--api-key-stdin"]
    for key in (demo_server.api_key, "sk-wrong-key-000000000000"):
        result = runner.invoke(cli, args, input=f"{key}\n")
        status = runner.invoke(cli, ["--debug", "auth", "status"])
        for output in (result.stdout, result.stderr, status.stdout, status.stderr):
            assert key not in output
        assert key not in caplog.text
    keyring_less = KeyStore(fail.Keyring())
    with pytest.raises(KeyringUnavailableError):
        keyring_less.set(URL, SecretStr(SECRET))
    assert SECRET not in caplog.text
