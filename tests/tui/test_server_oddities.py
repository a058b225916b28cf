"""The app against answers the document allows but the reference server never sends: a
total that is no count, one count request failing among four, empty pages that say more
exist, rows of another status; and screens that say one thing at a time."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis

from screen_analysis.api.models import AnalysisStatus
from screen_analysis.api.pagination import MAX_EMPTY_PAGES
from screen_analysis.config import Connection
from screen_analysis.secret import SecretStr
from screen_analysis.tui.screens import overview as overview_module
from screen_analysis.tui.screens.overview import OverviewScreen
from screen_analysis.tui.widgets.status_filter import choice_texts
from screen_analysis.tui.widgets.status_line import describe
from screen_analysis.tui.widgets.table.paging_words import LOADING

from .conftest import make_app, notes_of, settled, wait_until

Pages = dict[str, tuple[list[int], str | None, object]]
PROJECT = {
    "id": "proj_scripted",
    "name": "Scripted",
    "analysis_count": 3,
    "created_at": "2026-01-01T00:00:00Z",
    "updated_at": "2026-01-01T00:00:00Z",
}


def listing(
    pages: Pages, counts: dict[str | None, object] | None = None, **fields: Any
) -> Callable[[str, dict[str, str]], Reply]:
    """A server: the table's pages by `after` ("" the first: ids, next cursor, total sent as
    it is, `...` left out), the status filter's limit=1 requests by status from `counts`
    ("fail": a 500), the project asked for."""

    def script(path: str, q: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json(PROJECT)
        if q.get("limit") == "1" and counts is not None:
            total = counts.get(q.get("status"), 0)
            if total == "fail":
                return Reply(500, b"count failed")
            return Reply.json({"data": [], "next_cursor": None, "total": total})
        ids, cursor, total = pages[q.get("after", "")]
        body: dict[str, object] = {"data": [analysis(i, **fields) for i in ids]}
        body["next_cursor"] = cursor
        if total is not ...:
            body["total"] = total
        return Reply.json(body)

    return script


def connection(server: ScriptedServer) -> Connection:
    return Connection(server.base_url, SecretStr("sk-test-oddities"), key_source="env")


def table_pages(server: ScriptedServer) -> list[str | None]:
    """The `after` of each table page asked for (not the totals' limit=1 requests)."""
    return [
        s.query.get("after")
        for s in server.seen
        if s.path == "/v1/analyses" and s.query.get("limit") != "1"
    ]


async def test_a_negative_total_is_loaded_of_unknown_said_once_and_rows_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages: Pages = {"": ([1, 2], None, -1)}
    counts: dict[str | None, object] = {"pending": 1, "processing": 0, "completed": 2}
    counts["failed"] = -4
    with ScriptedServer(listing(pages, counts)) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        notes = notes_of(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            await wait_until(pilot, lambda: len(screen.status_filter.counts) == 5)
            assert len(screen.table.items) == 2
            assert describe(screen.status_line.status)[0] == "Loaded 2 of ?"
            texts = choice_texts(screen.status_filter.counts)
            assert texts == [
                "1 All ?",
                "2 Pending 1",
                "3 Processing 0",
                "4 Completed 2",
                "5 Failed ?",
            ]
            await pilot.press("1")  # the same view again: the rows come back, not a blank
            screen = await settled(pilot)
            assert len(screen.table.items) == 2
            assert screen.status_line.status.state == "end"
    warned = [m for m in notes.messages("warning") if "total" in m]
    assert warned == ["The server's total is negative (-1): the total is shown as unknown (?)"]


async def test_one_odd_or_failed_count_costs_its_own_tab_only(tmp_path: Path) -> None:
    pages: Pages = {"": ([1, 2, 3], None, 3)}
    counts: dict[str | None, object] = {"pending": "fail", "processing": 0, "completed": 2}
    counts["failed"] = "many"
    with ScriptedServer(listing(pages, counts)) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            await wait_until(pilot, lambda: len(screen.status_filter.counts) == 4)
            assert screen.status_filter.counts == {
                None: 3,
                AnalysisStatus.PROCESSING: 0,
                AnalysisStatus.COMPLETED: 2,
                AnalysisStatus.FAILED: None,
            }


async def test_an_empty_page_that_says_more_exist_is_no_empty_view(tmp_path: Path) -> None:
    release = threading.Event()
    pages: Pages = {"": ([], "c1", 22_999_408), "c1": ([], "c2", 22_999_408)}
    pages["c2"] = ([1, 2], None, 22_999_408)
    serve = listing(pages)

    def script(path: str, q: dict[str, str]) -> Reply:
        if q.get("after") == "c2":
            release.wait(10)
        return serve(path, q)

    with ScriptedServer(script) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: "c2" in table_pages(server))
            screen = app.screen
            table = screen.query_one("#table")
            assert table.empty_message == LOADING  # type: ignore[attr-defined]
            release.set()
            screen = await settled(pilot)
            assert len(screen.table.items) == 2
            assert table_pages(server) == [None, "c1", "c2"]


async def test_endless_empty_pages_stop_at_the_bound_and_r_reads_on(tmp_path: Path) -> None:
    def script(path: str, q: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json(PROJECT)
        n = int(q.get("after", "c0")[1:])
        return Reply.json({"data": [], "next_cursor": f"c{n + 1}", "total": 10**6})

    with ScriptedServer(script) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            assert len(table_pages(server)) == MAX_EMPTY_PAGES
            words = f"Stopped after {MAX_EMPTY_PAGES} empty pages in a row; more may exist"
            assert screen.status_line.status.state == "stopped"
            assert describe(screen.status_line.status)[1] == words + " — r to read on"
            assert screen.table.empty_message == words + " — r to read on"
            await pilot.press("r")
            screen = await settled(pilot)
            asked = table_pages(server)
            assert len(asked) == 2 * MAX_EMPTY_PAGES
            assert asked[MAX_EMPTY_PAGES] == f"c{MAX_EMPTY_PAGES}", "went on, not from the top"


async def test_a_failed_first_page_is_said_the_same_in_the_table_and_the_status_line(
    tmp_path: Path,
) -> None:
    def script(path: str, q: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json(PROJECT)
        return Reply.json({"items": []})  # no `data`: a page that cannot be read

    with ScriptedServer(script) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            said = describe(screen.status_line.status)[1]
            assert said.startswith("Couldn't load: invalid response: not a valid page")
            assert said.endswith(" — r to ask again")
            assert screen.table.empty_message == said


async def test_rows_of_another_status_are_shown_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages: Pages = {"": ([1, 2], None, 2)}
    with ScriptedServer(listing(pages, {}, status="failed")) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        notes = notes_of(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
            await pilot.press("4")  # completed
            screen = await settled(pilot)
            assert len(screen.table.items) == 2
    said = [m for m in notes.messages("warning") if "status other" in m]
    assert said == ["Some analyses came with a status other than 'completed' (shown as sent)"]


async def test_the_overview_says_reading_while_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(overview_module, "PAINT_EVERY_S", 0.0)
    release = threading.Event()
    serve = listing({"": ([1, 2], "c1", 3), "c1": ([3], None, 3)})

    seen_c1: list[None] = []

    def script(path: str, q: dict[str, str]) -> Reply:
        if q.get("after") == "c1":
            seen_c1.append(None)
            if len(seen_c1) > 1:  # the overview's (the table read it first)
                release.wait(10)
        return serve(path, q)

    with ScriptedServer(script) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
            await pilot.press("v")
            await wait_until(pilot, lambda: isinstance(app.screen, OverviewScreen))
            screen = app.screen
            assert isinstance(screen, OverviewScreen)

            def summary() -> str:
                return str(screen.query_one("#summary").render())

            await wait_until(pilot, lambda: "2 analyses" in summary())
            assert screen.reading
            assert "reading…" in summary() and "stopped early" not in summary()
            release.set()
            await wait_until(pilot, lambda: not screen.reading)
            assert "3 analyses" in summary() and "reading" not in summary()


async def test_the_export_of_every_page_is_written_whatever_the_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tui.test_export import answer_path, choose

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    first = list(range(1, 101))  # a full page: the table asks for no more by itself
    pages: Pages = {"": (first, "c 1", -1), "c 1": ([101], "c 2", ...), "c 2": ([102], None, -9)}
    with ScriptedServer(listing(pages, {})) as server:
        app = make_app(tmp_path, connection(server), refresh_interval=0)
        notes = notes_of(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot)
            await pilot.press("e")
            await answer_path(pilot, "all.jsonl")
            await choose(pilot, "a")
            await wait_until(pilot, lambda: notes.any("Wrote"))
    lines = (work / "all.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == [f"ana_{n:04d}" for n in range(1, 103)]
