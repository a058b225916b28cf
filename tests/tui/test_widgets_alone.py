"""The main view's widgets, each alone in a bare app (no main screen), with the headless sources
as their source against the reference server on loopback: the pane pages, refreshes and
reports, and offline counts down to its next retry, which waits while the terminal is
unfocused; the status filter keeps its totals; the sidebar keeps its projects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widget import Widget

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient
from screen_analysis.api.models import AnalysisStatus, Project
from screen_analysis.browse import RefreshSchedule, Sources, ViewKey
from screen_analysis.cache import CacheScope, LocalCache
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr
from screen_analysis.tui.themes import variable_defaults
from screen_analysis.tui.widgets.project_sidebar import ProjectSidebar
from screen_analysis.tui.widgets.status_filter import StatusFilter
from screen_analysis.tui.widgets.table import AnalysesPane

from .conftest import DEMO_NOW_FIXED, wait_until


class Alone(App[None]):
    """A bare app holding one widget and recording the messages it posts."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget
        self.messages: list[Message] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The app's colour variables, which the widgets' styles use."""
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        yield self.widget

    @on(AnalysesPane.RowsArrived)
    @on(AnalysesPane.TotalSeen)
    @on(AnalysesPane.Moved)
    @on(AnalysesPane.Failed)
    @on(StatusFilter.Failed)
    @on(ProjectSidebar.Known)
    @on(ProjectSidebar.Added)
    @on(ProjectSidebar.Failed)
    def record(self, message: Message) -> None:
        self.messages.append(message)

    def of(self, kind: type[Message]) -> list[Any]:
        return [m for m in self.messages if isinstance(m, kind)]


@pytest.fixture
async def sources(fresh_demo_server: DemoServer) -> AsyncIterator[Sources]:
    client = ScreenAnalysisClient(
        fresh_demo_server.base_url, SecretStr(fresh_demo_server.api_key), max_retries=0
    )
    async with client:
        yield Sources(CurrentClient(client))


def list_requests(server: DemoServer) -> list[dict[str, str]]:
    return [r.query for r in server.request_log if r.path == "/v1/analyses"]


def client_of(server: DemoServer | None) -> ScreenAnalysisClient:
    """A client of `server`; None: of a server that is gone (a closed port)."""
    if server is None:
        return ScreenAnalysisClient("http://127.0.0.1:9", SecretStr("sk-test-x"), max_retries=0)
    return ScreenAnalysisClient(server.base_url, SecretStr(server.api_key), max_retries=0)


@pytest.fixture
async def kept(tmp_path: Path, fresh_demo_server: DemoServer) -> AsyncIterator[LocalCache]:
    """A local cache holding the first page of the unfiltered view."""
    cache = LocalCache(CacheScope("demo"), path=tmp_path / "c.db")
    async with client_of(fresh_demo_server) as client:
        page = await client.list_analyses(limit=100)
    cache.store_page(None, None, page.items, total=page.total, done=False, first=True)
    cache.flush()
    yield cache
    cache.close()


def offline_pane(cache: LocalCache, now: list[float]) -> tuple[AnalysesPane, CurrentClient]:
    """A pane whose server is gone, with `cache`; its schedule's clock reads `now[0]`."""
    current = CurrentClient(client_of(None))
    schedule = RefreshSchedule(5.0, clock=lambda: now[0])
    pager = Sources(current, cache=cache).pager()
    return AnalysesPane(pager, schedule, clock=lambda: DEMO_NOW_FIXED), current


async def test_offline_the_pane_counts_down_to_its_next_retry(kept: LocalCache) -> None:
    now = [100.0]
    pane, current = offline_pane(kept, now)
    async with Alone(pane).run_test(size=(100, 24)) as pilot:
        pane.show(ViewKey())
        await wait_until(pilot, lambda: pane.offline and bool(pane.table.items))
        assert "retry in 30 s" in pane.status_line.render().plain
        now[0] += 7  # the schedule's clock: a second's tick says what is left
        await wait_until(pilot, lambda: "retry in 23 s" in pane.status_line.render().plain)
        now[0] += 22.5
        await wait_until(pilot, lambda: "retry in 1 s" in pane.status_line.render().plain)
    await current.client.aclose()


