"""The columns a view can show (and sort by), headless: their names as a config writes them,
their headings, and each row's value to sort by.

A view's `columns` and `sort` name them; the table draws them (`tui/widgets/table/`), the
export writes them, and the sort orders rows by `sort_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem
from screen_analysis.numbers import finite

CRITERION_COLUMNS = tuple(criterion.value for criterion in CRITERIA)
PLAIN_COLUMNS = ("status", "score", "label", "age", "created", "completed", "project", "id")
COLUMNS = (*PLAIN_COLUMNS, *CRITERION_COLUMNS)
DEFAULT_COLUMNS = ("status", "score", "label", "age")
SHORT_HEADINGS = {
    "visual_clarity": "Clar",
    "visual_hierarchy": "Hier",
    "color_contrast": "Cont",
    "cta_effectiveness": "CTA",
    "brand_consistency": "Brand",
}
"""A criterion column's heading: four or five cells, so five of them fit beside a label."""


def check_column(name: object) -> str:
    """A column's name as written; ValueError naming the known ones."""
    if isinstance(name, str) and name in COLUMNS:
        return name
    raise ValueError(f"unknown column {name!r}; known: {', '.join(COLUMNS)}")


def check_sort(text: object) -> str:
    """A sort as written: a column's name, `-` before it for the highest first."""
    if not isinstance(text, str):
        raise ValueError(f"expected a column name, got {text!r}")
    check_column(text.removeprefix("-"))
    return text


_FIELDS = {
    "age": "created_at",  # a file outlives "3h ago": the time it counts from
    "created": "created_at",
    "completed": "completed_at",
    "project": "project_id",
}


def csv_fields(columns: Sequence[str]) -> tuple[str, ...]:
    """The CSV fields (the API's names) that write a view's `columns`, in their order: the
    id first when the view does not show it (a row in a file must lead back to its
    analysis), a time asked twice (age and created) once."""
    fields = [_FIELDS.get(column, column) for column in columns]
    if "id" not in fields:
        fields.insert(0, "id")
    return tuple(dict.fromkeys(fields))


def _time(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def cell_value(item: AnalysisItem, column: str) -> Any:
    """The row's value in `column`, as it sorts (None: nothing to show)."""
    if not isinstance(item, Analysis):
        return item.id if column == "id" else None
    if column in CRITERION_COLUMNS:
        return finite((item.breakdown or {}).get(column))
    if column == "score":
        return finite(item.score)
    if column in ("age", "created"):
        return _time(item.created_at)
    if column == "completed":
        return _time(item.completed_at)
    if column == "status":
        return None if item.status is None else str(item.status)
    if column == "project":
        return item.project_id
    return getattr(item, column, None)
