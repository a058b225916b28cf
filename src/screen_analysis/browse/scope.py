"""The one scope language: which analyses a view, a listing, a report or a gate is about.

`Scope` (`browse/scope_model.py`) is what the user wrote (a `[views.NAME]` table, the
command line's options): project (one or several), status, a label glob, `since`/`until`,
a score range, ranges per criterion (`color_contrast < 50`) and the N newest — checked with
pydantic, unknown keys refused. `Scope.at(now)` gives the `Filter` applied, here: the
project (when one) and the status go to the server (`server_key`); the rest is applied to
rows as pages arrive (`matches`). This module imports no pydantic: the first frame filters
its rows without it. Headless.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from fnmatch import fnmatchcase
from typing import NamedTuple

from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem, AnalysisStatus, Criterion
from screen_analysis.browse.views import ViewKey
from screen_analysis.browse.when import Window, created_of
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
_COMPARE = re.compile(r"^\s*([A-Za-z_ -]+?)\s*(<=|>=|<|>|=)\s*(-?\d+(?:\.\d+)?)\s*$")
_RANGE = re.compile(r"^\s*([A-Za-z_ -]+?)\s+(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?\s*$")


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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def check_glob(value: str) -> str:
    """A label pattern: non-empty text without control characters, every '[' closed;
    ValueError says what is wrong."""
    if not value or _CONTROL.search(value):
        raise ValueError(f"a label pattern must be non-empty text, got {quoted(value)}")
    opened = value.rfind("[")
    if opened >= 0 and "]" not in value[opened + 2 :]:
        raise ValueError(f"bad glob {quoted(value)}: a '[' is not closed")
    return value


def option_name(key: str) -> str:
    """How the command line names a scope key: --label, --criterion, --project-id."""
    return "--" + {"criteria": "criterion"}.get(key, key).replace("_", "-")


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
