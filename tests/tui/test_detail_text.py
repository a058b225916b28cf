"""The detail pane's text, built without an app: sections, bars that fit, server text cleaned."""

from __future__ import annotations

from screen_analysis.api.models import Analysis, AnalysisStatus, InvalidAnalysis, Project
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.widgets import detail_text

SCORED = Analysis(
    id="ana_1",
    project_id="proj_1",
    status=AnalysisStatus.COMPLETED,
    label="Checkout \x1b[31mv2",
    score=74,
    breakdown={
        "visual_hierarchy": 150,
        "color_contrast": -3,
        "cta_effectiveness": 41,
        "brand_consistency": None,
        "custom_metric": 12,
    },
    feedback=["[b]Raise[/b] the contrast", "   "],
    error_message=None,
)
PROJECT = KnownProject(
    "proj_1",
    Project(id="proj_1", name="Acme", default_criteria={"cta_effectiveness": 0.3}),
    "ok",
)


def test_a_criterion_line_is_as_wide_as_asked_and_its_bar_stays_inside() -> None:
    for width in (40, 60, 90):
        line = detail_text.criterion_line("CTA effectiveness", 41, "0.30", width)
        assert line.cell_length == width
        assert line.plain.rstrip().endswith("41 w 0.30")
    over = detail_text.criterion_line("Visual hierarchy", 150, None, 50).plain
    assert "·" not in over and over.rstrip().endswith("150")  # full bar, the real value beside
    under = detail_text.criterion_line("Color contrast", -3, None, 50).plain
    assert "█" not in under and "-3" in under
    missing = detail_text.criterion_line("Brand", None, None, 50).plain
    assert "—" in missing
    short = detail_text.criterion_line("Visual clarity", 80, None, 34)
    assert short.cell_length == 34 and short.plain[18:22] == "███▎"
    numbers_only = detail_text.criterion_line("Visual clarity", 80, "0.20", 31)
    assert numbers_only.plain == "Visual clarity       80 w 0.20"  # no room for a bar


def test_the_body_has_scores_feedback_and_details_and_cleans_server_text() -> None:
    text = detail_text.body(SCORED, PROJECT, "/v1/images/ana_1.png", 60).plain
    lines = text.splitlines()
    for title in ("Scores", "Feedback", "Details"):
        assert title in lines
    assert "Error" not in lines  # no error, no section
    assert "Weights: the project's default criteria" in lines
    assert "custom_metric: 12" in lines  # a criterion the API does not document still shows
    assert "• [b]Raise[/b] the contrast" in lines  # literally, never as markup
    assert "Project    Acme (proj_1)" in lines
    head = detail_text.head(SCORED).plain
    assert "\x1b" not in head and head.splitlines()[1] == "● completed · score 74"


def test_a_failed_a_waiting_and_an_unreadable_analysis() -> None:
    failed = Analysis(id="ana_2", status=AnalysisStatus.FAILED, error_message="boom\nline 2")
    body = detail_text.body(failed, None, "", 60).plain
    assert "Error" in body.splitlines() and "boom" in body and "Scores" not in body
    waiting = Analysis(id="ana_3", status=AnalysisStatus.PENDING)
    assert detail_text.head(waiting).plain.endswith("not scored yet")
    unreadable = InvalidAnalysis("score is not a number", id="ana_4")
    assert detail_text.head(unreadable).plain == "This row could not be read: score is not a number"
    assert detail_text.body(unreadable, None, "", 60).plain.splitlines()[-1] == "ID  ana_4"
    assert detail_text.head(None).plain == "No analysis selected."
    assert detail_text.body(None, None, "", 60).plain == ""


def test_weights_line_up_with_the_same_decimals() -> None:
    weights = {"visual_clarity": 0.2, "color_contrast": 0.15, "cta_effectiveness": 0.3}
    lines = [line.plain for line in detail_text.criteria_lines({}, weights, 50)]
    shown = [line.rsplit("w ", 1)[1] for line in lines if "w " in line]
    assert shown == ["0.20", "0.15", "0.30"]
    assert len({len(line) for line in lines}) == 1
