"""Rows of the cache file that this version cannot read (written by hand, by another
program, or damaged): each is one row left out and counted, never an exception out of a
read, a stalled view, or an "internal error" from the command line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from tests.cache.conftest import pages
from tests.conftest import Invoke

from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.demo.runner import DemoServer

DEEP = "[" * 100_000 + "]" * 100_000

# What is written in place of one analysis's JSON (`raw`).
BAD_RAWS = {
    "invalid-json": "{not json",
    "blob": b"\x00\xff\xfe binary",
    "deep": DEEP,
    "deep-object": '{"id": "x", "label": ' + "[" * 5000 + "]" * 5000 + "}",
    "not-an-object": "[1, 2, 3]",
    "huge": json.dumps({"id": "ana_huge", "label": "x" * (3 * 1024 * 1024)}),
    "empty-blob": b"",
}


def keep_one_view(path: Path, server: DemoServer, scope: CacheScope) -> list[str]:
    """A view of 50 rows and the totals kept for `scope`; the ids in order."""
    ((items, total, done),) = pages(server, 1)
    cache = LocalCache(scope, path=path)
    cache.store_page(None, None, items, total=total, done=done, first=True)
    cache.store_totals(None, {None: 300})
    cache.close()
    return [i.id or "" for i in items]


def tamper(path: Path, sql: str, *args: object) -> None:
    """Change the file as another program would (no check of ours in the way)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute(sql, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("bad", list(BAD_RAWS), ids=list(BAD_RAWS))
def test_one_unreadable_row_is_left_out_and_counted(
    tmp_path: Path, keyed_server: DemoServer, bad: str
) -> None:
    path = tmp_path / "c.sqlite3"
    scope = CacheScope("https://kept.example.test")
    ids = keep_one_view(path, keyed_server, scope)
    tamper(path, "UPDATE analyses SET raw = ? WHERE id = ?", BAD_RAWS[bad], ids[3])
    cache = LocalCache(scope, path=path)
    view = cache.view(None, None)
    assert view is not None and [i.id for i in view.items] == ids[:3] + ids[4:]
    assert view.skipped == 1
    assert len(cache.analyses(None)) == 49
    assert cache.skipped == 2 and cache.warning is None and cache.usable  # the view, then all
    cache.close()


@pytest.mark.parametrize(
    "when", [1e300, -1e300, "yesterday", b"\x00"], ids=["huge", "negative", "text", "blob"]
)
def test_a_view_or_total_with_an_unreadable_time_is_left_out_and_counted(
    tmp_path: Path, keyed_server: DemoServer, when: object
) -> None:
    path = tmp_path / "c.sqlite3"
    scope = CacheScope("https://kept.example.test")
    keep_one_view(path, keyed_server, scope)
    tamper(path, "UPDATE views SET fetched_at = ?", when)
    tamper(path, "UPDATE totals SET fetched_at = ?", when)
    cache = LocalCache(scope, path=path)
    assert cache.view(None, None) is None and cache.totals(None) == {}
    assert cache.skipped == 2 and cache.usable
    cache.close()


def test_a_total_that_is_not_a_count_is_left_out(tmp_path: Path, keyed_server: DemoServer) -> None:
    path = tmp_path / "c.sqlite3"
    scope = CacheScope("https://kept.example.test")
    keep_one_view(path, keyed_server, scope)
    tamper(path, "UPDATE totals SET total = 'many'")
    tamper(path, "UPDATE views SET total = 'many', done = 'maybe'")
    cache = LocalCache(scope, path=path)
    assert cache.totals(None) == {}
    view = cache.view(None, None)
    assert view is not None and len(view.items) == 50 and view.total is None and not view.done
    cache.close()


@pytest.fixture
def offline_scope(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The default cache of the configured server holding one view whose fourth row and
    whose view time are damaged; the ids in order."""
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", fresh_demo_server.base_url)
    path = default_cache_path()
    return keep_one_view(path, fresh_demo_server, CacheScope(fresh_demo_server.base_url))


@pytest.mark.parametrize("bad", ["invalid-json", "blob", "deep", "huge"])
def test_an_offline_listing_shows_the_good_rows_and_counts_the_bad(
    offline_scope: list[str], invoke: Invoke, bad: str
) -> None:
    sql = "UPDATE analyses SET raw = ? WHERE id = ?"
    tamper(default_cache_path(), sql, BAD_RAWS[bad], offline_scope[3])
    result = invoke("analyses", "list", "--offline", "--all", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    listed = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert listed == offline_scope[:3] + offline_scope[4:]
    assert "1 row of the local cache could not be read and was left out" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("when", [1e300, "yesterday"])
def test_info_and_an_offline_listing_survive_an_unreadable_time(
    offline_scope: list[str], invoke: Invoke, when: object
) -> None:
    tamper(default_cache_path(), "UPDATE views SET fetched_at = ?", when)
    info = invoke("cache", "info")
    assert info.exit_code == 0, info.stderr
    assert "1 view, 50 analyses" in info.stdout
    listed = invoke("analyses", "list", "--offline")
    assert listed.exit_code == 4, listed.stderr  # the view cannot be read: nothing kept
    assert "holds nothing" in listed.stderr and "internal error" not in listed.stderr
    assert "could not be read" in listed.stderr
