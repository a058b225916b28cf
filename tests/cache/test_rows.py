"""The cache's rows read back as untrusted input, one value at a time: what is read, what is
one row left out, and the words for how many were."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.api.models import Analysis, InvalidAnalysis
from screen_analysis.cache.rows import (
    Skips,
    analysis_of,
    json_object,
    project_of,
    raw_column,
    skipped_words,
    when_of,
    whole,
)
from screen_analysis.cache.writes import MAX_ROW_BYTES
from screen_analysis.file_reads import MAX_NESTING

ANALYSIS = {
    "id": "ana_1",
    "project_id": "proj_1",
    "url": "https://example.com",
    "status": "completed",
    "created_at": "2026-11-01T09:00:00Z",
}


def nested(levels: int) -> str:
    """An object holding `levels` objects inside one another."""
    return '{"a": ' * levels + "1" + "}" * levels


def test_only_a_json_object_is_a_row() -> None:
    assert json_object('{"id": "x"}') == {"id": "x"}
    assert json_object("{}") == {}
    for raw in (None, b'{"id": "x"}', 5, "[1]", '"text"', "null", "{", "", "NaN-ish"):
        assert json_object(raw) is None, raw


def test_an_object_nested_to_the_limit_is_read_and_one_level_more_is_not() -> None:
    assert json_object(nested(MAX_NESTING)) is not None  # met exactly
    assert json_object(nested(MAX_NESTING + 1)) is None
    assert json_object(nested(5000)) is None  # past the parser's own depth: no exception
    flat = json.dumps({"list": [{}] * 100})  # many brackets, none deep: read
    assert json_object(flat) == {"list": [{}] * 100}


def test_arrays_count_as_levels_as_objects_do() -> None:
    """An object holding arrays nested inside one another: its levels are the object's
    and the arrays' together, the limit met exactly read, one more not."""
    arrays = MAX_NESTING - 1
    assert json_object('{"a": ' + "[" * arrays + "]" * arrays + "}") is not None
    assert json_object('{"a": ' + "[" * (arrays + 1) + "]" * (arrays + 1) + "}") is None


def test_a_row_is_an_analysis_with_an_id_or_a_flagged_one() -> None:
    read = analysis_of(json.dumps(ANALYSIS))
    assert isinstance(read, Analysis) and read.id == "ana_1"
    flagged = analysis_of(json.dumps({**ANALYSIS, "status": 5}))
    assert isinstance(flagged, InvalidAnalysis) and flagged.id == "ana_1"
    assert analysis_of(json.dumps({**ANALYSIS, "id": ""})) is None  # nothing to show it by
    assert analysis_of(json.dumps({"status": 5})) is None
    assert analysis_of("[]") is None and analysis_of(None) is None


def test_a_row_is_a_project_or_nothing() -> None:
    project = project_of(json.dumps({"id": "proj_1", "name": "Shop"}))
    assert project is not None and (project.id, project.name) == ("proj_1", "Shop")
    assert project_of(json.dumps({"name": "Shop"})) is None
    assert project_of(json.dumps({"id": ["proj_1"], "name": "Shop"})) is None
    assert project_of("{") is None and project_of(7) is None


def test_a_time_is_seconds_since_the_epoch_in_utc() -> None:
    assert when_of(0) == datetime(1970, 1, 1, tzinfo=UTC)
    assert when_of(1.5) == datetime(1970, 1, 1, 0, 0, 1, 500000, tzinfo=UTC)
    assert when_of(1_793_523_600) == datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
    for value in (True, False, "0", b"0", None, 1e20, -1e20, float("nan"), float("inf")):
        assert when_of(value) is None, value


def test_a_count_is_a_whole_number_and_nothing_else() -> None:
    assert whole(0) == 0 and whole(12) == 12 and whole(-1) == -1
    for value in (True, 1.0, "3", None):
        assert whole(value) is None


def test_the_words_for_rows_left_out() -> None:
    assert skipped_words(1) == "1 row of the local cache could not be read and was left out."
    assert skipped_words(2) == "2 rows of the local cache could not be read and were left out."
    assert skipped_words(1200).startswith("1,200 rows of")


def test_skips_count_from_any_thread() -> None:
    skips = Skips()
    assert skips.add(0) == 0 and skips.count == 0
    assert skips.add(3) == 3 and skips.count == 3

    def add_many() -> None:
        for _ in range(1000):
            skips.add(1)

    threads = [threading.Thread(target=add_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert skips.count == 4003


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("{}", True),
        ("x" * MAX_ROW_BYTES, True),  # met exactly
        ("x" * (MAX_ROW_BYTES + 1), False),
        ("é" * (MAX_ROW_BYTES // 2 + 1), False),  # bytes, not characters
        (b"{}", False),  # a blob
        (5, False),
        (None, False),
    ],
)
def test_the_database_hands_back_only_text_within_the_limit(value: object, kept: bool) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (raw)")
    db.execute("INSERT INTO t VALUES (?)", (value,))
    (read,) = db.execute(f"SELECT {raw_column('raw')} FROM t").fetchone()
    assert (read == value) if kept else (read is None)


@settings(max_examples=50, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
    )
)
def test_any_json_is_an_object_or_nothing_and_never_an_exception(value: object) -> None:
    raw = json.dumps(value)
    read = json_object(raw)
    assert read == (value if isinstance(value, dict) else None)
