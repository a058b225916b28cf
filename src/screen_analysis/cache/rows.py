"""Reading the cache's rows back as untrusted input: the file may have been changed by hand,
by another program or by damage the database did not notice. A row this version cannot
read — JSON that does not parse, a blob, text over `MAX_ROW_BYTES`, JSON nested deeper than
`file_reads.MAX_NESTING`, anything but an object with an id, a time that is not a time — is
one row left out and counted by the reader (`Skips`), never an exception out of a read.

A row in the shape this program writes is read without pydantic (`api.plain_resources`), so
the first frame draws what the cache kept before pydantic is loaded; any other row is
validated by pydantic as a server's answer is (`api.parse_item`, imported on first use, and
`Project.model_validate`).
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any

from screen_analysis import api
from screen_analysis.api.models import AnalysisItem, Project
from screen_analysis.api.plain_resources import read_analysis, read_project
from screen_analysis.cache.writes import MAX_ROW_BYTES
from screen_analysis.file_reads import MAX_NESTING, too_deep
from screen_analysis.numbers import count_of


def raw_column(column: str) -> str:
    """SQL for a JSON column, NULL unless it is text within `MAX_ROW_BYTES` (a huge value
    is measured in the database, never brought into Python)."""
    return (
        f"CASE WHEN typeof({column}) = 'text'"
        f" AND length(CAST({column} AS BLOB)) <= {MAX_ROW_BYTES} THEN {column} END"
    )


def json_object(raw: object) -> dict[str, Any] | None:
    """The JSON object `raw` holds; None for anything else (see the module)."""
    if not isinstance(raw, str):
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    if raw.count("{") + raw.count("[") > MAX_NESTING and too_deep(data):  # rare: walk it
        return None
    return data


def analysis_of(raw: object) -> AnalysisItem | None:
    """The analysis a row holds (a flagged one when the server sent it so); None when the
    row cannot be read."""
    data = json_object(raw)
    if data is None:
        return None
    try:
        item = read_analysis(data) or api.parse_item(data)
    except (ValueError, TypeError, RecursionError):
        return None
    return item if item.id else None


def project_of(raw: object) -> Project | None:
    """The project a row holds; None when the row cannot be read."""
    data = json_object(raw)
    if data is None:
        return None
    try:
        return read_project(data) or Project.model_validate(data)
    except (ValueError, TypeError, RecursionError):
        return None


def when_of(seconds: object) -> datetime | None:
    """The UTC time of a stored timestamp; None when it is not one (text, a blob, out of
    any calendar)."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return None
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def whole(value: object) -> int | None:
    """A stored count; None when it is not a whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def skipped_words(count: int) -> str:
    """ "2 rows of the local cache could not be read and were left out." """
    verb = "was" if count == 1 else "were"
    return f"{count_of(count, 'row')} of the local cache could not be read and {verb} left out."


class Skips:
    """How many rows the reads of one cache left out, from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def add(self, count: int) -> int:
        """Count `count` more rows left out; the count given back."""
        if count:
            with self._lock:
                self.count += count
        return count
