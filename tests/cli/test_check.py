"""`screen-analysis check` against the reference server: exit codes, the explanation, the
baseline round trip, config tables, bad input before any request, one walk of the pages,
an unknown project as not found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import DEMO_NOW, Serve, demo_config

from screen_analysis.api.models import CRITERIA
from screen_analysis.demo.runner import DemoServer
from screen_analysis.demo.store import iter_all
from screen_analysis.gate.evaluate import compared

NO_WAIT = "--no-wait"


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 80×24 terminal for the explanation, and the suite's fixed clock for durations."""
    from tests.support.clock import SteppedClock

    from screen_analysis.cli.check import command

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr(command, "CLOCK", SteppedClock(DEMO_NOW))


@pytest.fixture
def server(against, served: Serve) -> DemoServer:
    server = served(demo_config())
    against(server.base_url, server.api_key)
    return server


def listing_requests(server: DemoServer) -> list[dict[str, str]]:
    return [r.query for r in server.request_log if r.path == "/v1/analyses"]


def means(server: DemoServer, project_id: str, since: str) -> dict[str, float]:
    """The means of a project's completed analyses created from `since`, from the store."""
    rows = [
        r
        for r in iter_all(server.store, project_id)
        if r["status"] == "completed" and r["created_at"] >= since
    ]
    found = {"score": sum(r["score"] for r in rows) / len(rows)}
    for criterion in CRITERIA:
        found[criterion.value] = sum(r["breakdown"][criterion.value] for r in rows) / len(rows)
    return found


def test_a_passing_gate_exits_0_with_a_one_screen_table(server, invoke) -> None:
    result = invoke("check", "--min-score", "50", "--max-failed", "20", "--min-count", "100")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "check: all 3 assertions hold"
    assert lines[2].startswith("300 analyses in scope: ")
    assert len(lines) <= 23 and max(len(line) for line in lines) <= 80
    assert sum("✓ pass" in line for line in lines) == 3
    assert result.stderr == ""


def test_a_failing_gate_exits_6_and_names_the_lowest(server, invoke) -> None:
    result = invoke(
        "check", "--min-score", "50", "--min", "cta_effectiveness=95", "--min-count", "1000"
    )
    assert result.exit_code == 6, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "check: 2 of 3 assertions failed"
    assert len(lines) <= 23 and max(len(line) for line in lines) <= 80
    cta = next(i for i, line in enumerate(lines) if "mean cta_effectiveness" in line)
    assert "✗ FAIL" in lines[cta] and "≥ 95" in lines[cta]
    assert "lowest: " in lines[cta + 1]
    lowest = min(
        r["breakdown"]["cta_effectiveness"]
        for r in iter_all(server.store)
        if r["status"] == "completed"
    )
    assert lines[cta + 1].split("lowest:")[1].split()[0] == str(lowest)
    assert "✗ FAIL" in next(line for line in lines if "completed analyses" in line)


def shown_drop(before: float, now: float) -> float:
    """A drop as the gate judges it: both means rounded half up to one decimal first."""
    return float(compared(before) - compared(now))


def test_the_baseline_round_trip_reports_the_drop_per_criterion(
    server, invoke, tmp_path: Path
) -> None:
    project = next(p.id for p in server.store.projects() if p.name == "Lumen Banking")
    baseline = tmp_path / "baseline.json"
    first = invoke("check", "--project-id", project, "--min-count", "1", "--format", "json")
    assert first.exit_code == 0, first.stderr
    baseline.write_text(first.stdout)
    assert first.stderr == "check: the assertion holds\n"
    since = "2026-09-01"  # Lumen Banking declines over the last weeks
    result = invoke(
        "check",
        "--project-id",
        project,
        "--since",
        since,
        "--baseline",
        str(baseline),
        "--max-drop",
        "0",
        "--format",
        "json",
    )
    assert result.exit_code in (0, 6), result.stderr
    document = json.loads(result.stdout)
    before = means(server, project, "0")
    now = means(server, project, since)
    drops = {a["id"]: a for a in document["assertions"]}
    assert set(drops) == {"max-drop", *(f"max-drop:{c.value}" for c in CRITERIA)}
    # Judged at the precision shown: each mean to one decimal, then the difference.
    assert drops["max-drop"]["value"] == shown_drop(before["score"], now["score"])
    for criterion in CRITERIA:
        drop = drops[f"max-drop:{criterion.value}"]
        expected = shown_drop(before[criterion.value], now[criterion.value])
        assert drop["value"] == expected
        assert drop["passed"] is (expected <= 0)
    assert drops["max-drop"]["value"] > 0 and document["passed"] is False
    assert document["baseline"]["source"] == str(baseline)
    assert result.exit_code == (0 if document["passed"] else 6)
    # The table says the same per criterion, baseline → now.
    table = invoke("check", "--project-id", project, "--since", since, "--baseline", str(baseline))
    assert table.exit_code == 2  # a baseline without --max-drop is bad input
    table = invoke(
        "check", "--project-id", project, "--since", since, "--baseline", str(baseline),
        "--max-drop", "100",
    )  # fmt: skip
    assert table.exit_code == 0
    for criterion in CRITERIA:
        line = next(x for x in table.stdout.splitlines() if f"mean {criterion.value}" in x)
        assert "→" in line


