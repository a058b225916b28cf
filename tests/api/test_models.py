"""The resources as pydantic validates them: what is taken leniently, what is refused, how a
refusal reads (the field named, the value never quoted), and unknown fields kept to export."""

from __future__ import annotations

import io
import json
import sys
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from screen_analysis.api.models import (
    Analysis,
    AnalysisStatus,
    InvalidAnalysis,
    Project,
    as_sent,
    parse_status,
)
from screen_analysis.api.parsing import describe_errors, parse_item, parse_project, parse_raw_page
from screen_analysis.api.writers import JsonLinesWriter, raw_of
from screen_analysis.cache.writes import kept_row

pytestmark = pytest.mark.usefixtures("fresh_validators")

SECRET = "s3cr3t-value-never-echoed"


def row(**fields: Any) -> dict[str, Any]:
    return {"id": "ana_1", "status": "completed", **fields}


def reason_of(item: Any) -> str:
    parsed = parse_item(item)
    assert isinstance(parsed, InvalidAnalysis), parsed
    return parsed.reason


@pytest.mark.parametrize(
    ("sent", "taken"),
    [
        (80, 80),
        (99.5, 99.5),
        ("42", 42),
        (" 42 ", 42),
        ("4.5", 4.5),
        ("1e3", 1000.0),
        (10**400, 10**400),  # a JSON integer of any size
        (-5, -5),  # nothing assumes a range
        (None, None),
    ],
)
def test_a_score_is_a_number_or_a_numeric_string(sent: object, taken: object) -> None:
    analysis = Analysis.model_validate(row(score=sent, breakdown={"visual_clarity": sent}))
    assert analysis.score == taken and type(analysis.score) is type(taken)
    assert analysis.breakdown == {"visual_clarity": taken}


@pytest.mark.parametrize("sent", [True, False, "high", "nan", "inf", [80], {"v": 1}])
def test_a_score_of_the_wrong_kind_is_refused_naming_the_field(sent: object) -> None:
    reason = reason_of(row(score=sent))
    assert reason.startswith("score: should be a number, not ")
    assert ";" not in reason, "one problem for the one field, not one per alternative"


@pytest.mark.parametrize(
    ("sent", "when"),
    [
        ("2026-01-01T00:00:00Z", datetime(2026, 1, 1, tzinfo=UTC)),
        ("2026-01-01T02:00:00+02:00", datetime(2026, 1, 1, tzinfo=UTC)),
        (1767225600, datetime(2026, 1, 1, tzinfo=UTC)),  # epoch seconds
        (1767225600000, datetime(2026, 1, 1, tzinfo=UTC)),  # epoch milliseconds
        ("1767225600", datetime(2026, 1, 1, tzinfo=UTC)),
        ("2026-01-01", datetime(2026, 1, 1)),  # a date: its midnight
    ],
)
def test_times_are_iso_8601_or_epoch_seconds_or_milliseconds(sent: object, when: datetime) -> None:
    assert Analysis.model_validate(row(created_at=sent)).created_at == when


def test_unknown_and_documented_statuses() -> None:
    assert Analysis.model_validate(row()).known_status is AnalysisStatus.COMPLETED
    unknown = Analysis.model_validate(row(status="archived"))
    assert unknown.status == "archived" and unknown.known_status is None
    assert Analysis(id="a", status="pending").status is AnalysisStatus.PENDING
    assert reason_of(row(status=3)) == "status: should be a string, not a number"


def test_messages_name_each_field_and_never_quote_a_value() -> None:
    reason = reason_of(
        row(
            id=SECRET,
            label=[SECRET],
            feedback=["ok", {"x": SECRET}],
            created_at=SECRET,
            breakdown={"visual_clarity": SECRET},
        )
    )
    assert SECRET not in reason and "\n" not in reason
    assert reason.startswith("label: should be a valid string, not a list; ")
    assert "breakdown.visual_clarity: should be a number, not a string" in reason
    assert "feedback.1: should be a valid string, not an object" in reason
    assert reason.endswith("; and 1 more")
    parsed = parse_item(row(id=SECRET, label=7))
    assert isinstance(parsed, InvalidAnalysis) and parsed.id == SECRET  # kept, not in words


def test_a_missing_or_null_id_is_an_invalid_item_without_an_id() -> None:
    assert parse_item({"label": "x"}) == InvalidAnalysis(
        reason="id: field required", raw={"label": "x"}
    )
    assert reason_of({"id": None}) == "id: should be a valid string, not null"
    assert reason_of({"id": 12345}) == "id: should be a valid string, not a number"


