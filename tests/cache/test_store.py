"""The local cache against real files and pages from the reference server on loopback:
round trips, a first page that replaces the view, bounds, damage, mode, never the key, and
two writers at once."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from pathlib import Path

import pytest
from tests.cache.conftest import FAKE_KEY, pages

from screen_analysis.api.models import Analysis, AnalysisStatus, Project
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.demo.runner import DemoServer


def opened(tmp_path: Path, **options: object) -> LocalCache:
    return LocalCache(
        CacheScope("http://127.0.0.1:1", "work"), path=tmp_path / "c.sqlite3", **options
    )  # type: ignore[arg-type]


def test_a_view_round_trips_in_order_and_a_first_page_replaces_it(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    cache = opened(tmp_path)
    (one, total, done), (two, _t, _d) = pages(keyed_server, 2)
    cache.store_page(None, None, one, total=total, done=done, first=True)
    cache.store_page(None, None, two, total=total, done=False, first=False)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and [i.id for i in view.items] == [i.id for i in one + two]
    assert view.items == one + two  # parsed back through the API's own parsing
    assert view.total == 300 and not view.done
    cache.store_page(None, None, one[1:], total=299, done=False, first=True)  # one[0] is gone
    cache.flush()
    again = cache.view(None, None)
    assert again is not None and [i.id for i in again.items] == [i.id for i in one[1:]]
    assert cache.view("proj_other", None) is None
    cache.close()


def test_arrivals_updates_projects_totals_and_offline_filtering(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    cache = opened(tmp_path)
    ((items, total, _done),) = pages(keyed_server, 1)
    cache.store_page(None, None, items[2:], total=total, done=False, first=True)
    cache.store_arrivals(None, None, items[:2], total)
    first = items[0]
    assert isinstance(first, Analysis)
    changed = first.model_copy(update={"status": AnalysisStatus.FAILED, "error_message": "boom"})
    cache.store_updates(None, None, [changed])
    cache.store_totals(None, {None: 300, AnalysisStatus.FAILED: 19})
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and [i.id for i in view.items] == [i.id for i in items]
    assert view.items[0] == changed
    failed = cache.matching(None, AnalysisStatus.FAILED)
    assert failed is not None and changed in failed.items
    assert all(getattr(i, "status", None) == "failed" for i in failed.items)
    totals = cache.totals(None)
    assert totals[None][0] == 300 and totals["failed"][0] == 19
    cache.close()


def test_least_recently_viewed_views_go_first(tmp_path: Path, keyed_server: DemoServer) -> None:
    now = [1000.0]
    cache = opened(tmp_path, max_analyses=120, clock=lambda: now[0])
    for status in ("pending", "completed", "failed"):
        ((items, total, done),) = pages(keyed_server, 1, status=status)
        now[0] += 10
        cache.store_page(None, status, items, total=total, done=done, first=True)
        cache.flush()
    assert cache.view(None, "pending") is not None or cache.view(None, "completed") is not None
    completed = pages(keyed_server, 2, status="completed")
    now[0] += 10
    cache.store_page(
        None, "completed", completed[0][0] + completed[1][0], total=275, done=False, first=True
    )
    cache.flush()
    assert cache.view(None, "pending") is None, "the least recently viewed went"
    assert cache.view(None, "completed") is not None
    cache.close()


@pytest.mark.parametrize(
    "damage",
    [b"", b"not a database at all" * 50, "truncate"],
    ids=["empty", "garbage", "truncated"],
)
def test_a_damaged_file_is_set_aside_with_one_warning(
    tmp_path: Path, keyed_server: DemoServer, damage: object
) -> None:
    path = tmp_path / "c.sqlite3"
    if damage == "truncate":
        cache = opened(tmp_path)
        ((items, total, done),) = pages(keyed_server, 1)
        cache.store_page(None, None, items, total=total, done=done, first=True)
        cache.close()
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
        for suffix in ("-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
    else:
        assert isinstance(damage, bytes)
        path.write_bytes(damage)
    cache = opened(tmp_path)
    if damage == b"":
        assert cache.warning is None  # an empty file is a new cache
    else:
        assert cache.warning is not None and "set aside" in cache.warning
        assert path.with_name(path.name + ".bad").exists()
    assert cache.usable and cache.view(None, None) is None
    cache.close()


def test_a_foreign_version_starts_clean(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.execute("PRAGMA user_version=99")
    db.close()
    cache = opened(tmp_path)
    assert cache.warning is not None and "another version" in cache.warning
    assert cache.usable
    cache.close()


def test_mode_0600_and_never_the_key(tmp_path: Path, keyed_server: DemoServer) -> None:
    cache = opened(tmp_path)
    for n, (items, total, done) in enumerate(pages(keyed_server, 3)):
        cache.store_page(None, None, items, total=total, done=done, first=n == 0)
    cache.flush()
    path = tmp_path / "c.sqlite3"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    files = [p for p in tmp_path.iterdir() if p.name.startswith("c.sqlite3")]
    assert any(p.name.endswith("-wal") for p in files)  # the WAL is read too
    for file in files:
        assert FAKE_KEY.encode() not in file.read_bytes(), file.name
    cache.close()


def test_two_caches_on_one_file_write_at_once(tmp_path: Path, keyed_server: DemoServer) -> None:
    batches = pages(keyed_server, 6)
    caches = [opened(tmp_path), LocalCache(CacheScope("demo"), path=tmp_path / "c.sqlite3")]

    def write(cache: LocalCache) -> None:
        for n, (items, total, done) in enumerate(batches):
            cache.store_page(None, None, items, total=total, done=done, first=n == 0)
        cache.flush()

    threads = [threading.Thread(target=write, args=(c,)) for c in caches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for cache in caches:
        view = cache.view(None, None)
        assert cache.warning is None and view is not None and len(view.items) == 300
        cache.close()
    db = sqlite3.connect(tmp_path / "c.sqlite3")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_a_cache_that_cannot_be_opened_says_why_and_is_off_for_the_run(tmp_path: Path) -> None:
    """A path the database cannot be made at (here a folder): one line saying the cache is
    off and why; reads find nothing, writes are dropped, and it closes like any other."""
    folder = tmp_path / "c.sqlite3"
    folder.mkdir()
    cache = opened(tmp_path)
    warning = cache.warning
    assert warning is not None and warning.startswith("The local cache is off for this run: ")
    assert len(warning) > len("The local cache is off for this run: ") and "\n" not in warning
    assert not cache.usable and cache.view(None, None) is None and cache.projects() == []
    cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    cache.flush()
    cache.close()
    cache.close()  # twice is fine
    assert folder.is_dir() and not any(folder.iterdir()), "nothing was made in its place"


def test_the_byte_bound_is_counted_in_mebibytes(tmp_path: Path) -> None:
    """`cache_max_mb` is in MiB, as the manual says (200 means 200 × 1,048,576 bytes)."""
    cache = opened(tmp_path, max_mb=1.5)
    assert cache.max_bytes == 1_572_864
    cache.close()