def test_a_baseline_window_is_read_in_the_same_walk(server, invoke) -> None:
    project = server.store.projects()[0].id
    walk = invoke("analyses", "list", "--all", "--project-id", project, "--format", "jsonl")
    assert walk.exit_code == 0
    listed = len(listing_requests(server))
    result = invoke(
        "check", "--project-id", project, "--since", "2026-10-18",
        "--baseline-since", "2026-09-01", "--baseline-until", "2026-10-18", "--max-drop", "100",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "Baseline: analyses created since 2026-09-01 00:00 UTC until 2026-10-18" in result.stdout
    assert len(listing_requests(server)) - listed == listed  # one walk, as `analyses list --all`


def test_the_cost_is_one_walk_of_the_scope(server, invoke) -> None:
    listed = invoke("analyses", "list", "--all", "--format", "jsonl")
    assert listed.exit_code == 0
    walk = listing_requests(server)
    result = invoke("check", "--min-score", "1", "--label", "Checkout*", "--last", "20")
    assert result.exit_code == 0, result.stderr
    mine = listing_requests(server)[len(walk) :]
    assert len(mine) == len(walk) == 3
    assert [q.get("after") for q in mine] == [q.get("after") for q in walk]
    assert all(q["limit"] == "100" for q in mine)


def test_a_check_from_the_config_file_and_flags_over_it(server, invoke, tmp_path: Path) -> None:
    project = server.store.projects()[0].id
    config = Path.home() / ".config" / "screen-analysis" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[checks.release]\nproject_id = "{project}"\nmin_score = 50\nmax_failed = 25\n'
        "min = { cta_effectiveness = 40 }\n"
    )
    result = invoke("check", "release")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("check release: all 3 assertions hold\n")
    assert f"Scope: project {project}" in result.stdout
    stricter = invoke("check", "release", "--min", "cta_effectiveness=99")
    assert stricter.exit_code == 6
    assert "check release: 1 of 3 assertions failed" in stricter.stdout


def test_a_checks_file_resolves_its_baseline_beside_itself(server, invoke, tmp_path: Path) -> None:
    first = invoke("check", "--min-count", "1", "--format", "json")
    (tmp_path / "base.json").write_text(first.stdout)
    checks = tmp_path / "checks.toml"
    checks.write_text('[checks.gate]\nbaseline = "base.json"\nmax_drop = 0.5\n')
    result = invoke("check", "gate", "--config-file", str(checks))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "drop in mean score" in result.stdout


