"""The cache's bounds are hard: the bytes on disk (`cache_max_mb`), the analyses (and so the
rows of any one view), and the write-ahead log, each measured on the real files after the
writes are in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.cache.conftest import pages

from screen_analysis.api.models import Analysis, AnalysisItem, Project
from screen_analysis.api.parsing import parse_item
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.bounds import give_back, keep_within, used_bytes
from screen_analysis.cache.contents import file_bytes
from screen_analysis.cache.schema import SHM_BYTES, WAL_LIMIT_BYTES, connect
from screen_analysis.demo.runner import DemoServer

SCOPE = CacheScope("https://bounded.example.test")


def many(server: DemoServer, count: int) -> list[AnalysisItem]:
    """`count` distinct analyses: the server's, copied under new ids as needed."""
    ((items, _total, _done),) = pages(server, 1)
    made: list[AnalysisItem] = []
    while len(made) < count:
        for item in items:
            assert isinstance(item, Analysis)
            made.append(item.model_copy(update={"id": f"{item.id}_{len(made)}"}))
    return made[:count]


def on_disk(path: Path) -> tuple[int, int]:
    """(the database file's bytes, its write-ahead log's)."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


def test_the_byte_cap_holds_for_the_one_view_there_is(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """0.3 MB asked: after a view of 600 rows, the file is within 0.3 MB (the issue saw
    602 KB kept); the rows kept are the view's first ones, in order, and it is not done."""
    path = tmp_path / "c.sqlite3"
    rows = many(keyed_server, 600)
    cache = LocalCache(SCOPE, path=path, max_mb=0.3)
    cache.store_page(None, None, rows[:300], total=600, done=False, first=True)
    cache.store_page(None, None, rows[300:], total=600, done=True, first=False)
    cache.flush()
    assert file_bytes(path) - SHM_BYTES <= 0.3 * 1024 * 1024
    view = cache.view(None, None)
    assert view is not None and 0 < len(view.items) < 600 and not view.done
    assert [i.id for i in view.items] == [i.id for i in rows[: len(view.items)]]
    cache.close()