def test_every_open_field_may_be_null_or_missing() -> None:
    nulls = {name: None for name in row(score=1, label="x", feedback=[], breakdown={})}
    analysis = Analysis.model_validate({**nulls, "id": "ana_nulls"})
    assert analysis == Analysis(id="ana_nulls")


def test_unknown_fields_are_kept_and_exported_after_the_documented_ones() -> None:
    sent = row(score="42", created_at=1767225600, x_new={"nested": [1]}, extra="a field")
    analysis = Analysis.model_validate(sent)
    assert analysis.model_extra == {"x_new": {"nested": [1]}, "extra": "a field"}
    dumped = analysis.model_dump(mode="json")
    assert list(dumped)[-2:] == ["x_new", "extra"]
    assert dumped["score"] == 42 and dumped["created_at"] == "2026-01-01T00:00:00Z"
    out = io.StringIO()
    writer = JsonLinesWriter(out)
    writer.write(raw_of([analysis, InvalidAnalysis(reason="r", raw={"odd": True})]))
    writer.close()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["x_new"] == {"nested": [1]} and lines[1] == {"odd": True}
    assert Analysis.model_validate(row()).model_extra == {}


def test_one_raw_shape_for_an_analysis_in_exports_and_in_the_cache() -> None:
    """The export, `--format json` and the local cache write an item in one shape
    (`as_sent`); the cache keeps no item without an id."""
    analysis = Analysis.model_validate(row(x_new={"nested": [1]}))
    invalid = InvalidAnalysis(reason="r", id="ana_odd", raw={"id": "ana_odd", "score": "x"})
    for item in (analysis, invalid):
        kept = kept_row(item)
        assert kept is not None and kept[0] == item.id
        assert json.loads(kept[1]) == as_sent(item) == raw_of([item])[0]
    assert as_sent(analysis)["x_new"] == {"nested": [1]}
    assert kept_row(InvalidAnalysis(reason="r", raw={"odd": True})) is None


def test_a_copy_is_checked_again() -> None:
    analysis = Analysis.model_validate(row(extra_field=1))
    copied = analysis.model_copy(update={"status": "failed"})
    assert copied.status is AnalysisStatus.FAILED and copied.model_extra == {"extra_field": 1}
    with pytest.raises(ValidationError):
        analysis.model_copy(update={"score": True})


def test_a_project_counts_whole_numbers_and_keeps_unknown_fields() -> None:
    project = Project.model_validate(
        {"id": "proj_1", "name": "Acme", "analysis_count": "7", "avg_score": "71.5", "x": 1}
    )
    assert project.analysis_count == 7 and project.avg_score == 71.5
    assert project.model_dump(mode="json")["x"] == 1
    assert (
        Project.model_validate({"id": "p", "name": "n", "analysis_count": 7.0}).analysis_count == 7
    )
    for count in (7.5, True, "many"):
        with pytest.raises(ValidationError) as caught:
            Project.model_validate({"id": "p", "name": "n", "analysis_count": count})
        assert describe_errors(caught.value).startswith("analysis_count: should be a whole number")


def test_a_page_ends_on_an_empty_cursor() -> None:
    page = parse_raw_page(b'{"data": [], "total": 0, "next_cursor": ""}', request="GET /")
    assert page.next_cursor is None and page.odd_cursor is None
    assert parse_raw_page(b'{"data": [1], "total": 1}', request="GET /").data == [1]


def test_a_row_holds_its_values_and_nothing_else() -> None:
    analysis = Analysis.model_validate(row(label="Checkout", score=80))
    assert not hasattr(analysis, "__dict__")
    assert sys.getsizeof(analysis) <= 16 + 8 * (len(Analysis.__slots__) + 2)


def test_a_status_is_read_as_the_documented_member_or_kept_as_sent() -> None:
    assert parse_status(None) is None
    assert parse_status("pending") is AnalysisStatus.PENDING
    assert parse_status("queued") == "queued" and not isinstance(
        parse_status("queued"), AnalysisStatus
    )


def test_a_flagged_projects_dump_is_what_the_server_sent_without_the_flag() -> None:
    sent = {"id": "proj_1", "name": "Checkout", "analysis_count": "many", "owner": "ana"}
    project = parse_project(json.dumps(sent).encode(), request="GET /v1/projects/proj_1")
    assert project.flagged, "a count that is no number is left out, and the project flagged"
    dumped = project.model_dump(mode="json")
    assert "flagged" not in dumped and "extra" not in dumped
    assert dumped["owner"] == "ana" and dumped["id"] == "proj_1"