async def test_offline_retries_wait_while_the_terminal_is_unfocused(
    kept: LocalCache, fresh_demo_server: DemoServer
) -> None:
    """Unfocused before the server went away: going offline starts no retry; focused
    again, the retry that fell due meanwhile runs at once and brings the view back."""
    now = [100.0]
    pane, current = offline_pane(kept, now)
    async with Alone(pane).run_test(size=(100, 24)) as pilot:
        pane.hold_refresh("focus", True)
        pane.show(ViewKey())
        await wait_until(pilot, lambda: pane.offline and bool(pane.table.items))
        line = pane.status_line.render().plain
        assert "retries wait (terminal not focused)" in line, line
        stale = current.replace(client_of(fresh_demo_server))  # the server is back …
        now[0] += 120  # … and retries fell due meanwhile: none ran
        await pilot.pause()
        assert (
            pane.offline
            and not pane.busy
            and list_requests(fresh_demo_server) == [{"limit": "100"}]
        )
        pane.hold_refresh("focus", False)
        await wait_until(pilot, lambda: not pane.offline and not pane.busy)
        assert "offline" not in pane.status_line.render().plain
        assert "auto-refresh 5s" in pane.status_line.refresh_state
        pane.hold_refresh("focus", True)  # online now: the refreshes wait the same way
        assert "waits (terminal not focused)" in pane.status_line.refresh_state
    assert stale is not None
    await stale.aclose()
    await current.client.aclose()


