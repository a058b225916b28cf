"""The start's local cache, opened in a thread while the app is imported and built.

Opening the cache (SQLite's file, its schema checked) takes a few milliseconds, most of them
outside the interpreter; opened from the app once it runs, the wait let Textual draw an
empty frame first. `CacheAhead.start` opens it beside the imports; the app takes it once,
for the connection it was opened for (`take`), at once when it is open; when the app
browses another connection first, or ends without browsing, it is closed unused
(`discard`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from screen_analysis.cache.store import LocalCache

K = TypeVar("K", bound=Hashable)

THREAD_NAME = "cache-ahead"  # the opening's thread, by which it can be waited for


class CacheAhead:
    """A local cache being opened for `key` (a connection) in a thread of its own."""

    def __init__(self, key: Hashable, opened: Future[LocalCache]) -> None:
        self.key = key
        self.opened = opened
        self._taken = False

    @classmethod
    def start(cls, open_cache: Callable[[K], LocalCache], key: K) -> CacheAhead:
        """Start opening the cache of `key` (not a daemon: a first run's schema is written
        whole before the interpreter exits)."""
        opened: Future[LocalCache] = Future()

        def run() -> None:  # nothing cancels it: it is taken or discarded
            try:
                opened.set_result(open_cache(key))
            except BaseException as error:  # given to whoever takes it, as the opener raised it
                opened.set_exception(error)

        threading.Thread(target=run, name=THREAD_NAME).start()
        return cls(key, opened)

    def take(self, key: Hashable) -> Future[LocalCache] | None:
        """The opening, once, when it is `key`'s; else None (then `discard` it)."""
        if self._taken or key != self.key:
            return None
        self._taken = True
        return self.opened

    def discard(self) -> None:
        """Close the cache when open (or once it is), unless it was taken."""
        if self._taken:
            return
        self._taken = True
        self.opened.add_done_callback(_close_unused)


def _close_unused(opened: Future[LocalCache]) -> None:
    if opened.exception() is None:  # a failed opening left nothing open
        opened.result().close()