def test_one_view_never_holds_more_than_the_analyses_bound(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """The issue kept 52,000 rows in one view over a 50,000 bound; here 150 over 120, and a
    page appended after the cut is not kept (it would leave a gap)."""
    path = tmp_path / "c.sqlite3"
    rows = many(keyed_server, 200)
    cache = LocalCache(SCOPE, path=path, max_analyses=120)
    cache.store_page(None, None, rows[:100], total=200, done=False, first=True)
    cache.store_page(None, None, rows[100:150], total=200, done=False, first=False)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and [i.id for i in view.items] == [i.id for i in rows[:120]]
    cache.store_page(None, None, rows[150:], total=200, done=True, first=False)
    cache.flush()
    again = cache.view(None, None)
    assert again is not None and [i.id for i in again.items] == [i.id for i in rows[:120]]
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM analyses").fetchone()[0] == 120
    db.close()
    cache.close()


def test_the_write_ahead_log_is_emptied_after_a_big_write(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """A batch of 4,000 rows (several MB through the log): once it is in, the log is back
    within its bound (the issue saw 16 MB), and the database within the byte cap."""
    path = tmp_path / "c.sqlite3"
    rows = many(keyed_server, 4000)
    cache = LocalCache(SCOPE, path=path, max_mb=200)
    cache.store_page(None, None, rows, total=4000, done=True, first=True)
    cache.flush()
    database, wal = on_disk(path)
    assert wal <= WAL_LIMIT_BYTES, wal
    assert database <= 200 * 1024 * 1024
    view = cache.view(None, None)
    assert view is not None and len(view.items) == 4000
    cache.close()


def test_the_analyses_bound_met_exactly_keeps_the_view_whole(tmp_path: Path) -> None:
    rows = [parse_item({"id": f"a{n}"}) for n in range(5)]
    cache = LocalCache(SCOPE, path=tmp_path / "c.sqlite3", max_analyses=4)
    cache.store_page(None, None, rows[:4], total=4, done=True, first=True)
    cache.flush()
    view = cache.view(None, None)
    assert view is not None and len(view.items) == 4 and view.done
    cache.store_page(None, None, rows, total=5, done=True, first=True)
    cache.flush()
    cut = cache.view(None, None)
    assert cut is not None and [i.id for i in cut.items] == ["a0", "a1", "a2", "a3"]
    assert not cut.done, "a view cut at the bound is not done"
    cache.close()


def test_the_projects_fetched_longest_ago_go_when_only_they_are_left(tmp_path: Path) -> None:
    """Projects of 40 KB each, one per second, under a 0.2 MB bound with no view: the newest
    stay, in the order they came, and the file is within the bound."""
    path = tmp_path / "c.sqlite3"
    now = [1000.0]
    cache = LocalCache(SCOPE, path=path, max_mb=0.2, clock=lambda: now[0])
    for n in range(12):
        now[0] += 1
        cache.store_project(Project.model_validate({"id": f"p{n:02}", "name": "x" * 40_000}))
        cache.flush()
    kept = [p.id for p, _at in cache.projects()]
    assert 0 < len(kept) < 12 and kept == [f"p{n:02}" for n in range(12 - len(kept), 12)]
    assert "p11" in kept and "p00" not in kept
    assert file_bytes(path) - SHM_BYTES <= 0.2 * 1024 * 1024
    cache.close()


def test_a_bound_below_the_empty_database_keeps_nothing_but_never_stalls(tmp_path: Path) -> None:
    cache = LocalCache(SCOPE, path=tmp_path / "c.sqlite3", max_mb=0.001)
    cache.store_project(Project.model_validate({"id": "p1", "name": "One"}))
    cache.store_page(None, None, [parse_item({"id": "a1"})], total=1, done=True, first=True)
    cache.flush()
    view = cache.view(None, None)
    assert view is None or view.items == []
    assert cache.projects() == [] and cache.usable and cache.warning is None
    cache.close()


def test_one_view_over_the_byte_bound_loses_a_quarter_of_its_rows(tmp_path: Path) -> None:
    """The bound set a tenth above what 450 of the view's rows take: a view of 600 keeps its
    first 450 (the last quarter cut), not fewer."""
    rows = [parse_item({"id": f"a{n:04}", "label": "x" * 1500}) for n in range(600)]
    measured = tmp_path / "measured.sqlite3"
    measure = LocalCache(SCOPE, path=measured)
    measure.store_page(None, None, rows[:450], total=600, done=False, first=True)
    measure.close()
    db = sqlite3.connect(measured)
    fits = used_bytes(db)
    db.close()
    cache = LocalCache(SCOPE, path=tmp_path / "c.sqlite3", max_mb=fits * 1.1 / 1024 / 1024)
    try:
        cache.store_page(None, None, rows, total=600, done=True, first=True)
        cache.flush()
        view = cache.view(None, None)
        assert view is not None and [i.id for i in view.items] == [i.id for i in rows[:450]]
        assert not view.done
    finally:
        cache.close()


def test_a_cache_exactly_at_its_byte_bound_lets_nothing_go(tmp_path: Path) -> None:
    """Two views whose pages take exactly the bound: both stay, every row with them."""
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(SCOPE, path=path)
    cache.store_page(
        None, None, [parse_item({"id": f"a{n}"}) for n in range(3)], total=3, done=True, first=True
    )
    cache.store_page("p1", None, [parse_item({"id": "b1"})], total=1, done=True, first=True)
    cache.close()
    db = connect(path)
    try:
        exactly = used_bytes(db)
        assert keep_within(db, max_analyses=100, max_bytes=exactly) == 0
        assert db.execute("SELECT count(*) FROM views").fetchone()[0] == 2
        assert db.execute("SELECT count(*) FROM analyses").fetchone()[0] == 4
    finally:
        db.close()


def test_projects_over_the_byte_bound_go_a_quarter_at_a_time(tmp_path: Path) -> None:
    """Eight projects and no view, one byte over the bound: one round lets the quarter
    fetched longest ago go (two), which is enough; the six newest stay."""
    path = tmp_path / "c.sqlite3"
    now = [1000.0]
    cache = LocalCache(SCOPE, path=path, clock=lambda: now[0])
    for n in range(8):
        now[0] += 1
        cache.store_project(Project.model_validate({"id": f"p{n}", "name": "x" * 40_000}))
        cache.flush()
    cache.close()
    db = connect(path)
    try:
        keep_within(db, max_analyses=100, max_bytes=used_bytes(db) - 1)
        kept = [r[0] for r in db.execute("SELECT id FROM projects ORDER BY fetched_at")]
        assert kept == [f"p{n}" for n in range(2, 8)]
    finally:
        db.close()


def test_giving_pages_back_while_another_copy_writes_waits_for_the_next_batch(
    tmp_path: Path,
) -> None:
    """Free pages to give back and the log to empty, while another copy of the app holds
    the write lock: nothing is given back now, and nothing is raised (the writer thread
    would otherwise turn the cache off); once that copy is done, the pages go back."""
    path = tmp_path / "c.sqlite3"
    cache = LocalCache(SCOPE, path=path)
    cache.store_project(Project.model_validate({"id": "p1", "name": "x" * 200_000}))
    cache.close()
    db = connect(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("DELETE FROM projects")
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        assert free > 0
        other.execute("BEGIN IMMEDIATE")  # the other copy's write lock
        db.execute("PRAGMA busy_timeout=0")
        give_back(db)
        assert db.execute("PRAGMA freelist_count").fetchone()[0] == free
        other.execute("ROLLBACK")
        give_back(db)
        assert db.execute("PRAGMA freelist_count").fetchone()[0] == 0
    finally:
        other.close()
        db.close()
