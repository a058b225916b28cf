"""The overview screen: read every page with progress, stop with Esc, keep the result until
refreshed, read with the client in use (a renewed key at once), export the report through the
one save flow without overwriting unasked, and offline the local cache's overview (never for
a refused key); snapshots at 80×24 and 120×40."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.pilot import steady
from textual.pilot import Pilot

from screen_analysis.config import Connection
from screen_analysis.demo.runner import DemoServer
from screen_analysis.insight.aggregates import Overview
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.dialogs.choice import ChoiceDialog
from screen_analysis.tui.dialogs.prompt import PromptDialog
from screen_analysis.tui.screens.overview import OverviewScreen
from screen_analysis.tui.widgets.column_chart import ColumnChart

from ..conftest import demo_config
from .conftest import (
    DEMO_NOW_FIXED,
    cache_at,
    connection_to,
    make_app,
    notes_of,
    offline_screen,
    settled,
    wait_until,
)

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(scope="module")
def story_server() -> Iterator[DemoServer]:
    """Enough analyses for the stories to show (the first project improves)."""
    with DemoServer(demo_config(analyses=3000)) as server:
        yield server


def open_overview(
    app: ScreenAnalysisApp, project_id: str | None, kept: dict[str | None, Overview], **kw: Any
) -> OverviewScreen:
    assert app.client is not None
    screen = OverviewScreen(app.current, project_id, kept=kept, clock=lambda: DEMO_NOW_FIXED, **kw)
    app.push_screen(screen)
    return screen


def read(screen: OverviewScreen) -> Callable[[], bool]:
    return lambda: screen.is_mounted and not screen.reading and screen.overview is not None


async def test_reads_every_page_and_keeps_the_result(
    tmp_path: Path, story_server: DemoServer
) -> None:
    project = story_server.store.projects()[0]
    app = make_app(tmp_path, connection_to(story_server), refresh_interval=0)
    kept: dict[str | None, Overview] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = open_overview(app, project.id, kept)
        await wait_until(pilot, read(screen))
        stats = story_server.store.get_project(project.id)
        assert stats is not None and screen.overview is not None
        assert screen.overview.seen == stats["analysis_count"]
        assert screen.overview.avg_score == stats["avg_score"]
        assert kept[project.id] is screen.overview
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, OverviewScreen))
        requests = len(story_server.request_log)
        again = open_overview(app, project.id, kept)
        await pilot.pause()
        assert again.overview is kept[project.id] and len(story_server.request_log) == requests
        old = kept[project.id]
        await pilot.press("r")
        await wait_until(pilot, lambda: read(again)() and kept[project.id] is not old)
        assert len(story_server.request_log) > requests


async def test_escape_stops_reading_and_keeps_what_was_read(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=3000, latency_ms=60)) as server:
        app = make_app(tmp_path, connection_to(server))
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(pilot)
            screen = open_overview(app, None, {})
            await wait_until(pilot, lambda: screen._builder is not None and screen._builder.seen)
            text = str(screen.query_one("#progress-text").render())
            assert " of 3,000 analyses read" in text
            await pilot.press("escape")
            await pilot.pause()
            assert not screen.reading and app.screen is screen
            assert screen.overview is not None and not screen.overview.complete
            assert 0 < screen.overview.seen < 3000


async def test_export_never_overwrites_unasked(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    target = tmp_path / "out" / "overview.html"
    target.parent.mkdir()
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        screen = open_overview(app, None, {})
        await wait_until(pilot, read(screen))

        async def export(path: Path) -> None:
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, PromptDialog))
            field = app.screen.query_one("#export-path")
            field.value = str(path)  # type: ignore[attr-defined]
            await pilot.press("enter")

        await export(target)
        await wait_until(pilot, target.exists)
        assert "<svg" in target.read_text()
        target.write_text("mine")
        await export(target)
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceDialog))
        await pilot.press("n")
        await wait_until(pilot, lambda: not isinstance(app.screen, ChoiceDialog))
        assert target.read_text() == "mine"
        await export(target)
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceDialog))
        await pilot.press("y")
        await wait_until(pilot, lambda: target.read_text() != "mine")
        await export(target.with_suffix(".md"))
        await wait_until(pilot, target.with_suffix(".md").exists)
        assert target.with_suffix(".md").read_text().startswith("# Screen analysis report")


@pytest.mark.parametrize("size", SIZES)
def test_overview_snapshot(
    snap_compare: Callable[..., bool], tmp_path: Path, story_server: DemoServer, size: Any
) -> None:
    project = story_server.store.projects()[0]
    # No auto-refresh: nothing may change under the picture on a slow machine.
    app = make_app(tmp_path, connection_to(story_server), refresh_interval=0)

    async def run(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        screen = open_overview(app, project.id, {})
        await wait_until(pilot, read(screen))
        await steady(pilot, lambda: [c.plot_height for c in screen.query(ColumnChart)])

    assert snap_compare(app, terminal_size=size, run_before=run)


async def test_charts_read_without_colour_and_server_text_is_literal(tmp_path: Path) -> None:
    from tests.report.hostile_report import PAYLOADS, PROJECT_ID, script
    from tests.support.scripted_server import ScriptedServer

    from screen_analysis.secret import SecretStr
    from screen_analysis.tui.widgets.bar_rows import BarRows

    with ScriptedServer(script) as server:
        connection = Connection(server.base_url, SecretStr("k"), key_source="env")
        app = make_app(tmp_path, connection)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.client is not None)
            screen = open_overview(app, PROJECT_ID, {})
            await wait_until(pilot, read(screen))
            statuses = screen.query_one("#statuses", BarRows).render().plain
            assert "completed" in statuses and "5" in statuses
            histogram = screen.query_one("#histogram", ColumnChart).render().plain
            assert "0 ┼" in histogram and "60" in histogram  # numbers on both axes
            feedback = str(screen.query_one("#feedback").render())
            failures = str(screen.query_one("#failures").render())
            assert PAYLOADS[0] in feedback and PAYLOADS[1] in failures  # shown, not parsed
            hits = {hit.text: hit.help async for hit in app.palette_commands(screen).discover()}
            assert hits["Export"] == "Write this overview as a report (e)"


async def overview_from_main(pilot: Pilot[Any]) -> OverviewScreen:
    """`v` on the main screen, once the overview is read (or stopped)."""
    await pilot.press("v")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, OverviewScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OverviewScreen)
    await wait_until(pilot, lambda: screen.is_mounted and not screen.reading)
    return screen


async def export_to(pilot: Pilot[Any], path: Path) -> None:
    """`e`, and `path` typed in the prompt."""
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PromptDialog))
    pilot.app.screen.query_one("#export-path").value = str(path)  # type: ignore[attr-defined]
    await pilot.press("enter")


async def test_a_renewed_key_is_used_by_the_next_read_and_the_report(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = await overview_from_main(pilot)
        first = screen.overview
        assert first is not None and first.complete
        # The key is renewed: the app holds a new client and closes the old one.
        stale = app.current.replace(app.make_client(connection_to(demo_server)))
        assert stale is not None
        await stale.aclose()
        await pilot.press("r")
        await wait_until(pilot, lambda: read(screen)() and screen.overview is not first)
        assert not screen.has_class("-problem") and screen.overview.complete  # type: ignore[union-attr]
        target = tmp_path / "renewed.html"
        await export_to(pilot, target)
        await wait_until(pilot, lambda: notes.any("Report written to"))
        assert target.exists()


async def test_report_failures_name_the_file_and_a_directory_is_refused(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), refresh_interval=0)
    notes = notes_of(app, monkeypatch)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        screen = await overview_from_main(pilot)
        target = blocker / "report.html"
        await export_to(pilot, target)
        await wait_until(pilot, lambda: bool(notes.messages("error")))
        said = notes.messages("error")[-1]
        assert str(target) in said and "A file stands where a folder should be." in said
        await export_to(pilot, tmp_path)  # the one flow: a directory is never "replaced"
        await wait_until(pilot, lambda: notes.any("is a directory; nothing was written"))
        assert app.screen is screen


GONE = "http://127.0.0.1:9"  # nothing listens: connection refused


async def keep_a_view(tmp_path: Path, server: DemoServer) -> int:
    """The app once, online: its first view kept in the cache; how many rows it showed."""
    app = make_app(tmp_path, connection_to(server), open_cache=cache_at(tmp_path / "c.db"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        shown = len(screen.table.items)
    return shown  # the app closed its cache on exit: every write is in


async def test_offline_the_overview_is_what_the_cache_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        shown = await keep_a_view(tmp_path, server)
        gone = dataclasses.replace(connection_to(server), base_url=GONE)
    app = make_app(tmp_path, gone, open_cache=cache_at(tmp_path / "c.db"))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await offline_screen(pilot)
        screen = await overview_from_main(pilot)
        assert screen.from_cache is not None and screen.overview is not None
        kept = screen.from_cache.kept
        assert kept >= shown > 0 and screen.overview.seen == kept
        line = str(screen.query_one("#offline").render())
        assert line.startswith("offline · data from ")
        assert f" · {kept} analyses kept in the local cache · " in line
        assert screen.has_class("-offline") and not screen.has_class("-problem")
        statuses = str(screen.query_one("#statuses").render())
        assert "completed" in statuses
        target = tmp_path / "offline.md"
        await export_to(pilot, target)  # names from the cache: no server is asked
        await wait_until(pilot, lambda: notes.any("Report written to"))
        assert "From the local cache (data from " in target.read_text()
        # Another scope the cache holds nothing of: it says so.
        empty = OverviewScreen(app.current, "proj_never_seen", kept={}, cache=app.cache)
        app.push_screen(empty)
        await wait_until(pilot, lambda: empty.is_mounted and empty.has_class("-problem"))
        line = str(empty.query_one("#offline").render())
        assert line.startswith("offline · the local cache holds no analyses of this project")
        assert "connection failed" in str(empty.query_one("#problem").render())
        assert empty.overview is None


async def test_a_refused_key_never_gets_the_caches_overview(tmp_path: Path) -> None:
    with DemoServer(demo_config(analyses=150)) as server:
        await keep_a_view(tmp_path, server)
        opener = cache_at(tmp_path / "c.db")
        app = make_app(tmp_path, connection_to(server), open_cache=opener, refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
            wrong = connection_to(server, api_key="sk-test-wrong-key-123456")
            app.current.replace(app.make_client(wrong))
            screen = OverviewScreen(app.current, None, kept={}, cache=app.cache)
            app.push_screen(screen)
            await wait_until(pilot, lambda: screen.is_mounted and screen.has_class("-problem"))
            assert not screen.has_class("-offline") and screen.from_cache is None
            assert screen.overview is None


def scores_script(scores: list[object]) -> Callable[[str, dict[str, str]], Any]:
    """A server whose completed analyses of one project have these overall scores."""
    from tests.support.scripted_server import Reply, analysis

    items = [
        analysis(n, score=s, created_at=f"2026-10-{1 + n % 28:02d}T12:00:00Z")
        for n, s in enumerate(scores)
    ]

    def script(path: str, query: dict[str, str]) -> Any:
        if path.startswith("/v1/projects/"):
            return Reply.json({"id": "proj_scripted", "name": "Scripted"})
        shown = [i for i in items if query.get("status") in (None, i["status"])]
        return Reply.json({"data": shown, "next_cursor": None, "total": len(shown)})

    return script


async def read_scripted(tmp_path: Path, scores: list[object], project_id: str | None) -> dict:
    """Open the overview of a scripted server's scores; what its parts say."""
    from tests.support.scripted_server import ScriptedServer

    from screen_analysis.secret import SecretStr

    with ScriptedServer(scores_script(scores)) as server:
        connection = Connection(server.base_url, SecretStr("k"), key_source="env")
        app = make_app(tmp_path, connection, refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: app.client is not None)
            screen = open_overview(app, project_id, {})
            await wait_until(pilot, read(screen))
            assert screen.overview is not None and screen.overview.complete
            return {
                part: str(screen.query_one(f"#{part}").render())
                for part in ("summary", "histogram", "histogram-note", "timeline-note")
            } | {"histogram": screen.query_one("#histogram", ColumnChart).render().plain}


