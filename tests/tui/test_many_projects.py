"""Thousands of projects: the sidebar lists every project its rows name and asks the server
about a bounded number per refresh — those in its view when the reader scrolls, and the
detail's project, besides — so keys are answered while a server of 10,000 projects is
browsed (help opens; ten PageDowns cost the projects the detail stopped on, not one
request per project the rows name). The figures for the time a key takes are in
benchmarks/many_projects.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import demo_config
from tests.tui.conftest import connection_to, make_app, settled, wait_until

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.main import MainScreen
from screen_analysis.tui.widgets.project_sidebar.asking import PER_REFRESH

PROJECTS = 10_000
SIZE = (160, 50)  # wide enough for the sidebar to be open


@pytest.fixture(scope="module")
def many() -> Iterator[DemoServer]:
    with DemoServer(demo_config(analyses=20_000, projects=PROJECTS)) as server:
        yield server


def project_requests(server: DemoServer) -> int:
    return sum(1 for r in server.request_log if r.path.startswith("/v1/projects/"))


async def test_ten_thousand_projects_are_asked_about_a_bounded_number_per_refresh(
    many: DemoServer, tmp_path: Path
) -> None:
    app = make_app(tmp_path, connection_to(many), refresh_interval=0)
    async with app.run_test(size=SIZE) as pilot:
        before = project_requests(many)
        screen = await settled(pilot)
        named = {i.project_id for i in screen.table.items}
        assert len(named) > 3 * PER_REFRESH  # the first rows name many projects
        assert set(screen.sidebar.project_ids) >= named  # every one is listed
        # The first view is a refresh: PER_REFRESH projects and the detail's.
        assert project_requests(many) - before <= PER_REFRESH + 1
        unasked = [p for p in named if screen.sidebar.entry(p).state == "queued"]
        assert unasked and "not loaded yet" in str(screen.sidebar.prompt_of(unasked[0]))

        before = project_requests(many)
        await pilot.press(*["pagedown"] * 10)
        await settled(pilot)
        assert len(screen.table.items) > 300  # pages of rows naming hundreds more
        assert project_requests(many) - before <= 10  # the projects the detail stopped on

        before = project_requests(many)
        await pilot.press("r")
        await settled(pilot)
        assert project_requests(many) - before <= PER_REFRESH + 1

        before = project_requests(many)
        sidebar = screen.sidebar
        unasked = {p for p in sidebar.project_ids if sidebar.entry(p).state == "queued"}
        sidebar.focus()  # the reader pages through the sidebar: what comes into view
        await pilot.press("home", *["pagedown"] * 5)  # past the few named so far
        picked = sidebar.highlighted_id
        await settled(pilot)
        assert picked in unasked and sidebar.entry(picked).state == "ok"  # asked: in view
        assert 0 < project_requests(many) - before <= 6 * len(sidebar.in_view())

        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
