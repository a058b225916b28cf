"""What declared validation shares: one TypeAdapter per type, its schema built when first
used, and the one wording of a validation error.

The API's resources (`api/models.py`), the request arguments (`api/arguments/declared.py`), the
config file (`config_file.py`) and the quality gate's spec (`gate/values.py`) are each
declared as pydantic types, with their constraints on the fields (`Field(ge=0)`, or
`bound(...)` where a bound gives its reason), and their refusals are put in words here,
by `describe_errors`: the field as the caller names it, what it should be, and the kind of
value found, never the value itself (it may be long, or hostile).

pydantic is imported on first use, not with this module: the command line's quick exits
(`--version`) word errors without loading it, and a reader that asks pydantic only for what
it could not read itself gets its verdict through `verdict`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from screen_analysis.safe_text import one_line, shorten

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter, ValidationError
    from pydantic_core import CoreSchema, ErrorDetails

T = TypeVar("T")
Loc = tuple[int | str, ...]

_ADAPTERS: dict[object, TypeAdapter[Any]] = {}
NAME_LIMIT = 40  # characters of one part of a field's name (a TOML key may be any length)


def adapter(model: type[T]) -> TypeAdapter[T]:
    """The one TypeAdapter of `model`; its schema is built the first time it is asked for."""
    found = _ADAPTERS.get(model)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[model] = TypeAdapter(model)
    return found


def verdict(model: type[T], value: object) -> T | ValidationError:
    """`value` as `model` (through its one adapter), or pydantic's refusal given back, not
    raised: for a reader that asks pydantic only for what it could not read itself, and so
    does not import it (`api.parsing`)."""
    from pydantic import ValidationError

    try:
        return adapter(model).validate_python(value)
    except ValidationError as exc:
        return exc


def dotted(loc: Loc) -> str:
    """A field's place as `describe_errors` names it by default: `profiles.staging.theme`."""
    return ".".join(shorten(str(part), NAME_LIMIT) for part in loc)


def describe_errors(
    exc: ValidationError | Sequence[ErrorDetails],
    *,
    most: int = 3,
    name: Callable[[Loc], str] = dotted,
    kinds: bool = True,
    values: bool = False,
    words: Mapping[str, str] | None = None,
) -> str:
    """The first problems of a validation error (or of some of its errors) in one short
    line, each naming its field (`name` of its place; `dotted` by default) and the kind of
    value found, never the value ("score: should be a number, not a boolean").

    `kinds=False` leaves the kind out, where every value is text (a command line's);
    `values=True` repeats the value found instead ("got 'seventy'", `quoted`), for what
    the user typed (never for a server's answer);
    `words` replaces pydantic's words for some error types (a config file says "should be
    a table" where pydantic says "a valid dictionary"). A bound is worded from the bounds
    declared ("should be ≥ 0", "should be from 1 to 100"), with its reason when it gives
    one (`bound`); a key the type does not know is "not a known key"."""
    errors = exc if isinstance(exc, Sequence) else exc.errors(include_url=False)
    problems = [_problem(error, name, kinds, values, words or {}) for error in errors]
    if len(problems) > most:
        problems[most:] = [f"and {len(problems) - most} more"]
    return one_line("; ".join(problems), limit=200)


def _problem(
    error: ErrorDetails,
    name: Callable[[Loc], str],
    kinds: bool,
    values: bool,
    words: Mapping[str, str],
) -> str:
    where = name(tuple(error["loc"])) or "item"
    kind = error["type"]
    if kind in UNKNOWN_KEY:
        return f"{where}: not a known key"
    context = error.get("ctx") or {}
    message = words.get(kind)
    if message is None and kind in _BOUND_TYPES:
        message = context.get("words") or _bounds(context)
    if message is None:
        message = error["msg"].removeprefix("Input ").removeprefix("Value error, ")
        message = message[:1].lower() + message[1:]
    if "input" not in error or "given" in context:  # the message repeats the value itself
        return f"{where}: {message}"
    if values:
        message = f"{message}, got {quoted(error['input'])}"
    elif kinds and kind.endswith("_type"):
        message = f"{message}, not {kind_of(error['input'])}"
    return f"{where}: {message}"


