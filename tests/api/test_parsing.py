"""What a body is read as, word for word: the line a user reads when a server answers with
something that is not the documented JSON (the request named, the reason cut short), and
what a page and a project keep of an answer that is partly odd."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.api.support import pydantic_loaded_by

from screen_analysis.api import InvalidAnalysis, InvalidResponseError, parsing
from screen_analysis.api.fields import Count
from screen_analysis.api.models import Analysis, Project
from screen_analysis.api.parsing import (
    parse_item,
    parse_json_object,
    parse_page,
    parse_project,
    parse_raw_page,
    read_total,
)
from screen_analysis.validation import adapter

REQUEST = "GET /v1/analyses?limit=20"
MALFORMED = "malformed or truncated JSON ("


def refusal(body: bytes, content_type: str | None = None) -> InvalidResponseError:
    with pytest.raises(InvalidResponseError) as raised:
        parse_json_object(body, request=REQUEST, content_type=content_type)
    assert raised.value.request == REQUEST
    return raised.value


@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [
        (b" \n\t", None, "empty body"),
        (b"[" * 100_000, None, "JSON nested too deeply"),
        (b'  \n{"data": [', None, MALFORMED + "Expecting value: line 2 column 11 (char 13))"),
        (b"[1,", None, MALFORMED + "Expecting value: line 1 column 4 (char 3))"),
        (b'{"total": NaN}', None, MALFORMED + "NaN is not valid JSON)"),
        (b'{"total": -Infinity}', None, MALFORMED + "-Infinity is not valid JSON)"),
        (b"Bad gateway", None, "body is not JSON (no content type): Bad gateway"),
        (
            b"Back <b>soon</b>",
            "text/html; charset=utf-8",
            "body is not JSON (text/html): Back soon",
        ),
        (b"[]", None, "expected a JSON object, got a list"),
    ],
    ids=["empty", "deep", "cut", "list", "nan", "infinity", "text", "html", "not-object"],
)
def test_a_body_that_is_not_an_object_is_one_worded_refusal(
    body: bytes, content_type: str | None, message: str
) -> None:
    refused = refusal(body, content_type)
    assert refused.message == message
    assert str(refused) == f"{REQUEST}: invalid response: {message}"


def test_the_reasons_quoted_are_cut_to_eighty_characters() -> None:
    """A parser's reason and a proxy's page are quoted, never at length."""
    reason = refusal(b"{" + b"\n" * 100_000 + b"x").message
    assert reason.startswith(MALFORMED + "Expecting property name") and reason.endswith(")")
    quoted = reason.removeprefix(MALFORMED).removesuffix(")")
    assert len(quoted) == 80 and quoted.endswith("…")
    page = refusal(b"maintenance " * 40, "text/plain").message
    said = page.removeprefix("body is not JSON (text/plain): ")
    assert said.startswith("maintenance maintenance") and 75 <= len(said) <= 80


def test_a_page_keeps_its_cursor_total_and_items_in_order() -> None:
    body = (
        b'{"data": [{"id": "ana_1"}, 5, {"id": "ana_3", "score": "high"}],'
        b' "next_cursor": "c2", "total": 0}'
    )
    raw = parse_raw_page(body, request=REQUEST)
    assert (raw.next_cursor, raw.total, raw.odd_total, raw.odd_cursor) == ("c2", 0, None, None)
    page = parse_page(body, request=REQUEST)
    assert (page.next_cursor, page.total) == ("c2", 0)
    assert [getattr(item, "id", None) for item in page.items] == ["ana_1", None, "ana_3"]
    assert isinstance(page.items[2], InvalidAnalysis)


def test_a_total_of_zero_is_a_count_and_below_zero_is_unknown_said_short() -> None:
    assert read_total({"total": 0}) == (0, None)
    total, why = read_total({"total": -(10**30)})
    assert total is None and why is not None
    assert why.startswith("the server's total is negative (-1000")
    quoted = why.removeprefix("the server's total is negative (").removesuffix(")")
    assert len(quoted) == 24 and quoted.endswith("…")


@settings(max_examples=300, deadline=None)
@given(st.integers() | st.integers(min_value=-(10**40), max_value=10**40))
def test_a_total_that_is_an_int_is_read_as_pydantic_reads_a_count(sent: int) -> None:
    """An `int` total is taken without pydantic: as the count pydantic makes of it; a
    negative one is unknown, said with the number cut to 24 characters."""
    count = adapter(Count).validate_python(sent)
    total, why = read_total({"total": sent})
    if count >= 0:
        assert (total, why) == (count, None) and type(total) is int
    else:
        number = str(sent) if len(str(sent)) <= 24 else str(sent)[:23] + "…"
        assert (total, why) == (None, f"the server's total is negative ({number})")


def test_what_is_in_the_shape_pydantic_writes_is_not_asked_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page, its total and a project in the shape pydantic writes are read without asking
    pydantic (here, asking it fails the test); a total of 0 sent as 0.0 or "0" is still a
    count, asked of pydantic."""

    def asked(kind: object, value: object) -> object:
        raise AssertionError(f"pydantic was asked about {kind!r}")

    row = {"id": "ana_1", "status": "completed", "created_at": "2026-01-01T00:00:00Z"}
    body = json.dumps({"data": [row], "next_cursor": None, "total": 0}).encode()
    with monkeypatch.context() as patched:
        patched.setattr(parsing, "verdict", asked)
        page = parse_page(body, request=REQUEST)
        project = parse_project(b'{"id": "p", "name": "P"}', request=REQUEST)
    assert page.items == [Analysis.model_validate(row)] and page.total == 0
    assert project == Project.model_validate({"id": "p", "name": "P"})
    assert read_total({"total": 0.0}) == (0, None) == read_total({"total": "0"})


