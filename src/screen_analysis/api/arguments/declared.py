"""The request arguments declared as pydantic types, each with the words of its refusal:
what `api.arguments` asks when an argument is not plainly of its kind, so that pydantic
takes it or says why not ("limit: must be from 1 to 100, got 101"). Imported on first use:
a request whose arguments are plainly good is sent before pydantic is loaded.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, Strict, ValidationError
from pydantic.dataclasses import dataclass

from screen_analysis.api.arguments.rules import ID_PATTERN, MAX_LIMIT, MIN_LIMIT
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.validation import bound, describe_errors, dotted, verdict, worded

Identifier = Annotated[
    str,
    Field(pattern=ID_PATTERN),
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


@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid", defer_build=True))
class Listing:
    """The filters and page size of a listing of analyses, each declared."""

    project_id: Identifier | None = None
    status: Status | None = None
    limit: Limit = 20


KINDS: dict[str, Any] = {
    "id": Identifier,
    "limit": Limit,
    "cursor": Cursor | None,
    "max_items": MaxItems | None,
    "listing": Listing,
}
"""Each declaration by the name `api.arguments` asks it by."""


def checked(kind: Any, value: object, name: str | None = None) -> Any:
    """`value` as the declared `kind`; InvalidArgumentError names the argument (`name`, or
    each field of a model) and what it should be."""
    found = verdict(kind, value)
    if not isinstance(found, ValidationError):
        return found
    errors = found.errors(include_url=False)
    param = name or (str(errors[0]["loc"][0]) if errors and errors[0]["loc"] else None)

    def named(loc: tuple[int | str, ...]) -> str:
        return dotted((name, *loc)) if name else dotted(loc)

    words = describe_errors(found, name=named, values=True)
    raise InvalidArgumentError(words, param=param)
