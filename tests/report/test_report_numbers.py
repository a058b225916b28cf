"""What the report does with numbers outside the ordinary: scores outside 0–100 and scores
that cannot be added up are counted and said in one wording under every chart that leaves
them out (Markdown and HTML alike), huge scores give exact means, the partial points' counts
stay clear of the line, and a report of all projects carries a row per project with its
weekly trend."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import demo_config
from tests.report.test_report_render import analysis, data, scored  # noqa: F401

from screen_analysis.api.models import Analysis
from screen_analysis.demo.runner import DemoServer
from screen_analysis.report import charts
from screen_analysis.report.render import ReportData, render

OUTSIDE = "2 scores outside 0–100 left out."


def with_scores(*scores: object) -> ReportData:
    items = [analysis(n, 2 + 2 * n, 50 + n) for n in range(20)]
    odd = [
        Analysis.model_validate(
            {**analysis(100 + n, 3 + n, 50).model_dump(mode="json"), "score": s}
        )
        for n, s in enumerate(scores)
    ]
    return data([*items, *odd])


def sections(text: str) -> dict[str, str]:
    """The Markdown report's sections by heading."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_scores_outside_0_to_100_are_said_under_each_chart_that_leaves_them_out() -> None:
    report = with_scores(28_038_687, -12)
    md = sections(render(report, "md"))
    assert OUTSIDE in md["Distribution of overall scores"]
    assert OUTSIDE in md["Mean score per week"]
    html = render(report, "html")
    assert html.count("2 scores outside 0–100 left out.") == 2  # under both charts
    assert report.overview.scored == 22 and sum(report.overview.histogram) == 20


def test_a_view_of_only_out_of_range_scores_says_so_rather_than_no_analyses() -> None:
    items = [
        Analysis.model_validate({**analysis(n, 3 + n, 50).model_dump(mode="json"), "score": s})
        for n, s in enumerate([28_038_687, 28_038_688, -5])
    ]
    report = data(items)
    md = render(report, "md")
    assert "No completed analyses in this view." not in md
    assert "| 0–9 | 0 |" not in md  # no table of empty bins beside an average
    said = "No score within 0–100 to draw: 3 scores outside 0–100 left out."
    assert said in sections(md)["Distribution of overall scores"]
    assert said in sections(md)["Mean score per day"]
    assert render(report, "html").count(said) == 2
    assert "**18692456.7** average score (3 scored)" in md


def test_scores_that_cannot_be_added_up_are_left_out_in_words() -> None:
    report = with_scores(10**400, float("inf"))
    md = render(report, "md")
    words = "2 scores beyond ±1.8e308 or not numbers left out"
    assert f"average score (20 scored; {words})" in md
    assert f"{words[0].upper()}{words[1:]}." in sections(md)["Distribution of overall scores"]


def test_huge_scores_give_an_exact_mean_in_any_order() -> None:
    for scores in ((1e308, 1e308), (1e308, -1e308), (-1e308, 1e308)):
        report = with_scores(*scores)
        total = sum(50 + n for n in range(20)) + sum(int(s) for s in scores)
        assert report.overview.mean_score == pytest.approx(total / 22, rel=1e-15)
        render(report, "md")  # no InvalidOperation, no OverflowError
    assert "**1e308**" not in render(with_scores(1e308, -1e308), "md")


def _segment_hits_box(a: tuple[float, float], b: tuple[float, float], box: tuple) -> bool:
    left, top, right, bottom = box
    for step in range(101):
        x = a[0] + (b[0] - a[0]) * step / 100
        y = a[1] + (b[1] - a[1]) * step / 100
        if left <= x <= right and top <= y <= bottom:
            return True
    return False


def count_box(point: charts.Point) -> tuple[float, float, float, float]:
    """Where a count's text lies (11px text: about 6.5px a character, 9px above the
    baseline, 3px below)."""
    width = 6.5 * len(point.count)
    left = {"start": point.count_x, "end": point.count_x - width}.get(
        point.anchor, point.count_x - width / 2
    )
    return left, point.count_y - 9, left + width, point.count_y + 3


@pytest.mark.parametrize("rising", [True, False])
def test_the_counts_of_partial_points_stay_clear_of_the_line(rising: bool) -> None:
    step = 1 if rising else -1
    items = [analysis(n, 2 + 2 * n, 60 + step * n) for n in range(32)]
    report = data(items)
    chart = charts.timeline_chart(report.overview, report.generated_at)
    for index, point in enumerate(chart.line):
        if not point.count:
            continue
        box = count_box(point)
        for other in (index - 1, index + 1):
            if 0 <= other < len(chart.line):
                neighbour = chart.line[other]
                assert not _segment_hits_box((point.x, point.y), (neighbour.x, neighbour.y), box)
        assert box[1] >= 0 and box[3] <= chart.height


@pytest.fixture(scope="module")
def stories() -> Iterator[DemoServer]:
    with DemoServer(demo_config(analyses=3000)) as server:
        yield server


def test_a_report_of_all_projects_has_a_row_per_project_with_its_trend(
    stories: DemoServer, invoke, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", stories.base_url)
    monkeypatch.setenv("SCREEN_ANALYSIS_API_KEY", stories.api_key)
    md_path, html_path = tmp_path / "all.md", tmp_path / "all.html"
    assert invoke("report", "-o", str(md_path)).exit_code == 0
    assert invoke("report", "-o", str(html_path)).exit_code == 0
    md = sections(md_path.read_text())
    rows = {
        cells[0]: cells
        for line in md["Projects"].splitlines()
        if line.startswith("| ") and not line.startswith("| Project")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    names = [p.name for p in stories.store.projects()]
    assert set(rows) == set(names)
    acme, lumen = rows["Acme Checkout"], rows["Lumen Banking"]
    assert acme[-1].startswith("▲ +") and float(acme[-1][3:]) > 5  # improving
    assert lumen[-1].startswith("▼ −") and float(lumen[-1][3:]) > 5  # declining
    assert len(acme[4]) == 8 and acme[4][-1] == "█"  # eight weeks, the last the highest
    assert "Change: the last 4 weeks' mean against the 4 before." in md["Projects"]
    html = html_path.read_text()
    assert html.count('<svg class="spark"') == len(names)
    assert ">Acme Checkout</td>" in html and "change-up" in html and "change-down" in html
    one = invoke("report", "--project-id", stories.store.projects()[0].id, "-o", str(md_path))
    assert one.exit_code == 0 and "## Projects" not in md_path.read_text()
