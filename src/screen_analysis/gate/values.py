"""The gate's vocabulary, declared: what each key of a `[checks.NAME]` table and each flag
of `check` may hold, with its bounds on the field (`spec.build_spec` assembles them).

A value comes as TOML gives it (a number, a boolean, a date-time) or as the command line's
text ("70", "10%", "2h"); both are read by the same types, so a rule is written once.
Numbers are finite and never a boolean. Thresholds in points (`min_score`, `min`,
`max_drop`) are ≥ 0, with no upper bound since the API leaves score bounds open;
`max_failed` is a share, 0 to 100.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
    ConfigDict,
    GetPydanticSchema,
    PlainValidator,
    Strict,
    StrictStr,
)
from pydantic.dataclasses import dataclass
from pydantic_core import PydanticCustomError, core_schema

from screen_analysis.api.fields import one_of
from screen_analysis.api.models import CRITERIA, Criterion
from screen_analysis.validation import bound, quoted, worded

SCORE_FLOOR = "a minimum below 0 would pass any score"
DROP_FLOOR = "a negative allowance would demand a rise"

# A number, or text holding one ("70", " 1e3 ", "nan": read here, refused as not finite next).
_NUMBER = one_of(
    core_schema.int_schema(strict=True),
    core_schema.float_schema(strict=True),
    core_schema.chain_schema([core_schema.str_schema(strict=True), core_schema.float_schema()]),
    error="number_type",
    message="expected a number",
)
_FINITE = core_schema.custom_error_schema(
    core_schema.float_schema(allow_inf_nan=False),
    custom_error_type="not_finite",
    custom_error_message="expected a finite number",
)

Finite = Annotated[
    float,
    GetPydanticSchema(
        lambda source, handler: core_schema.chain_schema([_NUMBER(source, handler), _FINITE])
    ),
]
"""A finite number, or text holding one; never a boolean."""


def _without_percent(value: Any) -> Any:
    # A share on the command line may be written "10%".
    return value.strip().removesuffix("%") if isinstance(value, str) else value


Points = Annotated[Finite, bound(ge=0, words=f"points must be ≥ 0 ({SCORE_FLOOR})")]
"""A minimum in points (a mean score, a criterion's mean)."""

Share = Annotated[
    Finite,
    BeforeValidator(_without_percent),
    bound(ge=0, le=100, words="a percentage from 0 to 100"),
]
"""A share in percent, `10` or `"10%"`."""

Drop = Annotated[Finite, bound(ge=0, words=f"points must be ≥ 0 ({DROP_FLOOR})")]
"""An allowed drop from the baseline, in points."""

Whole0 = Annotated[Finite, bound(ge=0, whole=True, words="expected a whole number ≥ 0")]
"""A count: a whole number, 0 or more (`2.0` is 2)."""

Whole1 = Annotated[Finite, bound(ge=1, whole=True, words="expected a whole number ≥ 1")]
"""A number of analyses: a whole number, 1 or more."""

When = Annotated[
    datetime | date | str,
    GetPydanticSchema(
        one_of(
            core_schema.datetime_schema(strict=True),
            core_schema.date_schema(strict=True),
            core_schema.str_schema(strict=True),
            error="when_type",
            message="should be a date, a date-time or a duration",
        )
    ),
]
"""A point in time as TOML gives it (a date-time, a date) or as text, read by
`scope.parse_when` once the clock is known."""

Flag = Annotated[bool, Strict(), worded("expected true or false", error="flag_type")]


def _split(text: str) -> tuple[str, str]:
    name, _, threshold = text.partition("=")
    return name, threshold


_CRITERION_TEXT = core_schema.str_schema(strict=True, pattern=r"^[^=]*=")
MinEntries = Annotated[
    list[tuple[str, Any]],
    GetPydanticSchema(
        one_of(
            core_schema.no_info_after_validator_function(
                lambda table: list(table.items()),
                core_schema.dict_schema(core_schema.str_schema(), strict=True),
            ),
            core_schema.no_info_after_validator_function(
                lambda texts: [_split(text) for text in texts],
                core_schema.list_schema(_CRITERION_TEXT),
            ),
            core_schema.no_info_after_validator_function(
                lambda text: [_split(text)], _CRITERION_TEXT
            ),
            error="min_type",
            message="expected CRITERION=N, or a table of them",
        )
    ),
]
"""`min` as (criterion, threshold) pairs, in the order given, before either is checked:
from a table `{ cta_effectiveness = 60 }` or from the command line's `CRITERION=N` texts."""


_KNOWN_CRITERIA = ", ".join(c.value for c in CRITERIA)


def _criterion(value: Any) -> Criterion:
    """The documented criterion `value` names, case, '-' and spaces aside ("Color-Contrast"
    is color_contrast); refused naming the value and the known ones."""
    key = str(value).strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Criterion(key)
    except ValueError:
        raise PydanticCustomError(
            "criterion",
            "unknown criterion {given}; known: {known}",
            {"given": quoted(value), "known": _KNOWN_CRITERIA},
        ) from None


CriterionName = Annotated[Criterion, PlainValidator(_criterion)]
"""One of the API's documented breakdown keys, however spelt."""


@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid", defer_build=True))
class GateValues:
    """The keys of a gate, each checked as declared; a key not given is None."""

    # The scope, read by the one scope language (`browse.scope_model.read_scope`) with a view's.
    project_id: Any = None
    status: Any = None
    label: Any = None
    since: Any = None
    until: Any = None
    score: Any = None
    criteria: Any = None
    last: Any = None
    min_score: Points | None = None
    min: MinEntries | None = None
    max_failed: Share | None = None
    min_count: Whole0 | None = None
    baseline: StrictStr | None = None
    baseline_since: When | None = None
    baseline_until: When | None = None
    max_drop: Drop | None = None
    wait: Flag | None = None
    timeout: Annotated[Finite, bound(gt=0, words="seconds must be > 0")] | None = None
    poll_interval: Annotated[Finite, bound(ge=0.1, words="at least 0.1 s")] | None = None


SPEC_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(GateValues))

CHECK_SCOPE_KEYS = ("project_id", "status", "label", "since", "until", "score", "criteria", "last")
"""The scope keys of a gate (`browse.scope`); `min_score` is the gate's assertion, so the
score range is written `score = "..60"`."""
