"""A view's pager alone, against the reference server over loopback (no Textual): one load
at a time, each cursor once, answers of an older view dropped, failures retried, a
cancelled load asked again, a renewed key reaching the next page, and an auto-refresh that
asks for at most two pages whatever the depth."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import AuthenticationError, BadRequestError
from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.browse import CountCache, Pager, RefreshJob, Sources, ViewKey
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

from ..conftest import DEMO_NOW

PAGE = 50


def client_of(server: DemoServer, key: str | None = None) -> ScreenAnalysisClient:
    """A client of `server` (with `key` instead of the server's own)."""
    api_key = SecretStr(key if key is not None else server.api_key)
    return ScreenAnalysisClient(server.base_url, api_key, max_retries=0)


@pytest.fixture
async def sources(fresh_demo_server: DemoServer) -> AsyncIterator[Sources]:
    async with client_of(fresh_demo_server) as client:
        yield Sources(CurrentClient(client), page_size=PAGE)


@pytest.fixture
def pager(sources: Sources) -> Pager:
    return sources.pager()


def list_requests(server: DemoServer) -> list[dict[str, str]]:
    return [r.query for r in server.request_log if r.path == "/v1/analyses"]


async def load_pages(pager: Pager, count: int) -> None:
    pager.open(pager.view)
    for _ in range(count):
        assert await pager.next_page() is not None


async def under_way(pager: Pager) -> asyncio.Task[Any]:
    """`next_page` started in a task, once its request is under way."""
    task = asyncio.create_task(pager.next_page())
    while not pager.loading:
        await asyncio.sleep(0)
    return task


async def test_pages_follow_cursors_once_each_until_the_end(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    pager.open(ViewKey())
    assert not pager.can_page, "the first page comes first"
    first = await under_way(pager)
    assert await pager.next_page() is None, "one load at a time"
    page = await first
    assert page is not None and page.replace and len(page.items) == PAGE
    assert pager.total == 300 and page.total == 300
    ids = [i.id for i in page.items]
    while pager.can_page:
        more = await pager.next_page()
        assert more is not None and not more.replace
        ids.extend(i.id for i in more.items)
    assert pager.done and len(ids) == len(set(ids)) == 300
    assert await pager.next_page() is None, "nothing after the end"
    cursors = [q.get("after") for q in list_requests(fresh_demo_server)]
    assert len(cursors) == 6 and len(set(cursors)) == 6, "each cursor asked once"


async def test_an_answer_for_an_older_view_is_dropped(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    pager.open(ViewKey())
    old = await under_way(pager)
    pager.open(ViewKey(status=AnalysisStatus.FAILED))
    assert await old is None
    fresh_demo_server.faults.inject(503)
    pager.open(ViewKey())
    failing = await under_way(pager)
    pager.open(ViewKey(status=AnalysisStatus.FAILED))
    assert await failing is None, "a failure of a view gone is not raised"
    assert pager.error is None
    page = await pager.next_page()
    assert page is not None and page.key == ViewKey(status=AnalysisStatus.FAILED)
    assert all(isinstance(i, Analysis) and i.status == "failed" for i in page.items)


async def test_a_failed_page_is_asked_again_with_the_same_cursor(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    await load_pages(pager, 1)
    fresh_demo_server.faults.inject(503)
    with pytest.raises(Exception, match="503"):
        await pager.next_page()
    assert await pager.next_page() is None, "nothing more until the retry"
    assert pager.paging_state().words.startswith("Couldn't load more: HTTP 503")
    assert pager.retry()
    assert await pager.next_page() is not None
    asked = [q.get("after") for q in list_requests(fresh_demo_server)]
    assert asked[-1] == asked[-2] is not None, "the same cursor, asked again"
    assert pager.loaded == 2 * PAGE


async def test_a_cancelled_load_is_asked_again(pager: Pager, fresh_demo_server: DemoServer) -> None:
    pager.open(ViewKey())
    first = await pager.next_page()
    assert first is not None
    fresh_demo_server.faults.latency_ms = 10_000
    task = await under_way(pager)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not pager.loading and pager.can_page
    fresh_demo_server.faults.latency_ms = 0
    page = await pager.next_page()
    assert page is not None and not page.replace and pager.loaded == 2 * PAGE
    assert not {i.id for i in first.items} & {i.id for i in page.items}, "the second page"


async def test_a_cancelled_first_page_is_the_first_page_again(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    pager.open(ViewKey())
    pager.widen(3 * PAGE)
    fresh_demo_server.faults.latency_ms = 10_000
    task = await under_way(pager)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    fresh_demo_server.faults.latency_ms = 0
    page = await pager.next_page()
    assert page is not None and page.replace and len(page.items) == 3 * PAGE


async def test_a_renewed_key_reaches_the_next_page(fresh_demo_server: DemoServer) -> None:
    """Each page is asked of the client in use then: a client replaced after a refusal
    (the app's renewed key) asks the page that was refused."""
    async with client_of(fresh_demo_server, "sk-test-wrong") as wrong:
        current = CurrentClient(wrong)
        pager = Sources(current, page_size=PAGE).pager()
        pager.open(ViewKey())
        with pytest.raises(AuthenticationError):
            await pager.next_page()
        async with client_of(fresh_demo_server) as right:
            current.replace(right)
            assert pager.retry()
            page = await pager.next_page()
            assert page is not None and len(page.items) == PAGE
            assert await pager.next_page() is not None


async def test_a_refused_page_cursor_says_so_and_a_reload_starts_from_the_top(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    await load_pages(pager, 2)
    fresh_demo_server.faults.inject(400)
    with pytest.raises(BadRequestError):
        await pager.next_page()
    assert pager.cursor_refused
    state = pager.paging_state()
    assert state.words.startswith("Page cursor refused") and state.again.startswith("restart")
    pager.reload()
    page = await pager.next_page()
    assert page is not None and page.replace and len(page.items) == 2 * PAGE
    assert list_requests(fresh_demo_server)[-2].get("after") is None, "from the top"


async def test_a_reload_brings_back_as_many_rows_in_a_new_generation(pager: Pager) -> None:
    await load_pages(pager, 3)
    generation = pager.generation
    pager.reload()
    assert pager.generation == generation + 1
    page = await pager.next_page()
    assert page is not None and page.replace and len(page.items) == 3 * PAGE


async def test_a_refresh_deep_in_the_list_asks_two_pages_with_the_old_cursor(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    await load_pages(pager, 5)
    cursor_of_page_4 = list_requests(fresh_demo_server)[3]["after"]
    pager.reload()
    rows = await pager.next_page()  # rows as the table holds them
    assert rows is not None
    visible = [
        i.model_copy(update={"status": AnalysisStatus.PENDING}) if n in (160, 161) else i
        for n, i in enumerate(rows.items)
        if 155 <= n < 175
    ]
    job = pager.plan_refresh(visible)
    assert job.pages == 2 and job.again == cursor_of_page_4
    before = len(list_requests(fresh_demo_server))
    refreshed = await pager.refresh(job)
    asked = list_requests(fresh_demo_server)[before:]
    assert len(asked) == 2
    assert sorted(q.get("after", "") for q in asked) == sorted(["", cursor_of_page_4])
    assert refreshed is not None and len(refreshed.rows) == 2 * PAGE
    assert not refreshed.cursor_refused
    assert refreshed.arrived == [] and not refreshed.total_changed and not refreshed.gap


async def test_without_in_flight_rows_on_screen_a_refresh_asks_one_page(pager: Pager) -> None:
    await load_pages(pager, 3)
    completed = [Analysis(id="x", status="completed")]
    assert pager.plan_refresh(completed).pages == 1


async def test_a_refused_old_cursor_falls_back_to_the_first_page(pager: Pager) -> None:
    await load_pages(pager, 3)
    job = pager.plan_refresh([])
    refreshed = await pager.refresh(RefreshJob(job.generation, job.key, again="not-a-cursor"))
    assert refreshed is not None and refreshed.cursor_refused and len(refreshed.rows) == PAGE


async def test_a_refresh_of_an_older_view_changes_nothing(pager: Pager) -> None:
    await load_pages(pager, 1)
    job = pager.plan_refresh([])
    pager.open(ViewKey(status=AnalysisStatus.COMPLETED))
    assert await pager.refresh(job) is None


async def test_totals_match_the_server(sources: Sources, pager: Pager) -> None:
    await load_pages(pager, 1)
    keys = [key for key in ViewKey().siblings() if key != ViewKey()]
    totals = await sources.totals.fetch_totals(keys)
    assert len(totals.found) == 4 and totals.error is None
    assert sum(t or 0 for t in totals.found.values()) == pager.total == 300


async def test_arrivals_come_on_top_and_more_than_a_page_is_a_gap(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    simulator = LiveSimulator(fresh_demo_server.config, fresh_demo_server.store)
    await load_pages(pager, 2)
    total = pager.total
    assert total is not None
    simulator.tick(DEMO_NOW + timedelta(seconds=20))
    arrived = fresh_demo_server.store.count_analyses(None, None) - total
    assert 0 < arrived < PAGE
    refreshed = await pager.refresh(pager.plan_refresh([]))
    assert refreshed is not None and len(refreshed.arrived) == arrived and not refreshed.gap
    assert pager.loaded == 2 * PAGE + arrived and refreshed.total_changed
    simulator.tick(DEMO_NOW + timedelta(seconds=20 + 6 * PAGE))  # more than a page arrives
    refreshed = await pager.refresh(pager.plan_refresh([]))
    assert refreshed is not None and refreshed.gap and refreshed.arrived == []


async def test_rows_that_arrived_are_not_brought_again_by_later_pages(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    """Arrivals count as met by the view's walk: a page that slid down under them brings
    them no second time."""
    simulator = LiveSimulator(fresh_demo_server.config, fresh_demo_server.store)
    await load_pages(pager, 1)
    simulator.tick(DEMO_NOW + timedelta(seconds=20))
    refreshed = await pager.refresh(pager.plan_refresh([]))
    assert refreshed is not None and refreshed.arrived
    ids = [i.id for i in refreshed.arrived]
    while pager.can_page:
        page = await pager.next_page()
        assert page is not None
        ids.extend(i.id for i in page.items)
    assert len(ids) == len(set(ids))


def test_count_cache_keeps_old_totals_and_says_they_are_stale() -> None:
    now = [0.0]
    cache = CountCache(ttl_s=10, clock=lambda: now[0])
    cache.put(ViewKey("p"), 3)
    assert cache.get(ViewKey("p")) == 3 and cache.is_fresh(ViewKey("p"))
    assert cache.stale("p") == set()
    now[0] = 11
    assert cache.get(ViewKey("p")) == 3, "an old total is never dropped"
    assert cache.stale("p") == {None} and cache.missing([ViewKey("p")]) == [ViewKey("p")]
    assert cache.by_status("p") == {None: 3}
    cache.put(ViewKey("p"), 4)
    assert cache.by_status("p") == {None: 4} and cache.stale("p") == set()


def test_count_cache_says_which_totals_are_due_the_oldest_first() -> None:
    now = [0.0]
    cache = CountCache(ttl_s=10, clock=lambda: now[0], due_s=100)
    pending, failed, done = (ViewKey("p", s) for s in ("pending", "failed", "completed"))
    cache.put(pending, 1)
    now[0] = 50
    cache.put(failed, 2)
    assert cache.due([pending, failed, done]) == [done], "never seen: due at once"
    now[0] = 101
    assert cache.due([pending, failed]) == [pending], "stale is not yet due"
    now[0] = 151
    assert cache.due([failed, pending]) == [pending, failed]


async def test_a_round_of_one_page_leaves_one_request_for_totals(pager: Pager) -> None:
    await load_pages(pager, 1)
    job = pager.plan_refresh([])
    assert (job.pages, job.spare) == (1, 1)
    refreshed = await pager.refresh(job)
    assert refreshed is not None and refreshed.spare == 1
    assert RefreshJob(job.generation, job.key, again="c").spare == 0


async def test_a_refused_key_among_requests_sent_together_is_still_a_refused_key(
    sources: Sources, pager: Pager, fresh_demo_server: DemoServer
) -> None:
    await load_pages(pager, 1)
    fresh_demo_server.faults.inject(401, count=4)
    with pytest.raises(AuthenticationError):
        await sources.totals.fetch_totals([k for k in ViewKey().siblings() if k != ViewKey()])


async def test_load_rest_pages_to_the_end_or_the_bound_with_progress(
    pager: Pager, fresh_demo_server: DemoServer
) -> None:
    from screen_analysis.browse.load_all import load_rest

    await load_pages(pager, 1)
    seen: list[int] = []
    ids: list[str | None] = []

    def take(page: Any, progress: Any) -> None:
        seen.append(progress.loaded)
        ids.extend(i.id for i in page.items)

    capped = await load_rest(pager, take, limit=120)
    assert capped.capped and capped.loaded == 150 and "stopped at" in capped.describe()
    done = await load_rest(pager, take)
    assert done.done and done.loaded == 300 and not pager.can_page
    assert seen == [100, 150, 200, 250, 300]
    assert len(set(ids)) == len(ids) == 250, "each row once"
    requests = list_requests(fresh_demo_server)
    assert len(requests) == 6 and len({r.get("after") for r in requests}) == 6
