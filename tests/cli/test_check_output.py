"""`check` for CI: JUnit XML, GitHub annotations and job summary, hostile server text in
every format, and `--wait` (time driven by the test, the server's simulation ticked)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config
from tests.reliability.hostile import CONTROL, hostile_items, unsafe_in
from tests.support.clock import SteppedClock
from tests.support.scripted_server import Reply, ScriptedServer, analysis

from screen_analysis.cli import report
from screen_analysis.cli.check import command
from screen_analysis.demo.live import LiveSimulator
from screen_analysis.demo.runner import DemoServer

KEY = "sk-test-not-a-real-key-0000"
INJECTION = "line\n::error title=pwned::injected%0A::warning::x\r::add-mask::y"
MARKUP = '</testcase>]]><![CDATA[ & "q" <script>alert(1)</script>'
MARKDOWN = "| **bold** _it_ [link](javascript:alert(1)) @octocat https://evil.example `tick`"
# Every output names the three lowest under a failed assertion: the mean score's are the
# first three, cta_effectiveness's the last three, so each label is named somewhere.
HOSTILE_LABELS = ("lone \ud800 surrogate", "ctl" + CONTROL, INJECTION, MARKUP, MARKDOWN)


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


def hostile_page() -> list[object]:
    low = {"visual_clarity": 1, "visual_hierarchy": 1, "color_contrast": 1}
    rows: list[object] = [
        analysis(n, label=label, score=n - 100, breakdown={**low, "cta_effectiveness": -n})
        for n, label in enumerate(HOSTILE_LABELS, start=1)
    ]
    rows.append(
        analysis(
            9,
            status="failed",
            score=None,
            breakdown=None,
            error_message=INJECTION + MARKDOWN + MARKUP,
        )
    )
    return rows + hostile_items()


def hostile_script(path: str, query: dict[str, str]) -> Reply:
    items = hostile_page()
    if "status" in query:
        items = [i for i in items if isinstance(i, dict) and i.get("status") == query["status"]]
    return Reply.json({"data": items, "next_cursor": None, "total": len(items)})


@pytest.fixture
def hostile(against) -> Iterator[ScriptedServer]:
    with ScriptedServer(hostile_script) as scripted:
        against(scripted.base_url, KEY)
        yield scripted


FAILING = ("check", "--min-score", "90", "--min", "cta_effectiveness=90", "--max-failed", "1")


def test_junit_validates_and_counts_one_failure_per_failed_assertion(server, invoke) -> None:
    result = invoke(*FAILING, "--min-count", "1", "--format", "junit")
    assert result.exit_code == 6
    root = ET.fromstring(result.stdout)
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == 4 == int(suite.get("tests", "")) == int(root.get("tests", ""))
    failed = [c for c in cases if c.find("failure") is not None]
    assert len(failed) == 3 == int(suite.get("failures", "")) == int(root.get("failures", ""))
    assert [c.get("name") for c in cases] == [
        "mean score ≥ 90",
        "mean cta_effectiveness ≥ 90",
        "failed share ≤ 1%",
        "completed analyses ≥ 1",
    ]
    assert result.stderr == "check: 3 of 4 assertions failed\n"


def test_github_annotates_each_failure_and_writes_the_summary(
    server, invoke, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = invoke(*FAILING, "--format", "github")
    assert result.exit_code == 6
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 3
    assert errors[0].startswith("::error title=check%3A mean score ≥ 90::mean score ")
    assert "is under 90 (" in errors[0]
    text = summary.read_text()
    assert text.startswith("earlier step\n## ❌ check&#58; 3 of 3 assertions failed")
    assert text.count("❌ **fail**") == 3
    passing = invoke("check", "--min-score", "1", "--format", "github")
    assert passing.exit_code == 0
    assert passing.stdout.startswith("::notice title=screen-analysis check::check: the assertion")


def test_hostile_text_in_the_table(hostile, invoke) -> None:
    result = invoke(*FAILING)
    assert result.exit_code == 6, result.stderr
    assert unsafe_in(result.stdout) == []
    assert "lone \ufffd surrogate" in result.stdout
    assert "ctl␛[2J␛]0;pwned-title␇" in result.stdout  # shown, never obeyed


def test_hostile_text_in_junit(hostile, invoke) -> None:
    result = invoke(*FAILING, "--format", "junit")
    assert result.exit_code == 6, result.stderr
    root = ET.fromstring(result.stdout)  # parses: nothing broke out of its element
    assert [e.tag for e in root.iter() if e.tag not in {"testsuites", "testsuite", "properties",
        "property", "testcase", "failure", "system-out"}] == []  # fmt: skip
    texts = "".join(e.text or "" for e in root.iter("failure"))
    assert "</testcase>]]><![CDATA[" in texts and "<script>" in texts  # as text, escaped
    assert unsafe_in(result.stdout) == []


def test_hostile_text_in_github_output(
    hostile, invoke, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = invoke(*FAILING, "--format", "github")
    assert result.exit_code == 6, result.stderr
    lines = result.stdout.splitlines()
    token = next(line for line in lines if line.startswith("::stop-commands::")).split("::")[2]
    end = lines.index(f"::{token}::")
    commands = [line for line in lines[:end] if line.startswith("::")]
    assert all(re.match(r"::(error|notice) |::stop-commands::", line) for line in commands)
    assert not any("pwned" in line.split("::")[1] for line in commands if "title=" in line)
    assert "%250A::warning::x" in result.stdout  # a % in the label is escaped, not decoded
    assert unsafe_in(result.stdout) == []
    text = summary.read_text()
    assert "lone \ufffd surrogate" in text
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "&#64;octocat" in text and "https&#58;//evil" in text
    assert "\\[link\\]\\(javascript&#58;alert\\(1\\)\\)" in text
    for row in (line for line in text.splitlines() if line.startswith("| ")):
        assert len(re.findall(r"(?<!\\)\|", row)) == 5  # the table's own pipes only


def test_hostile_text_in_json(hostile, invoke) -> None:
    result = invoke(*FAILING, "--format", "json")
    assert result.exit_code == 6, result.stderr
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    document = json.loads(result.stdout)
    labels = {w["label"] for a in document["assertions"] for w in a["worst"]}
    assert MARKUP in labels and INJECTION in labels  # kept as received, escaped as JSON


# --- --wait ----------------------------------------------------------------------------


def test_wait_returns_as_soon_as_the_in_flight_complete(server, invoke, fixed_clock) -> None:
    simulator = LiveSimulator(server.config, server.store)
    awaited = {row.id for row in server.store.in_flight()}
    finished: list[bool] = []

    def advance(elapsed: float) -> None:
        simulator.tick(DEMO_NOW + timedelta(seconds=elapsed))
        finished.append(not awaited & {row.id for row in server.store.in_flight()})

    fixed_clock.on_sleep = advance
    result = invoke("check", "--wait", "--poll-interval", "3", "--min-count", "1")
    assert result.exit_code == 0, result.stderr
    assert finished and finished.index(True) == len(finished) - 1
    assert fixed_clock.sleeps == [3] * len(finished)
    statuses = [r.query.get("status") for r in server.request_log if r.path == "/v1/analyses"]
    rounds = len(finished) + 1
    assert statuses == ["pending", "processing"] * rounds + [None] * 4  # then one walk
    assert result.stderr == ""  # no progress line without a terminal


def test_wait_times_out_cleanly_with_exit_7(server, invoke, fixed_clock) -> None:
    result = invoke(
        "check", "--wait", "--timeout", "30", "--poll-interval", "5", "--min-score", "1"
    )
    assert result.exit_code == 7
    assert result.stdout == ""
    assert result.stderr == (
        "Error: timed out after 30 s: 6 analyses still being scored (3 pending, 3 processing)\n"
    )
    assert fixed_clock.elapsed == 30
    assert all(r.query.get("status") for r in server.request_log)  # no walk after a timeout
    junit = invoke("check", "--wait", "--timeout", "5", "--min-score", "1", "--format", "junit")
    assert junit.exit_code == 7
    error = ET.fromstring(junit.stdout).find("testsuite/testcase/error")
    assert error is not None and error.get("type") == "WaitTimedOut"
    as_json = invoke("check", "--wait", "--timeout", "5", "--min-score", "1", "--format", "json")
    assert as_json.exit_code == 7
    assert json.loads(as_json.stdout)["timed_out"] is True


def test_wait_shows_progress_on_a_terminal(
    server, invoke, fixed_clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []

    class Recorded(report.StderrProgress):
        def __init__(self) -> None:
            super().__init__()
            self.enabled = True

        def show(self, text: str) -> None:
            shown.append(text)

    monkeypatch.setattr(report, "StderrProgress", Recorded)
    result = invoke("check", "--wait", "--timeout", "4", "--poll-interval", "2", "--min-score", "1")
    assert result.exit_code == 7
    assert shown[0] == (
        "Waiting for 6 analyses to be scored (3 pending, 3 processing) · 0 s of 4 s"
    )
    assert shown[-1].endswith("· 4 s of 4 s")


def test_demo_wait_turns_the_live_simulation_on(invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    from screen_analysis.cli import root

    started: list[dict[str, object]] = []
    real = root.start_demo_connection

    def spy(stack, **options):
        started.append(options)
        return real(stack, **{**options, "live": False, "analyses": 50})

    monkeypatch.setattr(root, "start_demo_connection", spy)
    result = invoke("--demo", "check", "--wait", "--timeout", "1", "--min-score", "1")
    assert result.exit_code in (0, 6, 7)
    assert started == [{"live": True}]
    plain = invoke("--demo", "check", "--min-score", "1")
    assert plain.exit_code == 0 and started[1] == {}  # no --wait: the data stands still
