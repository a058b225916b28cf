"""The scope as written — a `[views.NAME]` table, the command line's options — checked by
pydantic (`Scope`, and `SavedView`, a scope with a sort and columns): unknown keys refused,
each refusal one line naming the key (`read_model`). Imported when a scope or a view is read,
not with the first frame (`browse/scope.py` holds the language the rows are filtered by).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator

from screen_analysis.api.arguments import check_id
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.browse.columns import check_column, check_sort
from screen_analysis.browse.scope import (
    SCOPE_KEYS,
    Condition,
    Filter,
    check_glob,
    read_conditions,
)
from screen_analysis.browse.when import ScopeError, When, read_when
from screen_analysis.validation import describe_errors, quoted

_SCORE_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?\s*$")


def _conditions(value: object) -> tuple[Condition, ...]:
    texts = [value] if isinstance(value, str) else value
    if not isinstance(texts, list | tuple):
        raise ValueError(f"expected a list of conditions, got {quoted(value)}")
    return tuple(condition for text in texts for condition in read_conditions(text))


def _projects(value: object) -> tuple[str, ...]:
    ids = [value] if isinstance(value, str) else value
    if not isinstance(ids, list | tuple):
        raise ValueError(f"expected a project id or a list of them, got {quoted(value)}")
    try:
        return tuple(dict.fromkeys(check_id(text, name="project id") for text in ids))
    except InvalidArgumentError as exc:
        raise ValueError(
            str(exc).removeprefix("project id: ").removeprefix("project id ")
        ) from None


def _whole(value: object) -> object:
    """The N of `last`: a whole number ≥ 1 (TOML's integer, or the command line's text)."""
    if value is None:
        return value
    text = str(value).strip() if isinstance(value, str) else value
    if isinstance(text, str) and text.isdigit():
        text = int(text)
    if isinstance(text, bool) or not isinstance(text, int) or text < 1:
        raise ValueError(f"expected a whole number ≥ 1, got {quoted(value)}")
    return text


def _glob(value: object) -> object:
    if not isinstance(value, str):
        return value  # pydantic words the wrong kind
    return check_glob(value)


def _when(value: object) -> object:
    if value is None or isinstance(value, When):
        return value
    try:
        return read_when(value, option="time")
    except ScopeError as exc:
        raise ValueError(str(exc).removeprefix("time: ")) from None


def _score(value: object) -> object:
    if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"expected a finite number, got {quoted(value)}")
    return value


Projects = Annotated[tuple[str, ...], BeforeValidator(_projects)]
Glob = Annotated[str | None, BeforeValidator(_glob)]
WhenField = Annotated[When | None, BeforeValidator(_when)]
Score = Annotated[float | None, BeforeValidator(_score)]
Conditions = Annotated[tuple[Condition, ...], BeforeValidator(_conditions)]


class Scope(BaseModel):
    """A scope as written (see the module); unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    project_id: Projects = ()
    status: AnalysisStatus | None = None
    label: Glob = None
    since: WhenField = None
    until: WhenField = None
    min_score: Score = None
    max_score: Score = None
    criteria: Conditions = ()
    last: Annotated[int | None, BeforeValidator(_whole)] = None

    @model_validator(mode="before")
    @classmethod
    def _score_range(cls, data: Any) -> Any:
        """`score = "40..60"` (either end may be left out) sets `min_score`/`max_score`."""
        if not isinstance(data, dict) or "score" not in data:
            return data
        data = dict(data)
        text = data.pop("score")
        found = _SCORE_RANGE.match(text) if isinstance(text, str) else None
        if found is None or not (found[1] or found[2]):
            raise ValueError(f"expected a range such as 40..60, ..60 or 70.., got {quoted(text)}")
        if "min_score" in data or "max_score" in data:
            raise ValueError("give a range or min_score/max_score, not both")
        data["min_score"] = float(found[1]) if found[1] else None
        data["max_score"] = float(found[2]) if found[2] else None
        return data

    def at(self, now: datetime) -> Filter:
        """The filter this scope applies at `now` (durations are taken back from it)."""
        one = self.project_id[0] if len(self.project_id) == 1 else None
        return Filter(
            project_id=one,
            projects=frozenset(self.project_id) if len(self.project_id) > 1 else frozenset(),
            status=self.status,
            label=self.label,
            since=self.since.resolve(now, "since") if self.since is not None else None,
            until=self.until.resolve(now, "until") if self.until is not None else None,
            min_score=self.min_score,
            max_score=self.max_score,
            criteria=self.criteria,
            last=self.last,
        )

    def values(self) -> dict[str, Any]:
        """The keys set, as a config table holds them (for "save view as…")."""
        table: dict[str, Any] = {}
        for key in SCOPE_KEYS:
            value = getattr(self, key, None)
            if value in (None, ()):
                continue
            if key == "project_id":
                value = value[0] if len(value) == 1 else list(value)
            elif key == "criteria":
                value = [condition.describe() for condition in value]
            elif isinstance(value, When):
                value = value.at.isoformat() if value.at is not None else _ago(value)
            elif isinstance(value, AnalysisStatus):
                value = value.value
            table[key] = value
        return table


ModelT = TypeVar("ModelT", bound=BaseModel)


def read_model(
    model: type[ModelT], values: Mapping[str, Any], name_of: Callable[[str], str]
) -> ModelT:
    """`model` from `values` (None and empty values left out); ScopeError in one line that
    names the key as `name_of` calls it ("--label", "view 'checkout': label") and what is
    wrong with it, worded by the one function that words validation errors."""
    given = {key: value for key, value in values.items() if value not in (None, ())}
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        if first["type"] == "extra_forbidden":
            extra = ("score",) if issubclass(model, Scope) else ()
            known = ", ".join(dict.fromkeys([*model.model_fields, *extra]))
            raise ScopeError(f"{name_of(key)}: unknown key; known: {known}") from None
        words = describe_errors(exc, most=1).partition(": ")[2]  # the key is named above
        raise ScopeError(f"{name_of(key or 'score')}: {words}") from None


def read_scope(values: Mapping[str, Any], name_of: Callable[[str], str]) -> Scope:
    """The scope `values` write (see `read_model`)."""
    return read_model(Scope, values, name_of)


def _ago(when: When) -> str:
    """A duration as `read_when` reads it back: "7d", "90m"."""
    seconds = int(when.ago.total_seconds()) if when.ago is not None else 0
    for unit, size in (("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _columns(value: object) -> object:
    if not isinstance(value, list | tuple):
        return value  # pydantic words the wrong kind
    if not value:
        raise ValueError("give at least one column")
    return tuple(dict.fromkeys(check_column(name) for name in value))


def _sort(value: object) -> object:
    return value if value is None else check_sort(value)


Columns = Annotated[tuple[str, ...] | None, BeforeValidator(_columns)]
Sort = Annotated[str | None, BeforeValidator(_sort)]


class SavedView(Scope):
    """One `[views.NAME]` table: a scope, a sort (a column, `-` for the highest first) and
    the columns shown (None: the table's own)."""

    sort: Sort = None
    columns: Columns = None

    def table(self) -> dict[str, Any]:
        """The view as a config table writes it."""
        values = self.values()
        if self.sort is not None:
            values["sort"] = self.sort
        if self.columns is not None:
            values["columns"] = list(self.columns)
        return values