async def test_scores_outside_0_to_100_are_said_not_hidden(tmp_path: Path) -> None:
    seen = await read_scripted(tmp_path, [28_038_687, 28_038_688, -4, 50, 60, 70], "proj_x")
    assert "average 9346258.5 (6 scored)" in seen["summary"]  # the mean takes every score
    assert seen["histogram-note"] == "3 scores outside 0–100 left out."
    assert "3 scores outside 0–100 left out." in seen["timeline-note"]
    only = await read_scripted(tmp_path, [28_038_687, 28_038_688], "proj_x")
    assert "No completed analyses" not in only["histogram"]
    assert only["histogram"] == "No score within 0–100 to draw: 2 scores outside 0–100 left out."


async def test_huge_scores_are_read_to_the_end(tmp_path: Path) -> None:
    """1e308 twice once stopped the overview at "3 of 3 read" (an InvalidOperation)."""
    seen = await read_scripted(tmp_path, [1e308, 1e308, 50, 10**400], "proj_x")
    assert "average 6.667e307 (3 scored)" in seen["summary"]
    assert "1 score beyond ±1.8e308 or not a number left out of the average" in seen["summary"]


async def test_all_projects_show_each_projects_trend(
    tmp_path: Path, story_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(story_server), refresh_interval=0)
    names = {p.id: p.name for p in story_server.store.projects()}
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = open_overview(app, None, {})
        await wait_until(pilot, read(screen))
        panel = screen.query_one("#projects")
        await wait_until(pilot, lambda: "Acme Checkout" in str(panel.render()))
        lines = str(panel.render()).splitlines()
        note = " ".join(lines)
        assert screen.query_one("#projects-panel").display
        single = open_overview(app, story_server.store.projects()[0].id, {})
        await wait_until(pilot, read(single))
        assert not single.query_one("#projects-panel").display
    rows = {name: line for line in lines for name in names.values() if line.startswith(name)}
    assert set(rows) == set(names.values())
    assert re.search(r"[▁▂▃▄▅▆▇█·]{8}\s+▲ \+\d+\.\d$", rows["Acme Checkout"])
    assert re.search(r"[▁▂▃▄▅▆▇█·]{8}\s+▼ −\d+\.\d$", rows["Lumen Banking"])
    assert "Change: the last 4 weeks' mean against the 4 before." in note


async def test_a_wide_mean_keeps_the_table_of_projects_in_columns() -> None:
    from screen_analysis.insight.aggregates import OverviewBuilder
    from screen_analysis.tui.widgets.project_trends import ProjectTrends

    from ..insight.test_aggregates import analysis
    from .test_widgets_alone import Alone

    builder = OverviewBuilder(by_project=True)
    wide = analysis(1, score=-4853140178864397, project_id="proj_a")
    builder.add_page([wide, analysis(2, project_id="proj_b")])
    trends = ProjectTrends()
    async with Alone(trends).run_test(size=(100, 12)):
        trends.table = builder.result().projects
        lines = str(trends.render()).splitlines()[:3]
    ends = {line.index("%") for line in lines[1:]}
    assert len(ends) == 1 and lines[0].index("Failed") + len("Failed") == ends.pop() + 1
    assert "-4.853e15" in lines[1] and "70.0" in lines[2]
