"""The Screen Analysis Service's resources, field by field as documented, checked by pydantic.

The document leaves most of an analysis open (required-ness, values outside the completed
state, score bounds), so the models are lenient: unknown fields are kept (`model_extra`), an
unknown status is kept as the string the server sent, nothing assumes a score range, a
number sent as a numeric string is taken as the number, and a time may be ISO 8601 or epoch
seconds (or milliseconds). What is plainly the wrong kind (a label that is a list, a score
that is `true`) is refused with the field named (the kinds of field: `api/fields.py`).

The resources are plain dataclasses with slots, so a row of a table of 100,000 holds its
values and nothing else. pydantic validates them (it reads stdlib dataclasses) through one
cached `TypeAdapter` (`model_validate`, and the constructor, which checks its arguments as
pydantic dataclasses did), its schema built on first use; neither this module nor the kinds
of field (`api/fields.py`) import pydantic, so a row read by a reader that checked it itself
(`api/plain_resources.py`: the local cache's rows, a server's answer in pydantic's own
shape) is drawn before pydantic is loaded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NamedTuple,
    Self,
    TypeVar,
    dataclass_transform,
)

from screen_analysis.api.fields import Count, KnownOrText, Number, Scores
from screen_analysis.validation import adapter

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema


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

Status = Annotated[AnalysisStatus | str, KnownOrText(AnalysisStatus)]
"""One of the documented four, or the string the server sent."""


def parse_status(value: str | None) -> AnalysisStatus | str | None:
    """Return the documented status for `value`, or the string itself when it is unknown."""
    if value is None:
        return None
    try:
        return AnalysisStatus(value)
    except ValueError:
        return value


class _Resource:
    """What the resources share: validated from a JSON object through a cached TypeAdapter,
    unknown fields kept in `extra`, and pydantic's model helpers by their usual names."""

    __slots__ = ()

    @classmethod
    def model_validate(cls, data: object) -> Self:
        """Check `data` (a JSON object) and build the resource; ValidationError says why not."""
        return adapter(cls).validate_python(data)

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """The resource from values already of their fields' types (a reader that checked
        them itself, `api/plain_resources.py`): built as they are, pydantic not asked."""
        made = object.__new__(cls)
        _UNCHECKED_INIT[cls](made, **values)
        return made

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The dataclass's schema, after `_with_extra` (pydantic's protocol for a type that
        shapes its own schema)."""
        from pydantic_core import core_schema

        return core_schema.no_info_before_validator_function(cls._with_extra, handler(source))

    @classmethod
    def _with_extra(cls, data: Any) -> Any:
        # Before validation: the fields the document does not name go into `extra`, as sent.
        known = _documented(cls)
        if not isinstance(data, dict) or known.issuperset(data):
            return data
        values = {name: value for name, value in data.items() if name in known}
        values["extra"] = {str(name): value for name, value in data.items() if name not in known}
        return values

    @property
    def model_extra(self) -> dict[str, Any]:
        """The fields the document does not name, as received."""
        extra: Mapping[str, Any] | None = getattr(self, "extra", None)
        return dict(extra or {})

    def model_dump(self, *, mode: Literal["json", "python"] = "python") -> dict[str, Any]:
        """The documented fields, then the unknown ones (`mode="json"`: JSON-ready)."""
        left_out = {"extra", "flagged"}  # not the server's: kept beside what it sent
        dumped: dict[str, Any] = adapter(type(self)).dump_python(self, mode=mode, exclude=left_out)
        dumped.update(self.model_extra)
        return dumped

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """A copy with some fields replaced (and checked again)."""
        return dataclasses.replace(self, **dict(update or {}))  # type: ignore[type-var]


_DOCUMENTED: dict[type, frozenset[str]] = {}
_UNCHECKED_INIT: dict[type, Any] = {}  # each resource's dataclass __init__, which checks nothing
R = TypeVar("R", bound=_Resource)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def resource(cls: type[R]) -> type[R]:
    """`cls` as a frozen dataclass with slots whose constructor checks its arguments through
    the resource's adapter, as `model_validate` does (`Analysis(id="a", status="pending")`
    holds `AnalysisStatus.PENDING`; a score of `True` is a ValidationError)."""
    made = dataclasses.dataclass(frozen=True, slots=True)(cls)
    plain = _UNCHECKED_INIT[made] = made.__init__

    def __init__(self: R, *args: Any, **kwargs: Any) -> None:
        plain(self, *args, **kwargs)
        names = _documented(type(self))
        checked = adapter(type(self)).validate_python({n: getattr(self, n) for n in names})
        for name in names:
            object.__setattr__(self, name, getattr(checked, name))

    __init__.__doc__ = plain.__doc__
    made.__init__ = __init__  # type: ignore[method-assign,assignment]
    return made


def _documented(resource: type[_Resource]) -> frozenset[str]:
    names = _DOCUMENTED.get(resource)
    if names is None:
        fields = dataclasses.fields(resource)  # type: ignore[arg-type]
        names = _DOCUMENTED[resource] = frozenset(f.name for f in fields) - {"extra"}
    return names


@resource
class Analysis(_Resource):
    """One scoring run of a screen image."""

    id: str
    project_id: str | None = None
    status: Status | None = None
    image_url: str | None = None
    label: str | None = None
    score: Number | None = None
    breakdown: Scores | None = None
    feedback: list[str] | None = None
    error_message: str | None = None
    created_at: datetime | None = None
    completed_at: datetime | None = None
    extra: dict[str, Any] | None = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def known_status(self) -> AnalysisStatus | None:
        """The status when it is one of the documented four, else None."""
        return self.status if isinstance(self.status, AnalysisStatus) else None


@resource
class Project(_Resource):
    """A group of analyses with default weights and aggregate statistics."""

    id: str
    name: str
    description: str | None = None
    default_criteria: Scores | None = None
    analysis_count: Count | None = None
    avg_score: Number | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    extra: dict[str, Any] | None = dataclasses.field(default=None, repr=False, compare=False)
    flagged: str | None = dataclasses.field(default=None, repr=False, compare=False)
    """Why some fields the server sent were left out (shown as unknown), or None."""


class InvalidAnalysis(NamedTuple):
    """An item of a page that is not a valid analysis; kept so the rest of the page shows."""

    reason: str
    id: str | None = None  # the item's id when it has a string one
    raw: Any = None


AnalysisItem = Analysis | InvalidAnalysis


def as_sent(item: AnalysisItem) -> Any:
    """The one raw-JSON shape of an analysis: an item as the server sent it, JSON-ready —
    an analysis's documented fields then its unknown ones, an invalid item's JSON as
    received. What exports, `--format json` and the local cache write."""
    return item.model_dump(mode="json") if isinstance(item, Analysis) else item.raw


class AnalysisPage(NamedTuple):
    """One page of the analyses listing, as the server sent it.

    `items` keeps the server's order; invalid items stand where they were. `raw_items` holds
    the JSON objects exactly as received (for json/jsonl output). `total` and `next_cursor`
    as in `RawPage`, with the same notes when the server's could not be taken.
    """

    items: list[AnalysisItem]
    next_cursor: str | None = None
    total: int | None = None
    raw_items: Sequence[Any] = ()
    odd_total: str | None = None  # why `total` is unknown (None: it was a count, or absent)
    odd_cursor: str | None = None  # why no next page can be asked for, though one may exist

    @property
    def analyses(self) -> list[Analysis]:
        """The valid analyses of the page."""
        return [item for item in self.items if isinstance(item, Analysis)]


class RawPage(NamedTuple):
    """One page of the analyses listing as parsed JSON, items neither validated nor rebuilt.

    Only what cannot be read refuses a page (`api/parsing.py`); its other fields are taken
    as far as they can be: `total` is None when the server's was missing, negative or not a
    whole number (`odd_total` says which), `next_cursor` None at the end and when the
    server's could not be sent back (`odd_cursor` says why; the listing cannot go on).
    `data` holds each item exactly as received, for output that passes JSON through
    (json/jsonl) or to be validated one by one.
    """

    data: list[Any]
    next_cursor: str | None = None
    total: int | None = None
    odd_total: str | None = None
    odd_cursor: str | None = None


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
    "Project",
    "RawPage",
    "adapter",
    "as_sent",
    "parse_status",
]