def one_line(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--min", "delight=3"], "unknown criterion 'delight'"),
        (["--min-score", "-5"], "--min-score: points must be ≥ 0 (a minimum below 0 would"),
        (["--min", "color_contrast=-1"], "--min color_contrast: points must be ≥ 0"),
        (["--min-score", "nan"], "--min-score: expected a finite number, got 'nan'"),
        (["--min", "color_contrast=inf"], "--min color_contrast: expected a finite number"),
        (["--max-drop", "-1", "--baseline-since", "7d"], "--max-drop: points must be ≥ 0"),
        (["--max-drop", "inf", "--baseline-since", "7d"], "--max-drop: expected a finite"),
        (
            ["--min", "color_contrast=50", "--min", "color_contrast=60"],
            "--min: color_contrast given twice (50 and 60)",
        ),
        (["--min", "color-contrast=5", "--min", "Color_Contrast=5"], "color_contrast given twice"),
        (["--min-score", "high"], "--min-score: expected a number, got 'high'"),
        (["--max-failed", "12 percent"], "--max-failed: expected a number"),
        (["--min-score", "1", "--since", "last week"], "--since: expected a date"),
        (["--min-score", "1", "--last", "many"], "--last: expected a whole number"),
        (["--max-drop", "1", "--baseline", "missing.json"], "cannot read baseline missing.json"),
        (["nightly"], "unknown check 'nightly'"),
        (["--config-file", "nope.toml"], "--config-file: no such file"),
        ([], "nothing to check"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_any_request(
    fresh_demo_server, against, invoke, args, says
) -> None:
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    result = invoke("check", *args)
    assert result.exit_code == 2
    assert says in one_line(result)
    assert result.stdout == ""
    assert fresh_demo_server.request_log == []


def test_a_malformed_baseline_is_bad_input_before_any_request(
    fresh_demo_server, against, invoke, tmp_path: Path
) -> None:
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "screen-analysis-check", "version": 1, "mean_score": "x"}')
    result = invoke("check", "--baseline", str(bad), "--max-drop", "1")
    assert result.exit_code == 2
    assert "mean_score is not a number" in one_line(result)
    config = tmp_path / "checks.toml"
    config.write_text("[checks.a]\nmin_scroe = 3\n")
    typo = invoke("check", "a", "--config-file", str(config))
    assert typo.exit_code == 2 and "min_scroe in [checks.a] of" in one_line(typo)
    assert "not a known key; known: project_id" in one_line(typo)
    config.write_text("[checks\n")
    broken = invoke("check", "a", "--config-file", str(config))
    assert broken.exit_code == 2 and "cannot read config file" in one_line(broken)
    assert fresh_demo_server.request_log == []


def test_api_failures_keep_their_exit_codes(fresh_demo_server, against, invoke) -> None:
    against(fresh_demo_server.base_url, "sk-wrong-not-real")
    assert invoke("check", "--min-score", "1").exit_code == 3
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    fresh_demo_server.faults.error_rate = 1.0
    result = invoke("check", "--min-score", "1")
    assert result.exit_code == 5 and one_line(result)


def project_requests(server: DemoServer) -> list[str]:
    return [r.path for r in server.request_log if r.path.startswith("/v1/projects/")]


@pytest.mark.parametrize("wait", [[], ["--wait", "--timeout", "5"]])
def test_an_unknown_project_is_not_found_as_projects_get_says(server, invoke, wait) -> None:
    shown = invoke("projects", "get", "proj_nope")
    assert shown.exit_code == 4
    before = len(project_requests(server))
    result = invoke("check", "--project-id", "proj_nope", "--min-score", "1", *wait)
    assert result.exit_code == 4
    assert one_line(result) == one_line(shown)  # the one error path: same words, same code
    assert result.stdout == ""  # no assertion was judged
    assert project_requests(server)[before:] == ["/v1/projects/proj_nope"]


def test_a_known_project_costs_no_extra_request(server, invoke) -> None:
    project = server.store.projects()[0].id
    assert invoke("check", "--project-id", project, "--min-score", "1").exit_code == 0
    assert invoke("check", "--min-score", "1").exit_code == 0
    assert project_requests(server) == []


def test_an_empty_known_project_is_an_empty_scope_that_fails(against, invoke) -> None:
    with DemoServer(demo_config(analyses=0)) as empty:
        against(empty.base_url, empty.api_key)
        project = empty.store.projects()[0].id
        result = invoke("check", "--project-id", project, "--min-score", "1")
        assert result.exit_code == 6, result.stderr
        assert "no completed analysis in scope has a score" in result.stdout
        assert project_requests(empty) == [f"/v1/projects/{project}"]  # one look, no more


def test_a_score_threshold_has_no_upper_bound_the_api_does_not_document(server, invoke) -> None:
    # API.md: "Bounds of scores and weights ... not shown": 150 is judged, not refused.
    result = invoke("check", "--min-score", "150", "--min", "color_contrast=101")
    assert result.exit_code == 6, result.stderr
    assert "≥ 150" in result.stdout and "≥ 101" in result.stdout


def test_a_criterion_twice_in_a_checks_table_is_bad_input(
    fresh_demo_server, against, invoke, tmp_path: Path
) -> None:
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    checks = tmp_path / "checks.toml"
    for table, says in [
        ("min = { color_contrast = 50, color-contrast = 60 }", "color_contrast given twice"),
        ('min = ["color_contrast=50", "COLOR_CONTRAST=60"]', "color_contrast given twice"),
        ("min_score = -5", "min_score in [checks.gate] of"),
        ("min = { cta_effectiveness = nan }", "expected a finite number"),
    ]:
        checks.write_text(f"[checks.gate]\n{table}\n")
        result = invoke("check", "gate", "--config-file", str(checks))
        assert result.exit_code == 2, table
        assert says in one_line(result), table
        assert result.stdout == ""
    assert fresh_demo_server.request_log == []
