"""Turn response bodies into models, refusing anything that is not what the API documents.

A page must be an object with a `data` list, a whole `total` and a string or null
`next_cursor` (`RawPage`); each item of `data` is validated on its own, so one bad item
becomes an `InvalidAnalysis` where it stood instead of blanking the page. Validation errors
are put in words by `describe_errors`: the field, what it should be, and the kind of value
found, never the value itself (it may be long, or hostile).
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from screen_analysis.api.errors import InvalidResponseError
from screen_analysis.api.messages import extract_message
from screen_analysis.api.models import (
    Analysis,
    AnalysisItem,
    AnalysisPage,
    InvalidAnalysis,
    Project,
    RawPage,
    adapter,
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
        raise InvalidResponseError(f"expected a JSON object, got {kind_of(value)}", request=request)
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
    try:
        return adapter(RawPage).validate_python(value)
    except ValidationError as exc:
        raise InvalidResponseError(
            f"not a valid page: {describe_errors(exc)}", request=request
        ) from None


def parse_item(item: Any) -> AnalysisItem:
    """One item of a page: an Analysis, or an InvalidAnalysis saying why it is not one."""
    if not isinstance(item, dict):
        return InvalidAnalysis(reason=f"item is {kind_of(item)}, not an object", raw=item)
    try:
        return adapter(Analysis).validate_python(item)
    except ValidationError as exc:
        item_id = item.get("id")
        return InvalidAnalysis(
            id=item_id if isinstance(item_id, str) and item_id else None,
            reason=describe_errors(exc),
            raw=item,
        )


def parse_project(body: bytes, *, request: str, content_type: str | None = None) -> Project:
    """A project from a response body."""
    value = parse_json_object(body, request=request, content_type=content_type)
    try:
        return adapter(Project).validate_python(value)
    except ValidationError as exc:
        raise InvalidResponseError(
            f"not a valid project: {describe_errors(exc)}", request=request
        ) from None


def describe_errors(exc: ValidationError, *, most: int = 3) -> str:
    """The first problems of a validation error in one short line, each naming its field and
    the kind of value found, never the value ("score: should be a number, not a boolean")."""
    problems = [_problem(error) for error in exc.errors(include_url=False, include_context=False)]
    if len(problems) > most:
        problems[most:] = [f"and {len(problems) - most} more"]
    return one_line("; ".join(problems), limit=200)


def _problem(error: ErrorDetails) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "item"
    message = error["msg"].removeprefix("Input ")
    message = message[:1].lower() + message[1:]
    if error["type"].endswith("_type") and "input" in error:
        message = f"{message}, not {kind_of(error['input'])}"
    return f"{where}: {message}"


def kind_of(value: Any) -> str:
    """The JSON kind of `value` in words ("a string", "null"), for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return names.get(type(value), type(value).__name__)
