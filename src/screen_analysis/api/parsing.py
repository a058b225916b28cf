"""Turn response bodies into models, refusing anything that is not what the API documents.

A page must be an object with a `data` list, an integer `total` and a string or null
`next_cursor`; each item of `data` is validated on its own, so one bad item becomes an
`InvalidAnalysis` where it stood instead of blanking the page.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from screen_analysis.api.errors import InvalidResponseError
from screen_analysis.api.fields import ModelError
from screen_analysis.api.messages import extract_message
from screen_analysis.api.models import (
    Analysis,
    AnalysisItem,
    AnalysisPage,
    InvalidAnalysis,
    Project,
    RawPage,
)
from screen_analysis.safe_text import one_line


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def parse_json_object(
    body: bytes, *, request: str, content_type: str | None = None
) -> dict[str, Any]:
    """The body as a JSON object, or InvalidResponseError saying what it was instead."""
    if not body.strip():
        raise InvalidResponseError("empty body", request=request)
    try:
        value = json.loads(body, parse_constant=_refuse_constant)
    except RecursionError:
        raise InvalidResponseError("JSON nested too deeply", request=request) from None
    except ValueError as exc:
        raise InvalidResponseError(_not_json(body, content_type, exc), request=request) from None
    if not isinstance(value, dict):
        raise InvalidResponseError(f"expected a JSON object, got {_kind(value)}", request=request)
    return value


def _not_json(body: bytes, content_type: str | None, exc: ValueError) -> str:
    if body.lstrip()[:1] in (b"{", b"["):
        return f"malformed or truncated JSON ({one_line(str(exc), limit=80)})"
    kind = content_type.split(";")[0].strip() if content_type else "no content type"
    return f"body is not JSON ({kind}): {extract_message(body, content_type=content_type)[:80]}"


def parse_page(body: bytes, *, request: str, content_type: str | None = None) -> AnalysisPage:
    """A page of analyses from a response body."""
    page = parse_raw_page(body, request=request, content_type=content_type)
    return AnalysisPage(
        items=[parse_item(item) for item in page.data],
        next_cursor=page.next_cursor,
        total=page.total,
        raw_items=page.data,
    )


def parse_raw_page(body: bytes, *, request: str, content_type: str | None = None) -> RawPage:
    """A page whose fields are checked and whose items are left as received."""
    value = parse_json_object(body, request=request, content_type=content_type)
    data = value.get("data")
    if not isinstance(data, list):
        what = "missing" if "data" not in value else f"{_kind(data)}, not a list"
        raise InvalidResponseError(f"page field 'data' is {what}", request=request)
    total = value.get("total")
    if isinstance(total, bool) or not isinstance(total, int):
        what = "missing" if "total" not in value else f"{_kind(total)}, not an integer"
        raise InvalidResponseError(f"page field 'total' is {what}", request=request)
    if total < 0:
        raise InvalidResponseError(f"page field 'total' is negative ({total})", request=request)
    cursor = value.get("next_cursor")
    if cursor is not None and not isinstance(cursor, str):
        raise InvalidResponseError(
            f"page field 'next_cursor' is {_kind(cursor)}, not a string or null", request=request
        )
    # An empty cursor cannot be sent back as `after`; it can only mean the end.
    return RawPage(data=data, next_cursor=cursor or None, total=total)


def parse_item(item: Any) -> AnalysisItem:
    """One item of a page: an Analysis, or an InvalidAnalysis saying why it is not one."""
    if not isinstance(item, dict):
        return InvalidAnalysis(reason=f"item is {_kind(item)}, not an object", raw=item)
    try:
        return Analysis.model_validate(item)
    except ModelError as exc:
        item_id = item.get("id")
        return InvalidAnalysis(
            id=item_id if isinstance(item_id, str) and item_id else None,
            reason=describe_validation_error(exc),
            raw=item,
        )


def parse_project(body: bytes, *, request: str, content_type: str | None = None) -> Project:
    """A project from a response body."""
    value = parse_json_object(body, request=request, content_type=content_type)
    try:
        return Project.model_validate(value)
    except ModelError as exc:
        raise InvalidResponseError(
            f"not a valid project: {describe_validation_error(exc)}", request=request
        ) from None


def describe_validation_error(exc: ModelError) -> str:
    """The first problems of a model error, in one short line without input values."""
    return one_line(str(exc), limit=200)


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)
