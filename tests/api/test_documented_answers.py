"""The policy (docs/reliability.md, "What a server may send"), rule by rule, against answers
generated from the document's schema (docs/openapi-documented.json, tests/support/
documented_schema.py): what is refused, what is accepted and flagged, what is shown as
unknown, and what the user is told when a server contradicts itself."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.api.fake_pages import ScriptedSource
from tests.support import documented_schema as documented

from screen_analysis.api.errors import InvalidResponseError
from screen_analysis.api.models import Analysis, AnalysisStatus, InvalidAnalysis, Project
from screen_analysis.api.oddities import ListingNotes, other_id
from screen_analysis.api.pagination import MODEL_ROWS, PageIterator, Walk
from screen_analysis.api.parsing import parse_page, parse_project, parse_raw_page

EXAMPLES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def body(value: Any) -> bytes:
    return json.dumps(value).encode()


@EXAMPLES
@given(documented.pages())
def test_every_documented_page_is_read_and_each_item_kept_in_place(page: dict[str, Any]) -> None:
    parsed = parse_page(body(page), request="GET /v1/analyses")
    assert parsed.raw_items == page["data"]
    for raw, item in zip(page["data"], parsed.items, strict=True):
        if "id" in raw:  # the document requires no field: an item without an id is flagged
            assert isinstance(item, Analysis) and item.id == raw["id"]
            assert item.status == raw.get("status")
            assert item.score == raw.get("score")
        else:
            assert isinstance(item, InvalidAnalysis) and "id" in item.reason


@EXAMPLES
@given(documented.projects())
def test_every_documented_project_is_read(project: dict[str, Any]) -> None:
    parsed = parse_project(body(project), request="GET /v1/projects/x")
    assert isinstance(parsed, Project)
    assert (parsed.id, parsed.name) == (project["id"], project["name"])
    assert parsed.analysis_count == project["analysis_count"]


# Refused: only what cannot be read


not_objects = documented.json_values().filter(lambda value: not isinstance(value, dict))
without_data = st.dictionaries(st.text().filter(lambda k: k != "data"), documented.json_values())
data_not_a_list = documented.pages().flatmap(
    lambda page: (
        documented.json_values()
        .filter(lambda v: not isinstance(v, list))
        .map(lambda v: {**page, "data": v})
    )
)


@EXAMPLES
@given(st.one_of(not_objects, without_data, data_not_a_list))
def test_refused_a_body_that_is_no_page_object_with_a_data_list(value: Any) -> None:
    with pytest.raises(
        InvalidResponseError, match=r"expected a JSON object|not a valid page: data"
    ):
        parse_raw_page(body(value), request="GET /v1/analyses")


@EXAMPLES
@given(st.binary(max_size=40).filter(lambda raw: not raw.strip().startswith((b"{", b"["))))
def test_refused_a_body_that_is_not_json(raw: bytes) -> None:
    try:
        json.loads(raw)
    except ValueError:
        with pytest.raises(InvalidResponseError):
            parse_raw_page(raw, request="GET /v1/analyses")


# Accepted and flagged: a field of the wrong kind; the row stays where it was

WRONG_KIND = {
    "label": st.lists(st.text(), min_size=1) | st.integers(),
    "score": st.booleans() | st.lists(st.integers(), min_size=1),
    "breakdown": st.lists(st.integers(), min_size=1) | st.text(min_size=1),
    "feedback": st.text() | st.integers(),
    "created_at": st.booleans() | st.lists(st.integers()),
}


@EXAMPLES
@given(
    documented.pages().filter(lambda page: page["data"]),
    st.data(),
    st.sampled_from(sorted(WRONG_KIND)),
)
def test_flagged_a_field_of_the_wrong_kind_and_the_rest_of_the_page_kept(
    page: dict[str, Any], data: st.DataObject, field: str
) -> None:
    at = data.draw(st.integers(0, len(page["data"]) - 1))
    row = {**page["data"][at], "id": "ana_odd", field: data.draw(WRONG_KIND[field])}
    page = {**page, "data": [*page["data"][:at], row, *page["data"][at + 1 :]]}
    parsed = parse_page(body(page), request="GET /v1/analyses")
    assert len(parsed.items) == len(page["data"])
    flagged = parsed.items[at]
    assert isinstance(flagged, InvalidAnalysis) and flagged.id == "ana_odd"
    assert flagged.reason.startswith(field)


# Shown as unknown: a total that is no count (missing, negative, not whole)

odd_totals = st.one_of(
    st.just(...),
    st.integers(max_value=-1),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
    st.booleans(),
    st.text().filter(lambda t: not t.strip().lstrip("+-").isdigit()),
    st.lists(st.integers()),
)


@EXAMPLES
@given(documented.pages(), odd_totals)
def test_unknown_a_total_that_is_no_count_and_the_page_stays(
    page: dict[str, Any], total: Any
) -> None:
    page = {key: value for key, value in page.items() if key != "total"}
    if total is not ...:
        page["total"] = total
    parsed = parse_page(body(page), request="GET /v1/analyses")
    assert parsed.total is None and parsed.odd_total is not None
    assert parsed.raw_items == page["data"]
    notes = ListingNotes()
    assert len(notes.page(parsed)) == 1 and notes.page(parsed) == [], "said once"


# Told: a server that contradicts itself


@EXAMPLES
@given(documented.projects(), st.text(min_size=1))
def test_told_when_another_project_than_the_one_asked_comes_back(
    project: dict[str, Any], asked: str
) -> None:
    parsed = parse_project(body(project), request="GET /v1/projects/x")
    said = other_id(asked, parsed.id)
    assert (said is None) == (asked == project["id"])


@settings(max_examples=50, deadline=None)
@given(st.lists(documented.pages(), min_size=1, max_size=4))
def test_told_rows_of_another_status_counted_never_dropped(pages: list[dict[str, Any]]) -> None:
    notes = ListingNotes(status="completed")
    rows = [item for page in pages for item in parse_page(body(page), request="GET /").items]
    notes.rows(rows)
    other = [
        raw
        for page in pages
        for raw in page["data"]
        if "status" in raw and raw["status"] != AnalysisStatus.COMPLETED
    ]
    assert notes.other_status == len(other)
    assert len(rows) == sum(len(page["data"]) for page in pages)


@settings(max_examples=60, deadline=None)
@given(st.lists(documented.pages(), min_size=1, max_size=6), st.data())
def test_told_pages_with_fresh_cursors_are_followed_empty_or_not(
    pages: list[dict[str, Any]], data: st.DataObject
) -> None:
    """Pages chained by distinct cursors (empty ones among them, as a server filtering after
    paging sends) are all read; the walk never calls them a loop."""
    cursors = data.draw(st.lists(st.text(min_size=1), min_size=len(pages), unique=True))
    numbered = iter(range(1_000))
    chained = [
        {
            **page,
            "data": [{**raw, "id": f"ana_{next(numbered)}"} for raw in page["data"]],
            "next_cursor": cursors[i + 1] if i + 1 < len(pages) else None,
        }
        for i, page in enumerate(pages)
    ]
    ids = [raw["id"] for page in chained for raw in page["data"]]
    parsed = [parse_page(body(page), request="GET /") for page in chained]

    async def walk() -> list[Any]:
        async with Walk(PageIterator(ScriptedSource(parsed), after=cursors[0]), MODEL_ROWS) as w:
            return [item.id async for page in w for item in page.items]

    assert asyncio.run(walk()) == ids
