"""Reading a resource without pydantic when it is exactly the shape this program writes —
the shape pydantic writes, which is also what the reference server sends.

The local cache keeps each analysis as `models.as_sent` wrote it, and each project as its
`model_dump(mode="json")`: the documented fields as JSON (text or null, a finite number, a
whole count, numbers by name, a list of texts, a UTC time as `2026-01-01T00:00:00Z` with or
without six digits of microseconds, a status known or not), then the fields the document
does not name. `read_analysis` and `read_project` read such an object into the resource
pydantic would build from it, field by field and extras included, without importing
pydantic (so the first frame can draw what the cache kept, and a server's first page is
drawn before pydantic is loaded: `api.parsing` asks here first); anything else — a numeric
text, an epoch time, a time with an offset, a missing id, a value of the wrong kind — is
declined (None) and left to pydantic (`parsing.parse_item`'s and `parse_project`'s
`validation.verdict`, `Project.model_validate` for the cache), which takes it or words why
not. `tests/api/test_plain_resources.py` holds the two readings equal.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from screen_analysis.api.models import Analysis, AnalysisStatus, Project

_DECLINED = object()
_KNOWN_STATUS = {status.value: status for status in AnalysisStatus}
# What pydantic writes for a UTC time (model_dump(mode="json")); anything else is declined.
_UTC_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{6})?Z")


def _text(value: Any) -> Any:
    return value if value is None or type(value) is str else _DECLINED


def _status(value: Any) -> Any:
    if value is None:
        return None
    return _KNOWN_STATUS.get(value, value) if type(value) is str else _DECLINED


def _is_number(value: Any) -> bool:
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(value))


def _number(value: Any) -> Any:
    return value if value is None or _is_number(value) else _DECLINED


def _count(value: Any) -> Any:
    return value if value is None or type(value) is int else _DECLINED


def _scores(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is not dict:
        return _DECLINED
    for name, score in value.items():
        if type(name) is not str or not (score is None or _is_number(score)):
            return _DECLINED
    return dict(value)


def _texts(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is not list or any(type(text) is not str for text in value):
        return _DECLINED
    return list(value)


def _time(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is not str or not _UTC_TIME.fullmatch(value):
        return _DECLINED
    try:
        return datetime.fromisoformat(value)
    except ValueError:  # a day or an hour out of range
        return _DECLINED


def _id(value: Any) -> Any:
    return value if type(value) is str else _DECLINED


Readers = dict[str, Callable[[Any], Any]]
_ANALYSIS: Readers = {
    "id": _id,
    "project_id": _text,
    "status": _status,
    "image_url": _text,
    "label": _text,
    "score": _number,
    "breakdown": _scores,
    "feedback": _texts,
    "error_message": _text,
    "created_at": _time,
    "completed_at": _time,
}
_PROJECT: Readers = {
    "id": _id,
    "name": _id,
    "description": _text,
    "default_criteria": _scores,
    "analysis_count": _count,
    "avg_score": _number,
    "created_at": _time,
    "updated_at": _time,
    "flagged": _text,
}


def read_analysis(data: dict[str, Any]) -> Analysis | None:
    """The analysis `data` holds when it is in the shape this program writes (see the
    module), as pydantic would build it; None to leave it to pydantic."""
    values = _read(data, _ANALYSIS, ("id",))
    return None if values is None else Analysis.trusted(**values)


def read_project(data: dict[str, Any]) -> Project | None:
    """The project `data` holds when it is in the shape this program writes (see the
    module), as pydantic would build it; None to leave it to pydantic."""
    values = _read(data, _PROJECT, ("id", "name"))
    return None if values is None else Project.trusted(**values)


def _read(
    data: dict[str, Any], readers: Readers, required: tuple[str, ...]
) -> dict[str, Any] | None:
    """The fields' values and `extra` (the unknown fields, as sent), or None."""
    if any(name not in data for name in required):
        return None
    values: dict[str, Any] = {}
    extra: dict[str, Any] | None = None
    for name, value in data.items():
        reader = readers.get(name)
        if reader is None:
            if type(name) is not str:
                return None
            extra = {} if extra is None else extra
            extra[name] = value
            continue
        taken = reader(value)
        if taken is _DECLINED:
            return None
        values[name] = taken
    values["extra"] = extra
    return values
