"""The reading of an analysis or a project without pydantic (the local cache's rows, and the
server's answers in the shape pydantic writes, for the first frame) agrees with pydantic's on
every object it reads, and reads every one in the shape this program writes it; anything
else it leaves to pydantic. Each reading is held against pydantic's own (`model_validate`),
not `parse_item`, which reads plainly what it can."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from screen_analysis.api.models import Analysis, AnalysisStatus, Project, as_sent
from screen_analysis.api.plain_resources import read_analysis, read_project

pytestmark = pytest.mark.usefixtures("fresh_validators")

FIELDS = [
    "id",
    "project_id",
    "status",
    "image_url",
    "label",
    "score",
    "breakdown",
    "feedback",
    "error_message",
    "created_at",
    "completed_at",
]
TEXT = st.text(max_size=8) | st.sampled_from(["", " ", "\ud800", "completed", "ana_1"])
NUMBERS = (
    st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0, -0.0, 5.0, 10**400, 1e308])
)
JSON = st.recursive(
    st.none() | st.booleans() | NUMBERS | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
TIMES = st.datetimes(
    min_value=datetime(1, 1, 1), timezones=st.just(UTC) | st.timezones() | st.none()
).map(lambda when: Analysis(id="t", created_at=when).model_dump(mode="json")["created_at"])
ODD_TIMES = st.sampled_from(
    [
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00.123456Z",
        "2026-01-01T00:00:00.1Z",
        "2026-01-01t00:00:00z",
        "2026-02-30T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:60Z",
        "0000-01-01T00:00:00Z",
        "2026-01-01T00:00:00+00:00",
        "2026-01-01",
        "1767225600",
        " 2026-01-01T00:00:00Z",
    ]
) | st.integers(min_value=0, max_value=2 * 10**12)
STATUSES = st.sampled_from([s.value for s in AnalysisStatus] + ["archived", "COMPLETED", ""])
SHAPED: dict[str, st.SearchStrategy[Any]] = {
    "id": TEXT,
    "project_id": TEXT | st.none(),
    "status": STATUSES | st.none(),
    "image_url": TEXT | st.none(),
    "label": TEXT | st.none(),
    "score": NUMBERS | st.none(),
    "breakdown": st.dictionaries(TEXT, NUMBERS | st.none(), max_size=5) | st.none(),
    "feedback": st.lists(TEXT, max_size=3) | st.none(),
    "error_message": TEXT | st.none(),
    "created_at": TIMES | ODD_TIMES | st.none(),
    "completed_at": TIMES | ODD_TIMES | st.none(),
}


PROJECT_FIELDS = [
    "id",
    "name",
    "description",
    "default_criteria",
    "analysis_count",
    "avg_score",
    "created_at",
    "updated_at",
    "flagged",
]
PROJECT_SHAPED: dict[str, st.SearchStrategy[Any]] = {
    "id": TEXT,
    "name": TEXT,
    "description": TEXT | st.none(),
    "default_criteria": SHAPED["breakdown"],
    "analysis_count": NUMBERS | st.sampled_from(["7", 7.0, 7.5, -1]) | st.none(),
    "avg_score": SHAPED["score"],
    "created_at": SHAPED["created_at"],
    "updated_at": SHAPED["created_at"],
    "flagged": TEXT | st.none(),
}


@st.composite
def objects(
    draw: st.DrawFn,
    fields: list[str] = FIELDS,
    shaped: dict[str, st.SearchStrategy[Any]] = SHAPED,
) -> dict[str, Any]:
    """An object with some documented fields (each well shaped or any JSON) and some
    unknown ones ("extra" among them), in any order."""
    data: dict[str, Any] = {}
    for name in draw(st.permutations(fields)):
        if draw(st.booleans()):
            data[name] = draw(shaped[name] | JSON if draw(st.booleans()) else shaped[name])
    for name in draw(st.lists(st.sampled_from(["extra", "x_new", "flagged", "Score"]) | TEXT)):
        if name not in fields:
            data[name] = draw(JSON)
    return data


def pydantic_reads(data: dict[str, Any]) -> Analysis | ValidationError:
    """The analysis pydantic builds from `data`, or its refusal."""
    try:
        return Analysis.model_validate(data)
    except ValidationError as exc:
        return exc


def assert_same(plain: Analysis | Project, checked: Any) -> None:
    assert type(checked) is type(plain), checked
    fields = FIELDS if isinstance(plain, Analysis) else PROJECT_FIELDS
    for name in [*fields, "extra"]:
        mine, theirs = getattr(plain, name), getattr(checked, name)
        assert type(mine) is type(theirs), name
        assert mine == theirs or (mine != mine and theirs != theirs), name
        if isinstance(mine, datetime):
            assert mine.utcoffset() == theirs.utcoffset(), name
        if isinstance(mine, dict):  # the same kinds in the same order: 80 stays 80, not 80.0
            assert [(k, type(v)) for k, v in mine.items()] == [
                (k, type(v)) for k, v in theirs.items()
            ], name
    if isinstance(plain, Analysis):
        assert plain.known_status is checked.known_status
    assert plain.model_dump(mode="json") == checked.model_dump(mode="json")


@settings(max_examples=300, deadline=None)
@given(objects())
def test_what_is_read_without_pydantic_is_what_pydantic_reads(data: dict[str, Any]) -> None:
    plain = read_analysis(data)
    if plain is not None:
        assert_same(plain, pydantic_reads(data))


@settings(max_examples=300, deadline=None)
@given(st.builds(dict, st.dictionaries(TEXT, JSON, max_size=6)))
def test_any_object_is_read_alike_or_declined(data: dict[str, Any]) -> None:
    plain = read_analysis(data)
    if plain is not None:
        assert_same(plain, pydantic_reads(data))


FINITE = st.integers(min_value=-(10**20), max_value=10**20) | st.floats(
    allow_nan=False, allow_infinity=False
)
UTC_TIMES = st.datetimes(min_value=datetime(1, 1, 1), timezones=st.just(UTC))


@settings(max_examples=300, deadline=None)
@given(
    st.builds(
        Analysis,
        id=TEXT,
        project_id=TEXT | st.none(),
        status=STATUSES | st.none(),
        label=TEXT | st.none(),
        score=FINITE | st.none(),
        breakdown=st.dictionaries(TEXT, FINITE | st.none(), max_size=5) | st.none(),
        feedback=st.lists(TEXT, max_size=3) | st.none(),
        created_at=UTC_TIMES | st.none(),
        completed_at=UTC_TIMES | st.none(),
    ),
    st.dictionaries(st.sampled_from(["x_new", "extra", "flagged"]), JSON, max_size=2),
)
def test_every_analysis_as_this_program_writes_it_is_read_without_pydantic(
    analysis: Analysis, extra: dict[str, Any]
) -> None:
    if extra:
        analysis = Analysis.model_validate({**as_sent(analysis), **extra})
    written = json.loads(json.dumps(as_sent(analysis)))  # as the cache keeps it
    plain = read_analysis(written)
    assert plain is not None, written
    assert_same(plain, pydantic_reads(written))


def test_what_is_left_to_pydantic() -> None:
    row = {"id": "ana_1", "status": "completed"}
    assert read_analysis(row) == Analysis(id="ana_1", status=AnalysisStatus.COMPLETED)
    for odd in [
        {"status": "completed"},  # no id
        {**row, "score": "42"},  # a number as text
        {**row, "score": True},
        {**row, "score": math.nan},
        {**row, "created_at": 1767225600},  # epoch seconds
        {**row, "created_at": "2026-01-01T02:00:00+02:00"},  # an offset
        {**row, "feedback": ["ok", 3]},
        {**row, "breakdown": {"visual_clarity": "80"}},
        {**row, "status": 5},  # a status that is no text
        {**row, "status": ["completed"]},
    ]:
        assert read_analysis(odd) is None, odd
    offset = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=2)))
    assert read_analysis(as_sent(Analysis(id="a", created_at=offset))) is None


def project_of(data: dict[str, Any]) -> Project | None:
    try:
        return Project.model_validate(data)
    except ValidationError:
        return None


@settings(max_examples=250, deadline=None)
@given(objects(PROJECT_FIELDS, PROJECT_SHAPED) | st.dictionaries(TEXT, JSON, max_size=6))
def test_a_project_read_without_pydantic_is_what_pydantic_reads(data: dict[str, Any]) -> None:
    plain = read_project(data)
    if plain is not None:
        assert_same(plain, project_of(data))


@settings(max_examples=200, deadline=None)
@given(
    st.builds(
        Project,
        id=TEXT,
        name=TEXT,
        description=TEXT | st.none(),
        default_criteria=st.dictionaries(TEXT, FINITE | st.none(), max_size=5) | st.none(),
        analysis_count=st.integers(min_value=0, max_value=10**9) | st.none(),
        avg_score=FINITE | st.none(),
        created_at=UTC_TIMES | st.none(),
        updated_at=UTC_TIMES | st.none(),
    ),
    st.dictionaries(st.sampled_from(["x_new", "extra"]), JSON, max_size=2),
)
def test_every_project_as_this_program_writes_it_is_read_without_pydantic(
    project: Project, extra: dict[str, Any]
) -> None:
    if extra:
        project = Project.model_validate({**project.model_dump(mode="json"), **extra})
    written = json.loads(json.dumps(project.model_dump(mode="json")))  # as the cache keeps it
    plain = read_project(written)
    assert plain is not None, written
    assert_same(plain, project_of(written))


@pytest.mark.parametrize(
    "odd",
    [
        {"id": "proj_1"},  # no name
        {"id": "proj_1", "name": "A", "analysis_count": 7.0},  # a count written as 7.0
        {"id": "proj_1", "name": "A", "analysis_count": "7"},
        {"id": "proj_1", "name": "A", "avg_score": True},
    ],
)
def test_what_of_a_project_is_left_to_pydantic(odd: dict[str, Any]) -> None:
    assert read_project(odd) is None
