"""The cache's policy (`cache.kept.KeptCache`): which key may see what the cache kept, for
the app and for the command line's `--offline` alike, against a real cache file holding a
page of the reference server."""

from __future__ import annotations

from pathlib import Path

from tests.cache.conftest import pages

from screen_analysis.api.errors import AuthenticationError
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.cache.kept import KeptCache, KeyState
from screen_analysis.demo.runner import DemoServer


def kept_page(tmp_path: Path, server: DemoServer) -> LocalCache:
    cache = LocalCache(CacheScope("http://127.0.0.1:1", ""), path=tmp_path / "c.sqlite3")
    (items, total, done), *_ = pages(server, 1)
    cache.store_page(None, None, items, total=total, done=done, first=True)
    cache.flush()
    return cache


def test_a_key_not_known_sees_nothing_before_an_answer_and_a_refused_one_never(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    cache = kept_page(tmp_path, keyed_server)
    try:
        kept = KeptCache(cache)
        assert not kept.open and kept.view(None, None) is None
        kept.answered()
        view = kept.view(None, None)
        assert view is not None and view.items
        kept.failed(AuthenticationError("no", status_code=401, request="GET /v1/analyses"))
        assert kept.state is KeyState.REFUSED and kept.view(None, None) is None
        assert kept.unrefused is None
    finally:
        cache.close()


def test_the_command_lines_offline_reads_what_the_app_shows_offline(
    tmp_path: Path, keyed_server: DemoServer
) -> None:
    """`--offline` sends no request: the policy reads that as no server at all, where the
    app shows what is kept (no key was refused)."""
    cache = kept_page(tmp_path, keyed_server)
    try:
        kept = KeptCache.offline(cache)
        assert kept.open and kept.unrefused is cache
        view = kept.view(None, None)
        assert view is not None and len(view.items) > 0
        assert kept.matching(None, "completed") is not None
    finally:
        cache.close()
