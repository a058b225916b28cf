"""The writers of a listing: what `analyses list --format json|jsonl|csv` prints and the app
exports, page by page, server text escaped at this edge and every file valid as written."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.api.models import Analysis, InvalidAnalysis
from screen_analysis.api.writers import (
    CSV_COLUMNS,
    CsvWriter,
    JsonArrayWriter,
    JsonLinesWriter,
    dumps_items,
    dumps_json,
    make_raw_writer,
    raw_of,
)

FIRST = {"id": "ana_1", "label": "Checkout", "score": 81}
SECOND = {"id": "ana_2", "label": "Sign-up", "score": None}
THIRD = {"id": "ana_3", "label": "Cart", "score": 64}


class CountingOut(io.StringIO):
    """Text output that counts its flushes: a page must reach the reader as it comes."""

    def __init__(self) -> None:
        super().__init__()
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_jsonl_is_one_object_a_line_each_page_flushed_as_it_comes() -> None:
    out = CountingOut()
    writer = JsonLinesWriter(out)
    writer.write([FIRST, SECOND])
    assert out.getvalue() == (
        '{"id": "ana_1", "label": "Checkout", "score": 81}\n'
        '{"id": "ana_2", "label": "Sign-up", "score": null}\n'
    )
    assert out.flushes == 1
    writer.write([])
    assert out.flushes == 1  # an empty page writes nothing
    writer.write([THIRD])
    writer.abandon()
    writer.close()
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [FIRST, SECOND, THIRD]
    assert out.flushes == 2


def test_a_json_array_streams_page_by_page_and_closes_once() -> None:
    out = CountingOut()
    writer = JsonArrayWriter(out)
    writer.write([])
    assert out.getvalue() == ""  # nothing opened for an empty page
    writer.write([FIRST, SECOND])
    assert out.flushes == 1
    writer.write([THIRD])
    assert out.flushes == 2 and writer.count == 3
    writer.close()
    assert out.getvalue() == (
        "[\n"
        '  {"id": "ana_1", "label": "Checkout", "score": 81},\n'
        '  {"id": "ana_2", "label": "Sign-up", "score": null},\n'
        '  {"id": "ana_3", "label": "Cart", "score": 64}\n'
        "]\n"
    )
    assert out.flushes == 3


def test_an_empty_json_listing_is_an_empty_array() -> None:
    out = CountingOut()
    writer = JsonArrayWriter(out)
    writer.close()
    assert out.getvalue() == "[]\n" and json.loads(out.getvalue()) == []
    assert out.flushes == 1


def test_a_json_listing_that_fails_part_way_is_still_valid_json() -> None:
    out = io.StringIO()
    writer = JsonArrayWriter(out)
    writer.write([FIRST])
    writer.abandon()
    assert json.loads(out.getvalue()) == [FIRST]
    nothing = io.StringIO()
    JsonArrayWriter(nothing).abandon()
    assert nothing.getvalue() == ""  # nothing was written, so nothing is opened or closed


@settings(max_examples=50)
@given(st.lists(st.lists(st.integers() | st.none() | st.text(max_size=2), max_size=3), max_size=4))
def test_a_json_array_of_any_pages_reads_back_as_their_items(pages: list[list[Any]]) -> None:
    out = io.StringIO()
    writer = JsonArrayWriter(out)
    for page in pages:
        writer.write(page)
    writer.close()
    assert json.loads(out.getvalue()) == [item for page in pages for item in page]


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("\x7f", "\\u007f"),
        ("\x9b2J", "\\u009b2J"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2069", "\\u2069"),
        ("\x1b[31m", "\\u001b[31m"),
    ],
)
def test_json_escapes_what_a_terminal_would_act_on(text: str, escaped: str) -> None:
    item = {"label": f"a{text}b"}
    for written in (dumps_json(item), dumps_items([item], "\n")):
        assert written == '{"label": "a' + escaped + 'b"}'
        assert json.loads(written) == item  # lossless


def test_json_keeps_readable_text_as_it_is() -> None:
    item = {"label": "Café ✓ 結果 \u2027 \u202f \u2065 \u206a"}
    assert dumps_json(item) == '{"label": "Café ✓ 結果 \u2027 \u202f \u2065 \u206a"}'
    assert dumps_items([item, item], ",") == f"{dumps_json(item)},{dumps_json(item)}"
    assert dumps_json([1, 2], indent=2) == "[\n  1,\n  2\n]"


def test_csv_has_the_documented_columns_and_flattens_the_breakdown() -> None:
    out = CountingOut()
    writer = CsvWriter(out)
    row = {
        "id": "ana_1",
        "project_id": "proj_1",
        "status": "completed",
        "label": "Checkout",
        "score": 81,
        "breakdown": {"visual_clarity": 90, "color_contrast": 70.5},
        "feedback": ["Clear headline", "Weak contrast"],
        "error_message": None,
        "created_at": "2026-01-01T00:00:00Z",
        "image_url": "https://img.example/1.png",
    }
    writer.write([row])
    writer.close()
    writer.abandon()
    header, written = csv_rows(out.getvalue())
    assert tuple(header) == CSV_COLUMNS
    assert header[5:10] == [
        "visual_clarity",
        "visual_hierarchy",
        "color_contrast",
        "cta_effectiveness",
        "brand_consistency",
    ]
    cells = dict(zip(header, written, strict=True))
    assert cells["visual_clarity"] == "90" and cells["color_contrast"] == "70.5"
    assert cells["visual_hierarchy"] == "" and cells["error_message"] == ""
    assert cells["feedback"] == "Clear headline | Weak contrast"
    assert cells["score"] == "81" and cells["completed_at"] == ""
    assert out.getvalue().endswith("https://img.example/1.png\n")  # "\n", not "\r\n"
    assert out.flushes == 1


def test_csv_rows_of_odd_shapes_are_rows_of_what_can_be_read() -> None:
    out = io.StringIO()
    writer = CsvWriter(out, fields=("id", "score", "visual_clarity"))
    writer.write([["not", "an", "object"], {"id": "ana_2", "breakdown": "none"}, "text"])
    assert csv_rows(out.getvalue()) == [
        ["id", "score", "visual_clarity"],
        ["", "", ""],
        ["ana_2", "", ""],
        ["", "", ""],
    ]


def test_a_breakdown_key_beside_a_field_of_the_same_name_wins_in_its_column() -> None:
    out = io.StringIO()
    writer = CsvWriter(out, fields=("id", "visual_clarity"))
    writer.write([{"id": "ana_1", "visual_clarity": 1, "breakdown": {"visual_clarity": 2}}])
    assert csv_rows(out.getvalue())[1] == ["ana_1", "2"]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t"])
def test_a_cell_a_spreadsheet_would_run_is_quoted_as_text(start: str) -> None:
    out = io.StringIO()
    CsvWriter(out, fields=("label",)).write([{"label": f"{start}SUM(A1)"}])
    cell = csv_rows(out.getvalue())[1][0]
    assert cell == f"'{start}SUM(A1)"


def test_a_carriage_return_in_front_is_made_visible_and_starts_no_formula() -> None:
    out = io.StringIO()
    CsvWriter(out, fields=("label",)).write([{"label": "\rSUM(A1)"}])
    assert csv_rows(out.getvalue())[1] == ["\u240dSUM(A1)"]


def test_numbers_and_plain_text_are_not_quoted() -> None:
    out = io.StringIO()
    CsvWriter(out, fields=("label", "score")).write([{"label": "Sum=1", "score": -3}])
    assert csv_rows(out.getvalue())[1] == ["Sum=1", "-3"]


def test_csv_makes_control_characters_visible_and_keeps_newlines_inside_a_cell() -> None:
    out = io.StringIO()
    CsvWriter(out, fields=("label", "feedback")).write(
        [{"label": "two\nlines\x1b[2J", "feedback": ["a\x07", "b"]}]
    )
    assert csv_rows(out.getvalue())[1] == ["two\nlines\u241b[2J", "a\u2407 | b"]


@pytest.mark.parametrize(
    ("fmt", "kind"), [("jsonl", JsonLinesWriter), ("json", JsonArrayWriter), ("csv", CsvWriter)]
)
def test_each_format_has_its_writer(fmt: str, kind: type[object]) -> None:
    out = io.StringIO()
    writer = make_raw_writer(fmt, out)
    assert type(writer) is kind
    writer.write([FIRST])
    writer.close()
    assert "ana_1" in out.getvalue()  # written where it was asked


def test_a_views_columns_choose_the_csv_columns_not_the_json_fields() -> None:
    out = io.StringIO()
    writer = make_raw_writer("csv", out, fields=("id", "score"))
    writer.write([FIRST])
    assert csv_rows(out.getvalue()) == [["id", "score"], ["ana_1", "81"]]
    default = io.StringIO()
    make_raw_writer("csv", default).write([FIRST])
    assert tuple(csv_rows(default.getvalue())[0]) == CSV_COLUMNS
    whole = io.StringIO()
    json_writer = make_raw_writer("jsonl", whole, fields=("id",))
    json_writer.write([FIRST])
    assert json.loads(whole.getvalue()) == FIRST


def test_a_format_without_a_writer_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^no raw writer for 'table'$"):
        make_raw_writer("table", io.StringIO())


def test_kept_rows_are_written_as_they_were_sent() -> None:
    analysis = Analysis.model_validate({"id": "ana_1", "score": "81", "x_new": [1]})
    invalid = InvalidAnalysis(reason="r", raw=["not", "an", "object"])
    assert raw_of([analysis, invalid]) == [
        {**analysis.model_dump(mode="json"), "x_new": [1]},
        ["not", "an", "object"],
    ]
    assert raw_of([]) == []
