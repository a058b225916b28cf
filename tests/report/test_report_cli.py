"""`screen-analysis report`: the page, Markdown, escaping of server text, exit codes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.report.hostile_report import CANARY, PROJECT_ID, script
from tests.support.scripted_server import ScriptedServer

from screen_analysis.cli.root import cli
from screen_analysis.demo.runner import DemoServer


def run(server_url: str, key: str, *args: str) -> Result:
    env = {"SCREEN_ANALYSIS_BASE_URL": server_url, "SCREEN_ANALYSIS_API_KEY": key}
    return CliRunner().invoke(cli, ["report", *args], env=env, catch_exceptions=False)


@pytest.fixture
def hostile() -> Iterator[ScriptedServer]:
    with ScriptedServer(script) as server:
        yield server


def test_html_report_of_a_project(demo_server: DemoServer, tmp_path: Path) -> None:
    project = demo_server.store.projects()[0]
    out = tmp_path / "report.html"
    result = run(
        demo_server.base_url, demo_server.api_key, "--project-id", project.id, "-o", str(out)
    )
    assert result.exit_code == 0, result.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 4
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert project.name in page and "Latest failures" in page
    assert "Reading analyses" not in result.stderr  # not a terminal: no progress line
    assert f"Wrote {out}" in result.stderr


def test_markdown_by_extension(demo_server: DemoServer, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    result = run(demo_server.base_url, demo_server.api_key, "--status", "completed", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert text.startswith("# Screen analysis report: All projects")
    assert "status completed" in text and "| Criterion | Mean | Weight |" in text


def test_since_filters_by_creation(demo_server: DemoServer, tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    result = run(demo_server.base_url, demo_server.api_key, "--since", "2026-10-25", "-o", str(out))
    assert result.exit_code == 0
    seen = int(re.search(r"· ([\d,]+) analyses of 300 listed", out.read_text()).group(1))  # type: ignore[union-attr]
    assert 0 < seen < 300


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("--project-id", "proj_nope"), 4),
        (("--since", "last week"), 2),
        (("--status", "done"), 2),
    ],
)
def test_exit_codes(
    demo_server: DemoServer, tmp_path: Path, args: tuple[str, ...], code: int
) -> None:
    out = tmp_path / "r.html"
    result = run(demo_server.base_url, demo_server.api_key, *args, "-o", str(out))
    assert result.exit_code == code
    assert not out.exists()


def test_wrong_key_is_exit_3(demo_server: DemoServer, tmp_path: Path) -> None:
    result = run(demo_server.base_url, "wrong", "-o", str(tmp_path / "r.html"))
    assert result.exit_code == 3 and "wrong" not in result.stderr


def test_server_text_is_text_in_html(hostile: ScriptedServer, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = run(hostile.base_url, "k", "--project-id", PROJECT_ID, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    page = out.read_text()
    assert "<script" not in page and "<img" not in page and 'onerror="' not in page
    assert page.count("</svg>") == 4
    assert "&lt;script&gt;" in page and "&lt;/svg&gt;" in page and CANARY in page


def test_server_text_is_text_in_markdown(hostile: ScriptedServer, tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    result = run(hostile.base_url, "k", "--project-id", PROJECT_ID, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert not re.search(r"(?<!\\)[<>]", text)  # every angle bracket escaped
    assert "\\<script\\>" in text and "\\| table \\| break \\|" in text
    feedback_row = next(line for line in text.splitlines() if line.startswith("| \\| table"))
    assert len(re.findall(r"(?<!\\)\|", feedback_row)) == 3  # the table's own pipes only


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from screen_analysis.cli.report import StderrProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    progress = StderrProgress()
    progress(12_400, 48_210)
    progress.clear()
    assert "\rReading analyses: 12,400 of 48,210" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")
    monkeypatch.setattr("sys.stderr", io.StringIO())
    quiet = StderrProgress()
    quiet(1, 2)
    assert not quiet.enabled


def test_a_since_that_is_no_date_is_one_line(demo_server: DemoServer, tmp_path: Path) -> None:
    result = run(demo_server.base_url, demo_server.api_key, "--since", "last week", "-o", "r.html")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: --since: expected a date (2026-10-01), a date-time (2026-10-01T09:00Z) or a "
        "duration (2h, 7d), got 'last week'"
    )
