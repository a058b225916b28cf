"""The cache's projects and the keys its servers accepted, each kept per scope: projects
read back by id with when each was fetched, the projects a shell offers (the most recently
viewed first), a row that cannot be read left out and counted, and a key known only after
its own server accepted it, forgotten once refused, never kept itself."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from screen_analysis.api.models import Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.contents import kept_projects
from screen_analysis.cache.keys import KeptKeys, key_digest
from screen_analysis.secret import SecretStr

SCOPE = CacheScope("https://projects.example.test")
OTHER = CacheScope("https://projects.example.test", "work")
KEY = SecretStr("sk-test-cache-keys-not-real")


class Ticks:
    """A clock that moves one second each time it is read, from `start`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1
        return self.now


def project(project_id: str, name: str) -> Project:
    return Project.model_validate({"id": project_id, "name": name})


def row(analysis_id: str, project_id: str, status: str = "completed") -> object:
    return parse_item({"id": analysis_id, "project_id": project_id, "status": status})


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[LocalCache]:
    opened = LocalCache(SCOPE, path=tmp_path / "c.sqlite3", clock=Ticks())
    yield opened
    opened.close()


def when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def test_projects_are_read_by_id_each_with_when_it_was_fetched(cache: LocalCache) -> None:
    cache.store_project(project("p2", "Two"))
    cache.flush()  # a batch of writes shares its time
    cache.store_project(project("p1", "One"))
    cache.flush()
    kept = cache.projects()
    assert [(p.id, p.name) for p, _at in kept] == [("p1", "One"), ("p2", "Two")]
    fetched = {p.id: at for p, at in kept}
    assert fetched["p1"] > fetched["p2"] and fetched["p1"].tzinfo is UTC
    cache.store_project(project("p2", "Two, renamed"))
    cache.flush()
    assert [(p.id, p.name) for p, _at in cache.projects()] == [
        ("p1", "One"),
        ("p2", "Two, renamed"),
    ]
    other = LocalCache(OTHER, path=cache.path)
    assert other.projects() == []  # another profile's projects are its own
    other.close()


def test_a_project_row_that_cannot_be_read_is_left_out_and_counted(cache: LocalCache) -> None:
    cache.store_project(project("p1", "One"))
    cache.store_project(project("p2", "Two"))
    cache.flush()
    db = sqlite3.connect(cache.path)
    with db:
        db.execute("UPDATE projects SET raw = '{not json' WHERE id = 'p1'")
        db.execute("UPDATE projects SET fetched_at = 'yesterday' WHERE id = 'p2'")
    db.close()
    assert cache.projects() == []
    assert cache.skipped == 2


def test_a_shell_is_offered_the_most_recently_viewed_projects_first(cache: LocalCache) -> None:
    cache.store_project(project("p1", "One"))
    cache.store_project(project("p2", "Two"))
    cache.store_page("p2", None, [row("a1", "p2")], total=1, done=True, first=True)
    cache.flush()
    cache.store_page("p3", None, [row("a2", "p3")], total=1, done=True, first=True)
    cache.flush()
    assert kept_projects(cache.path, SCOPE) == [("p3", None), ("p2", "Two"), ("p1", "One")]
    db = sqlite3.connect(cache.path)
    with db:
        db.execute("UPDATE projects SET raw = '[1]' WHERE id = 'p1'")  # its id is still known
    db.close()
    assert kept_projects(cache.path, SCOPE)[-1] == ("p1", None)
    assert kept_projects(cache.path, OTHER) == []
    assert kept_projects(cache.path.with_name("none.sqlite3"), SCOPE) == []


def test_offline_filtering_keeps_the_rows_of_the_status_in_order(cache: LocalCache) -> None:
    rows = [row("a1", "p1", "failed"), row("a2", "p1", "completed"), row("a3", "p1", "failed")]
    cache.store_page("p1", None, rows, total=3, done=True, first=True)
    cache.flush()
    failed = cache.matching("p1", "failed")
    assert failed is not None and [i.id for i in failed.items] == ["a1", "a3"]  # type: ignore[union-attr]
    assert failed.total is None and failed.done
    whole = cache.matching("p1", None)
    assert whole is not None and len(whole.items) == 3 and whole.total == 3
    assert cache.matching("p9", "failed") is None


def test_a_key_is_known_only_once_its_own_server_accepted_it(cache: LocalCache) -> None:
    in_use: list[SecretStr | None] = [KEY]
    keys = KeptKeys(cache, lambda: in_use[0])
    assert not keys.known()
    keys.accepted()
    cache.flush()
    assert keys.known()
    other = LocalCache(OTHER, path=cache.path)
    assert not KeptKeys(other, lambda: KEY).known()  # another profile has not seen it
    other.close()
    in_use[0] = SecretStr("sk-test-renewed-not-real")
    assert not keys.known()  # the key is read at each call
    in_use[0] = KEY
    keys.refused()
    cache.flush()
    assert not keys.known()
    in_use[0] = None
    keys.accepted()
    keys.refused()
    cache.flush()
    assert not keys.known()
    db = sqlite3.connect(cache.path)
    assert db.execute("SELECT count(*) FROM keys").fetchone() == (0,)
    db.close()


def test_what_is_kept_of_a_key_is_its_digest_per_scope_never_the_key(cache: LocalCache) -> None:
    KeptKeys(cache, lambda: KEY).accepted()
    cache.flush()
    text = cache.path.read_bytes()
    assert KEY.get_secret_value().encode() not in text
    digest = key_digest(SCOPE, KEY)
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert digest.encode() in text
    assert digest == key_digest(CacheScope(SCOPE.base_url, ""), SecretStr(KEY.get_secret_value()))
    others = {
        key_digest(OTHER, KEY),
        key_digest(CacheScope("https://other.example.test"), KEY),
        key_digest(SCOPE, SecretStr("sk-test-another-not-real")),
    }
    assert digest not in others and len(others) == 3
