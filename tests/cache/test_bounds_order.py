"""Which of the cache's rows go first when it is over its bounds, with the clock the test
sets: the rows a refreshed view no longer lists, then the least recently viewed views (a
read counts as a view), whole; the projects fetched longest ago, a quarter a round."""

from __future__ import annotations

from collections.abc import Callable

from tests.cache.conftest import Clock
from tests.cache.test_writes import ids, row

from screen_analysis.api.models import Project
from screen_analysis.cache import LocalCache
from screen_analysis.cache.contents import file_bytes
from screen_analysis.cache.schema import SHM_BYTES


def test_a_batch_of_projects_over_the_bound_is_cut_to_it(
    opened: Callable[..., LocalCache], clock: Clock
) -> None:
    """Thirteen projects of 40 KB arrive in one batch under a 0.2 MB bound, after one that
    was fetched earlier: several rounds let a quarter go each, the earliest first."""
    cache = opened(max_mb=0.2)
    cache.store_project(Project.model_validate({"id": "early", "name": "Early"}))
    cache.flush()
    clock.now = 2_000.0
    for n in range(13):
        cache.store_project(Project.model_validate({"id": f"p{n:02}", "name": "x" * 40_000}))
    cache.flush()
    kept = [p.id for p, _at in cache.projects()]
    assert cache.usable and cache.warning is None
    assert 0 < len(kept) < 13 and "early" not in kept
    assert file_bytes(cache.path) - SHM_BYTES <= 0.2 * 1024 * 1024


def test_of_two_projects_only_one_fits_the_earlier_goes(
    opened: Callable[..., LocalCache], clock: Clock
) -> None:
    cache = opened(max_mb=0.2)
    for n, project in enumerate(("first", "second")):
        clock.now = 1_000.0 + n
        cache.store_project(Project.model_validate({"id": project, "name": "x" * 80_000}))
        cache.flush()
    assert [p.id for p, _at in cache.projects()] == ["second"]


def test_of_two_views_over_the_bound_the_older_goes_whole(
    opened: Callable[..., LocalCache], clock: Clock
) -> None:
    cache = opened(max_analyses=3)
    cache.store_page(
        None, "failed", [row("f1", "failed"), row("f2", "failed")], total=2, done=True, first=True
    )
    cache.flush()
    clock.now = 2_000.0
    cache.store_page(None, None, [row("a1"), row("a2")], total=2, done=True, first=True)
    cache.flush()
    assert cache.view(None, "failed") is None
    view = cache.view(None, None)
    assert view is not None and ids(view.items) == ["a1", "a2"] and view.done


def test_rows_a_refreshed_view_no_longer_lists_go_before_any_view(
    opened: Callable[..., LocalCache], clock: Clock
) -> None:
    """Two views of two rows under a bound of four analyses; the newer one refreshed with
    two other rows: the two it no longer lists go, and both views stay."""
    cache = opened(max_analyses=4)
    cache.store_page(
        None, "failed", [row("f1", "failed"), row("f2", "failed")], total=2, done=True, first=True
    )
    cache.flush()
    clock.now = 2_000.0
    cache.store_page(None, None, [row("a1"), row("a2")], total=2, done=True, first=True)
    cache.flush()
    cache.store_page(None, None, [row("a3"), row("a4")], total=2, done=True, first=True)
    cache.flush()
    failed = cache.view(None, "failed")
    assert failed is not None and ids(failed.items) == ["f1", "f2"]
    assert sorted(i.id or "" for i in cache.analyses(None)) == ["a3", "a4", "f1", "f2"]


def test_a_view_read_counts_as_viewed_for_the_bound(
    opened: Callable[..., LocalCache], clock: Clock
) -> None:
    """Three views of two rows under a bound of six analyses: the first one read again just
    before a fourth view arrives stays, and the least recently viewed one goes."""
    cache = opened(max_analyses=6)
    for n, status in enumerate(("pending", "completed", "failed"), 1):
        clock.now = 1_000.0 + n
        rows = [row(f"{status}{k}", status) for k in (1, 2)]
        cache.store_page(None, status, rows, total=2, done=True, first=True)
        cache.flush()
    clock.now = 1_010.0
    assert cache.view(None, "pending") is not None  # viewed again now
    cache.flush()
    clock.now = 1_020.0
    cache.store_page("p1", None, [row("x1"), row("x2")], total=2, done=True, first=True)
    cache.flush()
    assert cache.view(None, "completed") is None, "the least recently viewed went"
    for kept in ((None, "pending"), (None, "failed"), ("p1", None)):
        view = cache.view(*kept)
        assert view is not None and len(view.items) == 2 and view.done, kept
