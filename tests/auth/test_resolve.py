"""Key resolution order: the environment, the keyring, the opt-in file, else NoKeyError."""

from __future__ import annotations

import pytest
from keyring.backends import fail
from tests.auth.backends import MemoryKeyring, locked_keyring

from screen_analysis.auth import (
    InsecureFileStore,
    KeySource,
    KeyStore,
    NoKeyError,
    resolve_api_key,
)
from screen_analysis.secret import SecretStr

URL = "https://api.example.com"
ENV_KEY = SecretStr("sk-env-0000000000000000")
RING_KEY = SecretStr("sk-ring-000000000000000")
FILE_KEY = SecretStr("sk-file-000000000000000")


@pytest.fixture
def warnings() -> list[str]:
    return []


@pytest.fixture
def files(warnings: list[str]) -> InsecureFileStore:
    return InsecureFileStore(warn=warnings.append)


def test_environment_wins(files: InsecureFileStore) -> None:
    KeyStore().set(URL, RING_KEY)
    files.set(URL, FILE_KEY)
    env = {"SCREEN_ANALYSIS_API_KEY": f" {ENV_KEY.get_secret_value()}\n"}
    assert resolve_api_key(URL, environ=env, file_store=files) == (ENV_KEY, KeySource.ENV)


def test_blank_environment_value_is_ignored() -> None:
    KeyStore().set(URL, RING_KEY)
    result = resolve_api_key(URL, environ={"SCREEN_ANALYSIS_API_KEY": "  "})
    assert result.source is KeySource.KEYRING


def test_keyring_before_file(files: InsecureFileStore, warnings: list[str]) -> None:
    KeyStore().set("https://API.example.com/", RING_KEY)
    files.set(URL, FILE_KEY)
    warnings.clear()
    api_key, source = resolve_api_key(URL, environ={}, file_store=files)
    assert (api_key, source) == (RING_KEY, KeySource.KEYRING)
    assert warnings == []


def test_file_when_the_keyring_has_none_warns(
    files: InsecureFileStore, warnings: list[str]
) -> None:
    files.set(URL, FILE_KEY)
    warnings.clear()
    assert resolve_api_key(URL, environ={}, file_store=files) == (FILE_KEY, KeySource.FILE)
    assert len(warnings) == 1


def test_file_when_the_keyring_is_unusable(files: InsecureFileStore) -> None:
    files.set(URL, FILE_KEY)
    result = resolve_api_key(
        URL, environ={}, keystore=KeyStore(fail.Keyring(), environ={}), file_store=files
    )
    assert result == (FILE_KEY, KeySource.FILE)


def test_no_key_names_login_and_the_environment_variable(files: InsecureFileStore) -> None:
    with pytest.raises(NoKeyError) as info:
        resolve_api_key(URL, environ={}, keystore=KeyStore(MemoryKeyring()), file_store=files)
    message = str(info.value)
    assert "screen-analysis login" in message and "SCREEN_ANALYSIS_API_KEY" in message
    assert URL in message and "\n" not in message


def test_no_key_with_an_unusable_keyring_gives_the_cause(files: InsecureFileStore) -> None:
    with pytest.raises(NoKeyError) as info:
        resolve_api_key(URL, environ={}, keystore=KeyStore(locked_keyring()), file_store=files)
    message = str(info.value)
    assert "locked" in message and "--insecure-storage" in message
    assert "SCREEN_ANALYSIS_API_KEY" in message


def test_resolved_key_repr_hides_the_key() -> None:
    KeyStore().set(URL, RING_KEY)
    resolved = resolve_api_key(URL, environ={})
    assert RING_KEY.get_secret_value() not in repr(resolved)
    assert RING_KEY.get_secret_value() not in str(resolved)
