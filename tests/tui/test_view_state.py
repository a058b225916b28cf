"""The paging controller alone: one request at a time, each cursor once, stale answers dropped."""

from __future__ import annotations

from screen_analysis.api.models import Analysis, AnalysisPage, AnalysisStatus
from screen_analysis.tui.view_state import (
    CountCache,
    PageBatch,
    PaginationStuck,
    PagingController,
    ViewKey,
)


def page(ids: list[str], cursor: str | None, total: int = 10) -> AnalysisPage:
    return AnalysisPage(items=[Analysis(id=i) for i in ids], next_cursor=cursor, total=total)


def test_one_request_in_flight_and_each_cursor_once() -> None:
    paging = PagingController(page_size=2)
    first = paging.start(ViewKey())
    assert paging.next_request() is None  # the first page is in flight
    accepted = paging.accept(PageBatch(first, [page(["a", "b"], "c1")]))
    assert accepted is not None and accepted.replace
    second = paging.next_request()
    assert second is not None and second.after == "c1"
    assert paging.next_request() is None
    assert paging.accept(PageBatch(second, [page(["b", "c"], None)])) is not None
    assert paging.loaded == 3  # "b" moved across the boundary and is shown once
    assert paging.done and paging.next_request() is None


def test_answers_of_an_old_view_are_dropped() -> None:
    paging = PagingController()
    old = paging.start(ViewKey())
    new = paging.start(ViewKey(status=AnalysisStatus.FAILED))
    assert paging.accept(PageBatch(old, [page(["x"], "c")])) is None
    assert not paging.fail(old, RuntimeError("late"))
    assert paging.in_flight == new


def test_a_failed_page_is_retried_with_the_same_cursor() -> None:
    paging = PagingController()
    first = paging.start(ViewKey())
    paging.accept(PageBatch(first, [page(["a"], "c1")]))
    request = paging.next_request()
    assert request is not None
    assert paging.fail(request, RuntimeError("503"))
    assert paging.next_request() is None  # nothing more until the retry
    retry = paging.retry()
    assert retry == request
    assert paging.retry() is None


def test_a_repeated_cursor_stops_paging() -> None:
    paging = PagingController()
    first = paging.start(ViewKey())
    paging.accept(PageBatch(first, [page(["a"], "c1")]))
    second = paging.next_request()
    assert second is not None
    paging.accept(PageBatch(second, [page(["b"], "c1")]))
    assert paging.done and isinstance(paging.error, PaginationStuck)


def test_refresh_reloads_as_many_rows_as_were_loaded() -> None:
    paging = PagingController()
    first = paging.start(ViewKey())
    paging.accept(PageBatch(first, [page(["a", "b", "c"], "c1")]))
    request = paging.refresh()
    assert request.replace and request.fill_to == 3 and request.generation > first.generation


def test_count_cache_expires() -> None:
    now = [0.0]
    cache = CountCache(ttl_s=10, clock=lambda: now[0])
    cache.put(ViewKey(), 5)
    assert cache.get(ViewKey()) == 5
    now[0] = 11
    assert cache.get(ViewKey()) is None
    assert cache.missing([ViewKey()]) == [ViewKey()]
