"""The Screen Analysis Service's resources, field by field as documented.

The document leaves most of an analysis open (required-ness, values outside the completed
state, score bounds), so the models are lenient: unknown fields are kept (`model_extra`), an
unknown status is kept as the string the server sent, nothing assumes a score range, and a
number sent as a numeric string is taken as the number. What is plainly the wrong kind (a
label that is a list, a score that is `true`) is refused with the field named.

Plain frozen dataclasses with slots, checked by hand: no schema to build at start-up, and
little memory per row in a table of 100,000.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple, Self, TypeVar

from screen_analysis.api.fields import (
    FieldProblem,
    ModelError,
    as_count,
    as_datetime,
    as_number,
    as_scores,
    as_string,
    as_strings,
)


class AnalysisStatus(StrEnum):
    """The four documented states of an analysis."""

    PENDING = "pending"
    PROCESSING = "processing"
    COMPLETED = "completed"
    FAILED = "failed"


class Criterion(StrEnum):
    """The five documented scoring criteria, in the document's order."""

    VISUAL_CLARITY = "visual_clarity"
    VISUAL_HIERARCHY = "visual_hierarchy"
    COLOR_CONTRAST = "color_contrast"
    CTA_EFFECTIVENESS = "cta_effectiveness"
    BRAND_CONSISTENCY = "brand_consistency"

    @property
    def title(self) -> str:  # type: ignore[override]
        """Human name of the criterion."""
        return _CRITERION_TITLES[self]


_CRITERION_TITLES = {
    Criterion.VISUAL_CLARITY: "Visual clarity",
    Criterion.VISUAL_HIERARCHY: "Visual hierarchy",
    Criterion.COLOR_CONTRAST: "Color contrast",
    Criterion.CTA_EFFECTIVENESS: "CTA effectiveness",
    Criterion.BRAND_CONSISTENCY: "Brand consistency",
}

STATUSES: tuple[AnalysisStatus, ...] = tuple(AnalysisStatus)
CRITERIA: tuple[Criterion, ...] = tuple(Criterion)


def parse_status(value: str | None) -> AnalysisStatus | str | None:
    """Return the documented status for `value`, or the string itself when it is unknown."""
    if value is None:
        return None
    try:
        return AnalysisStatus(value)
    except ValueError:
        return value


def _status(value: object) -> AnalysisStatus | str | None:
    return parse_status(as_string(value))


M = TypeVar("M", bound="_Resource")


class _Resource:
    """What the resources share: built from a JSON object field by field, unknown fields
    kept, and pydantic-like helpers (`model_validate`, `model_dump`, `model_copy`)."""

    __slots__ = ()
    _CHECKS: Mapping[str, Callable[[object], Any]] = {}
    _REQUIRED: frozenset[str] = frozenset()

    @classmethod
    def model_validate(cls, data: object) -> Self:
        """Check `data` (a JSON object) and build the resource; ModelError says what is wrong."""
        if not isinstance(data, Mapping):
            raise ModelError([FieldProblem("", "not an object")])
        values: dict[str, Any] = {}
        problems: list[FieldProblem] = []
        for name, check in cls._CHECKS.items():
            if name not in data:
                if name in cls._REQUIRED:
                    problems.append(FieldProblem(name, "field required"))
                continue
            try:
                values[name] = check(data[name])
            except FieldProblem as problem:
                problems.append(problem.under(name))
                continue
            if values[name] is None and name in cls._REQUIRED:
                problems.append(FieldProblem(name, "should be a string, not null"))
        if problems:
            raise ModelError(problems)
        extra = {str(k): v for k, v in data.items() if k not in cls._CHECKS}
        return cls(**values, extra=extra)  # type: ignore[call-arg]

    @property
    def model_extra(self) -> dict[str, Any]:
        """The fields the document does not name, as received."""
        extra: Mapping[str, Any] = getattr(self, "extra", {})
        return dict(extra)

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The documented fields, then the unknown ones (`mode="json"`: JSON-ready)."""
        dumped: dict[str, Any] = {}
        for name in self._CHECKS:
            value = getattr(self, name)
            if mode == "json" and isinstance(value, datetime):
                value = value.isoformat().replace("+00:00", "Z")
            dumped[name] = value
        dumped.update(self.model_extra)
        return dumped

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """A copy with some fields replaced."""
        return dataclasses.replace(self, **dict(update or {}))  # type: ignore[type-var]


@dataclass(frozen=True, slots=True)
class Analysis(_Resource):
    """One scoring run of a screen image."""

    id: str
    project_id: str | None = None
    status: AnalysisStatus | str | None = None
    image_url: str | None = None
    label: str | None = None
    score: int | float | None = None
    breakdown: dict[str, int | float | None] | None = None
    feedback: list[str] | None = None
    error_message: str | None = None
    created_at: datetime | None = None
    completed_at: datetime | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    _CHECKS = {  # noqa: RUF012 - a class constant, not a field (no annotation)
        "id": as_string,
        "project_id": as_string,
        "status": _status,
        "image_url": as_string,
        "label": as_string,
        "score": as_number,
        "breakdown": as_scores,
        "feedback": as_strings,
        "error_message": as_string,
        "created_at": as_datetime,
        "completed_at": as_datetime,
    }
    _REQUIRED = frozenset({"id"})

    @property
    def known_status(self) -> AnalysisStatus | None:
        """The status when it is one of the documented four, else None."""
        return self.status if isinstance(self.status, AnalysisStatus) else None


@dataclass(frozen=True, slots=True)
class Project(_Resource):
    """A group of analyses with default weights and aggregate statistics."""

    id: str
    name: str
    description: str | None = None
    default_criteria: dict[str, int | float | None] | None = None
    analysis_count: int | None = None
    avg_score: float | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    _CHECKS = {  # noqa: RUF012 - a class constant, not a field (no annotation)
        "id": as_string,
        "name": as_string,
        "description": as_string,
        "default_criteria": as_scores,
        "analysis_count": as_count,
        "avg_score": as_number,
        "created_at": as_datetime,
        "updated_at": as_datetime,
    }
    _REQUIRED = frozenset({"id", "name"})


class InvalidAnalysis(NamedTuple):
    """An item of a page that is not a valid analysis; kept so the rest of the page shows."""

    reason: str
    id: str | None = None  # the item's id when it has a string one
    raw: Any = None


AnalysisItem = Analysis | InvalidAnalysis


class AnalysisPage(NamedTuple):
    """One page of the analyses listing, as the server sent it.

    `items` keeps the server's order; invalid items stand where they were. `raw_items` holds
    the JSON objects exactly as received (for json/jsonl output).
    """

    items: list[AnalysisItem]
    next_cursor: str | None = None
    total: int | None = None
    raw_items: Sequence[Any] = ()

    @property
    def analyses(self) -> list[Analysis]:
        """The valid analyses of the page."""
        return [item for item in self.items if isinstance(item, Analysis)]


class RawPage(NamedTuple):
    """One page of the analyses listing as parsed JSON, items neither validated nor rebuilt.

    The page's own fields are checked as for `AnalysisPage`; `data` holds each item exactly
    as received, for output that passes JSON through (json/jsonl).
    """

    data: list[Any]
    next_cursor: str | None
    total: int


__all__ = [
    "CRITERIA",
    "STATUSES",
    "UTC",
    "Analysis",
    "AnalysisItem",
    "AnalysisPage",
    "AnalysisStatus",
    "Criterion",
    "InvalidAnalysis",
    "ModelError",
    "Project",
    "RawPage",
    "parse_status",
]
