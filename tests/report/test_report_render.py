"""The report's words and numbers: summary cards a reader understands, weights in a column,
one rule for scores and means, an empty view said in words, and Markdown escaped only where
Markdown needs it (server text still cannot become Markdown or HTML)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from tests.report.hostile_report import PAYLOADS, hostile_analyses

from screen_analysis.api.models import Analysis, Project
from screen_analysis.insight.aggregates import OverviewBuilder
from screen_analysis.report.render import ReportData, escape_markdown, render

NOW = datetime(2026, 11, 4, 12, tzinfo=UTC)  # a Wednesday: the week of 2 November is not over


def analysis(n: int, day: int, score: int | None, status: str = "completed") -> Analysis:
    """Analysis `n`, created `day` days after 1 September 2026."""
    created = datetime(2026, 9, 1, 10, tzinfo=UTC) + timedelta(days=day)
    return Analysis.model_validate(
        {
            "id": f"ana_{n:04d}",
            "project_id": "proj_1",
            "status": status,
            "label": f"Checkout (RTL) v{n}",
            "score": score,
            "breakdown": None
            if score is None
            else dict.fromkeys(
                (
                    "visual_clarity",
                    "visual_hierarchy",
                    "color_contrast",
                    "cta_effectiveness",
                    "brand_consistency",
                ),
                score,
            ),
            "feedback": ["Use 2026-10-01 as the date_format (RTL)"] if score else [],
            "error_message": None if score else "Timed out fetching image",
            "created_at": created.isoformat(),
        }
    )


def data(items: list[Analysis], *, status: str | None = None) -> ReportData:
    project = Project.model_validate(
        {
            "id": "proj_1",
            "name": "Acme_Checkout (RTL)",
            "default_criteria": {
                "visual_clarity": 0.15,
                "visual_hierarchy": 0.15,
                "color_contrast": 0.2,
                "cta_effectiveness": 0.35,
                "brand_consistency": 0.15,
            },
            "analysis_count": len(items),
            "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        }
    )
    builder = OverviewBuilder(project)
    builder.add_page(items, len(items))
    return ReportData(builder.result(), NOW, status=status, since=datetime(2026, 10, 1, tzinfo=UTC))


@pytest.fixture
def scored() -> ReportData:
    # Every two days from 3 September to 3 November (a Tuesday), and one failure.
    items = [analysis(n, 2 + 2 * n, 50 + n) for n in range(32)]
    return data([*items, analysis(99, 20, None, "failed")])


def test_markdown_is_escaped_only_where_markdown_needs_it(scored: ReportData) -> None:
    text = render(scored, "md")
    assert "since 2026-10-01 00:00 UTC" in text and "\\-" not in text
    assert "Acme_Checkout (RTL)" in text and "\\(" not in text and "\\_" not in text
    assert "ana_0029" in text and "date_format" in text
    assert "tick" not in text


def test_markdown_still_refuses_markdown_and_html_from_the_server() -> None:
    for payload in PAYLOADS:
        escaped = escape_markdown(payload)
        assert not re.search(r"(?<!\\)[<>|`*\[\]]", escaped), escaped
    assert escape_markdown("_emphasis_ and __strong__") == "\\_emphasis\\_ and \\_\\_strong\\_\\_"
    assert escape_markdown("&lt;b&gt; R&D") == "\\&lt;b\\&gt; R&D"
    assert escape_markdown("Title ##") == "Title \\#\\#"
    assert len(hostile_analyses()) == 2 * len(PAYLOADS)


def test_means_have_one_decimal_and_weights_share_theirs(scored: ReportData) -> None:
    text = render(scored, "md")
    criteria = text.split("## Criteria")[1].split("##")[0]
    rows = [
        line for line in criteria.splitlines() if line.startswith("| ") and "Criterion" not in line
    ]
    assert len(rows) == 5
    for row in rows:
        mean, weight = [cell.strip() for cell in row.strip("|").split("|")][1:]
        assert re.fullmatch(r"\d+\.\d", mean) and re.fullmatch(r"0\.\d\d", weight)
    assert "0.20" in criteria and "| 0.2 |" not in criteria


def test_the_summary_cards_say_what_they_are(scored: ReportData) -> None:
    page = render(scored, "html")
    cards = re.findall(r'<div class="card"><b[^>]*>([^<]*)</b><span>([^<]*)</span>', page)
    labels = [label for _, label in cards]
    assert "analyses" in labels and any(label.startswith("failed (") for label in labels)
    assert any(label.startswith("weakest criterion (mean") for label in labels)
    assert "Project weights" not in page and "tick" not in page
    assert 'class="dot partial"' in page and "n=" in page  # the unfinished week, drawn hollow
    assert "default_criteria" not in page and "Weights: set by the project." in page


def test_the_headline_is_the_last_whole_week_and_the_week_not_over_is_named_apart(
    scored: ReportData,
) -> None:
    page = render(scored, "html")
    cards = re.findall(r'<div class="card"><b[^>]*>([^<]*)</b><span>([^<]*)</span>', page)
    value, label = next(card for card in cards if "week of" in card[1])
    # A score every two days: the week of 26 October has 77, 78 and 79; the week of
    # 2 November (not over on the 4th) 80 and 81 so far.
    assert label.startswith("mean score, week of 26 Oct (3 scores)")
    assert value == "78.0"
    assert "; week of 02 Nov so far: 80.5 (2 scores, not over)" in label


def test_labels_of_the_partial_points_stay_clear_of_the_axis(scored: ReportData) -> None:
    from screen_analysis.report import charts

    chart = charts.timeline_chart(scored.overview, scored.generated_at)
    first, last = chart.line[0], chart.line[-1]
    assert first.partial and first.count and first.anchor == "start"
    assert first.count_x > chart.left  # right of the y labels, which end at the axis
    assert last.partial and last.anchor == "end" and last.count_x <= chart.width - 10
    page = render(scored, "html")
    assert 'text-anchor="start">n=' in page and 'text-anchor="end">n=' in page


def test_the_counts_under_the_line_carry_a_scale_of_their_own(scored: ReportData) -> None:
    from screen_analysis.report import charts

    chart = charts.timeline_chart(scored.overview, scored.generated_at)
    most = max(point.count for point in scored.overview.timeline.points)
    assert chart.count_tick is not None and chart.count_tick.label == f"{most} scores"
    tallest = min(column.y for column in chart.columns)  # SVG: smaller y is higher
    assert tallest == pytest.approx(chart.count_tick.at)
    page = render(scored, "html")
    assert 'class="axis count-axis"' in page and f">{most} scores</text>" in page


def test_charts_of_a_kind_share_a_row_and_the_statuses_have_their_shares(
    scored: ReportData,
) -> None:
    page = render(scored, "html")
    titles = re.findall(r"<figcaption>([^<]*)</figcaption>", page)
    assert titles == [
        "Mean score per week",
        "Distribution of overall scores",
        "Analyses by status",
        "Criteria: mean score",
    ]
    statuses = page.split("<figcaption>Analyses by status")[1].split("</figure>")[0]
    assert ">share<" in statuses and ">97.0%<" in statuses and ">3.0%<" in statuses


def test_a_view_without_completed_analyses_says_so(scored: ReportData) -> None:
    failed = data([analysis(n, 5 + n, None, "failed") for n in range(5)], status="failed")
    page = render(failed, "html")
    assert page.count("<svg") == 1  # the statuses; the three score charts are sentences
    assert page.count("No completed analyses in this view.") >= 3
    text = render(failed, "md")
    assert "No completed analyses in this view." in text and "| 0–9 |" not in text
