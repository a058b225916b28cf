"""Arguments checked before any request is sent, each refusal an InvalidArgumentError.

The arguments of a listing, an identifier, a cursor and a bound on items are declared as
pydantic types (below), each with the words of its refusal, and refused through
`validation.describe_errors`, the one wording of a validation error: "limit: must be from 1
to 100, got 101". The key is never echoed; the base URL is read by httpx
(`api.addresses.check_base_url`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import ConfigDict, Field, Strict, ValidationError
from pydantic.dataclasses import dataclass

from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.secret import SecretStr
from screen_analysis.validation import adapter, bound, describe_errors, dotted, worded

MIN_LIMIT = 1
MAX_LIMIT = 100
# Non-blank, no '/', no control character, not a dot segment ('.' or '..').
_ID_PATTERN = re.compile(r"^(?!\.\.?\Z)(?=.*\S)[^/\x00-\x1f\x7f-\x9f]+\Z")
# What an HTTP header value may carry (visible ASCII); anything else could split the header.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")

Identifier = Annotated[
    str,
    Field(pattern=_ID_PATTERN),
    worded("must be a non-empty string without '/', control characters or dot segments"),
]
"""An id as a path segment or a query value: non-blank, without '/', control characters or
dot segments."""

Limit = Annotated[
    int,
    Strict(),
    worded(f"must be an integer from {MIN_LIMIT} to {MAX_LIMIT}", error="limit_type"),
    bound(ge=MIN_LIMIT, le=MAX_LIMIT, words=f"must be from {MIN_LIMIT} to {MAX_LIMIT}"),
]
"""A page size: a whole number from 1 to 100 (never a boolean, a float or a numeric text)."""

Cursor = Annotated[str, Strict(), Field(min_length=1), worded("must be a non-empty cursor string")]
"""A cursor as the server gave it: a non-empty string."""

MaxItems = Annotated[
    int, Strict(), Field(ge=1), worded("must be a positive integer", error="max_items")
]
"""A bound on the items of a walk: a whole number, at least 1."""


Status = Annotated[
    AnalysisStatus,
    worded("must be one of " + ", ".join(s.value for s in AnalysisStatus), error="status"),
]
"""One of the four documented statuses, as its text."""

_ARGUMENTS = ConfigDict(extra="forbid", defer_build=True)


@dataclass(frozen=True, slots=True, config=_ARGUMENTS)
class ListArguments:
    """The filters and page size of a listing of analyses, as the request sends them."""

    project_id: Identifier | None = None
    status: Status | None = None
    limit: Limit = 20


def check_list(project_id: object, status: object, limit: object) -> ListArguments:
    """A listing's filters and page size, checked together (each problem named)."""
    checked: ListArguments = _checked(
        ListArguments, {"project_id": project_id, "status": status, "limit": limit}
    )
    return checked


def check_limit(value: object, *, name: str = "limit") -> int:
    """A page size: an integer from 1 to 100."""
    return int(_checked(Limit, value, name))


def check_id(value: object, *, name: str) -> str:
    """An identifier: a non-empty string without '/', control characters or dot segments."""
    return str(_checked(Identifier, value, name))


def check_cursor(value: object) -> str | None:
    """None, or a non-empty cursor string as the server gave it."""
    cursor: str | None = _checked(Cursor | None, value, "after")
    return cursor


def check_max_items(value: object) -> int | None:
    """None (no limit), or a positive integer."""
    most: int | None = _checked(MaxItems | None, value, "max_items")
    return most


def _checked(kind: Any, value: object, name: str | None = None) -> Any:
    """`value` as the declared `kind`; InvalidArgumentError names the argument (`name`, or
    each field of a model) and what it should be."""
    try:
        return adapter(kind).validate_python(value)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        param = name or (str(errors[0]["loc"][0]) if errors and errors[0]["loc"] else None)

        def named(loc: tuple[int | str, ...]) -> str:
            return dotted((name, *loc)) if name else dotted(loc)

        words = describe_errors(exc, name=named, values=True)
        raise InvalidArgumentError(words, param=param) from None


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
