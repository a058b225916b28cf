"""Local caches opened by a test's opener that note each close (`NotedCaches`), for tests
of who closes a cache, and when; `callbacks_done` waits for what a cache opened ahead does
once it is open."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from screen_analysis.cache import LocalCache
from screen_analysis.cache.ahead import THREAD_NAME, CacheAhead

K = TypeVar("K")


class NotedCaches(Generic[K]):
    """An opener: `open_cache`'s caches, each noted in `made` when opened and in `closed`
    when closed (and closed then, as ever)."""

    def __init__(self, open_cache: Callable[[K], LocalCache]) -> None:
        self.open_cache = open_cache
        self.made: list[LocalCache] = []
        self.closed: list[LocalCache] = []

    def __call__(self, key: K) -> LocalCache:
        cache = self.open_cache(key)
        close = cache.close

        def noted_close() -> None:
            self.closed.append(cache)
            close()

        cache.close = noted_close  # type: ignore[method-assign]
        self.made.append(cache)
        return cache


def callbacks_done(ahead: CacheAhead, timeout_s: float = 30.0) -> None:
    """Wait until `ahead`'s opening is done and the callbacks added to it so far have run.
    Those added before it was done run in the opening thread, after `result` can already
    return (a callback added meanwhile runs at once, in the adding thread): so the opening
    threads are waited for; one added later ran at once where it was added."""
    for thread in threading.enumerate():
        if thread.name == THREAD_NAME:
            thread.join(timeout_s)
            assert not thread.is_alive()
    assert ahead.opened.done()
