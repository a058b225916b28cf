"""One scope language on the command line: `analyses list`, `report` and `check` take the
same options (and `--view NAME`) with the same meaning and the same errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.demo.runner import DemoServer

from ..conftest import Invoke

VIEWS = """\
[views.checkout]   # kept: a comment
label = "Checkout*"
status = "completed"
max_score = 60

[views.weak-contrast]
criteria = ["color_contrast < 50"]

[views.bad]
label = "Check[out"

[views.typo]
colour = "red"

[views.nocrit]
criteria = ["colour_contrast < 50"]
"""

COMMANDS = {
    "list": ("analyses", "list"),
    "report": ("report", "-o", "r.html"),
    "check": ("check", "--min-score", "1"),
}


@pytest.fixture
def with_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_server: DemoServer
) -> DemoServer:
    path = tmp_path / "config.toml"
    path.write_text(VIEWS, encoding="utf-8")
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", str(path))
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", demo_server.base_url)
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", demo_server.api_key)
    monkeypatch.chdir(tmp_path)
    return demo_server


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--view", "bad"], "Error: view 'bad': label: bad glob 'Check[out': a '[' is not closed"),
        (["--view", "typo"], "Error: view 'typo': colour: unknown key; known: project_id,"),
        (["--view", "nocrit"], "Error: view 'nocrit': criteria: unknown criterion 'colour_"),
        (["--view", "nope"], "Error: unknown view 'nope'; known views: checkout, weak-contrast"),
        (["--criterion", "foo<3"], "Error: --criterion: unknown criterion 'foo'; known:"),
        (["--label", "a[b"], "Error: --label: bad glob 'a[b': a '[' is not closed"),
        (["--score", "high"], "Error: --score: expected a range such as 40..60"),
        (["--since", "yesterday"], "Error: --since: expected a date (2026-10-01)"),
    ],
)
def test_bad_scope_input_is_one_line_and_exit_2_before_any_request(
    with_views: DemoServer, invoke: Invoke, command: str, args: list[str], line: str
) -> None:
    before = len(with_views.request_log)
    result = invoke(*COMMANDS[command], *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(line), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert len(with_views.request_log) == before


def test_check_with_a_view_judges_that_scope(with_views: DemoServer, invoke: Invoke) -> None:
    result = invoke("check", "--view", "checkout", "--min-score", "70", "--format", "json")
    assert result.exit_code == 6, result.stderr
    document = json.loads(result.stdout)
    scope = document["scope"]
    assert scope["label"] == "Checkout*" and scope["status"] == "completed"
    assert scope["max_score"] == 60
    listed = invoke("analyses", "list", "--view", "checkout", "--all", "--format", "jsonl")
    rows = [Analysis.model_validate(json.loads(line)) for line in listed.stdout.splitlines()]
    assert rows and all(r.status is AnalysisStatus.COMPLETED for r in rows)
    assert all((r.label or "").startswith("Checkout") and (r.score or 0) <= 60 for r in rows)
    assert document["counts"]["analyses"] == len(rows)


def test_flags_replace_the_views_keys(with_views: DemoServer, invoke: Invoke) -> None:
    result = invoke(
        "analyses", "list", "--view", "checkout", "--score", "..50", "--all", "--format", "jsonl"
    )
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and all(row["score"] <= 50 for row in rows)
    assert "match ·" in result.stderr and "scanned" in result.stderr


def test_report_with_a_view_reports_that_scope(with_views: DemoServer, invoke: Invoke) -> None:
    listed = invoke("analyses", "list", "--view", "weak-contrast", "--all", "--format", "jsonl")
    count = len(listed.stdout.splitlines())
    result = invoke("report", "--view", "weak-contrast", "-o", "weak.md")
    assert result.exit_code == 0, result.stderr
    assert f"({count} analyses)" in result.stderr or f"({count} analysis)" in result.stderr
