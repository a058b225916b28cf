"""A listing whose cursors never end stops at the bound on one walk's pages, in every
command that walks a listing: `analyses list --all`, `report` and `check`. Each says what
happened (no loop, no "try again") and exits 5, with what it read before the bound."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.scripted_server import Reply, ScriptedServer, analysis, page

from screen_analysis.api import pagination

KEY = "sk-test-endless-not-real"
BOUND = 20


def endless(path: str, query: dict[str, str]) -> Reply:
    """Fresh analyses and a fresh cursor on every page (and a project that exists)."""
    if path.startswith("/v1/projects/"):
        return Reply.json({"id": "proj_scripted", "name": "Scripted", "analysis_count": 1})
    start = int(query.get("after", "0"))
    rows = [analysis(start + i) for i in range(int(query["limit"]))]
    return page(rows, str(start + len(rows)), 10**9)


@pytest.fixture
def server(against, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedServer]:
    monkeypatch.setattr(pagination, "MAX_WALK_PAGES", BOUND)
    with ScriptedServer(endless) as scripted:
        against(scripted.base_url, KEY)
        yield scripted


def listings(server: ScriptedServer) -> int:
    return sum(1 for seen in server.seen if seen.path == "/v1/analyses")


def error_line(stderr: str) -> str:
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("Error: ") and "pagination loop" not in line
    assert "Try again" not in line  # it would go as far, and no further
    assert f"listing stopped: it did not end within {BOUND} pages" in line
    return line


@pytest.mark.parametrize("fmt", ["jsonl", "table"])
def test_all_streams_up_to_the_bound_then_says_the_listing_did_not_end(
    server, invoke, fmt: str
) -> None:
    result = invoke("analyses", "list", "--all", "--format", fmt)
    assert result.exit_code == 5, result.stderr
    error_line(result.stderr)
    if fmt == "jsonl":
        assert len(result.stdout.splitlines()) == BOUND * 100  # every page read was written
        assert json.loads(result.stdout.splitlines()[-1])["id"] == f"ana_{BOUND * 100 - 1}"
    assert BOUND <= listings(server) <= BOUND + 1  # the bound and one page asked ahead


def test_report_stops_at_the_bound(server, invoke, tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    result = invoke("report", "--output", str(target))
    assert result.exit_code == 5, result.stderr
    error_line(result.stderr)
    assert not target.exists()
    assert BOUND <= listings(server) <= BOUND + 1


def test_check_stops_at_the_bound(server, invoke) -> None:
    result = invoke("check", "--no-wait", "--min-count", "1")
    assert result.exit_code == 5, result.stderr
    error_line(result.stderr)
    assert BOUND <= listings(server) <= BOUND + 1
