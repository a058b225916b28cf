"""The detail pane's text, built without an app: sections, bars that fit, server text cleaned."""

from __future__ import annotations

import re

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
    assert "Weights: set by the project" in lines
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


LONG_ID = "proj_bacfb3d00b1f9163ce9ff57f"
IMAGE = "/v1/images/ana_2a25a8880f02bad0e7067ef4.png  (API server)"


def test_feedback_lines_hang_under_their_text() -> None:
    item = SCORED.model_copy(
        update={"feedback": ["The primary call to action is hard to find; give it colour."]}
    )
    lines = detail_text.rest(item, PROJECT, "", 24).plain.splitlines()
    start = lines.index("Feedback") + 1
    bullet = lines[start : lines.index("Details") - 1]
    assert bullet[0].startswith("• ") and len(bullet) > 2
    assert all(line.startswith("  ") and line[2] != " " for line in bullet[1:])
    assert all(len(line) <= 24 for line in bullet)


def test_a_long_project_keeps_its_name_whole_and_its_id_in_balanced_brackets() -> None:
    item = Analysis(id="ana_2a25a8880f02bad0e7067ef4", project_id=LONG_ID)
    known = KnownProject(LONG_ID, Project(id=LONG_ID, name="Marigold Recipes"), "ok")
    wide = detail_text.rest(item, known, IMAGE, 80).plain.splitlines()
    assert f"Project    Marigold Recipes ({LONG_ID})" in wide
    assert "Image      " + " ".join(IMAGE.split()) in wide  # whole where it fits
    for width in (44, 30):
        lines = detail_text.rest(item, known, IMAGE, width).plain.splitlines()
        project = lines.index("Project    Marigold Recipes")
        id_line = lines[project + 1]
        assert id_line.startswith(" " * 11 + "(proj_") and id_line.endswith(")")
        assert id_line.count("(") == id_line.count(")") == 1 and len(id_line) <= width
        assert "Image      on the API server" in lines  # not a path cut to nothing
        assert all(len(line) <= width for line in lines[lines.index("Details") :])
    cramped = detail_text.project_lines(LONG_ID, "A name far too long for this pane", 20)
    assert cramped[0] == "A name far too long…" and cramped[1].startswith("(proj_")


def test_an_image_elsewhere_names_its_host() -> None:
    far = "https://images.example.com/screens/2026/11/ana_2a25a8880f02bad0e7067ef4.png"
    assert detail_text.image_place(far, 30) == "on images.example.com"
    assert detail_text.image_place(far, 200) == far
    assert detail_text.image_place("", 30) == "—"
    assert detail_text.image_place("data:image/png;base64," + "A" * 40, 12).count("…") == 1


def test_a_wide_value_never_runs_into_its_bar() -> None:
    """1e308 is five cells, as wide as the value column was: "██████1e308"."""
    for value in (1e308, -4853140178864397, -48531401, 10**400):
        for width in (40, 60):
            line = detail_text.criterion_line("Visual clarity", value, None, width).plain
            assert len(line) == width
            assert re.search(r"[█▏▎▍▌▋▊▉·] +\S+$", line.rstrip()), line
    lines = [
        line.plain
        for line in detail_text.criteria_lines(
            {"visual_clarity": 1e308, "color_contrast": 50}, {}, 50
        )
    ]
    ends = {len(line.rstrip()) for line in lines if line.rstrip()[-1].isdigit()}
    assert len(ends) == 1, lines  # the values line up down the column


def test_under_the_image_address_the_keys_that_show_it() -> None:
    """ "Image  on the API server" said where, not how to see it: the keys follow it, the
    last giving way first."""
    item = Analysis(id="ana_2a25a8880f02bad0e7067ef4", image_url="/x.png")
    keys = ["i full screen", "o in a browser", "Y copies the URL"]
    for width, shown in ((44, "i full screen · o in a browser"), (30, "i full screen")):
        lines = detail_text.rest(item, None, IMAGE, width, keys).plain.splitlines()
        image = lines.index("Image      on the API server")
        assert lines[image + 1] == " " * 11 + shown
    wide = detail_text.rest(item, None, IMAGE, 90, keys).plain.splitlines()
    assert " " * 11 + " · ".join(keys) in wide
    assert detail_text.image_keys_line(keys, 5) == ""
