"""The start's local cache opened ahead (`cache/ahead.py`): a real cache on a file of the
test's, opened in a thread of its own, taken once by the key it was opened for, closed
unused otherwise."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.caches import NotedCaches, callbacks_done

from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.ahead import THREAD_NAME, CacheAhead

WAIT_S = 30.0  # a hang guard: every wait below ends as soon as its thread is done


class Opener(NotedCaches[str]):
    """Opens real caches on one file, noting the thread that opened each and each close;
    held while `hold` is clear."""

    def __init__(self, path: Path) -> None:
        super().__init__(lambda key: LocalCache(CacheScope(key, ""), path=path))
        self.threads: list[str] = []
        self.hold = threading.Event()
        self.hold.set()

    def __call__(self, key: str) -> LocalCache:
        assert self.hold.wait(WAIT_S)
        self.threads.append(threading.current_thread().name)
        return super().__call__(key)


@pytest.fixture
def opener(tmp_path: Path) -> Iterator[Opener]:
    made = Opener(tmp_path / "c.sqlite3")
    yield made
    made.hold.set()
    for cache in made.made:
        if cache not in made.closed:
            cache.close()


def test_the_key_it_was_opened_for_takes_it_once(opener: Opener) -> None:
    ahead = CacheAhead.start(opener, "demo")
    opening = ahead.take("demo")
    assert opening is not None
    cache = opening.result(WAIT_S)
    assert opener.made == [cache]
    assert opener.threads == [THREAD_NAME]  # not the caller's
    assert ahead.take("demo") is None  # once
    ahead.discard()  # taken: the taker's to close
    assert opener.closed == []


def test_another_key_takes_nothing_and_the_discarded_cache_is_closed(opener: Opener) -> None:
    ahead = CacheAhead.start(opener, "demo")
    assert ahead.take("https://api.example.com") is None
    ahead.discard()
    assert ahead.take("demo") is None  # discarded: not taken later either
    callbacks_done(ahead)
    assert opener.closed == opener.made != []


def test_a_cache_discarded_while_opening_is_closed_once_open(opener: Opener) -> None:
    opener.hold.clear()
    ahead = CacheAhead.start(opener, "demo")
    ahead.discard()
    assert opener.closed == []
    opener.hold.set()
    callbacks_done(ahead)
    assert opener.closed == opener.made != []


def test_an_opener_s_failure_goes_to_whoever_takes_it(caplog: pytest.LogCaptureFixture) -> None:
    def refuses(key: str) -> LocalCache:
        raise OSError(f"no room for {key}")

    taken = CacheAhead.start(refuses, "demo").take("demo")
    assert taken is not None
    with pytest.raises(OSError, match="no room for demo"):
        taken.result(WAIT_S)
    left = CacheAhead.start(refuses, "demo")
    assert isinstance(left.opened.exception(WAIT_S), OSError)
    left.discard()  # nothing to close, and nothing goes wrong closing it
    assert caplog.records == []


def test_the_start_opens_it_beside_the_caller(opener: Opener) -> None:
    """The caller goes on while the thread opens it (held here until the caller says)."""
    opener.hold.clear()
    started = CacheAhead.start(opener, "demo")
    assert not started.opened.done()
    opener.hold.set()
    opening = started.take("demo")
    assert opening is not None
    assert opening.result(WAIT_S) is opener.made[0]
