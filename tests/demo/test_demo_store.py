"""The SQLite store: tallies, build speed, file-backed builds and threads."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.store import DemoStore, iter_all


def test_tallies_equal_a_recount(demo_now: datetime) -> None:
    store = DemoStore.build(DemoConfig(analyses=1000, now=demo_now))
    try:
        assert store.tallies() == store.recount()
        assert store.count_analyses(None, None) == 1000
    finally:
        store.close()


def _quickest_build(config: DemoConfig, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        DemoStore.build(config).close()
        times.append(time.perf_counter() - started)
    return min(times)


def test_the_default_build_scales_with_its_size(demo_now: datetime) -> None:
    # A ratio within one run, not a time: the stories and images add no fixed cost that
    # would outgrow the rows (benchmarks/ measures the time itself).
    default = DemoConfig(now=demo_now)
    small = _quickest_build(DemoConfig(analyses=default.analyses // 5, now=demo_now))
    assert _quickest_build(default) <= 10 * small  # linear would be 5


def test_file_backed_build(tmp_path: Path, demo_now: datetime) -> None:
    path = tmp_path / "demo.sqlite3"
    config = DemoConfig(analyses=200, now=demo_now, db_path=path)
    store = DemoStore.build(config)
    try:
        assert path.exists()
        first = list(iter_all(store))
    finally:
        store.close()
    again = DemoStore.build(config)  # rebuilds over the old file
    try:
        assert list(iter_all(again)) == first
    finally:
        again.close()


def test_concurrent_reads_from_threads(demo_now: datetime) -> None:
    store = DemoStore.build(DemoConfig(analyses=500, now=demo_now))
    failures: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(5):
                assert len(list(iter_all(store))) == 500
        except BaseException as error:  # collected for the main thread
            failures.append(error)

    threads = [threading.Thread(target=read) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    assert failures == []
