"""The kinds of field the resources are made of, as pydantic types.

Lenient where a server plausibly means the value (a number sent as a numeric string, a
status this client does not know yet), strict where it plainly does not (`true` as a score).
Each kind fails with one error of its own ("score: should be a number") rather than
one per alternative tried, so a message names the field once; pydantic's own types (`str`,
`datetime`, `list[str]`) are used as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetPydanticSchema
from pydantic_core import CoreSchema, core_schema

SchemaMaker = Callable[[Any, GetCoreSchemaHandler], CoreSchema]


def one_of(*choices: CoreSchema, error: str, message: str) -> SchemaMaker:
    """A schema trying `choices` in order whose failure is the one error `message`."""

    def schema(_source: Any, _handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.union_schema(
            list(choices),
            mode="left_to_right",
            custom_error_type=error,
            custom_error_message=message,
        )

    return schema


def known_or_text(enum: type[StrEnum]) -> SchemaMaker:
    """A member of `enum` when the string is one of its values, else the string itself."""

    def schema(source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        members = handler.generate_schema(enum)
        text = core_schema.str_schema(strict=True)
        return one_of(members, text, error="text_type", message="should be a string")(
            source, handler
        )

    return schema


# A string holding a finite number: "42" is 42, "4.5" and "1e3" are floats.
_NUMERIC_TEXT = core_schema.chain_schema(
    [
        core_schema.str_schema(strict=True),
        core_schema.union_schema(
            [core_schema.int_schema(), core_schema.float_schema(allow_inf_nan=False)],
            mode="left_to_right",
        ),
    ]
)

Number = Annotated[
    int | float,
    GetPydanticSchema(
        one_of(
            core_schema.int_schema(strict=True),
            core_schema.float_schema(strict=True),
            _NUMERIC_TEXT,
            error="number_type",
            message="should be a number",
        )
    ),
]
"""A JSON number, or a string holding one; never a boolean."""

Count = Annotated[
    int,
    GetPydanticSchema(
        one_of(
            core_schema.int_schema(strict=True),
            core_schema.chain_schema(
                [core_schema.float_schema(strict=True), core_schema.int_schema()]
            ),
            core_schema.chain_schema([_NUMERIC_TEXT, core_schema.int_schema()]),
            error="whole_number_type",
            message="should be a whole number",
        )
    ),
]
"""A whole number, also written as 7.0 or "7"; never a boolean."""

Scores = dict[str, Number | None]
"""Numbers (or nulls) by name: a breakdown, a project's default weights."""
