"""The one scope language: which analyses a view, a listing, a report or a gate is about.

`Scope` is what the user wrote (a `[views.NAME]` table, the command line's options):
project (one or several), status, a label glob, `since`/`until`, a score range, ranges
per criterion (`color_contrast < 50`) and the N newest — checked with pydantic, unknown
keys refused. `Scope.at(now)` gives the `Filter` applied: the project (when one) and the
status go to the server (`server_key`); the rest is applied to rows as pages arrive
(`matches`). Headless.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fnmatch import fnmatchcase
from typing import Annotated, Any, NamedTuple, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator

from screen_analysis.api.arguments import check_id
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem, AnalysisStatus, Criterion
from screen_analysis.api.parsing import describe_errors
from screen_analysis.browse.views import ViewKey
from screen_analysis.browse.when import ScopeError, When, Window, created_of, read_when
from screen_analysis.numbers import finite, format_count, format_number
from screen_analysis.validation import quoted
from screen_analysis.words import utc_time

SCOPE_KEYS = (
    "project_id",
    "status",
    "label",
    "since",
    "until",
    "score",
    "min_score",
    "max_score",
    "criteria",
    "last",
)
_SCORE_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?\s*$")
_COMPARE = re.compile(r"^\s*([A-Za-z_ -]+?)\s*(<=|>=|<|>|=)\s*(-?\d+(?:\.\d+)?)\s*$")
_RANGE = re.compile(r"^\s*([A-Za-z_ -]+?)\s+(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?\s*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def criterion_named(text: object) -> Criterion:
    """The documented criterion `text` names (case and `-`/`_`/space aside); ValueError
    naming the known ones."""
    key = str(text).strip().lower().replace("-", "_").replace(" ", "_")
    for criterion in CRITERIA:
        if criterion.value == key:
            return criterion
    known = ", ".join(c.value for c in CRITERIA)
    raise ValueError(f"unknown criterion {quoted(text)}; known: {known}")


class Condition(NamedTuple):
    """One bound on one criterion's score: `color_contrast < 50`."""

    criterion: Criterion
    op: str
    value: float

    def holds(self, score: float) -> bool:
        """Whether `score` meets the bound."""
        value, op = self.value, self.op
        if op == "<":
            return score < value
        if op == "<=":
            return score <= value
        if op == ">":
            return score > value
        if op == ">=":
            return score >= value
        return score == value

    def describe(self) -> str:
        """ "color_contrast < 50"."""
        return f"{self.criterion.value} {self.op} {format_number(self.value)}"


def read_conditions(text: object) -> tuple[Condition, ...]:
    """`color_contrast < 50` (also <=, >, >=, =) or a range `color_contrast 40..60` (both
    ends inclusive, either may be left out); ValueError says what is expected."""
    if isinstance(text, Condition):
        return (text,)
    value = str(text)
    if (found := _COMPARE.match(value)) is not None:
        name, op, number = found.groups()
        return (Condition(criterion_named(name), op, float(number)),)
    if (found := _RANGE.match(value)) is not None and (found[2] or found[3]):
        criterion = criterion_named(found[1])
        low = (Condition(criterion, ">=", float(found[2])),) if found[2] else ()
        return low + ((Condition(criterion, "<=", float(found[3])),) if found[3] else ())
    raise ValueError(
        f"expected CRITERION < N (or <=, >, >=, =, or CRITERION A..B), got {quoted(text)}"
    )


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
    if not value or _CONTROL.search(value):
        raise ValueError(f"a label pattern must be non-empty text, got {quoted(value)}")
    opened = value.rfind("[")
    if opened >= 0 and "]" not in value[opened + 2 :]:
        raise ValueError(f"bad glob {quoted(value)}: a '[' is not closed")
    return value


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


def option_name(key: str) -> str:
    """How the command line names a scope key: --label, --criterion, --project-id."""
    return "--" + {"criteria": "criterion"}.get(key, key).replace("_", "-")


def _ago(when: When) -> str:
    """A duration as `read_when` reads it back: "7d", "90m"."""
    seconds = int(when.ago.total_seconds()) if when.ago is not None else 0
    for unit, size in (("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


@dataclass(frozen=True)
class Filter:
    """A scope applied at a time: the server's filters (`server_key`) and the rest, applied
    to the rows of each page (`matches`); `last` keeps the N newest that match."""

    project_id: str | None = None
    projects: frozenset[str] = frozenset()  # several projects: every project's listing
    status: AnalysisStatus | None = None
    label: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    min_score: float | None = None
    max_score: float | None = None
    criteria: tuple[Condition, ...] = ()
    last: int | None = None

    @property
    def server_key(self) -> ViewKey:
        """The listing asked of the server: the project (when one) and the status."""
        return ViewKey(self.project_id, self.status)

    @property
    def client_side(self) -> bool:
        """Whether rows are filtered here too (a label, a time, a score, a criterion, or
        several projects): the server's total then counts more than match."""
        return bool(
            self.projects
            or self.label is not None
            or self.since is not None
            or self.until is not None
            or self.min_score is not None
            or self.max_score is not None
            or self.criteria
        )

    def matches_label(self, item: Analysis) -> bool:
        """Whether the analysis's label matches the pattern (any label without one)."""
        return self.label is None or fnmatchcase(item.label or "", self.label)

    def matches_but_time(self, item: AnalysisItem) -> bool:
        """Whether the row is in scope, its creation time aside (and before `last`)."""
        if not isinstance(item, Analysis):
            return not self.client_side  # an unreadable row matches no row filter
        if self.projects and item.project_id not in self.projects:
            return False
        if not self.matches_label(item):
            return False
        if self.min_score is not None or self.max_score is not None:
            score = finite(item.score)
            if score is None:
                return False
            if self.min_score is not None and score < self.min_score:
                return False
            if self.max_score is not None and score > self.max_score:
                return False
        for condition in self.criteria:
            value = finite((item.breakdown or {}).get(condition.criterion.value))
            if value is None or not condition.holds(value):
                return False
        return True

    @property
    def window(self) -> Window:
        """The span of creation times in scope."""
        return Window(self.since, self.until)

    def matches(self, item: AnalysisItem) -> bool:
        """Whether the row is in scope (before `last` picks the newest)."""
        if not self.matches_but_time(item):
            return False
        if self.since is None and self.until is None:
            return True
        return isinstance(item, Analysis) and self.window.contains(created_of(item))

    def describe(self) -> str:
        """One line: "project proj_1 · label Checkout* · since … · last 50"."""
        if self.projects:
            parts = ["projects " + ", ".join(sorted(self.projects))]
        else:
            parts = [f"project {self.project_id}" if self.project_id else "all projects"]
        if self.status is not None:
            parts.append(f"status {self.status.value}")
        if self.label is not None:
            parts.append(f"label {self.label}")
        if self.since is not None:
            parts.append("since " + utc_time(self.since))
        if self.until is not None:
            parts.append("until " + utc_time(self.until))
        if self.min_score is not None:
            parts.append(f"score ≥ {format_number(self.min_score)}")
        if self.max_score is not None:
            parts.append(f"score ≤ {format_number(self.max_score)}")
        parts += [condition.describe() for condition in self.criteria]
        if self.last is not None:
            parts.append(f"last {format_count(self.last)}")
        return " · ".join(parts)