def test_a_page_in_the_shape_pydantic_writes_is_read_without_pydantic() -> None:
    """A listing's page and a project as the reference server sends them (what pydantic itself
    writes) are read without pydantic, so the first page is drawn before it is loaded."""
    code = (
        "import json\n"
        "from screen_analysis.api.parsing import parse_page, parse_project\n"
        "row = {'id': 'ana_1', 'project_id': 'p', 'status': 'completed', 'score': 80.5,\n"
        "       'breakdown': {'visual_clarity': 80}, 'feedback': ['ok'],\n"
        "       'created_at': '2026-01-01T00:00:00Z', 'x_new': [1]}\n"
        "body = json.dumps({'data': [row], 'next_cursor': 'c', 'total': 7}).encode()\n"
        "page = parse_page(body, request='GET /v1/analyses')\n"
        'project = parse_project(b\'{"id": "p", "name": "P"}\', request=\'GET\')\n'
        "assert page.items[0].score == 80.5 and page.total == 7 and project.name == 'P'\n"
    )
    assert pydantic_loaded_by(code) == []


@pytest.mark.parametrize("sent", [5, "", None, ["ana_1"]])
def test_an_invalid_item_carries_only_an_id_that_is_a_non_empty_string(sent: object) -> None:
    item = parse_item({"id": sent, "score": "high"})
    assert isinstance(item, InvalidAnalysis) and item.id is None
    named = parse_item({"id": "ana_1", "score": "high"})
    assert isinstance(named, InvalidAnalysis) and named.id == "ana_1"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b'{"id": [], "name": "n"}',
            "not a valid project: id: should be a valid string, not a list",
        ),
        (
            b'{"id": "p", "name": 5}',
            "not a valid project: name: should be a valid string, not a number",
        ),
        (
            b'{"id": "p", "name": 5, "analysis_count": "many"}',
            "not a valid project: name: should be a valid string, not a number;"
            " analysis_count: should be a whole number, not a string",
        ),
    ],
    ids=["id", "name", "name-and-another"],
)
def test_a_project_without_a_usable_id_or_name_is_refused(body: bytes, message: str) -> None:
    with pytest.raises(InvalidResponseError) as raised:
        parse_project(body, request=REQUEST)
    assert raised.value.request == REQUEST
    assert raised.value.message == message


def test_a_project_body_that_is_not_json_is_refused_in_the_pages_words() -> None:
    with pytest.raises(InvalidResponseError) as raised:
        parse_project(b"Back <b>soon</b>", request=REQUEST, content_type="text/html")
    assert raised.value.request == REQUEST
    assert raised.value.message == "body is not JSON (text/html): Back soon"
