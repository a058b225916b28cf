"""Turn response bodies into models: refuse only what cannot be read, take the rest as far
as it goes, and say what was odd (the policy: docs/reliability.md, "What a server may send").

A page is refused only when it is not a JSON object with a `data` list. Its `total` is taken
when it is a whole number not below zero, else shown as unknown with the reason
(`RawPage.odd_total`); a `next_cursor` that is neither a string nor null ends the listing,
said so (`odd_cursor`). Each item of `data` is validated on its own, so one bad item becomes
an `InvalidAnalysis` where it stood instead of blanking the page. Validation errors are put
in words by `validation.describe_errors` (the one wording of a validation error, for the
config and the gate as well): the field, what it should be, and the kind of value found,
never the value itself (it may be long, or hostile).

What is in the shape pydantic itself writes (an analysis or a project as
`api.plain_resources` reads it, a total that is an `int`) is taken without pydantic, as
pydantic would take it; the rest is asked of pydantic through `validation.verdict`, which
imports it then, so a listing's first page is drawn before pydantic is loaded.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, NoReturn

from screen_analysis.api.errors import InvalidResponseError
from screen_analysis.api.fields import Count
from screen_analysis.api.messages import extract_message
from screen_analysis.api.models import (
    Analysis,
    AnalysisItem,
    AnalysisPage,
    InvalidAnalysis,
    Project,
    RawPage,
)
from screen_analysis.api.plain_resources import read_analysis, read_project
from screen_analysis.safe_text import one_line
from screen_analysis.validation import describe_errors, kind_of, verdict

__all__ = [
    "describe_errors",
    "kind_of",
    "parse_item",
    "parse_json_object",
    "parse_page",
    "parse_project",
    "parse_raw_page",
    "read_cursor",
    "read_total",
]


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
        odd_total=page.odd_total,
        odd_cursor=page.odd_cursor,
    )


def parse_raw_page(body: bytes, *, request: str, content_type: str | None = None) -> RawPage:
    """A page whose fields are checked and whose items are left as received."""
    value = parse_json_object(body, request=request, content_type=content_type)
    data = value.get("data")
    if not isinstance(data, list):
        found = (
            "field required" if "data" not in value else f"should be a list, not {kind_of(data)}"
        )
        raise InvalidResponseError(f"not a valid page: data: {found}", request=request)
    total, odd_total = read_total(value)
    cursor, odd_cursor = read_cursor(value.get("next_cursor"))
    return RawPage(data, cursor, total, odd_total, odd_cursor)


def read_total(page: dict[str, Any]) -> tuple[int | None, str | None]:
    """A page's `total` as a count, or None with the reason it cannot be one ("the
    server's total is negative (-5)"). Written as 7.0 or "7" it is 7, as counts are."""
    if "total" not in page:
        return None, "the server sent no total"
    value = page["total"]
    total = value if type(value) is int else verdict(Count, value)  # an int: as pydantic's
    if isinstance(total, Exception):
        if isinstance(value, float):
            return None, f"the server's total ({value!r}) is not a whole number"
        return None, f"the server's total is {kind_of(value)}, not a whole number"
    return (total, None) if total >= 0 else (None, _negative(total))


def _negative(total: int) -> str:
    return f"the server's total is negative ({one_line(str(total), limit=24)})"


def read_cursor(value: Any) -> tuple[str | None, str | None]:
    """A page's `next_cursor`: a string to send back, or None at the end (null, or empty:
    an empty cursor cannot be sent as `after`); a value of another kind is None with the
    reason ("the server's next_cursor is a number, not a string")."""
    if value is None or isinstance(value, str):
        return value or None, None
    return None, f"the server's next_cursor is {kind_of(value)}, not a string"


def parse_item(item: Any) -> AnalysisItem:
    """One item of a page: an Analysis, or an InvalidAnalysis saying why it is not one."""
    if not isinstance(item, dict):
        return InvalidAnalysis(reason=f"item is {kind_of(item)}, not an object", raw=item)
    plain = read_analysis(item)
    analysis = plain if plain is not None else verdict(Analysis, item)
    if not isinstance(analysis, Exception):
        return analysis
    item_id = item.get("id")
    return InvalidAnalysis(
        id=item_id if isinstance(item_id, str) and item_id else None,
        reason=describe_errors(analysis),
        raw=item,
    )


def parse_project(body: bytes, *, request: str, content_type: str | None = None) -> Project:
    """A project from a response body. A field of the wrong kind is left out (shown as
    unknown) and the project flagged with the reason (`Project.flagged`), as a row of a page
    is; refused only without a usable `id` and `name`, which it is shown by."""
    value = parse_json_object(body, request=request, content_type=content_type)
    plain = read_project(value)
    whole = plain if plain is not None else verdict(Project, value)
    if not isinstance(whole, Exception):
        return whole
    reason = describe_errors(whole)
    wrong = {str(error["loc"][0]) for error in whole.errors() if error["loc"]}
    if wrong & {"id", "name"} or not wrong:
        raise InvalidResponseError(f"not a valid project: {reason}", request=request)
    kept = {name: field for name, field in value.items() if name not in wrong}
    project = verdict(Project, kept)
    if isinstance(project, Exception):  # not expected: the fields left were each valid
        raise InvalidResponseError(
            f"not a valid project: {describe_errors(project)}", request=request
        )
    left_out = {name: field for name, field in value.items() if name in wrong}
    # As sent in `extra`, so json output still carries them.
    return dataclasses.replace(project, flagged=reason, extra={**project.model_extra, **left_out})
