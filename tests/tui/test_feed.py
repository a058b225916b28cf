"""The main view's feed alone, against the reference server over loopback (no Textual):
one load at a time, each cursor once, stale answers dropped, failures retried, and an
auto-refresh that asks for at most two pages whatever the depth."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.api.errors import AuthenticationError
from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.tui.feed import CountCache, Feed, ViewKey

from ..conftest import DEMO_NOW

PAGE = 50


@pytest.fixture
async def feed(fresh_demo_server: DemoServer) -> AsyncIterator[Feed]:
    client = ScreenAnalysisClient(
        fresh_demo_server.base_url, SecretStr(fresh_demo_server.api_key), max_retries=0
    )
    async with client:
        yield Feed(CurrentClient(client), page_size=PAGE)


def list_requests(server: DemoServer) -> list[dict[str, str]]:
    return [r.query for r in server.request_log if r.path == "/v1/analyses"]


async def load_pages(feed: Feed, count: int) -> None:
    load = feed.open(feed.view)
    for number in range(count):
        assert load is not None
        assert feed.accept(await feed.load(load)) is not None
        load = feed.more() if number < count - 1 else None


async def test_pages_follow_cursors_once_each_until_the_end(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    first = feed.open(ViewKey())
    assert feed.more() is None, "one load at a time"
    accepted = feed.accept(await feed.load(first))
    assert accepted is not None and accepted.replace and len(accepted.items) == PAGE
    assert feed.total == 300
    ids = [i.id for i in accepted.items]
    while (load := feed.more()) is not None:
        more = feed.accept(await feed.load(load))
        assert more is not None and not more.replace
        ids.extend(i.id for i in more.items)
    assert feed.done and len(ids) == len(set(ids)) == 300
    cursors = [q.get("after") for q in list_requests(fresh_demo_server)]
    assert len(cursors) == 6 and len(set(cursors)) == 6, "each cursor asked once"


async def test_an_answer_for_an_older_view_is_dropped(feed: Feed) -> None:
    old = feed.open(ViewKey())
    new = feed.open(ViewKey(status=AnalysisStatus.FAILED))
    assert feed.accept(await feed.load(old)) is None
    assert not feed.fail(old, RuntimeError("late"))
    accepted = feed.accept(await feed.load(new))
    assert accepted is not None
    assert all(isinstance(i, Analysis) and i.status == "failed" for i in accepted.items)


async def test_a_failed_page_is_asked_again_with_the_same_cursor(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    await load_pages(feed, 1)
    load = feed.more()
    assert load is not None
    fresh_demo_server.faults.inject(503)
    with pytest.raises(Exception) as failure:
        await feed.load(load)
    assert feed.fail(load, failure.value)
    assert feed.more() is None, "nothing more until the retry"
    assert feed.paging_state()[1].startswith("Couldn't load more: HTTP 503")
    retry = feed.retry()
    assert retry == load
    assert feed.accept(await feed.load(retry)) is not None
    asked = [q.get("after") for q in list_requests(fresh_demo_server)]
    assert asked[-1] == asked[-2] is not None, "the same cursor, asked again"
    assert feed.loaded == 2 * PAGE


async def test_a_reload_brings_back_as_many_rows_in_a_new_generation(feed: Feed) -> None:
    await load_pages(feed, 3)
    generation = feed.generation
    reload = feed.reload()
    assert reload.replace and reload.fill_to == 3 * PAGE and feed.generation == generation + 1
    accepted = feed.accept(await feed.load(reload))
    assert accepted is not None and len(accepted.items) == 3 * PAGE


async def test_a_refresh_deep_in_the_list_asks_two_pages_with_the_old_cursor(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    await load_pages(feed, 5)
    cursor_of_page_4 = list_requests(fresh_demo_server)[3]["after"]
    rows = await feed.load(feed.reload())  # rows as the table holds them
    visible = [
        i.model_copy(update={"status": AnalysisStatus.PENDING}) if n in (160, 161) else i
        for n, i in enumerate(rows.items)
        if 155 <= n < 175
    ]
    feed.accept(rows)
    job = feed.plan_refresh(visible)
    assert job.pages == 2 and job.again == cursor_of_page_4
    before = len(list_requests(fresh_demo_server))
    result = await feed.run_refresh(job)
    asked = list_requests(fresh_demo_server)[before:]
    assert len(asked) == 2
    assert sorted(q.get("after", "") for q in asked) == sorted(["", cursor_of_page_4])
    assert len(result.rows) == 2 * PAGE and not result.cursor_refused
    refreshed = feed.apply_refresh(result)
    assert refreshed is not None and refreshed.arrived == [] and not refreshed.total_changed
    assert not refreshed.gap


async def test_without_in_flight_rows_on_screen_a_refresh_asks_one_page(feed: Feed) -> None:
    await load_pages(feed, 3)
    completed = [Analysis(id="x", status="completed")]
    assert feed.plan_refresh(completed).pages == 1


async def test_a_refused_old_cursor_falls_back_to_the_first_page(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    await load_pages(feed, 3)
    job = feed.plan_refresh([])
    job = type(job)(job.generation, job.key, again="not-a-cursor")
    result = await feed.run_refresh(job)
    assert result.cursor_refused and len(result.top) == PAGE


async def test_a_refresh_of_an_older_view_changes_nothing(feed: Feed) -> None:
    await load_pages(feed, 1)
    result = await feed.run_refresh(feed.plan_refresh([]))
    feed.open(ViewKey(status=AnalysisStatus.COMPLETED))
    assert feed.apply_refresh(result) is None


async def test_totals_match_the_server(feed: Feed, fresh_demo_server: DemoServer) -> None:
    await load_pages(feed, 1)
    keys = [key for key in ViewKey().siblings() if key != ViewKey()]
    totals = await feed.fetch_totals(keys)
    assert len(totals.found) == 4 and totals.error is None
    assert sum(t or 0 for t in totals.found.values()) == feed.total == 300


async def test_arrivals_come_on_top_and_more_than_a_page_is_a_gap(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    simulator = LiveSimulator(fresh_demo_server.config, fresh_demo_server.store)
    await load_pages(feed, 2)
    total = feed.total
    assert total is not None
    simulator.tick(DEMO_NOW + timedelta(seconds=20))
    arrived = fresh_demo_server.store.count_analyses(None, None) - total
    assert 0 < arrived < PAGE
    refreshed = feed.apply_refresh(await feed.run_refresh(feed.plan_refresh([])))
    assert refreshed is not None and len(refreshed.arrived) == arrived and not refreshed.gap
    assert feed.loaded == 2 * PAGE + arrived and refreshed.total_changed
    simulator.tick(DEMO_NOW + timedelta(seconds=20 + 6 * PAGE))  # more than a page arrives
    refreshed = feed.apply_refresh(await feed.run_refresh(feed.plan_refresh([])))
    assert refreshed is not None and refreshed.gap and refreshed.arrived == []


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


async def test_a_refused_key_among_requests_sent_together_is_still_a_refused_key(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    await load_pages(feed, 1)
    fresh_demo_server.faults.inject(401, count=4)
    with pytest.raises(AuthenticationError):
        await feed.fetch_totals([k for k in ViewKey().siblings() if k != ViewKey()])


async def test_load_rest_pages_to_the_end_or_the_bound_with_progress(
    feed: Feed, fresh_demo_server: DemoServer
) -> None:
    from screen_analysis.tui.feed.load_all import load_rest

    await load_pages(feed, 1)
    seen: list[int] = []
    ids: list[str | None] = []

    def take(accepted: Any, progress: Any) -> None:
        seen.append(progress.loaded)
        ids.extend(i.id for i in accepted.items)

    capped = await load_rest(feed, take, limit=120)
    assert capped.capped and capped.loaded == 150 and "stopped at" in capped.describe()
    done = await load_rest(feed, take)
    assert done.done and done.loaded == 300 and feed.more() is None
    assert seen == [100, 150, 200, 250, 300]
    assert len(set(ids)) == len(ids) == 250, "each row once"
    requests = list_requests(fresh_demo_server)
    assert len(requests) == 6 and len({r.get("after") for r in requests}) == 6
