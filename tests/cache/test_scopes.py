"""Whose rows the cache holds, whatever happens around it: a clear while another copy of the
app writes, two copies starting at once on a fresh file (threads; real processes:
`test_copies.py`), and a process killed between writes. No row may outlive or escape its
scope, and `cache info` says what the file holds."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

from tests.cache.conftest import pages, rows_in_file

from screen_analysis.api.models import AnalysisItem
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.contents import Forgotten, forget, kept_scopes
from screen_analysis.demo.runner import DemoServer

FIRST = CacheScope("https://first.example.test", "")
OTHER = CacheScope("https://other.example.test", "")


def test_a_clear_while_a_copy_writes_leaves_no_row_another_server_can_see(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """The issue's sequence: the app open and writing, `cache clear --all`, the app writing
    on (a page appended to a view that is gone, a new view, totals, a key); then another
    server's cache sees nothing, and `cache info` counts every row the file holds."""
    path = tmp_path / "c.sqlite3"
    (one, total, _d), (two, _t, _d2) = pages(keyed_server, 2)
    running = LocalCache(FIRST, path=path)
    running.store_page(None, None, one, total=total, done=False, first=True)
    running.key_accepted("digest-of-the-first-key")
    running.flush()
    gone, warning = forget(path, None)
    assert warning is None and gone == Forgotten(1, 50)
    running.store_page(None, None, two, total=total, done=False, first=False)  # page 2
    running.store_page("proj_x", None, one[:10], total=10, done=True, first=True)
    running.store_totals(None, {None: 300})
    running.key_accepted("digest-of-the-first-key")
    running.flush()
    assert running.warning is None and running.usable

    other = LocalCache(OTHER, path=path)
    assert other.view(None, None) is None and other.view("proj_x", None) is None
    assert other.analyses(None) == [] and other.totals(None) == {}
    assert not other.key_known("digest-of-the-first-key")
    other.close()

    scopes, _warning = kept_scopes(path)
    in_file = rows_in_file(path)
    assert sum(s.analyses for s in scopes) == in_file["analyses"], "info counts every row"
    assert [s.base_url for s in scopes] == [FIRST.base_url]  # the writer's own, made again
    mine = running.view("proj_x", None)
    assert mine is not None and len(mine.items) == 10
    assert running.view(None, None) is None, "a page of a cleared view is not kept alone"
    running.close()
    forget(path, None)
    assert set(rows_in_file(path).values()) == {0}, "a clear leaves nothing in the file"


def test_a_scope_cleared_alone_is_not_filled_under_another(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    path = tmp_path / "c.sqlite3"
    ((items, total, _done),) = pages(keyed_server, 1)
    running = LocalCache(FIRST, path=path)
    running.store_page(None, None, items, total=total, done=False, first=True)
    running.flush()
    assert forget(path, FIRST) == (Forgotten(1, 50), None)
    other = LocalCache(OTHER, path=path)  # may take the id the first scope had
    other.store_totals(None, {None: 1})
    other.flush()
    running.store_page(None, "failed", items[:5], total=5, done=True, first=True)
    running.flush()
    assert other.view(None, "failed") is None and other.analyses(None) == []
    running.close()
    other.close()


def _open_at_once(path: Path, scope: CacheScope, start: Any, found: dict[str, object]) -> None:
    start.wait()
    cache = LocalCache(scope, path=path)
    found[scope.base_url] = cache.warning
    cache.store_totals(None, {None: 7})
    cache.close()


def test_two_copies_starting_at_once_on_a_fresh_file_both_keep_it(tmp_path: Path) -> None:
    """Two connections opening a file that does not exist yet, at the same moment, twenty
    times: neither sets the file aside (the schema is made once), both writes are there."""
    for round_ in range(20):
        path = tmp_path / f"c{round_}.sqlite3"
        start = threading.Barrier(2)
        found: dict[str, object] = {}
        threads = [
            threading.Thread(target=_open_at_once, args=(path, s, start, found))
            for s in (FIRST, OTHER)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert found == {FIRST.base_url: None, OTHER.base_url: None}, f"round {round_}"
        assert not path.with_name(path.name + ".bad").exists()
        assert rows_in_file(path)["totals"] == 2


WRITER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from screen_analysis.api.parsing import parse_item
    from screen_analysis.cache import CacheScope, LocalCache

    items = [parse_item(i) for i in json.loads(Path(sys.argv[2]).read_text())]
    cache = LocalCache(CacheScope("https://first.example.test"), path=Path(sys.argv[1]))
    n = 0
    while True:  # killed from outside, somewhere in a write
        cache.store_page(f"proj_{n % 7}", None, items, total=len(items), done=True, first=True)
        cache.store_totals(f"proj_{n % 7}", {None: len(items)})
        cache.flush()
        n += 1
        if n == 3:
            print("writing", flush=True)
    """
)


def test_a_process_killed_between_writes_leaves_a_whole_file(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """SIGKILL while a copy writes view after view: the file is sound, every view holds a
    whole page or is not there, no row points at nothing, and it opens without a warning."""
    import json

    ((items, _total, _done),) = pages(keyed_server, 1)
    source = tmp_path / "items.json"
    source.write_text(json.dumps([_raw(i) for i in items]))
    path = tmp_path / "c.sqlite3"
    for _round in range(3):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(source)], stdout=subprocess.PIPE
        )
        try:
            assert writer.stdout is not None and writer.stdout.readline() == b"writing\n"
        finally:  # killed whatever it printed: a writer that never does is not left running
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait(30)
            writer.stdout.close()  # type: ignore[union-attr]
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        sizes = db.execute("SELECT count(*) FROM view_rows GROUP BY view").fetchall()
        assert sizes and {n for (n,) in sizes} == {50}, "each view whole or absent"
        dangling = "SELECT count(*) FROM view_rows r WHERE NOT EXISTS (SELECT 1 FROM analyses a"
        assert db.execute(dangling + " WHERE a.id = r.analysis)").fetchone()[0] == 0
        db.close()
        cache = LocalCache(FIRST, path=path)
        assert cache.warning is None and cache.view("proj_0", None) is not None
        cache.close()


def _raw(item: AnalysisItem) -> object:
    return item.model_dump(mode="json") if hasattr(item, "model_dump") else item.raw
