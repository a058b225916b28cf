"""Verdicts at their edges: a threshold met exactly passes, the analyses named under a
failed assertion are the lowest by what it measured, a drop of exactly the allowance passes,
a side with nothing to compare fails in words, and the notes say what was not judged."""

from __future__ import annotations

import pytest
from tests.gate.test_measure import NOW, judged, row

from screen_analysis.api.models import Analysis, AnalysisStatus, InvalidAnalysis
from screen_analysis.gate import (
    LOWEST_SHOWN,
    Scope,
    ScopeCollector,
    Source,
    build_spec,
    evaluate,
    result_document,
)
from screen_analysis.gate.measure import Scores
from screen_analysis.numbers import format_number, format_tenths


def by_id(result):
    return {v.assertion.id: v for v in result.verdicts}


def baseline(mean: float | None, cta: float | None = None) -> Scores:
    return Scores(4, 4, 0, 0, 0, mean, {"cta_effectiveness": cta})


def against(items: list[Analysis], base: Scores | None, **flags: object):
    collector = ScopeCollector(Scope())
    collector.add_page(items)
    spec = build_spec([Source({"baseline": "b.json", **flags})], now=NOW)
    return by_id(evaluate(spec, collector.result(), generated_at=NOW, baseline=base))


# Lowest overall: 1, 2, 3, 4, 5; lowest cta_effectiveness: 5, 4, 3, 2, 1.
CROSSED = [row(n, score=60 + n, cta=50 - n) for n in range(1, 6)]


def test_a_failed_criterion_names_the_lowest_by_that_criterion_not_overall() -> None:
    verdicts = by_id(judged(CROSSED, min_score="99", min=("cta_effectiveness=99",)))
    cta, overall = verdicts["min:cta_effectiveness"], verdicts["min-score"]
    assert [o.id for o in cta.worst] == ["ana_0005", "ana_0004", "ana_0003"]
    assert [o.value for o in cta.worst] == [45, 46, 47]
    assert [o.id for o in overall.worst] == ["ana_0001", "ana_0002", "ana_0003"]
    assert len(cta.worst) == LOWEST_SHOWN == 3


def test_a_failed_drop_names_the_lowest_by_its_criterion() -> None:
    verdicts = against(CROSSED, baseline(90, 90), max_drop="1")
    assert [o.id for o in verdicts["max-drop:cta_effectiveness"].worst][:1] == ["ana_0005"]
    assert [o.id for o in verdicts["max-drop"].worst][:1] == ["ana_0001"]


def test_a_passed_assertion_names_no_analysis() -> None:
    verdicts = by_id(judged(CROSSED, min_score="1", min=("cta_effectiveness=1",), max_failed="0"))
    assert all(v.passed and v.worst == () for v in verdicts.values())


@pytest.mark.parametrize(
    ("flags", "shown", "threshold"),
    [
        ({"min_score": "63"}, "63.0", "≥ 63"),  # the mean of 61–65, met exactly
        ({"min": ("cta_effectiveness=47",)}, "47.0", "≥ 47"),
        ({"min_count": "5"}, "5", "≥ 5"),
    ],
)
def test_a_threshold_met_exactly_passes(
    flags: dict[str, object], shown: str, threshold: str
) -> None:
    (verdict,) = judged(CROSSED, **flags).verdicts
    assert verdict.passed and verdict.shown_value == shown
    assert verdict.shown_threshold == threshold
    assert verdict.context == ("" if "min_count" in flags else "5 completed")


def test_a_count_one_short_fails_and_says_how_many_were_wanted() -> None:
    (verdict,) = judged(CROSSED, min_count="6").verdicts
    assert not verdict.passed and verdict.value == 5
    assert verdict.detail == "5 completed analyses, at least 6 wanted"
    (one,) = judged(CROSSED[:1], min_count="1").verdicts
    assert one.passed and one.detail == "1 completed analysis, at least 1 wanted"


def test_a_failed_share_met_exactly_passes_and_over_it_names_the_failures() -> None:
    items = [*CROSSED[:3], row(8, status="failed"), row(9, status="failed")]
    (met,) = judged(items, max_failed="40").verdicts
    assert met.passed and met.shown_value == "40.0%" and met.shown_threshold == "≤ 40%"
    assert met.detail == "2 of 5 finished analyses failed" and met.worst == ()
    (over,) = judged(items, max_failed="39.9").verdicts
    assert not over.passed and over.context == "2 of 5 finished"
    assert over.detail == "failed share 40.0% is over 39.9% (2 of 5 finished analyses failed)"
    assert [(o.id, o.note) for o in over.worst] == [("ana_0008", "boom"), ("ana_0009", "boom")]


