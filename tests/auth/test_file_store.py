"""The opt-in plain-text key file: 0600 in 0700, atomic, keyed by URL, announced every use."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from screen_analysis.auth import InsecureFileError, InsecureFileStore
from screen_analysis.auth.file_store import default_key_file
from screen_analysis.config import data_dir
from screen_analysis.secret import SecretStr

KEY = SecretStr("sk-file-abcdefghijklmnop-4242")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _store(warnings: list[str], path: Path | None = None) -> InsecureFileStore:
    return InsecureFileStore(path, warn=warnings.append)


def test_file_lives_in_the_user_data_dir() -> None:
    assert default_key_file().parent.parent == data_dir()


def test_created_0600_in_a_0700_directory_keyed_by_normalised_url() -> None:
    warnings: list[str] = []
    store = _store(warnings)
    store.set("https://API.example.com/", KEY)
    assert _mode(store.path) == 0o600
    assert _mode(store.path.parent) == 0o700
    assert json.loads(store.path.read_text()) == {"https://api.example.com": KEY.get_secret_value()}
    # No temp file left; the lock beside it guards changes from two logins at once.
    names = sorted(p.name for p in store.path.parent.iterdir())
    assert names == [f".{store.path.name}.lock", store.path.name]


def test_an_existing_loose_directory_is_tightened() -> None:
    directory = default_key_file().parent
    directory.mkdir(parents=True, mode=0o755)
    os.chmod(directory, 0o755)
    _store([]).set("https://api.example.com", KEY)
    assert _mode(directory) == 0o700


def test_every_use_warns() -> None:
    warnings: list[str] = []
    store = _store(warnings)
    store.set("https://api.example.com", KEY)
    assert store.get("https://api.example.com") == KEY
    assert store.get("https://api.example.com") == KEY
    assert len(warnings) == 3
    assert all("plain text" in w for w in warnings)
    assert all(KEY.get_secret_value() not in w for w in warnings)


def test_missing_entry_or_file_is_none_without_a_warning() -> None:
    warnings: list[str] = []
    store = _store(warnings)
    assert store.get("https://api.example.com") is None
    store.set("https://a.example.com", KEY)
    warnings.clear()
    assert store.get("https://b.example.com") is None
    assert warnings == []


def test_delete_keeps_other_servers_and_removes_an_empty_file() -> None:
    store = _store([])
    store.set("https://a.example.com", KEY)
    store.set("https://b.example.com", SecretStr("sk-other-key-0000000000"))
    assert store.delete("https://a.example.com") is True
    assert store.get("https://a.example.com") is None
    assert store.get("https://b.example.com") is not None
    assert store.delete("https://b.example.com") is True
    assert not store.path.exists()
    assert store.delete("https://b.example.com") is False


def test_a_file_others_can_read_is_refused() -> None:
    store = _store([])
    store.set("https://api.example.com", KEY)
    os.chmod(store.path, 0o644)
    with pytest.raises(InsecureFileError, match="chmod 600") as info:
        store.get("https://api.example.com")
    assert KEY.get_secret_value() not in str(info.value)


def test_a_corrupt_file_is_reported_without_its_content(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    path.write_text('{"https://api.example.com": "sk-half-written')
    os.chmod(path, 0o600)
    with pytest.raises(InsecureFileError) as info:
        _store([], path).get("https://api.example.com")
    assert "sk-half" not in str(info.value)
