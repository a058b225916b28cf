"""A view's pager against answers the document allows but the reference server never sends
(a scripted server on loopback, no Textual): a total that is no count, a cursor that
repeats, empty pages that say more exist (read on after the bound, not from the top), and
cursors that never end (the walk's bound on pages)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis

from screen_analysis.api import pagination
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import EmptyPagesError, PageBoundError
from screen_analysis.api.pagination import MAX_EMPTY_PAGES
from screen_analysis.browse import Pager, Sources, ViewKey
from screen_analysis.secret import SecretStr

Script = Callable[[str, dict[str, str]], Reply]


@contextlib.asynccontextmanager
async def serve(script: Script) -> AsyncIterator[tuple[Pager, ScriptedServer]]:
    """A pager on the first view of a server answering from `script`."""
    with ScriptedServer(script) as server:
        key = SecretStr("sk-test-oddities")
        async with ScreenAnalysisClient(server.base_url, key, max_retries=0) as client:
            pager = Sources(CurrentClient(client)).pager()
            pager.open(ViewKey())
            yield pager, server


def asked(server: ScriptedServer) -> list[str | None]:
    return [seen.query.get("after") for seen in server.seen if seen.path == "/v1/analyses"]


async def test_a_total_that_is_no_count_is_unknown_and_said_once() -> None:
    def script(path: str, q: dict[str, str]) -> Reply:
        after = q.get("after")
        cursor = None if after else "c1"
        data = [analysis(2 if after else 1)]
        return Reply.json({"data": data, "next_cursor": cursor, "total": "lots"})

    async with serve(script) as (pager, _server):
        page = await pager.next_page()
        assert page is not None and page.total is None and page.odd_total is not None
        assert pager.total is None and pager.total_unknown
        assert [n for n in page.notes if "shown as unknown" in n], page.notes
        more = await pager.next_page()
        assert more is not None and more.notes == (), "said once per view"


async def test_a_cursor_that_repeats_stops_paging_with_the_rows_kept() -> None:
    def script(path: str, q: dict[str, str]) -> Reply:
        n = 2 if q.get("after") else 1
        return Reply.json({"data": [analysis(n)], "next_cursor": "c1", "total": 9})

    async with serve(script) as (pager, server):
        assert await pager.next_page() is not None
        page = await pager.next_page()
        assert page is not None and len(page.items) == 1 and page.loop_error is not None
        assert pager.done and not pager.can_page and pager.error is page.loop_error
        state = pager.paging_state()
        assert state.words.startswith("Paging stopped: ") and state.again == "reload from the top"
        assert asked(server) == [None, "c1"]


async def test_empty_pages_stop_at_the_bound_and_retry_reads_on() -> None:
    def script(path: str, q: dict[str, str]) -> Reply:
        n = int(q.get("after", "c0")[1:])
        return Reply.json({"data": [], "next_cursor": f"c{n + 1}", "total": 10**6})

    async with serve(script) as (pager, server):
        with pytest.raises(EmptyPagesError):
            await pager.next_page()
        assert len(asked(server)) == MAX_EMPTY_PAGES
        state = pager.paging_state()
        assert state.state == "stopped" and state.again == "read on"
        assert pager.retry()
        with pytest.raises(EmptyPagesError):
            await pager.next_page()
        pages = asked(server)
        assert len(pages) == 2 * MAX_EMPTY_PAGES
        assert pages[MAX_EMPTY_PAGES] == f"c{MAX_EMPTY_PAGES}", "went on, not from the top"


async def test_cursors_that_never_end_stop_at_the_walks_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pagination, "MAX_WALK_PAGES", 3)

    def script(path: str, q: dict[str, str]) -> Reply:
        n = int(q.get("after", "c0")[1:])
        return Reply.json({"data": [analysis(n)], "next_cursor": f"c{n + 1}", "total": 10})

    async with serve(script) as (pager, server):
        for _ in range(3):
            assert await pager.next_page() is not None
        with pytest.raises(PageBoundError):
            await pager.next_page()
        assert pager.paging_state().words.startswith("Couldn't load more: listing stopped")
        assert len(asked(server)) == 3