def test_a_drop_of_exactly_the_allowance_passes_and_a_tenth_more_fails() -> None:
    scope = [row(1, score=70, cta=50)]
    exactly = against(scope, baseline(75, 50), max_drop="5")["max-drop"]
    assert exactly.passed and exactly.value == 5 and exactly.shown_value == "5.0 pts"
    assert exactly.detail == "mean score dropped 5.0 pts (75.0 → 70.0), within 5 pts"
    assert exactly.shown_threshold == "≤ 5 pts" and exactly.worst == ()
    over = against(scope, baseline(75.1, 50), max_drop="5")["max-drop"]
    assert not over.passed and over.shown_value == "5.1 pts"
    assert over.detail == "mean score dropped 5.1 pts (75.1 → 70.0), more than 5 pts"
    assert [o.id for o in over.worst] == ["ana_0001"]


def test_a_drop_under_one_point_still_reads_as_a_drop() -> None:
    drop = against([row(1, score=70)], baseline(70.5), max_drop="0")["max-drop"]
    assert not drop.passed and drop.detail.startswith("mean score dropped 0.5 pts")


def test_no_change_reads_unchanged() -> None:
    verdicts = against([row(1, score=70, cta=50)], baseline(70, 50), max_drop="0")
    assert verdicts["max-drop"].detail == "mean score unchanged (70.0 → 70.0)"
    cta = verdicts["max-drop:cta_effectiveness"]
    assert cta.passed and cta.detail == "mean cta_effectiveness unchanged (50.0 → 50.0)"


def test_a_drop_with_nothing_to_compare_fails_and_says_which_side_lacks_what() -> None:
    no_baseline = against(CROSSED, None, max_drop="5")
    overall, cta = no_baseline["max-drop"], no_baseline["max-drop:cta_effectiveness"]
    assert not overall.passed and overall.value is None and overall.shown_value == "—"
    assert overall.detail == "the baseline has no overall score to compare"
    assert overall.title == "drop in mean score" and overall.assertion.id == "max-drop"
    assert [o.id for o in overall.worst] == ["ana_0001", "ana_0002", "ana_0003"]
    assert cta.detail == "the baseline has no cta_effectiveness to compare"
    assert cta.title == "drop in mean cta_effectiveness"
    empty_scope = against([row(1, status="pending")], baseline(75, 60), max_drop="5")
    assert empty_scope["max-drop"].detail == "the scope has no overall score to compare"
    assert not empty_scope["max-drop"].passed and empty_scope["max-drop"].worst == ()
    half = against(CROSSED, baseline(63, None), max_drop="5")
    assert half["max-drop"].passed
    assert half["max-drop:cta_effectiveness"].detail == (
        "the baseline has no cta_effectiveness to compare"
    )


def test_the_notes_say_what_was_not_judged() -> None:
    items: list[object] = [
        row(1, score=70),
        row(2, status="pending"),
        row(3, status="processing"),
        InvalidAnalysis("bad", "ana_bad"),
        row(4, score=float("nan")),
    ]
    waited = ScopeCollector(Scope())
    waited.add_page(items)  # type: ignore[arg-type]
    spec = build_spec([Source({"min_score": "1", "wait": True})], now=NOW)
    result = evaluate(spec, waited.result(), generated_at=NOW)
    assert result.notes == (
        "2 in scope not scored yet (pending or processing); arrived after the wait began",
        "1 invalid items in the listing left out",
        "1 score beyond ±1.8e308 or not a number left out of the means",
    )
    assert judged(items[:2], min_score="1").notes == (
        "1 in scope not scored yet (pending or processing); --wait waits for them",
    )
    assert judged(items[:1], min_score="1").notes == ()


def test_the_document_names_the_analyses_under_each_failed_assertion() -> None:
    items = [*CROSSED[:2], row(8, status="failed", label="Cart")]
    document = result_document(judged(items, min=("cta_effectiveness=99",), max_failed="0"))
    cta, failed = document["assertions"]
    assert cta["worst"] == [
        {"id": "ana_0002", "label": "Checkout", "value": 48},
        {"id": "ana_0001", "label": "Checkout", "value": 49},
    ]
    assert failed["worst"] == [{"id": "ana_0008", "label": "Cart", "error_message": "boom"}]
    assert cta["comparison"] == ">=" and failed["comparison"] == "<="
    assert failed["value"] == 33.3 and document["failed_share"] == 33.3333


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0.0"),
        (-0.0, "0.0"),
        (999_999_999_999_999.9, "999,999,999,999,999.9"),
        (10**15, "1e15"),
        (-(10**15), "−1e15"),
        (-2.5, "−2.5"),
    ],
)
def test_a_compared_value_reads_at_one_decimal_and_from_10_to_the_15_short(
    value: float, text: str
) -> None:
    from decimal import Decimal

    assert format_tenths(Decimal(repr(value))) == text


