"""Cursor pagination: follows next_cursor to the end, never loops, never repeats an id —
the cursor walker (`PageIterator`) and the one walk over it (`Walk`)."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.api.fake_pages import OffsetSource, ScriptedSource, page

from screen_analysis.api.errors import EmptyPagesError, InvalidResponseError, PaginationLoopError
from screen_analysis.api.models import AnalysisItem, AnalysisPage, InvalidAnalysis
from screen_analysis.api.pagination import (
    MAX_EMPTY_PAGES,
    MODEL_ROWS,
    PageIterator,
    SeenIds,
    Walk,
)


async def collect(walk: Walk[AnalysisPage]) -> list[AnalysisItem]:
    """Every row of the walk's pages, in order."""
    async with walk:
        return [item async for page in walk for item in page.items]


@settings(max_examples=150, deadline=None)
@given(
    ids=st.lists(st.text(min_size=1, max_size=8), unique=True, max_size=120),
    size=st.integers(min_value=1, max_value=100),
)
def test_each_analysis_once_in_order_for_any_data_and_page_size(ids: list[str], size: int) -> None:
    source = OffsetSource(ids, size)
    items = asyncio.run(collect(Walk(PageIterator(source), MODEL_ROWS)))
    assert [item.id for item in items] == ids
    assert len(source.calls) == max(1, -(-len(ids) // size))


@settings(max_examples=100, deadline=None)
@given(
    ids=st.lists(st.integers(0, 30).map(str), max_size=80),
    size=st.integers(min_value=1, max_value=10),
)
def test_repeated_ids_are_yielded_once_and_counted(ids: list[str], size: int) -> None:
    walk = Walk(PageIterator(OffsetSource(ids, size)), MODEL_ROWS, max_empty_pages=10_000)
    items = asyncio.run(collect(walk))
    assert [item.id for item in items] == list(dict.fromkeys(ids))
    assert walk.skipped_duplicates == len(ids) - len(set(ids))


@settings(max_examples=100, deadline=None)
@given(
    count=st.integers(0, 60),
    size=st.integers(1, 20),
    max_items=st.integers(1, 80),
)
def test_max_items_stops_without_fetching_more_pages(count: int, size: int, max_items: int) -> None:
    ids = [f"ana_{i}" for i in range(count)]
    source = OffsetSource(ids, size)
    items = asyncio.run(collect(Walk(PageIterator(source), MODEL_ROWS, max_items=max_items)))
    assert [item.id for item in items] == ids[:max_items]
    needed = max(1, -(-min(max_items, count) // size))
    assert len(source.calls) == needed


async def test_the_first_cursor_is_none_then_each_next_cursor() -> None:
    source = OffsetSource([f"ana_{i}" for i in range(5)], 2)
    pages = [p async for p in PageIterator(source)]
    assert source.calls == [None, "2", "4"]
    assert [p.next_cursor for p in pages] == ["2", "4", None]


async def test_starting_after_a_cursor() -> None:
    source = OffsetSource([f"ana_{i}" for i in range(5)], 2)
    pages = [p async for p in PageIterator(source, after="2")]
    assert source.calls == ["2", "4"]
    assert len(pages) == 2


async def test_a_page_pointing_at_itself_is_a_loop() -> None:
    source = ScriptedSource([page(["a"], "A"), page(["b"], "A")])
    iterator = PageIterator(source, describe=lambda c: f"GET /v1/analyses?after={c}")
    assert (await anext(iterator)).next_cursor == "A"
    second = await anext(iterator)  # the looping page is still delivered
    assert [item.id for item in second.items] == ["b"]
    with pytest.raises(PaginationLoopError) as caught:
        await anext(iterator)
    assert "'A'" in str(caught.value) and "just sent" in str(caught.value)
    assert str(caught.value).startswith("GET /v1/analyses?after=A: pagination loop:")
    assert source.calls == [None, "A"]
    with pytest.raises(StopAsyncIteration):
        await anext(iterator)


async def test_a_to_b_to_a_is_a_loop() -> None:
    source = ScriptedSource([page(["a"], "A"), page(["b"], "B"), page(["c"], "A")])
    items = []
    with pytest.raises(PaginationLoopError) as caught:
        async for walked in Walk(PageIterator(source), MODEL_ROWS):
            items += [item.id for item in walked.items]
    assert items == ["a", "b", "c"]
    assert "already followed" in str(caught.value)
    assert isinstance(caught.value, InvalidResponseError)
    assert source.calls == [None, "A", "B"]


async def test_returning_to_the_starting_cursor_is_a_loop() -> None:
    source = ScriptedSource([page(["b"], "B"), page(["c"], "START")])
    with pytest.raises(PaginationLoopError):
        [p async for p in PageIterator(source, after="START")]


async def test_fresh_cursors_with_nothing_new_stop_at_the_bound_saying_more_may_exist() -> None:
    pages = [page(["a"], "c0")] + [page(["a"], f"c{i + 1}") for i in range(10)]
    source = ScriptedSource(pages)
    walk = Walk(PageIterator(source), MODEL_ROWS, max_empty_pages=3)
    with pytest.raises(EmptyPagesError) as caught:
        await collect(walk)
    assert caught.value.detail == (
        "stopped after 3 pages in a row with no new analyses; more may exist"
    )
    assert caught.value.next_cursor == "c3"
    assert len(source.calls) == 4
    assert walk.skipped_duplicates == 3


@pytest.mark.parametrize("empty", [5, MAX_EMPTY_PAGES - 1])
async def test_empty_pages_with_fresh_cursors_are_no_loop(empty: int) -> None:
    pages = [page([], f"c{i}") for i in range(empty)] + [page(["a"], None)]
    source = ScriptedSource(pages)
    items = await collect(Walk(PageIterator(source), MODEL_ROWS))
    assert [item.id for item in items] == ["a"]
    assert len(source.calls) == empty + 1


async def test_empty_pages_stop_at_the_documented_bound_worded_as_what_it_is() -> None:
    source = ScriptedSource([page([], f"c{i}") for i in range(MAX_EMPTY_PAGES + 10)])
    with pytest.raises(EmptyPagesError) as caught:
        await collect(Walk(PageIterator(source), MODEL_ROWS))
    assert caught.value.detail == (
        f"stopped after {MAX_EMPTY_PAGES} empty pages in a row; more may exist"
    )
    assert caught.value.next_cursor == f"c{MAX_EMPTY_PAGES - 1}"
    assert len(source.calls) == MAX_EMPTY_PAGES


async def test_empty_pages_with_a_cursor_are_followed_a_few_times() -> None:
    source = ScriptedSource([page([], "c1"), page([], "c2"), page(["a"], None)])
    items = await collect(Walk(PageIterator(source), MODEL_ROWS))
    assert [item.id for item in items] == ["a"]


async def test_invalid_items_without_id_are_always_yielded() -> None:
    first = page(["a"], "A")
    first = first._replace(items=[*first.items, InvalidAnalysis(reason="x")])
    second = page(["b"], None)._replace(items=[InvalidAnalysis(reason="y")])
    items = await collect(Walk(PageIterator(ScriptedSource([first, second])), MODEL_ROWS))
    assert [type(item).__name__ for item in items] == [
        "Analysis",
        "InvalidAnalysis",
        "InvalidAnalysis",
    ]


async def test_has_next_page_and_next_cursor() -> None:
    iterator = PageIterator(OffsetSource(["a", "b", "c"], 2))
    assert iterator.has_next_page and iterator.next_cursor is None
    await anext(iterator)
    assert iterator.has_next_page and iterator.next_cursor == "2"
    await anext(iterator)
    assert not iterator.has_next_page and iterator.next_cursor is None
    assert iterator.pages_fetched == 2


# --- The one walk: pages with each row once, closed by whoever walks ----------------------


async def test_a_walk_yields_pages_with_only_their_fresh_rows_models_and_raw_alike() -> None:
    source = ScriptedSource([page(["a", "b"], "A", total=4), page(["b", "c", "a", "d"], None)])
    async with Walk(PageIterator(source), MODEL_ROWS) as walk:
        pages = [p async for p in walk]
    assert [[i.id for i in p.items] for p in pages] == [["a", "b"], ["c", "d"]]
    assert [[r["id"] for r in p.raw_items] for p in pages] == [["a", "b"], ["c", "d"]]
    assert (walk.skipped_duplicates, walk.rows_yielded, walk.total) == (2, 4, 4)


async def test_max_items_cuts_the_last_page_and_asks_for_no_more() -> None:
    source = OffsetSource([f"ana_{i}" for i in range(10)], 4)
    async with Walk(PageIterator(source, prefetch=True), MODEL_ROWS, max_items=6) as walk:
        pages = [p async for p in walk]
    assert [len(p.items) for p in pages] == [4, 2] and len(pages[1].raw_items) == 2
    assert walk.next_cursor == "8"  # where the server said it could go on


async def test_leaving_a_walk_cancels_the_page_asked_for_early() -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def fetch(cursor: str | None) -> AnalysisPage:
        if cursor is None:
            return page(["a"], "A")
        started.set()
        try:
            await asyncio.Event().wait()  # the server takes its time
        except asyncio.CancelledError:
            cancelled.set()
            raise
        raise AssertionError("never answered")

    async with Walk(PageIterator(fetch, prefetch=True), MODEL_ROWS) as walk:
        async for _page in walk:
            await started.wait()
            break
    assert cancelled.is_set()


def test_a_window_of_pages_keeps_memory_flat_and_still_catches_a_moved_row() -> None:
    seen = SeenIds(window=2)
    for number in range(1, 101):
        ids = [f"p{number}-{i}" for i in range(50)]
        assert seen.fresh_raw([{"id": i} for i in ids], number)
        assert len(seen) <= 100  # two pages' ids, whatever the listing's length
    # A row that slid from the end of page 100 to the start of page 101 is left out.
    assert seen.fresh_raw([{"id": "p100-49"}, {"id": "new"}], 101) == [{"id": "new"}]
