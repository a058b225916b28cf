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


def test_default_size_builds_in_well_under_a_second(demo_now: datetime) -> None:
    started = time.perf_counter()
    DemoStore.build(DemoConfig(now=demo_now)).close()
    assert time.perf_counter() - started < 1.0


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
