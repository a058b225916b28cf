"""What the cache file holds per server and profile, and forgetting it (`cache info`,
`cache clear`): real files, pages from the reference server on loopback, and damage that
is set aside through the same opening the app uses."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.cache.conftest import FAKE_KEY, pages

from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.contents import Forgotten, file_bytes, forget, kept_scopes
from screen_analysis.cache.schema import SCHEMA_VERSION
from screen_analysis.demo.runner import DemoServer

STAGING = CacheScope("https://staging.example.test", "staging")
PROD = CacheScope("https://prod.example.test", "prod")


def fill(path: Path, server: DemoServer, *scopes: CacheScope) -> None:
    """One view (a first page) of every scope in the file at `path`."""
    ((items, total, done),) = pages(server, 1)
    for scope in scopes:
        cache = LocalCache(scope, path=path)
        cache.store_page(None, None, items, total=total, done=done, first=True)
        cache.close()


def test_a_missing_file_is_empty_and_not_made(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    assert kept_scopes(path) == ([], None)
    assert forget(path, None) == (Forgotten(0, 0), None)
    assert not path.exists() and file_bytes(path) == 0


def test_scopes_listed_and_one_forgotten_of_two(tmp_path: Path, keyed_server: DemoServer) -> None:
    path = tmp_path / "c.sqlite3"
    fill(path, keyed_server, STAGING, PROD)
    LocalCache(CacheScope("https://opened.example.test"), path=path).close()  # never filled
    scopes, warning = kept_scopes(path)
    assert warning is None
    assert [(s.base_url, s.profile, s.views, s.analyses) for s in scopes] == [
        (PROD.base_url, "prod", 1, 50),
        (STAGING.base_url, "staging", 1, 50),
    ]
    assert all(s.newest is not None for s in scopes)
    assert forget(path, CacheScope(STAGING.base_url, "prod")) == (Forgotten(0, 0), None)
    assert forget(path, STAGING) == (Forgotten(1, 50), None)
    assert [s.profile for s in kept_scopes(path)[0]] == ["prod"]
    assert forget(path, None) == (Forgotten(1, 50), None)
    assert kept_scopes(path) == ([], None)
    assert FAKE_KEY.encode() not in path.read_bytes()


def test_damage_found_only_while_reading_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)  # our version number, but tables missing
    db.execute("CREATE TABLE scopes (id INTEGER PRIMARY KEY, base_url TEXT, profile TEXT)")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    db.close()
    scopes, warning = kept_scopes(path)
    assert scopes == []
    assert warning is not None and "set aside (c.sqlite3.bad)" in warning
    assert "no such table" in warning
    assert path.with_name("c.sqlite3.bad").exists()
    assert kept_scopes(path) == ([], None), "a fresh one, no second warning"


@pytest.mark.parametrize("use", ["info", "clear"])
def test_a_damaged_file_counts_as_empty_with_one_warning(tmp_path: Path, use: str) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"not a database at all" * 50)
    found, warning = kept_scopes(path) if use == "info" else forget(path, STAGING)
    assert found in ([], Forgotten(0, 0))
    assert warning is not None and "set aside" in warning
    assert path.with_name("c.sqlite3.bad").read_bytes() == b"not a database at all" * 50
    assert kept_scopes(path) == ([], None), "a fresh one, no second warning"
