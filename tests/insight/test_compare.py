"""Comparing two analyses: differences with signs that read without colour, feedback sets."""

from __future__ import annotations

from screen_analysis.api.models import Analysis
from screen_analysis.insight.compare import compare, format_delta


def make(score: object, breakdown: dict[str, object] | None, feedback: list[str]) -> Analysis:
    return Analysis.model_validate(
        {"id": "ana_x", "score": score, "breakdown": breakdown, "feedback": feedback}
    )


def test_differences_and_feedback() -> None:
    a = make(60, {"visual_clarity": 70, "cta_effectiveness": 40}, ["Same.", "Old  issue.", "x"])
    b = make(72, {"visual_clarity": 65, "cta_effectiveness": 52}, ["New.", "Same.", "x"])
    result = compare(a, b)
    assert result.overall.delta == 12 and format_delta(result.overall.delta) == "▲ +12"
    by_name = {c.name: c for c in result.criteria}
    assert format_delta(by_name["Visual clarity"].delta) == "▼ −5"
    assert format_delta(by_name["CTA effectiveness"].delta) == "▲ +12"
    assert by_name["Color contrast"].delta is None
    assert result.only_a == ("Old issue.",) and result.only_b == ("New.",)
    assert result.both == ("Same.", "x")


def test_missing_and_hostile_scores() -> None:
    failed = make(None, None, [])
    result = compare(failed, make(float("nan"), {"visual_clarity": float("inf")}, ["<b>x</b>"]))
    assert result.overall.delta is None and format_delta(None) == "—"
    assert all(c.delta is None for c in result.criteria)
    assert result.only_b == ("<b>x</b>",)
    assert format_delta(0) == "= 0" and format_delta(2.5) == "▲ +2.5"


def test_huge_differences_are_exact_and_what_is_left_out_is_said() -> None:
    a = make(-1e308, {"visual_clarity": -(10**300), "color_contrast": 10**400}, [])
    b = make(1e308, {"visual_clarity": 10**308, "color_contrast": 5}, [])
    result = compare(a, b)
    assert format_delta(result.overall.delta) == "▲ +2e308"  # not +inf
    clarity = next(c for c in result.criteria if c.name == "Visual clarity")
    assert clarity.delta == 10**308 + 10**300 and format_delta(clarity.delta) == "▲ +1e308"
    assert result.not_finite == 1  # A's color_contrast: no float holds it
    assert result.left_out() == "1 score beyond ±1.8e308 or not a number left out"
    assert compare(b, b).left_out() == ""
