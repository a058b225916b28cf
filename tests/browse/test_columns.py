"""A view's columns as a CSV's fields (browse.columns.csv_fields)."""

from __future__ import annotations

from screen_analysis.api.writers import CSV_COLUMNS
from screen_analysis.browse.columns import COLUMNS, CRITERION_COLUMNS, csv_fields


def test_a_views_columns_are_written_by_the_apis_names_in_their_order() -> None:
    assert csv_fields(("status", "score", "label", "age")) == (
        "id",
        "status",
        "score",
        "label",
        "created_at",
    )
    assert csv_fields(("project", "completed", *CRITERION_COLUMNS)) == (
        "id",
        "project_id",
        "completed_at",
        *CRITERION_COLUMNS,
    )


def test_the_id_stays_where_the_view_put_it_and_a_time_asked_twice_is_written_once() -> None:
    assert csv_fields(("label", "id", "age", "created")) == ("label", "id", "created_at")


def test_every_column_is_a_field_the_listings_csv_writes() -> None:
    assert set(csv_fields(COLUMNS)) <= set(CSV_COLUMNS)
