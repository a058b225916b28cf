"""Pydantic models of the Screen Analysis Service resources, field by field as documented.

The document leaves most of an analysis open (required-ness, values outside the completed
state, score bounds), so the models are lenient: unknown fields are kept, an unknown status
is kept as the string the server sent, and nothing assumes a score range.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


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


class _Lenient(BaseModel):
    """Base: extra fields tolerated and kept, values not coerced across types silently."""

    model_config = ConfigDict(extra="allow", frozen=True)


class Analysis(_Lenient):
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

    @field_validator("status", mode="before")
    @classmethod
    def _keep_unknown_status(cls, value: Any) -> Any:
        return parse_status(value) if isinstance(value, str) else value

    @property
    def known_status(self) -> AnalysisStatus | None:
        """The status when it is one of the documented four, else None."""
        return self.status if isinstance(self.status, AnalysisStatus) else None


class Project(_Lenient):
    """A group of analyses with default weights and aggregate statistics."""

    id: str
    name: str
    description: str | None = None
    default_criteria: dict[str, int | float | None] | None = None
    analysis_count: int | None = None
    avg_score: float | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


class InvalidAnalysis(BaseModel):
    """An item of a page that is not a valid analysis; kept so the rest of the page shows."""

    model_config = ConfigDict(frozen=True)

    id: str | None = Field(default=None, description="The item's id when it has a string one")
    reason: str
    raw: Any = None


AnalysisItem = Analysis | InvalidAnalysis


class AnalysisPage(BaseModel):
    """One page of the analyses listing, as the server sent it.

    `items` keeps the server's order; invalid items stand where they were. `raw_items` holds
    the JSON objects exactly as received (for json/jsonl output).
    """

    model_config = ConfigDict(frozen=True)

    items: list[AnalysisItem]
    next_cursor: str | None = None
    total: int | None = None
    raw_items: list[Any] = Field(default_factory=list, repr=False)

    @property
    def analyses(self) -> list[Analysis]:
        """The valid analyses of the page."""
        return [item for item in self.items if isinstance(item, Analysis)]


@dataclass(frozen=True, slots=True)
class RawPage:
    """One page of the analyses listing as parsed JSON, items neither validated nor rebuilt.

    The page's own fields are checked as for `AnalysisPage`; `data` holds each item exactly
    as received, for output that passes JSON through (json/jsonl).
    """

    data: list[Any]
    next_cursor: str | None
    total: int
