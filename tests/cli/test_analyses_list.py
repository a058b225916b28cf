"""`analyses list` against the reference server: formats, paging, validation."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime

from screen_analysis.api.models import CRITERIA
from screen_analysis.words import utc_time


def _requests(server, path="/v1/analyses"):
    return [r for r in server.request_log if r.path == path]


def test_table_shows_one_page_and_the_next_cursor(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["STATUS", "SCORE", "LABEL"]
    assert len(lines) == 21
    assert "Showing 20 of 300. Next page: --after " in result.stderr


def test_table_times_name_their_zone(demo_server, against, invoke):
    """The table printed "2026-11-01 09:00" with no zone; every time written down names
    its zone (UTC, as the report, the gate and `cache info` write it)."""
    against(demo_server.base_url, demo_server.api_key)
    rows = json.loads(invoke("analyses", "list", "--format", "json").stdout)
    lines = invoke("analyses", "list").stdout.splitlines()[1:]
    assert len(lines) == len(rows) == 20
    for line, row in zip(lines, rows, strict=True):
        created = datetime.fromisoformat(row["created_at"])
        assert utc_time(created) in line and line.count(" UTC") == 1


def test_jsonl_all_streams_every_analysis_once(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list", "--all", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 300
    assert len({r["id"] for r in rows}) == 300
    created = [r["created_at"] for r in rows]
    assert created == sorted(created, reverse=True)
    assert result.stderr == ""


def test_json_carries_fields_as_received(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list", "--status", "failed", "--format", "json", "--limit", "5")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert 0 < len(rows) <= 5
    for row in rows:
        assert row["status"] == "failed"
        assert set(row) >= {"id", "project_id", "image_url", "error_message", "created_at"}
        assert row["score"] is None  # the server's null stays null


def test_max_items_stops_after_n_and_asks_only_needed_pages(fresh_demo_server, against, invoke):
    server = fresh_demo_server
    against(server.base_url, server.api_key)
    result = invoke("analyses", "list", "--max-items", "150", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 150
    assert len(_requests(server)) == 2


def test_csv_flattens_breakdown(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list", "--status", "completed", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 20
    for criterion in CRITERIA:
        assert rows[0][criterion.value].lstrip("-").isdigit()


def test_filters_combine(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    project = json.loads(invoke("analyses", "list", "--format", "json", "--limit", "1").stdout)[0]
    result = invoke(
        "analyses",
        "list",
        "--all",
        "--format",
        "jsonl",
        "--project-id",
        project["project_id"],
        "--status",
        "completed",
    )
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows
    assert {(r["project_id"], r["status"]) for r in rows} == {(project["project_id"], "completed")}


def test_bad_limit_and_status_exit_2_before_any_request(fresh_demo_server, against, invoke):
    server = fresh_demo_server
    against(server.base_url, server.api_key)
    for args in (["--limit", "0"], ["--limit", "101"], ["--limit", "x"], ["--status", "done"]):
        result = invoke("analyses", "list", *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert result.stdout == ""
    assert _requests(server) == []


def test_bad_cursor_is_refused_in_one_line(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list", "--after", "not-a-cursor")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert len(result.stderr.splitlines()) == 1


def test_key_never_printed(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    for args in (
        ["analyses", "list", "--format", "json"],
        ["--debug", "projects", "get", "proj_nope"],
    ):
        result = invoke(*args)
        assert demo_server.api_key not in result.stdout + result.stderr


def test_table_with_no_rows_says_so_on_stderr(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    result = invoke("analyses", "list", "--project-id", "proj_nobody_has_this")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == "No analyses match.\n"


def test_json_of_no_rows_is_an_empty_array_and_says_nothing(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    for fmt, expected in (("json", "[]\n"), ("jsonl", "")):
        result = invoke("analyses", "list", "--project-id", "proj_nobody", "--format", fmt)
        assert result.exit_code == 0, result.stderr
        assert (result.stdout, result.stderr) == (expected, "")


def test_json_and_jsonl_write_the_same_items_as_the_models_see(demo_server, against, invoke):
    against(demo_server.base_url, demo_server.api_key)
    array = json.loads(invoke("analyses", "list", "--all", "--format", "json").stdout)
    lines = invoke("analyses", "list", "--all", "--format", "jsonl").stdout.splitlines()
    assert array == [json.loads(line) for line in lines]
    assert len(array) == 300


def _overlapping_pages(server):
    """Three pages where rows slid across the boundaries (new rows arrived meanwhile)."""
    for ids, cursor in ((["a", "b", "c"], "A"), (["c", "d", "a"], "B"), (["e"], None)):
        data = [{"id": i, "project_id": "proj_1", "status": "pending"} for i in ids]
        server.faults.inject(200, body={"data": data, "next_cursor": cursor, "total": 5})


def test_rows_that_slid_across_pages_are_listed_once(fresh_demo_server, against, invoke):
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    _overlapping_pages(fresh_demo_server)
    result = invoke("analyses", "list", "--all", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == list("abcde")
    _overlapping_pages(fresh_demo_server)
    result = invoke("analyses", "list", "--max-items", "4", "--format", "csv")
    assert [row["id"] for row in csv.DictReader(io.StringIO(result.stdout))] == list("abcd")


def test_ranges_are_click_parameter_types(fresh_demo_server, against, invoke):
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    for args, says in (
        (["--limit", "101"], "Invalid value for '--limit': 101 is not in the range 1<=x<=100."),
        (["--max-items", "0"], "Invalid value for '--max-items': 0 is not in the range x>=1."),
    ):
        result = invoke("analyses", "list", *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert result.stderr.strip().splitlines()[-1] == f"Error: {says}"
    assert _requests(fresh_demo_server) == []
