"""The bound on one walk's pages: cursors that never end are not followed for ever."""

from __future__ import annotations

import asyncio

import pytest
from tests.api.fake_pages import page

from screen_analysis.api import pagination
from screen_analysis.api.errors import PageBoundError, PaginationLoopError
from screen_analysis.api.models import AnalysisPage
from screen_analysis.api.pagination import MODEL_ROWS, PageIterator, Walk


class Endless:
    """Every page holds fresh analyses and a fresh cursor: the listing never ends."""

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self.calls = 0

    async def __call__(self, cursor: str | None) -> AnalysisPage:
        self.calls += 1
        start = int(cursor or 0)
        ids = [f"ana_{n}" for n in range(start, start + self.size)]
        return page(ids, str(start + self.size), total=10)


async def walk_all(walk: Walk[AnalysisPage]) -> int:
    rows = 0
    async with walk:
        async for fresh in walk:
            rows += len(fresh.items)
    return rows


def test_an_endless_listing_stops_at_the_bound_in_words_of_what_happened() -> None:
    source = Endless()
    walk = Walk(PageIterator(source), MODEL_ROWS, max_pages=40)
    with pytest.raises(PageBoundError) as raised:
        asyncio.run(walk_all(walk))
    assert source.calls == 40 and walk.rows_yielded == 120  # every page up to the bound
    assert raised.value.detail == (
        "listing stopped: it did not end within 40 pages (120 analyses); "
        "the server still sent a next cursor"
    )
    assert isinstance(raised.value, PaginationLoopError)  # handled as a listing gone wrong


def test_a_listing_that_ends_on_the_bound_is_whole() -> None:
    pages = [page([f"ana_{n}"], str(n + 1) if n < 9 else None) for n in range(10)]

    async def source(cursor: str | None) -> AnalysisPage:
        return pages[int(cursor or 0)]

    walk = Walk(PageIterator(source), MODEL_ROWS, max_pages=10)
    assert asyncio.run(walk_all(walk)) == 10


def test_every_walk_has_the_bound_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagination, "MAX_WALK_PAGES", 25)
    source = Endless()
    with pytest.raises(PageBoundError):
        asyncio.run(walk_all(Walk(PageIterator(source, prefetch=True), MODEL_ROWS)))
    assert 25 <= source.calls <= 26  # the bound, and the one page asked for ahead
