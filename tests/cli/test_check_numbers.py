"""The gate's numbers and words: huge scores judged exactly (no internal error, no wrong
mean), a baseline checked against itself passing at --max-drop 0, a rise read as a rise,
each failure said once, the lowest analyses in lined-up columns and as many in every
format, and the job summary writing every colon the same way."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config
from tests.support.clock import SteppedClock
from tests.support.scripted_server import Reply, ScriptedServer, analysis

from screen_analysis.cli.check import command
from screen_analysis.demo.runner import DemoServer

KEY = "sk-test-not-a-real-key-0000"
FAILING = ("check", "--min-score", "90", "--min", "cta_effectiveness=90", "--max-failed", "1")


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> SteppedClock:
    clock = SteppedClock(DEMO_NOW)
    monkeypatch.setattr(command, "CLOCK", clock)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    return clock


@pytest.fixture
def server(against, served: Serve) -> DemoServer:
    server = served(demo_config())
    against(server.base_url, server.api_key)
    return server


def scores_server(scores: list[Any]) -> Callable[[str, dict[str, str]], Reply]:
    """A server whose completed analyses have these overall scores (criteria alike)."""
    items = [
        analysis(n, score=score, breakdown={"visual_clarity": score})
        for n, score in enumerate(scores)
    ]

    def script(path: str, query: dict[str, str]) -> Reply:
        if path.startswith("/v1/projects/"):
            return Reply.json({"id": "proj_scripted", "name": "Scripted"})
        shown = [i for i in items if query.get("status") in (None, i["status"])]
        return Reply.json({"data": shown, "next_cursor": None, "total": len(shown)})

    return script


@pytest.fixture
def huge(against) -> Callable[[list[Any]], ScriptedServer]:
    servers: list[ScriptedServer] = []

    def start(scores: list[Any]) -> ScriptedServer:
        server = ScriptedServer(scores_server(scores)).__enter__()
        servers.append(server)
        against(server.base_url, KEY)
        return server

    yield start  # type: ignore[misc]
    for server in servers:
        server.__exit__(None, None, None)


def test_huge_scores_are_judged_not_an_internal_error(huge, invoke, tmp_path: Path) -> None:
    huge([1e308, 1e308, 50])
    result = invoke("check", "--min-score", "60", "--min", "visual_clarity=60")
    assert result.exit_code == 0, result.stderr
    assert "internal error" not in result.stderr
    assert "6.667e307" in result.stdout  # (1e308 + 1e308 + 50) / 3, exactly
    report = invoke("report", "--format", "md", "-o", str(tmp_path / "r.md"))
    assert report.exit_code == 0, report.stderr
    assert "**6.667e307** average score" in (tmp_path / "r.md").read_text()


def test_huge_scores_beside_ordinary_ones_give_the_true_mean(huge, invoke) -> None:
    # 1e308 + 50 is 1e308 in floats: a float sum forgets the 50 and prints 31.4.
    huge([1e308, 50, -1e308, 60, 61, 54, 45])
    result = invoke("check", "--min-score", "1", "--format", "json")
    document = json.loads(result.stdout)
    assert document["mean_score"] == pytest.approx(270 / 7)
    assert document["assertions"][0]["value"] == 38.6


def test_a_score_beyond_a_float_is_said_to_be_left_out(huge, invoke) -> None:
    huge([10**400, 70, 80])
    result = invoke("check", "--min-score", "1")
    assert result.exit_code == 0, result.stderr
    assert "75.0" in result.stdout
    assert "Note: 1 score beyond ±1.8e308 or not a number left out of the means" in result.stdout


def test_a_scope_checked_against_the_baseline_it_wrote_passes(server, invoke, tmp_path) -> None:
    baseline = tmp_path / "baseline.json"
    written = invoke("check", "--min-count", "1", "--format", "json")
    assert written.exit_code == 0, written.stderr
    baseline.write_text(written.stdout)
    result = invoke("check", "--baseline", str(baseline), "--max-drop", "0")
    assert result.exit_code == 0, result.stdout
    assert "−0.0" not in result.stdout and "0.000" not in result.stdout
    assert result.stdout.count("0.0 pts ") == 6


def test_a_rise_reads_rose(server, invoke, tmp_path) -> None:
    baseline = tmp_path / "baseline.json"
    document = json.loads(invoke("check", "--min-count", "1", "--format", "json").stdout)
    document["mean_score"] -= 6.6
    baseline.write_text(json.dumps(document))
    result = invoke("check", "--baseline", str(baseline), "--max-drop", "0")
    row = next(line for line in result.stdout.splitlines() if "drop in mean score" in line)
    assert "rose 6.6 pts" in row and "−" not in row


def lowest_lines(table: str) -> list[list[str]]:
    """The analyses named under each failed assertion of a table, in groups."""
    groups: list[list[str]] = []
    for line in table.splitlines():
        if "lowest: " in line or "latest: " in line:
            groups.append([line])
        elif groups and line.startswith(" " * 19) and "ana_" in line:
            groups[-1].append(line)
    return groups


def test_the_lowest_analyses_line_up_and_every_format_names_as_many(server, invoke) -> None:
    from screen_analysis.gate import LOWEST_SHOWN

    table = invoke(*FAILING, "--min-count", "1")
    assert table.exit_code == 6
    groups = lowest_lines(table.stdout)
    named = [line for group in groups for line in group if "ana_" in line]
    assert {line.index("ana_") for line in named} == {named[0].index("ana_")}
    junit = ET.fromstring(invoke(*FAILING, "--min-count", "1", "--format", "junit").stdout)
    texts = [(f.text or "").splitlines() for f in junit.iter("failure")]
    assert [len(text) for text in texts] == [len(group) for group in groups]
    assert all(len(group) == LOWEST_SHOWN for group in groups)
    document = json.loads(invoke(*FAILING, "--format", "json").stdout)
    assert {len(a["worst"]) for a in document["assertions"] if not a["passed"]} == {LOWEST_SHOWN}


def test_a_failure_is_said_once(server, invoke, monkeypatch, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = invoke(*FAILING, "--format", "github")
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    message = errors[0].split("::", 2)[2].split("%0A")[0]
    assert re.fullmatch(r"mean score \d+\.\d is under 90 \(\d+ completed analyses\)", message)
    junit = ET.fromstring(invoke(*FAILING, "--format", "junit").stdout)
    failure = next(junit.iter("failure"))
    assert failure.get("message") == message
    assert "mean score" not in (failure.text or "")
    text = summary.read_text()
    assert text.count("mean score") == 2  # its table row and its sentence
    assert ":" not in text  # every colon of the summary written alike, as &#58;
    assert "Scope&#58; all projects" in text and "&#58; 3 of 3 assertions failed" in text


def test_the_table_fits_80_columns_with_every_number_whole(
    server, invoke, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    document = json.loads(invoke("check", "--min-count", "1", "--format", "json").stdout)
    document["mean_score"] -= 11.5
    for name in document["criteria"]:
        document["criteria"][name] -= 11.5
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(document))
    result = invoke("check", "--baseline", str(baseline), "--max-drop", "0")
    rows = [line for line in result.stdout.splitlines() if "drop in mean" in line]
    assert len(rows) == 6 and all(re.search(r"rose 11\.\d pts +≤ 0 pts", row) for row in rows)
    assert all(len(row) <= 80 for row in rows)
