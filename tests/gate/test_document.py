"""The JSON document `check --format json` writes, field by field, and the limits of
reading one back as a baseline."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from tests.gate.test_measure import NOW, row

from screen_analysis.file_reads import NESTED_TOO_DEEP
from screen_analysis.gate import (
    GateInputError,
    Scope,
    ScopeCollector,
    Source,
    build_spec,
    evaluate,
    read_baseline,
    result_document,
)
from screen_analysis.gate.document import MAX_BASELINE_BYTES, scores_from
from screen_analysis.gate.measure import Scores


def _document() -> dict[str, object]:
    items = [
        row(1, score=70, cta=40, label="Cart"),
        row(2, score=80, cta=50),
        row(3, status="failed"),
    ]
    collector = ScopeCollector(
        Scope(project_id="proj_1", label="C*", since=NOW - timedelta(days=1), last=10)
    )
    collector.add_page(items)
    flags = {
        "project_id": "proj_1",
        "label": "C*",
        "since": "1d",
        "last": "10",
        "min": ("cta_effectiveness=60",),
        "max_drop": "2",
        "baseline": "b.json",
    }
    spec = build_spec([Source(flags)], now=NOW)
    before = Scores(10, 8, 2, 0, 0, 76.66666, {"cta_effectiveness": 44.0})
    result = evaluate(
        spec,
        collector.result(),
        generated_at=NOW,
        name="release",
        baseline=before,
        baseline_source="b.json",
    )
    return result_document(result)


def test_the_document_holds_the_scope_the_scores_and_the_baseline() -> None:
    document = _document()
    assertions = document.pop("assertions")
    assert document == {
        "kind": "screen-analysis-check",
        "version": 1,
        "name": "release",
        "generated_at": "2026-11-01T12:00:00Z",
        "passed": False,
        "scope": {
            "project_id": "proj_1",
            "label": "C*",
            "since": "2026-10-31T12:00:00Z",
            "last": 10,
        },
        "counts": {"analyses": 3, "completed": 2, "failed": 1, "pending": 0, "processing": 0},
        "mean_score": 75.0,
        "criteria": {
            "visual_clarity": 70.0,
            "visual_hierarchy": 70.0,
            "color_contrast": 70.0,
            "cta_effectiveness": 45.0,
            "brand_consistency": 70.0,
        },
        "failed_share": 33.3333,  # four decimals
        "baseline": {
            "source": "b.json",
            "counts": {"analyses": 10, "completed": 8, "failed": 2, "pending": 0, "processing": 0},
            "mean_score": 76.66666,  # a mean is written whole
            "criteria": {"cta_effectiveness": 44.0},
            "failed_share": 20.0,
        },
        "notes": [],
    }
    assert isinstance(assertions, list) and len(assertions) == 7


def test_each_assertion_holds_its_comparison_value_verdict_and_analyses() -> None:
    assertions = _document()["assertions"]
    assert isinstance(assertions, list)
    cta, drop = assertions[0], assertions[1]
    assert cta == {
        "id": "min:cta_effectiveness",
        "title": "mean cta_effectiveness",
        "comparison": ">=",
        "threshold": 60.0,
        "value": 45.0,
        "passed": False,
        "detail": "mean cta_effectiveness 45.0 is under 60 (2 completed analyses)",
        "worst": [
            {"id": "ana_0001", "label": "Cart", "value": 40},
            {"id": "ana_0002", "label": "Checkout", "value": 50},
        ],
    }
    assert drop == {
        "id": "max-drop",
        "title": "drop in mean score",
        "comparison": "<=",
        "threshold": 2.0,
        "value": 1.7,
        "passed": True,
        "detail": "mean score dropped 1.7 pts (76.7 → 75.0), within 2 pts",
        "worst": [],
    }
    missing = assertions[2]
    assert missing["value"] is None and missing["passed"] is False


def test_a_run_without_baseline_or_name_writes_them_as_null() -> None:
    collector = ScopeCollector(Scope())
    collector.add_page([row(1, status="pending")])
    spec = build_spec([Source({"min_count": "0"})], now=NOW)
    document = result_document(evaluate(spec, collector.result(), generated_at=NOW))
    assert document["baseline"] is None and document["name"] is None
    assert document["mean_score"] is None and document["failed_share"] is None
    assert document["scope"] == {"project_id": None, "label": None, "since": None, "last": None}


def test_a_baseline_up_to_its_size_limit_is_read_and_one_byte_more_is_refused(
    tmp_path: Path,
) -> None:
    text = json.dumps({"kind": "screen-analysis-check", "version": 1, "mean_score": 70})
    path = tmp_path / "base.json"
    path.write_text(text + " " * (MAX_BASELINE_BYTES - len(text)), encoding="utf-8")
    assert read_baseline(path).mean_score == 70  # met exactly
    path.write_text(text + " " * (MAX_BASELINE_BYTES + 1 - len(text)), encoding="utf-8")
    with pytest.raises(GateInputError) as refused:
        read_baseline(path)
    assert str(refused.value) == f"cannot read baseline {path}: it is larger than 4 MiB"


@pytest.mark.parametrize(
    ("counts", "says"),
    [
        ({"completed": -1}, "b: counts.completed is not a count"),
        ({"failed": 1.5}, "b: counts.failed is not a count"),
        ({"pending": True}, "b: counts.pending is not a count"),
        ({"processing": -2}, "b: counts.processing is not a count"),
        ({"analyses": "9"}, "b: counts.analyses is not a count"),
    ],
)
def test_a_baseline_count_that_is_no_count_is_refused(counts: dict[str, object], says: str) -> None:
    document = {"kind": "screen-analysis-check", "version": 1, "counts": counts}
    with pytest.raises(GateInputError) as refused:
        scores_from(document, "b")
    assert str(refused.value) == says


def test_a_baseline_without_counts_counts_nothing() -> None:
    for counts in ({}, [], None):
        document = {"kind": "screen-analysis-check", "version": 1, "counts": counts}
        scores = scores_from(document, "b")
        assert (scores.analyses, scores.completed, scores.failed) == (0, 0, 0)
        assert (scores.pending, scores.processing) == (0, 0)


def test_a_baseline_is_read_count_by_count_and_its_faults_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "base.json"
    counts = {"analyses": 9, "completed": 5, "failed": 2, "pending": 1, "processing": 1}
    path.write_text(
        json.dumps({"kind": "screen-analysis-check", "version": 1, "counts": counts}),
        encoding="utf-8",
    )
    scores = read_baseline(path)
    assert (scores.analyses, scores.completed, scores.failed) == (9, 5, 2)
    assert (scores.pending, scores.processing) == (1, 1)
    for field, says in (
        ({"mean_score": "x"}, "mean_score is not a number"),
        ({"criteria": {"color_contrast": "x"}}, "criteria.color_contrast is not a number"),
        ({"counts": {"analyses": -1}}, "counts.analyses is not a count"),
    ):
        document = {"kind": "screen-analysis-check", "version": 1, **field}
        path.write_text(json.dumps(document), encoding="utf-8")
        with pytest.raises(GateInputError) as refused:
            read_baseline(path)
        assert str(refused.value) == f"baseline {path}: {says}"
    with pytest.raises(GateInputError) as missing:
        read_baseline(tmp_path / "nope.json")
    assert (
        str(missing.value)
        == f"cannot read baseline {tmp_path / 'nope.json'}: No such file or directory"
    )


def test_the_scope_is_written_key_by_key_the_unset_ones_left_out_but_the_first_four() -> None:
    from screen_analysis.browse.scope_model import read_scope
    from screen_analysis.gate.document import scope_document

    every = read_scope(
        {
            "project_id": ["proj_b", "proj_a"],
            "status": "completed",
            "label": "Checkout*",
            "since": "2026-10-01",
            "until": "2026-10-31",
            "min_score": 40,
            "max_score": 60,
            "criteria": ["color_contrast < 50"],
            "last": 20,
        },
        str,
    ).at(NOW)
    assert scope_document(every) == {
        "project_id": None,
        "label": "Checkout*",
        "since": "2026-10-01T00:00:00Z",
        "last": 20,
        "projects": ["proj_a", "proj_b"],
        "status": "completed",
        "until": "2026-10-31T00:00:00Z",
        "min_score": 40,
        "max_score": 60,
        "criteria": ["color_contrast < 50"],
    }
    assert scope_document(Scope()) == {
        "project_id": None,
        "label": None,
        "since": None,
        "last": None,
    }


@pytest.mark.parametrize("depth", [33, 100_000])
def test_a_baseline_nested_too_deep_is_refused_in_the_reads_words(
    tmp_path: Path, depth: int
) -> None:
    """33 levels: past the limit; 100,000: past what the JSON reader itself can nest."""
    path = tmp_path / "base.json"
    path.write_text("[" * depth + "]" * depth, encoding="utf-8")
    with pytest.raises(GateInputError) as refused:
        read_baseline(path)
    assert str(refused.value) == f"cannot read baseline {path}: {NESTED_TOO_DEEP}"
