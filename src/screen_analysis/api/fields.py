"""Checks for one field of a resource each: the right kind, or a `FieldProblem` naming why.

Lenient where a server plausibly means the value (a number sent as a numeric string, a
timestamp as epoch seconds), strict where it plainly does not (`true` as a score, a list as
a label). Messages never quote the value (it may be long, or hostile).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

_MS_THRESHOLD = 2e10  # epoch numbers above this are milliseconds (as pydantic reads them)


class FieldProblem(ValueError):
    """One field's value is not of the documented kind."""

    def __init__(self, location: str, message: str) -> None:
        super().__init__(f"{location}: {message}" if location else message)
        self.location = location
        self.message = message

    def under(self, name: str) -> FieldProblem:
        """The same problem, located under the field `name`."""
        return FieldProblem(f"{name}.{self.location}" if self.location else name, self.message)


class ModelError(ValueError):
    """A JSON object is not a valid resource; `problems` says field by field why."""

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        self.problems = list(problems)
        super().__init__(describe_problems(self.problems))


def describe_problems(problems: Sequence[FieldProblem], *, most: int = 3) -> str:
    """The first problems in one line ("score: not a number; and 2 more")."""
    parts = [f"{p.location or 'item'}: {p.message}" for p in problems[:most]]
    if len(problems) > most:
        parts.append(f"and {len(problems) - most} more")
    return "; ".join(parts)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def as_string(value: object) -> str | None:
    """A string or null."""
    if value is None or isinstance(value, str):
        return value
    raise FieldProblem("", f"should be a string, not {_kind(value)}")


def as_number(value: object) -> int | float | None:
    """A number (or a numeric string), or null; never a boolean."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise FieldProblem("", "should be a number, not a boolean")
    if isinstance(value, int | float):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            raise FieldProblem("", "should be a number, not a non-numeric string") from None
        if not math.isfinite(number):
            raise FieldProblem("", "should be a finite number")
        return number
    raise FieldProblem("", f"should be a number, not {_kind(value)}")


def as_count(value: object) -> int | None:
    """A whole number (or one written as a string), or null."""
    number = as_number(value)
    if number is None or isinstance(number, int):
        return number
    if number.is_integer():
        return int(number)
    raise FieldProblem("", "should be a whole number")


def as_scores(value: object) -> dict[str, int | float | None] | None:
    """An object of numbers (or nulls) by name, or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise FieldProblem("", f"should be an object, not {_kind(value)}")
    scores: dict[str, int | float | None] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise FieldProblem("", "keys should be strings")
        try:
            scores[key] = as_number(item)
        except FieldProblem as problem:
            raise problem.under(key) from None
    return scores


def as_strings(value: object) -> list[str] | None:
    """A list of strings, or null."""
    if value is None:
        return None
    if not isinstance(value, list | tuple):
        raise FieldProblem("", f"should be a list, not {_kind(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise FieldProblem(str(index), f"should be a string, not {_kind(item)}")
    return list(value)


def as_datetime(value: object) -> datetime | None:
    """An ISO 8601 date-time (or date), epoch seconds or milliseconds, or null."""
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, bool):
        raise FieldProblem("", "should be a date-time, not a boolean")
    if isinstance(value, str):
        text = value.strip()
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
        try:
            value = float(text)
        except ValueError:
            raise FieldProblem("", "should be an ISO 8601 date-time") from None
    if isinstance(value, int | float):
        return _from_epoch(float(value))
    raise FieldProblem("", f"should be a date-time, not {_kind(value)}")


def _from_epoch(seconds: float) -> datetime:
    if abs(seconds) > _MS_THRESHOLD:
        seconds /= 1000
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        raise FieldProblem("", "is a timestamp out of range") from None


def as_any(value: Any) -> Any:
    """Anything, as received."""
    return value
