"""The scope language, headless: what it reads, what it refuses (one line naming the key),
what goes to the server and what is applied to rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from screen_analysis.api.models import Analysis, AnalysisStatus
from screen_analysis.browse.saved_views import read_views
from screen_analysis.browse.scope_model import Scope, read_scope
from screen_analysis.browse.views import ViewKey
from screen_analysis.browse.when import ScopeError

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def analysis(**fields: object) -> Analysis:
    base: dict[str, object] = {
        "id": "ana_1",
        "project_id": "proj_a",
        "status": "completed",
        "label": "Checkout — payment",
        "score": 55,
        "breakdown": {"color_contrast": 40, "visual_clarity": 70},
        "created_at": "2026-10-30T12:00:00Z",
    }
    return Analysis.model_validate(base | fields)


def named(key: str) -> str:
    return f"view 'x': {key}"


def test_the_server_gets_what_it_can_filter_and_the_rest_is_applied_to_rows() -> None:
    scope = read_scope(
        {"project_id": "proj_a", "status": "completed", "label": "Checkout*", "score": "..60"},
        named,
    )
    where = scope.at(NOW)
    assert where.server_key == ViewKey("proj_a", AnalysisStatus.COMPLETED)
    assert where.client_side
    assert where.matches(analysis())
    assert not where.matches(analysis(score=61))
    assert not where.matches(analysis(label="Cart"))
    assert not where.matches(analysis(score=None))


def test_several_projects_ask_every_project_and_keep_theirs() -> None:
    where = read_scope({"project_id": ["proj_a", "proj_b"]}, named).at(NOW)
    assert where.server_key == ViewKey(None, None)
    assert where.matches(analysis()) and not where.matches(analysis(project_id="proj_c"))


def test_criterion_ranges_and_time_words() -> None:
    scope = read_scope(
        {"criteria": ["color_contrast < 50", "visual_clarity 60..80"], "since": "7d"}, named
    )
    where = scope.at(NOW)
    assert where.since == NOW - timedelta(days=7)
    assert where.matches(analysis())
    assert not where.matches(analysis(breakdown={"color_contrast": 50, "visual_clarity": 70}))
    assert not where.matches(analysis(created_at="2026-10-01T00:00:00Z"))
    assert where.server_key.status is None


def test_a_scope_written_back_reads_the_same() -> None:
    scope = read_scope(
        {"label": "Checkout*", "since": "2w", "criteria": ["cta_effectiveness >= 70"], "last": 5},
        named,
    )
    assert read_scope(scope.values(), named) == scope


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ({"colour": 1}, "view 'x': colour: unknown key; known: project_id, status"),
        ({"criteria": ["nope < 3"]}, "view 'x': criteria: unknown criterion 'nope'"),
        ({"criteria": ["color_contrast about 3"]}, "view 'x': criteria: expected CRITERION < N"),
        ({"label": "Check[out"}, "view 'x': label: bad glob 'Check[out': a '[' is not closed"),
        ({"status": "done"}, "view 'x': status: should be 'pending'"),
        ({"last": 0}, "view 'x': last: expected a whole number ≥ 1"),
        ({"max_score": True}, "view 'x': max_score: expected a finite number"),
        ({"score": "40..60", "min_score": 3}, "view 'x': score: give a range or min_score"),
    ],
)
def test_what_cannot_be_used_is_one_line_naming_the_key(
    values: dict[str, object], line: str
) -> None:
    with pytest.raises(ScopeError) as raised:
        read_scope(values, named)
    assert str(raised.value).startswith(line)
    assert "\n" not in str(raised.value)


def test_a_bad_view_is_left_out_and_the_others_kept() -> None:
    found = read_views(
        {
            "good": {"status": "failed", "columns": ["status", "color_contrast"], "sort": "-score"},
            "bad": {"columns": ["colour"]},
            "odd": "not a table",
        }
    )
    assert list(found.views) == ["good"]
    assert found.problems == (
        "view 'bad': columns: unknown column 'colour'; known: status, score, label, age, "
        "created, completed, project, id, visual_clarity, visual_hierarchy, color_contrast, "
        "cta_effectiveness, brand_consistency",
        "view 'odd': expected a table ([views.odd])",
    )
    with pytest.raises(ScopeError, match="view 'bad': columns"):
        found.get("bad")


def test_no_scope_filters_nothing_here() -> None:
    where = Scope().at(NOW)
    assert where.server_key == ViewKey() and not where.client_side
