"""The kinds of field the resources are made of, as pydantic types.

Lenient where a server plausibly means the value (a number sent as a numeric string, a
status this client does not know yet), strict where it plainly does not (`true` as a score).
Each kind fails with one error of its own ("score: should be a number") rather than
one per alternative tried, so a message names the field once; pydantic's own types (`str`,
`datetime`, `list[str]`) are used as they are.

Each kind is a type annotated with a small marker of ours that gives pydantic its schema
(`__get_pydantic_core_schema__`, pydantic's protocol for annotations) when the schema is
built, on first validation: this module imports neither pydantic nor pydantic_core, so
the resources can be imported, held and drawn without them (the first frame's rows).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

    SchemaMaker = Callable[[Any, GetCoreSchemaHandler], CoreSchema]


def one_of(*choices: CoreSchema, error: str, message: str) -> SchemaMaker:
    """A schema trying `choices` in order whose failure is the one error `message`."""

    def schema(_source: Any, _handler: GetCoreSchemaHandler) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.union_schema(
            list(choices),
            mode="left_to_right",
            custom_error_type=error,
            custom_error_message=message,
        )

    return schema


class KnownOrText:
    """Annotation marker: a member of `enum` when the string is one of its values, else the
    string itself; anything but a string is refused as "should be a string"."""

    __slots__ = ("enum",)

    def __init__(self, enum: type[StrEnum]) -> None:
        self.enum = enum

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The enum's schema, then a strict string, failing as one error."""
        from pydantic_core import core_schema

        members = handler.generate_schema(self.enum)
        text = core_schema.str_schema(strict=True)
        return one_of(members, text, error="text_type", message="should be a string")(
            source, handler
        )


class NumberKind:
    """Annotation marker of `Number`: a JSON number, or a string holding a finite one
    ("42" is 42, "4.5" and "1e3" are floats); never a boolean. `whole=True` (`Count`) takes
    only whole numbers, also written as 7.0 or "7"."""

    __slots__ = ("whole",)

    def __init__(self, *, whole: bool = False) -> None:
        self.whole = whole

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The alternatives in order, failing as one error that names the kind."""
        from pydantic_core import core_schema

        numeric_text = core_schema.chain_schema(
            [
                core_schema.str_schema(strict=True),
                core_schema.union_schema(
                    [core_schema.int_schema(), core_schema.float_schema(allow_inf_nan=False)],
                    mode="left_to_right",
                ),
            ]
        )
        if not self.whole:
            return one_of(
                core_schema.int_schema(strict=True),
                core_schema.float_schema(strict=True),
                numeric_text,
                error="number_type",
                message="should be a number",
            )(source, handler)
        return one_of(
            core_schema.int_schema(strict=True),
            core_schema.chain_schema(
                [core_schema.float_schema(strict=True), core_schema.int_schema()]
            ),
            core_schema.chain_schema([numeric_text, core_schema.int_schema()]),
            error="whole_number_type",
            message="should be a whole number",
        )(source, handler)


Number = Annotated[int | float, NumberKind()]
"""A JSON number, or a string holding one; never a boolean."""

Count = Annotated[int, NumberKind(whole=True)]
"""A whole number, also written as 7.0 or "7"; never a boolean."""

Scores = dict[str, Number | None]
"""Numbers (or nulls) by name: a breakdown, a project's default weights."""
