"""Two copies of the app as real processes starting at once on a fresh file: the schema is
made once and both keep their writes.

A file of its own, outside the mutation tier's lists (pyproject.toml): the cache's code runs
only in the spawned processes here, where mutmut does not see what a test reaches, so no
mutant is ever tested against it, and starting the copies under mutmut takes longer than the
tier gives a test.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from tests.cache.conftest import rows_in_file

from screen_analysis.cache import CacheScope, LocalCache


def _process_opens(path: str, name: str, start: Any, out: Any) -> None:
    start.wait()
    cache = LocalCache(CacheScope(name), path=Path(path))
    out.put((name, cache.warning))
    cache.store_totals(None, {None: 7})
    cache.close()


def test_two_processes_starting_at_once_on_a_fresh_file_both_keep_it(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    for round_ in range(4):
        path = tmp_path / f"p{round_}.sqlite3"
        start, out = context.Barrier(2), context.Queue()
        workers = [
            context.Process(target=_process_opens, args=(str(path), name, start, out))
            for name in ("one", "two")
        ]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                worker.join(60)
                assert worker.exitcode == 0
        finally:  # a copy that hangs is not left behind (the mutation tier fails such tests)
            for worker in workers:
                if worker.is_alive():
                    worker.kill()
                    worker.join()
        assert dict(out.get(timeout=5) for _ in workers) == {"one": None, "two": None}
        assert not path.with_name(path.name + ".bad").exists()
        assert rows_in_file(path)["totals"] == 2
