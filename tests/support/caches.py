"""Local caches opened by a test's opener that note each close (`NotedCaches`), for tests
of who closes a cache, and when; `callbacks_done` waits for what a cache opened ahead does
once it is open."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from screen_analysis.cache import LocalCache
from screen_analysis.cache.ahead import CacheAhead

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
    """Wait until the callbacks added to `ahead`'s opening so far have run (its `result`
    can return before they do, in the thread that opened it)."""
    done = threading.Event()
    ahead.opened.add_done_callback(lambda _opened: done.set())
    assert done.wait(timeout_s)
