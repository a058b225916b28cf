"""Hypothesis strategies for what a server may send, built from docs/openapi-documented.json
alone (the API exactly as its document states it), never from the reference server.

A small generator over the part of JSON Schema that file uses: `$ref` to its components,
`type` (one or a list), `enum`, `oneOf`, `properties` with `required`, `items`, `minimum`
and `maximum`, and `format: date-time`. Integers are unbounded where the document sets no
bound (negative, huge); strings are any text (control characters, bidi overrides, markup);
optional properties come and go; objects without `additionalProperties` get extra members
now and then (at the top level any JSON value; in an object whose properties are all of
one kind, values of that kind: the document describes the breakdown as "integer score per
criterion" and the weights as numbers).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "openapi-documented.json"
Strategy = st.SearchStrategy[Any]


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document, parsed once."""
    loaded: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return loaded


def component(name: str) -> dict[str, Any]:
    """The schema `#/components/schemas/<name>`."""
    schemas: dict[str, Any] = document()["components"]["schemas"]
    return dict(schemas[name])


def json_values() -> Strategy:
    """Any JSON value (a few levels deep)."""
    leaves = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=20)
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=8,
    )


def _date_times() -> Strategy:
    """RFC 3339 date-times, any year the format holds, "Z" or an offset, with or without
    fractions of a second."""
    offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))
    zones = st.just(UTC) | offsets
    moments = st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=zones
    )

    def written(moment: datetime) -> str:
        text = moment.isoformat()
        return text.replace("+00:00", "Z") if moment.tzinfo is UTC else text

    return moments.map(written)


def from_schema(schema: dict[str, Any]) -> Strategy:
    """Values valid for `schema` (the subset described in the module's docstring)."""
    if "$ref" in schema:
        return from_schema(component(schema["$ref"].rsplit("/", 1)[1]))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "oneOf" in schema:
        return st.one_of(*(from_schema(option) for option in schema["oneOf"]))
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return st.one_of(*(from_schema({**schema, "type": kind}) for kind in kinds))
    if kinds == "null":
        return st.none()
    if kinds == "boolean":
        return st.booleans()
    if kinds == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum")) | st.sampled_from(
            [0, -1, 10**30, -(10**30)]
        )
    if kinds == "number":
        return st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    if kinds == "string":
        if schema.get("format") == "date-time":
            return _date_times()
        return st.text(max_size=40)
    if kinds == "array":
        return st.lists(from_schema(schema.get("items", {})), max_size=6)
    if kinds == "object":
        return _objects(schema)
    return json_values()


def _objects(schema: dict[str, Any]) -> Strategy:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    members = {name: from_schema(sub) for name, sub in properties.items()}
    kinds = {json.dumps(sub, sort_keys=True) for sub in properties.values()}
    extra_value = from_schema(next(iter(properties.values()))) if len(kinds) == 1 else json_values()
    names = st.text(min_size=1, max_size=12).filter(lambda name: name not in properties)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        value = {
            name: draw(members[name])
            for name in properties
            if name in required or draw(st.booleans())
        }
        value.update(draw(st.dictionaries(names, extra_value, max_size=2)))
        return value

    return build()


def pages() -> Strategy:
    """A page of analyses (`AnalysisPage`) as the document allows it."""
    return from_schema({"$ref": "#/components/schemas/AnalysisPage"})


def analyses() -> Strategy:
    """One analysis as the document allows it."""
    return from_schema({"$ref": "#/components/schemas/Analysis"})


def projects() -> Strategy:
    """One project as the document allows it."""
    return from_schema({"$ref": "#/components/schemas/Project"})