QUOTED = 40  # characters of a bad value repeated in an error line


def quoted(value: object) -> str:
    """`value` as an error line repeats it: quoted, cut to a few dozen characters (a
    number as it would be typed: `-5`, not `-5.0`; a repeated option's values joined)."""
    if isinstance(value, list | tuple):
        return repr(shorten(", ".join(str(part) for part in value), QUOTED))
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return repr(shorten(text, QUOTED))


UNKNOWN_KEY = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
"""The types of error pydantic gives a key a type does not declare (`extra="forbid"`)."""

_BOUND_TYPES = frozenset(
    {"greater_than_equal", "greater_than", "less_than_equal", "less_than", "out_of_bounds"}
)
_SIGNS = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<"}


def _bounds(ctx: dict[str, Any]) -> str | None:
    """A refused bound in words from its context: "should be ≥ 0", "should be from 1 to
    100", with the reason a `bound` gives ("should be ≥ 0 (a minimum below 0 would …)")."""
    limits = {key: ctx[key] for key in _SIGNS if key in ctx}
    if not limits:
        return None
    if set(limits) == {"ge", "le"}:
        words = f"from {_number(limits['ge'])} to {_number(limits['le'])}"
    else:
        words = " and ".join(f"{_SIGNS[key]} {_number(value)}" for key, value in limits.items())
    why = ctx.get("why")
    return f"should be {words}" + (f" ({why})" if why else "")


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def kind_of(value: Any) -> str:
    """The kind of `value` in words ("a string", "null", "a fraction"), for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float) and math.isfinite(value) and not value.is_integer():
        return "a fraction"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class bound:
    """Bounds on a number whose refusal gives the reason for them, as annotation metadata:
    `Annotated[float, bound(ge=0, why="a minimum below 0 would pass any score")]` is
    refused as "should be ≥ 0 (a minimum below 0 would pass any score)", and with both
    `ge` and `le` as "should be from 1 to 100". The value's kind is checked first, by the
    type annotated, with its own words."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    lt: float | None = None
    why: str | None = None
    words: str | None = None  # the refusal's own words, in place of "should be ≥ 0 (why)"
    whole: bool = False  # a whole number as well (2.0 is 2; 2.5 is refused in the same words)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The annotated type's schema, then the bounds, refused with one error of type
        `out_of_bounds` carrying them and the reason in its context (`describe_errors`
        words it from there)."""
        from pydantic_core import core_schema

        limits: dict[str, Any] = {
            key: getattr(self, key) for key in _SIGNS if getattr(self, key) is not None
        }
        whole = self.whole or source is int
        within = core_schema.int_schema(**limits) if whole else core_schema.float_schema(**limits)
        context = {
            **limits,
            **({"why": self.why} if self.why else {}),
            **({"words": self.words} if self.words else {}),
        }
        return core_schema.chain_schema(
            [
                handler(source),
                core_schema.custom_error_schema(
                    within,
                    custom_error_type="out_of_bounds",
                    custom_error_message=self.words or _bounds(context) or "out of bounds",
                    custom_error_context=context,
                ),
            ]
        )


@dataclass(frozen=True)
class worded:
    """Annotation metadata that gives every refusal of the annotated type one message, for a
    rule pydantic words in its own terms (a pattern, a union): `Annotated[str,
    Field(pattern=...), worded("should be CRITERION=N")]`. `error` is the error's type; one
    ending in `_type` gets the kind of value found after it (`describe_errors`)."""

    message: str
    error: str = "value_words"

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The annotated type's schema, its errors replaced by the one."""
        from pydantic_core import core_schema

        return core_schema.custom_error_schema(
            handler(source), custom_error_type=self.error, custom_error_message=self.message
        )
