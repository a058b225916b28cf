"""Arguments checked before any request is sent, each refusal an InvalidArgumentError.

An argument plainly of its kind (an id that fits a path segment, a page size that is an
`int` from 1 to 100, a status of the four or its text, a non-empty cursor string) is taken
here as it is, without pydantic, so a request is sent before pydantic is loaded. Anything
else is asked of its declaration as a pydantic type (`api.arguments.declared`, imported then),
which takes it or refuses it through `validation.describe_errors`, the one wording of a
validation error: "limit: must be from 1 to 100, got 101". `tests/api/test_arguments.py`
holds the two readings equal. The key is never echoed; the base URL is read by httpx
(`api.addresses.check_base_url`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from screen_analysis.api.arguments.rules import ID_PATTERN, MAX_LIMIT, MIN_LIMIT, SURROGATE
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.secret import SecretStr

# What an HTTP header value may carry (visible ASCII); anything else could split the header.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")
_STATUS_OF = {status.value: status for status in AnalysisStatus}


class _Asked:
    """What a plain reading gives for an argument not plainly of its kind: it is asked of
    its declaration."""


_ASK = _Asked()


@dataclasses.dataclass(frozen=True, slots=True)
class ListArguments:
    """The filters and page size of a listing of analyses, as the request sends them."""

    project_id: str | None = None
    status: AnalysisStatus | None = None
    limit: int = 20


def check_list(project_id: object, status: object, limit: object) -> ListArguments:
    """A listing's filters and page size, checked together (each problem named)."""
    plain_id = None if project_id is None else _plain_id(project_id)
    plain_status = None if status is None else _plain_status(status)
    plain_limit = _plain_limit(limit)
    if (
        isinstance(plain_id, _Asked)
        or isinstance(plain_status, _Asked)
        or isinstance(plain_limit, _Asked)
    ):
        values = {"project_id": project_id, "status": status, "limit": limit}
        listing = _declared("listing", values, None)
        return ListArguments(listing.project_id, listing.status, listing.limit)
    return ListArguments(plain_id, plain_status, plain_limit)


def check_limit(value: object, *, name: str = "limit") -> int:
    """A page size: an integer from 1 to 100."""
    return int(_checked("limit", _plain_limit(value), value, name))


def check_id(value: object, *, name: str) -> str:
    """An identifier: a non-empty string without '/', control characters or dot segments."""
    return str(_checked("id", _plain_id(value), value, name))


def check_cursor(value: object) -> str | None:
    """None, or a non-empty cursor string as the server gave it."""
    plain = value if value is None or (type(value) is str and _sendable(value)) else _ASK
    cursor: str | None = _checked("cursor", plain, value, "after")
    return cursor


def check_max_items(value: object) -> int | None:
    """None (no limit), or a positive integer."""
    plain = value if value is None or (type(value) is int and value >= 1) else _ASK
    most: int | None = _checked("max_items", plain, value, "max_items")
    return most


def _sendable(text: str) -> bool:
    return bool(text) and SURROGATE.search(text) is None


def _plain_id(value: object) -> str | _Asked:
    return value if type(value) is str and ID_PATTERN.match(value) else _ASK


def _plain_status(value: object) -> AnalysisStatus | _Asked:
    if isinstance(value, AnalysisStatus):
        return value
    return _STATUS_OF.get(value, _ASK) if type(value) is str else _ASK


def _plain_limit(value: object) -> int | _Asked:
    if type(value) is int and MIN_LIMIT <= value <= MAX_LIMIT:
        return value
    return _ASK


def _checked(kind: str, plain: object, value: object, name: str) -> Any:
    """`plain` when the argument was plainly of its kind, else `value` as its declaration
    takes it (InvalidArgumentError names the argument and what it should be)."""
    return _declared(kind, value, name) if isinstance(plain, _Asked) else plain


def _declared(kind: str, value: object, name: str | None) -> Any:
    """`value` as the declaration of `kind` takes it, or its refusal (the one hand-off to
    pydantic, imported with `declared` now)."""
    from screen_analysis.api.arguments import declared

    return declared.checked(declared.KINDS[kind], value, name)


def check_api_key(value: object) -> SecretStr:
    """The key as a SecretStr; it must be non-empty visible ASCII to fit in a header."""
    if isinstance(value, str):
        value = SecretStr(value)
    if not isinstance(value, SecretStr):
        raise InvalidArgumentError("api_key must be a SecretStr", param="api_key")
    if not _HEADER_SAFE.fullmatch(value.get_secret_value()):
        # Never echo the key: only say what is wrong with it.
        raise InvalidArgumentError(
            "api_key must be non-empty and contain only visible ASCII characters",
            param="api_key",
        )
    return value
