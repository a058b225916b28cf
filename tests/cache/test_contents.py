"""What the cache file holds per server and profile, and forgetting it (`cache info`,
`cache clear`): real files, pages from the reference server on loopback, and damage that
is set aside through the same opening the app uses."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.cache.conftest import FAKE_KEY, pages

from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.contents import (
    Forgotten,
    ScopeContents,
    file_bytes,
    forget,
    kept_projects,
    kept_scopes,
)
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


def row(ident: str, project: str = "p1") -> AnalysisItem:
    return parse_item({"id": ident, "project_id": project, "status": "completed"})


def test_the_bytes_on_disk_are_the_database_and_its_log_files_and_no_link_is_followed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"d" * 100)
    path.with_name("c.sqlite3-wal").write_bytes(b"w" * 10)
    path.with_name("c.sqlite3-shm").write_bytes(b"s" * 1)
    path.with_name("c.sqlite3.bad").write_bytes(b"b" * 1000)  # set aside: not the cache's
    assert file_bytes(path) == 111
    big = tmp_path / "big"
    big.write_bytes(b"x" * 100_000)
    path.with_name("c.sqlite3-wal").unlink()
    path.with_name("c.sqlite3-wal").symlink_to(big)
    assert file_bytes(path) == 101 + len(str(big))  # the link itself, not what it names


def test_what_each_scope_holds_and_when_its_newest_view_was_fetched(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    now = [1_000.0]
    views = LocalCache(STAGING, path=path, clock=lambda: now[0])
    views.store_page(None, None, [row("a1"), row("a2")], total=2, done=True, first=True)
    views.flush()
    now[0] = 2_000.0
    views.store_page("p1", None, [row("a1")], total=1, done=True, first=True)
    views.close()
    totals = LocalCache(PROD, path=path)
    totals.store_totals(None, {None: 5})
    totals.close()
    projects = LocalCache(CacheScope("https://projects.example.test"), path=path)
    projects.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    projects.close()
    scopes, _warning = kept_scopes(path)
    assert scopes == [
        ScopeContents(PROD.base_url, "prod", 0, 0, None),
        ScopeContents("https://projects.example.test", "", 0, 0, None),
        ScopeContents(STAGING.base_url, "staging", 2, 2, datetime.fromtimestamp(2_000.0, UTC)),
    ]
    assert forget(path, PROD) == (Forgotten(0, 0), None)
    assert Forgotten(0, 0).nothing and not Forgotten(1, 0).nothing and not Forgotten(0, 1).nothing


def test_what_is_forgotten_is_gone_from_the_files_and_the_space_given_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(STAGING, path=path)
    marker = "remember-me-" * 8
    items = [parse_item({"id": f"a{n}", "label": marker + "x" * 2000}) for n in range(400)]
    cache.store_page(None, None, items, total=400, done=True, first=True)
    cache.close()
    before = file_bytes(path)
    assert forget(path, None) == (Forgotten(1, 400), None)
    assert file_bytes(path) < before / 4, "free pages back to the file system"
    wal = path.with_name("c.sqlite3-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the log emptied"
    for file in (path, wal):
        if file.exists():
            assert marker.encode() not in file.read_bytes(), file.name


def test_a_shell_gets_no_projects_from_a_file_it_cannot_read_and_changes_nothing(
    tmp_path: Path,
) -> None:
    damaged = tmp_path / "damaged" / "c.sqlite3"
    damaged.parent.mkdir()
    damaged.write_bytes(b"not a database at all" * 50)
    folder = tmp_path / "folder" / "c.sqlite3"
    folder.mkdir(parents=True)
    linked = tmp_path / "linked" / "c.sqlite3"
    linked.parent.mkdir()
    real = tmp_path / "real.sqlite3"
    cache = LocalCache(STAGING, path=real)
    cache.store_page("p1", None, [row("a1")], total=1, done=True, first=True)
    cache.close()
    linked.symlink_to(real)
    foreign = tmp_path / "foreign" / "c.sqlite3"
    foreign.parent.mkdir()
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE mail (body TEXT)")
    db.close()
    for path in (damaged, folder, linked, foreign):
        assert kept_projects(path, STAGING) == [], path.parent.name
    assert sorted(p.name for p in damaged.parent.iterdir()) == ["c.sqlite3"], "not set aside"
    assert kept_projects(real, STAGING) == [("p1", None)]


def test_a_shell_gets_the_viewed_projects_then_the_others_by_id(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    now = [1_000.0]
    cache = LocalCache(STAGING, path=path, clock=lambda: now[0])
    for project in ("pb", "pa", "pz", "pc"):
        cache.store_project(Project.model_validate({"id": project, "name": project.upper()}))
    for when, project in ((2_000.0, "pz"), (1_500.0, "pa"), (3_000.0, "pz")):
        now[0] = when
        cache.store_page(
            project, None, [row(f"{project}-1", project)], total=1, done=True, first=True
        )
        cache.flush()
    now[0] = 4_000.0
    cache.store_page(None, None, [row("all-1")], total=1, done=True, first=True)  # all projects
    cache.store_page("pz", "failed", [], total=0, done=True, first=True)  # pz's newest
    cache.close()
    assert kept_projects(path, STAGING) == [
        ("pz", "PZ"),
        ("pa", "PA"),
        ("pb", "PB"),
        ("pc", "PC"),
    ]


def test_a_scope_whose_only_view_is_empty_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(STAGING, path=path)
    cache.store_page(None, "failed", [], total=0, done=True, first=True)  # nothing failed
    cache.close()
    scopes, _warning = kept_scopes(path)
    assert [(s.base_url, s.views, s.analyses) for s in scopes] == [(STAGING.base_url, 1, 0)]


def test_a_project_whose_name_is_not_text_is_offered_without_one(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(STAGING, path=path)
    cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    cache.close()
    db = sqlite3.connect(path)
    db.execute("""UPDATE projects SET raw = '{"id": "p1", "name": 5}'""")
    db.commit()
    db.close()
    assert kept_projects(path, STAGING) == [("p1", None)]
