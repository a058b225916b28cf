"""The benchmarks run, on a reduced quick run, and what they count holds: requests, rows,
memory. Their times are figures for `benchmarks/` and the manual, never assertions here —
a shared machine would make them flaky."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from benchmarks import (
    bounds,
    cold_start,
    floor,
    image_preview,
    memory,
    overview,
    scroll_stall,
    start_work,
    table_append,
)
from benchmarks.server_process import ServerProcess

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.runner import DemoServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]


def test_appending_a_page_is_measured_for_both_tables() -> None:
    report = asyncio.run(table_append.run_async((1_000, 10_000), repeats=2))
    for table in ("AnalysesTable", "DataTable"):
        for size in ("1000", "10000"):
            assert report["results"][table][size]["min_ms"] > 0, report


def test_memory_per_row_is_close_to_plain_dicts() -> None:
    with ServerProcess(DemoConfig(analyses=10_000, seed=7)) as server:
        bodies = memory.fetch_pages(server.base_url, server.api_key, 10_000)
    report = memory.run(bodies)
    assert report["rows"] == 10_000
    assert report["ratio"] <= 2.5, report
    assert report["models_ratio"] <= 1.0, report  # the parsed rows alone: no margin needed


def test_scrolling_asks_each_page_once_and_stalls_less_than_loading_at_the_end() -> None:
    report = scroll_stall.run([(80, 24)], rows=2_000)
    run = report["runs"]["80x24"]
    ours, baseline = run["app"], run["threshold 0"]
    for figures in (ours, baseline):
        assert figures["rows_loaded"] == 2_000
        assert figures["page_requests"] == figures["distinct_pages"] == figures["pages_needed"]
        assert figures["stall_ms"] >= 0, run


def test_the_loop_block_while_an_image_is_decoded_is_measured() -> None:
    report = asyncio.run(image_preview.decode_blocking())
    assert report["ratio"] > 0, report


def test_overview_keeps_little_more_than_a_bare_walk() -> None:
    sizes = {}
    for analyses in (2_000, 8_000):
        with ServerProcess(DemoConfig(analyses=analyses, seed=7)) as server:
            sizes[analyses] = overview.run(server.base_url, server.api_key, repeats=2)
    large = sizes[8_000]
    figures = json.dumps(sizes)  # a string: shown whole when an assertion fails
    assert large["analyses"] == 8_000
    assert large["memory_ratio"] <= 1.5, figures
    # What the overview holds does not grow with the analyses.
    assert large["overview_held_bytes"] <= 1.5 * sizes[2_000]["overview_held_bytes"], figures


def test_the_deadline_is_measured_where_it_holds() -> None:
    for kind in ("endless", "hanging"):
        figures = bounds.deadline(kind)
        assert figures["exit_code"] == 7, figures
        assert "cut off at the deadline" in figures["message"][0], figures
        # The order of events, not a timing: the start asks the server first, then the wait
        # runs its whole timeout before it gives up.
        assert 0 < figures["startup_s"] < figures["elapsed_s"], figures
        assert figures["elapsed_s"] >= bounds.DEADLINE_S, figures


def test_the_starts_against_their_floors_give_their_figures() -> None:
    report = floor.run(repeats=1)
    for figures in (report["warm"], report["cold"]):
        assert len(figures["pair_ratios"]) == 1 and figures["ratio"] > 0
    assert len(floor.summary_rows(report)) == 2


def test_the_start_s_own_work_is_told_by_kind() -> None:
    medians = start_work.run(repeats=1)["medians"]
    assert medians["own_modules"] > 100  # the app's modules were imported, up to App.run
    for counted in ("NamedTuple_classes", "Textual_classes", "dataclasses", "regexes"):
        assert medians[counted] > 0, medians
    # The byte code of the app's modules it imported was read back from their files.
    assert medians["byte_code_kb"] > 100 and 0 < medians["unmarshal_ms"] < medians["total_ms"]
    # Class statements and the dataclass decorators that follow them do not overlap.
    parts = sum(medians[f"{kind}_ms"] for kind in start_work.KINDS) + medians["dataclass_ms"]
    assert 0 < parts < medians["total_ms"], medians


def test_a_warm_up_leaves_the_app_a_warm_start_of_kept_rows(tmp_path: Path) -> None:
    """The warm start is timed to the kept rows, not to the server's answer: after a warm-up
    the app is painted by its local cache while the server has not answered at all (a kill
    at the needle could end the app before its local cache kept what the answer brought,
    and every "warm" run then waited for the server)."""
    with DemoServer(DemoConfig(analyses=5000, seed=7, latency_ms=400)) as server:
        needle = cold_start.needle_for(server.base_url, server.api_key)
        env = cold_start.child_env(server.api_key, tmp_path)
        app = cold_start.commands(server.base_url, cache=True)["app"]
        cold_start.time_to_bytes(app, env, needle, settle_s=cold_start.WARM_UP_SETTLE_S)
        server.faults.latency_ms = 600_000  # no answer within the test: only kept rows show
        cold_start.time_to_bytes(app, env, needle, timeout_s=60)


def test_a_server_process_takes_a_new_latency_for_the_answers_that_follow() -> None:
    """The counted warm starts rely on it: after the warm-ups, the server in its own
    process answers nothing within the count, so only the kept rows can paint the app."""
    import httpx

    with ServerProcess(DemoConfig(analyses=10, seed=7)) as server:
        headers = {"Authorization": f"Bearer {server.api_key}"}
        url = f"{server.base_url}/v1/analyses?limit=1"
        assert httpx.get(url, headers=headers, timeout=30).status_code == 200
        server.set_latency(600_000)
        with pytest.raises(httpx.ReadTimeout):
            httpx.get(url, headers=headers, timeout=2)
        server.set_latency(0)
        assert httpx.get(url, headers=headers, timeout=30).status_code == 200
