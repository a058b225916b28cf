"""The cursor walker and the walk at their edges: the words and the request of each way a
listing stops, a cursor that cannot be read, no page asked for early unless wanted, the
run of empty pages counted afresh, and a walk left early that never raises what nobody
reads."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest
from tests.api.fake_pages import ScriptedSource, page

from screen_analysis.api.errors import (
    EmptyPagesError,
    InvalidResponseError,
    PageBoundError,
    PaginationLoopError,
)
from screen_analysis.api.models import AnalysisPage
from screen_analysis.api.page_rows import MODEL_ROWS
from screen_analysis.api.pagination import PageIterator, Walk


def describe(cursor: str | None) -> str:
    return f"GET /v1/analyses?after={cursor}"


async def test_a_loop_is_worded_by_which_cursor_came_back() -> None:
    source = ScriptedSource([page(["a"], "A"), page(["b"], "A")])
    pages = PageIterator(source, describe=describe)
    await anext(pages)
    await anext(pages)
    with pytest.raises(PaginationLoopError) as raised:
        await anext(pages)
    assert raised.value.detail == (
        "pagination loop: next_cursor 'A' repeats the cursor just sent (page 2)"
    )
    source = ScriptedSource([page(["a"], "A"), page(["b"], "B"), page(["c"], "A")])
    pages = PageIterator(source, describe=describe)
    with pytest.raises(PaginationLoopError) as raised:
        [p async for p in pages]
    assert str(raised.value) == (
        "GET /v1/analyses?after=B: pagination loop:"
        " next_cursor 'A' repeats a cursor already followed (page 3)"
    )


async def test_a_long_cursor_is_quoted_in_forty_characters() -> None:
    long = "c" * 100
    source = ScriptedSource([page(["a"], long), page(["b"], long)])
    with pytest.raises(PaginationLoopError) as raised:
        [p async for p in PageIterator(source)]
    quoted = str(raised.value).split("next_cursor ", 1)[1].split(" repeats", 1)[0]
    assert quoted == repr("c" * 39 + "…")


async def test_a_cursor_that_cannot_be_read_delivers_its_page_then_stops_worded() -> None:
    odd = page(["a"], None)._replace(odd_cursor="the server's next_cursor is a number")
    source = ScriptedSource([page(["z"], "A"), odd])
    pages = PageIterator(source, describe=describe)
    delivered = [await anext(pages), await anext(pages)]
    assert [p.items[0].id for p in delivered] == ["z", "a"]
    assert pages.has_next_page and pages.loop_error is not None
    with pytest.raises(InvalidResponseError) as raised:
        await anext(pages)
    assert str(raised.value) == (
        "GET /v1/analyses?after=A: invalid response: the server's next_cursor is a number:"
        " no further page can be asked for (page 2)"
    )
    assert source.calls == [None, "A"]


async def test_no_page_is_asked_for_early_unless_wanted() -> None:
    source = ScriptedSource([page(["a"], "A"), page(["b"], None)])
    pages = PageIterator(source)
    await anext(pages)
    await asyncio.sleep(0)  # give a request sent early its chance to start
    assert source.calls == [None]


async def test_a_walk_knows_no_total_or_cursor_before_its_first_page() -> None:
    walk = Walk(PageIterator(ScriptedSource([page(["a"], None, total=7)])), MODEL_ROWS)
    assert (walk.total, walk.next_cursor) == (None, None)
    await anext(walk)
    assert (walk.total, walk.next_cursor) == (7, None)


async def test_a_run_of_empty_pages_is_worded_afresh_after_new_rows() -> None:
    """Repeats before a page with new rows do not make a later run of empty pages read as
    repeats: each run is worded by its own pages."""
    pages = [page(["a"], "c0"), page(["a"], "c1"), page(["b"], "c2")]
    pages += [page([], f"e{i}") for i in range(5)]
    walk = Walk(
        PageIterator(ScriptedSource(pages), describe=describe), MODEL_ROWS, max_empty_pages=3
    )
    with pytest.raises(EmptyPagesError) as raised:
        [p async for p in walk]
    assert str(raised.value) == (
        "GET /v1/analyses?after=e1: stopped after 3 empty pages in a row; more may exist"
    )


def test_the_bound_on_pages_names_the_last_request() -> None:
    async def endless(cursor: str | None) -> AnalysisPage:
        start = int(cursor or 0)
        return page([f"ana_{start}"], str(start + 1))

    async def walk_all() -> None:
        async with Walk(PageIterator(endless, describe=describe), MODEL_ROWS, max_pages=3) as w:
            async for _page in w:
                pass

    with pytest.raises(PageBoundError) as raised:
        asyncio.run(walk_all())
    assert raised.value.request == "GET /v1/analyses?after=2"


async def test_a_walk_remembers_rows_for_its_window_of_pages_only() -> None:
    """`dedup_window` is the walk's memory: a row met again within it is left out, one met
    again after it has passed is not remembered (the price of flat memory)."""
    script = [page(["a"], "1"), page(["a", "b"], "2"), page(["c"], "3"), page(["a"], None)]
    walk = Walk(PageIterator(ScriptedSource(script)), MODEL_ROWS, dedup_window=1)
    rows = [[i.id for i in p.items] async for p in walk]
    assert rows == [["a"], ["b"], ["c"], ["a"]]


async def test_leaving_a_walk_early_never_raises_what_nobody_reads(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The request asked for early fails, before or while it is cancelled: leaving the walk
    is quiet, and asyncio has no unretrieved failure to report later."""
    asked = asyncio.Event()

    async def failing(cursor: str | None) -> AnalysisPage:
        if cursor is None:
            return page(["a"], "A")
        asked.set()
        raise ConnectionResetError("the server hung up")

    walk = Walk(PageIterator(failing, prefetch=True), MODEL_ROWS)
    await anext(walk)
    await asked.wait()
    await asyncio.sleep(0)  # the failed request's task ends
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        await walk.aclose()
        del walk
        gc.collect()
    assert "never retrieved" not in caplog.text

    async def hangs_then_fails(cursor: str | None) -> AnalysisPage:
        if cursor is None:
            return page(["a"], "A")
        asked.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            raise ConnectionResetError("reset while closing") from None
        raise AssertionError("never answered")

    asked.clear()
    async with Walk(PageIterator(hangs_then_fails, prefetch=True), MODEL_ROWS) as walk:
        await anext(walk)
        await asked.wait()
