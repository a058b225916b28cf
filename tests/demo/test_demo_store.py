"""The SQLite store: tallies, build speed, file-backed builds and threads."""

from __future__ import annotations

import sys
import threading
from datetime import datetime
from pathlib import Path
from types import FrameType

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.store import DemoStore, iter_all


def test_tallies_equal_a_recount(demo_now: datetime) -> None:
    store = DemoStore.build(DemoConfig(analyses=1000, now=demo_now))
    try:
        assert store.tallies() == store.recount()
        assert store.count_analyses(None, None) == 1000
    finally:
        store.close()


def _calls_to_build(config: DemoConfig) -> int:
    """Python function calls made while building the store of `config`: the work of the
    build, counted, so the same on a quiet machine and a crowded one."""
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        store = DemoStore.build(config)
    finally:
        sys.setprofile(None)
    store.close()
    return calls


def test_the_default_build_scales_with_its_size(demo_now: datetime) -> None:
    # Work counted, not timed: the stories and images add no cost that grows faster than
    # the rows (five times the rows: five times the calls, a little slack for the seeded
    # data's branches).
    default = DemoConfig(now=demo_now)
    small = _calls_to_build(DemoConfig(analyses=default.analyses // 5, now=demo_now))
    assert small > default.analyses // 5  # every row costs a call at least: it was counted
    assert _calls_to_build(default) <= 5.5 * small


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
