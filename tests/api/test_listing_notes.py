"""What a listing says that does not add up, as the command line's warnings and the app's
notification word it: each kind once, rows that contradict the filter counted, never
dropped."""

from __future__ import annotations

from typing import NamedTuple

from screen_analysis.api.models import Analysis, InvalidAnalysis
from screen_analysis.api.oddities import UNKNOWN_TOTAL, ListingNotes, other_id


class Page(NamedTuple):
    odd_total: str | None = None
    odd_cursor: str | None = None


def test_each_odd_thing_of_the_pages_is_said_once() -> None:
    notes = ListingNotes()
    assert notes.page(Page()) == []
    assert notes.page(Page("total: -3 is no count", "next_cursor: a number")) == [
        f"total: -3 is no count: the total is shown as unknown ({UNKNOWN_TOTAL})",
        "next_cursor: a number: no further page can be asked for",
    ]
    assert notes.page(Page("total: again", "next_cursor: again")) == []


def test_a_cursor_the_walk_will_name_is_left_to_it() -> None:
    notes = ListingNotes()
    assert notes.page(Page(None, "next_cursor: a number"), cursor=False) == []
    assert notes.page(Page(None, "next_cursor: a number")) == [
        "next_cursor: a number: no further page can be asked for"
    ]


def test_rows_against_the_filter_are_counted_in_every_shape() -> None:
    notes = ListingNotes(project_id="proj_1", status="completed")
    notes.rows(
        [
            Analysis.model_validate({"id": "a", "project_id": "proj_2", "status": "failed"}),
            InvalidAnalysis(reason="r", raw={"id": "b", "project_id": "proj_1", "status": "x"}),
            {"id": "c", "project_id": "proj_3", "status": "completed"},
            {"id": "d", "project_id": 7, "status": None},  # not text: nothing to contradict
            ["not", "an", "object"],
            InvalidAnalysis(reason="r", raw="text"),
        ]
    )
    assert (notes.other_status, notes.other_project) == (2, 2)
    assert notes.summary() == [
        "2 analyses came with a status other than 'completed' (listed as sent)",
        "2 analyses came with a project other than 'proj_1' (listed as sent)",
    ]


def test_without_a_filter_nothing_contradicts_it() -> None:
    notes = ListingNotes()
    notes.rows([{"id": "a", "project_id": "proj_2", "status": "failed"}])
    assert (notes.other_status, notes.other_project, notes.summary()) == (0, 0, [])


def test_one_row_is_one_analysis() -> None:
    notes = ListingNotes(status="failed")
    notes.rows([{"status": "completed"}])
    assert notes.summary() == ["1 analysis came with a status other than 'failed' (listed as sent)"]


def test_a_view_is_told_of_each_kind_once_as_it_happens() -> None:
    notes = ListingNotes(project_id="proj_1", status="completed")
    assert notes.new_rows([{"project_id": "proj_1", "status": "completed"}]) == []
    assert notes.new_rows([{"project_id": "proj_1", "status": "failed"}]) == [
        "Some analyses came with a status other than 'completed' (shown as sent)"
    ]
    assert notes.new_rows([{"project_id": "proj_9", "status": "failed"}]) == [
        "Some analyses came from a project other than 'proj_1' (shown as sent)"
    ]
    assert notes.new_rows([{"project_id": "proj_9", "status": "failed"}]) == []
    assert (notes.other_status, notes.other_project) == (3, 2)


def test_the_filter_is_quoted_cut_and_cleaned() -> None:
    notes = ListingNotes(status="x" * 100 + "\x1b")
    notes.rows([{"status": "completed"}])
    (line,) = notes.summary()
    assert line == f"1 analysis came with a status other than '{'x' * 59}…' (listed as sent)"


def test_another_resource_than_the_one_asked_for_is_named() -> None:
    assert other_id("proj_1", "proj_1") is None
    assert other_id("proj_1", "proj_2\n") == "asked for 'proj_1', the server sent 'proj_2'"
    assert other_id("", "proj_2") == "asked for '', the server sent 'proj_2'"