def test_a_threshold_reads_as_given() -> None:
    assert format_number(1e15) == "1e15" and format_number(-(10**15)) == "−1e15"
    assert format_number(999_999_999_999_999) == "999,999,999,999,999"
    assert format_number(0.5) == "0.5" and format_number(-3) == "−3"


def test_a_status_the_api_does_not_document_is_judged_as_neither() -> None:
    odd = Analysis(id="ana_odd", project_id="p", status="exploded", label="x")  # type: ignore[arg-type]
    result = judged([odd, row(1, score=70)], min_score="70", min_count="1", max_failed="0")
    assert result.passed and result.measured.scores.analyses == 2
    assert odd.known_status is not AnalysisStatus.COMPLETED


def test_each_verdict_is_titled_and_a_pass_says_what_it_measured() -> None:
    items = [*CROSSED, row(9, status="failed")]
    verdicts = judged(
        items, min_score="1", min=("cta_effectiveness=1",), max_failed="50", min_count="1"
    ).verdicts
    assert [(v.title, v.detail) for v in verdicts] == [
        ("mean score", "mean of 5 completed analyses"),
        ("mean cta_effectiveness", "mean of 5 completed analyses"),
        ("failed share", "1 of 6 finished analyses failed"),
        ("completed analyses", "5 completed analyses, at least 1 wanted"),
    ]
    assert [v.unit for v in verdicts] == ["", "", "%", ""]


def test_a_criterion_nobody_scored_fails_in_words() -> None:
    unscored = row(1).model_copy(update={"breakdown": None})
    (verdict,) = judged([unscored], min=("cta_effectiveness=1",)).verdicts
    assert verdict.passed is False and verdict.value is None and verdict.worst == ()
    assert verdict.title == "mean cta_effectiveness"
    assert verdict.detail == "no completed analysis in scope has a cta_effectiveness score"


def test_a_baseline_file_wins_over_a_window_measured_in_the_walk() -> None:
    from datetime import timedelta

    from screen_analysis.gate import Window

    items = [row(1, score=70, hours_ago=1), row(2, score=90, hours_ago=300)]
    collector = ScopeCollector(Scope(), Window(until=NOW - timedelta(days=7)))
    collector.add_page(items)
    spec = build_spec([Source({"max_drop": "5", "baseline": "b.json"})], now=NOW)
    measured = collector.result()
    from_file = evaluate(spec, measured, generated_at=NOW, baseline=baseline(71))
    assert from_file.baseline == baseline(71) and from_file.verdicts[0].passed
    from_window = evaluate(spec, measured, generated_at=NOW)
    assert from_window.baseline == measured.window and not from_window.verdicts[0].passed


def test_an_analysis_dated_0001_01_01_is_judged_not_a_crash() -> None:
    """Some servers send year 1 for "no date"; beside a recent analysis it once made the
    gate's walk raise OverflowError (the timeline's buckets) instead of judging."""
    from datetime import UTC, datetime

    zero = row(1, score=60).model_copy(update={"created_at": datetime(1, 1, 1, tzinfo=UTC)})
    result = judged([zero, row(2, score=80)], min_score="70")
    assert result.passed and result.verdicts[0].shown_value == "70.0"


def test_the_analyses_named_keep_their_label_score_and_error_as_received() -> None:
    unlabelled = row(1, score=30, cta=20).model_copy(update={"label": None})
    partial = row(2, score=40).model_copy(update={"breakdown": {"visual_clarity": 10}})
    silent = row(3, status="failed").model_copy(update={"error_message": None})
    measured = judged([unlabelled, partial, silent], min_score="0").measured
    assert [tuple(o) for o in measured.worst_overall] == [
        ("ana_0001", "", 30, ""),
        ("ana_0002", "Checkout", 40, ""),
    ]
    assert [tuple(o) for o in measured.worst_by_criterion["cta_effectiveness"]] == [
        ("ana_0001", "", 20, "")
    ]
    assert [tuple(o) for o in measured.failures] == [("ana_0003", "Checkout", None, "")]


def test_invalid_items_and_a_windows_left_out_scores_are_counted_and_said() -> None:

    from screen_analysis.gate import Window

    collector = ScopeCollector(Scope(), Window(until=NOW))
    collector.add_page(
        [
            InvalidAnalysis("bad", "ana_bad"),
            InvalidAnalysis("worse", "ana_worse"),
            row(1, score=float("inf"), hours_ago=1),
        ]
    )
    measured = collector.result()
    assert measured.invalid == 2 and measured.received == 3
    assert measured.left_out[-1] == (
        "1 score beyond ±1.8e308 or not a number left out of the baseline window's means"
    )