async def test_the_pane_pages_its_own_rows_and_tells_what_crosses(
    sources: Sources, fresh_demo_server: DemoServer
) -> None:
    pane = AnalysesPane(sources.pager(), RefreshSchedule(0), clock=lambda: DEMO_NOW_FIXED)
    app = Alone(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        pane.show(ViewKey(status=AnalysisStatus.COMPLETED))
        await wait_until(pilot, lambda: bool(pane.table.items) and not pane.busy)
        assert all(i.status == "completed" for i in pane.table.items)  # type: ignore[union-attr]
        # The messages up are posted as the rows are applied: wait for them to land.
        await wait_until(
            pilot,
            lambda: bool(app.of(AnalysesPane.TotalSeen) and app.of(AnalysesPane.RowsArrived)),
        )
        (seen,) = app.of(AnalysesPane.TotalSeen)
        assert seen.view == ViewKey(status=AnalysisStatus.COMPLETED) and seen.total == 275
        assert app.of(AnalysesPane.RowsArrived)[0].project_ids
        assert "Loaded 100 of 275" in pane.status_line.render().plain
        pane.table.focus()
        await pilot.press("end")  # the next page loads by need, once
        await wait_until(pilot, lambda: len(pane.table.items) == 200 and not pane.busy)
        afters = [q.get("after") for q in list_requests(fresh_demo_server)]
        assert len(afters) == len(set(afters)) == 2


async def test_the_pane_says_a_failure_once_and_r_retries(
    sources: Sources, fresh_demo_server: DemoServer
) -> None:
    pane = AnalysesPane(sources.pager(), RefreshSchedule(0))
    app = Alone(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        fresh_demo_server.faults.inject(503)
        pane.show(ViewKey())
        await wait_until(pilot, lambda: bool(app.of(AnalysesPane.Failed)))
        (failed,) = app.of(AnalysesPane.Failed)
        assert not failed.loaded and "503" in failed.words and "press r" in failed.words
        assert pane.status_line.status.state == "error"
        failed.again()  # what the screen's problem desk runs on "retry"
        await wait_until(pilot, lambda: bool(pane.table.items) and not pane.busy)
        assert pane.status_line.status.state == "idle"


async def test_the_pane_refreshes_on_its_own_timer(
    sources: Sources, fresh_demo_server: DemoServer
) -> None:
    now = [0.0]
    schedule = RefreshSchedule(5.0, clock=lambda: now[0])
    pane = AnalysesPane(sources.pager(), schedule)
    app = Alone(pane)
    async with app.run_test(size=(80, 24)) as pilot:
        pane.show(ViewKey())
        await wait_until(pilot, lambda: bool(pane.table.items) and not pane.busy)
        assert pane.refresh_armed and "auto-refresh 5s" in pane.status_line.refresh_state
        before = len(list_requests(fresh_demo_server))
        pane.refresh_now()
        await wait_until(pilot, lambda: not pane.refreshing)
        assert len(list_requests(fresh_demo_server)) == before + 1  # one page: the first
        assert app.of(AnalysesPane.Moved) == []  # nothing moved on a still server


async def test_the_status_filter_keeps_its_totals(sources: Sources) -> None:
    bar = StatusFilter(sources.totals)
    app = Alone(bar)
    async with app.run_test(size=(100, 3)) as pilot:
        bar.show_view(ViewKey())
        assert bar.counts == {}
        bar.seen(ViewKey(), 300)  # the view's own total, from its first page
        await wait_until(pilot, lambda: len(bar.counts) == 5 and not bar.busy)
        assert bar.counts[None] == 300 == sum(v for k, v in bar.counts.items() if k)
        assert "1 All 300" in bar.render().plain
        bar.show_view(ViewKey(status=AnalysisStatus.FAILED))
        assert bar.current == AnalysisStatus.FAILED and bar.counts[None] == 300


async def test_the_status_filter_keeps_old_totals_when_asking_again_fails(
    sources: Sources, fresh_demo_server: DemoServer
) -> None:
    bar = StatusFilter(sources.totals)
    app = Alone(bar)
    async with app.run_test(size=(100, 3)) as pilot:
        bar.show_view(ViewKey())
        bar.seen(ViewKey(), 300)
        await wait_until(pilot, lambda: len(bar.counts) == 5 and not bar.busy)
        fresh_demo_server.faults.inject(503, count=4)
        bar.recount(ViewKey())
        await wait_until(pilot, lambda: bool(app.of(StatusFilter.Failed)) and not bar.busy)
        assert len(bar.counts) == 5, "the old numbers stay"


async def test_the_sidebar_lists_its_projects_by_name_each_fetched_once(
    sources: Sources, fresh_demo_server: DemoServer
) -> None:
    sidebar = ProjectSidebar(sources.projects)
    app = Alone(sidebar)
    projects = fresh_demo_server.store.projects()
    async with app.run_test(size=(40, 30)) as pilot:
        ids = [p.id for p in reversed(projects)]
        sidebar.want(ids)
        sidebar.want(ids)  # already listed: not fetched again
        await wait_until(pilot, lambda: len(sidebar.names) == len(projects) and not sidebar.busy)
        fetched = [r.path for r in fresh_demo_server.request_log if r.path.startswith("/v1/p")]
        assert len(fetched) == len(projects), fetched
        names = [sidebar.names[p] for p in sidebar.project_ids]
        assert names == sorted(names, key=str.casefold), names
        # Each project's message up is posted as it is shown: wait for the last to land.
        await wait_until(pilot, lambda: len(app.of(ProjectSidebar.Known)) >= len(projects))
        assert len(app.of(ProjectSidebar.Known)) == len(projects), app.messages
        sidebar.recount([ids[0]])
        await wait_until(pilot, lambda: not sidebar.busy)
        again = [r.path for r in fresh_demo_server.request_log if r.path.startswith("/v1/p")]
        assert len(again) == len(projects) + 1


async def test_the_sidebar_adds_only_what_the_server_knows(sources: Sources) -> None:
    sidebar = ProjectSidebar(sources.projects)
    app = Alone(sidebar)
    async with app.run_test(size=(40, 30)) as pilot:
        sidebar.add("proj_nope")
        await wait_until(pilot, lambda: not sidebar.busy)
        assert sidebar.project_ids == () and app.of(ProjectSidebar.Added) == []


async def test_a_refused_key_drops_the_projects_only_kept_rows_named() -> None:
    """Projects first named by rows the local cache kept are the cache's until something
    else names them: a refused key drops them, whichever came first, the kept projects or
    the kept rows; a project the user or the server named stays (shown not loaded)."""
    sidebar = ProjectSidebar()  # no source: nothing is fetched
    app = Alone(sidebar)
    async with app.run_test(size=(40, 30)) as pilot:
        sidebar.want(["p_rows", "p_both", "p_named"], kept=True)  # the kept rows' projects
        sidebar.want(["p_named"])  # named by the user's list, or the server's rows
        sidebar.seed([Project.model_validate({"id": i, "name": i}) for i in ("p_both", "p_kept")])
        await pilot.pause()
        assert set(sidebar.project_ids) == {"p_rows", "p_both", "p_named", "p_kept"}
        sidebar.forget_kept()
        await pilot.pause()
        assert sidebar.project_ids == ("p_named",)
        sidebar.want(["p_rows"])  # the server's rows name it now: listed again, not loaded
        sidebar.forget_kept()
        await pilot.pause()
        assert set(sidebar.project_ids) == {"p_named", "p_rows"}
