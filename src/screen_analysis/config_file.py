"""The config file's tables, declared: what each key may hold (`config.py` reads the file
and resolves the settings; this module says what a valid file is).

Every value is taken as TOML gives it (`strict`: a string where a string is meant, never
`theme = 42` read as "42"), and the bounds are declared on the fields. A key this version
does not know is left out and named in a warning, not refused: a config file shared with a
newer version of the app, or one holding a typo, still starts the app, and the typo is
said. A value of the wrong kind cannot be used, so it is refused (`ConfigError`, exit 2).

Imported when a config file is read, not at start: it builds pydantic's schemas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import (
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictFloat,
    StrictStr,
    ValidationError,
)
from pydantic.dataclasses import dataclass
from pydantic_core import ErrorDetails

from screen_analysis.validation import UNKNOWN_KEY, adapter

_TABLES = ConfigDict(extra="forbid", defer_build=True)

Text = StrictStr
Table = Annotated[dict[StrictStr, Any], Strict()]
"""A TOML table whose values are checked by whoever reads them (a keymap, a gate's check)."""

TOML_WORDS = {
    "dict_type": "should be a table",
    "dataclass_type": "should be a table",
    "list_type": "should be an array",
    "string_type": "should be a string",
    "bool_type": "should be true or false",
    "float_type": "should be a number",
}
"""Pydantic's words for TOML's kinds in TOML's terms (`describe_errors(words=...)`)."""


@dataclass(frozen=True, slots=True, config=_TABLES)
class ProfileTable:
    """The settings a `[profiles.NAME]` table may set (the top level sets them as well)."""

    base_url: Text | None = None
    projects: Annotated[list[Text], Strict()] | None = None
    theme: Text | None = None
    # Seconds between refreshes; 0 (or below) turns them off.
    refresh_interval: Annotated[StrictFloat, Field(allow_inf_nan=False)] | None = None
    images: Text | None = None  # checked with --images and the environment's (tui/graphics)
    keymap: Table | None = None  # binding ids to keys, checked by the app (one warning)
    proxy: Text | None = None
    ca_bundle: Text | None = None
    cache: StrictBool | None = None
    cache_max_mb: Annotated[StrictFloat, Field(gt=0, allow_inf_nan=False)] | None = None
    commands: Table | None = None  # [commands.NAME], checked by user_commands where used
    notify: Any = None  # how a watched analysis's end is told, checked by the app
    views: Annotated[dict[str, Table], Strict()] | None = None  # checked by browse.saved_views


@dataclass(frozen=True, slots=True, config=_TABLES)
class ConfigTable(ProfileTable):
    """The whole file: the settings at the top level, the profiles, and the gate's checks
    (each `[checks.NAME]` a table whose keys `screen-analysis check` checks)."""

    default_profile: Text | None = None
    profiles: Annotated[dict[str, ProfileTable], Strict()] | None = None
    checks: Annotated[dict[str, Table], Strict()] | None = None


Checks = Annotated[dict[str, Table], Strict()]
"""The `[checks.NAME]` tables alone: a file of checks (`check --config-file`) is read for
them and nothing else."""


def read_tables(data: Mapping[str, Any]) -> tuple[ConfigTable, list[ErrorDetails]]:
    """The file's tables, and the keys it holds that this version does not know (their
    errors, to be worded as a warning): those are left out. ValidationError for a value
    that cannot be used."""
    try:
        return adapter(ConfigTable).validate_python(data), []
    except ValidationError as exc:
        unknown = [error for error in exc.errors() if error["type"] in UNKNOWN_KEY]
        if not unknown:
            raise
    known = _without(data, [error["loc"] for error in unknown])
    return adapter(ConfigTable).validate_python(known), unknown


def read_checks(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The `[checks.NAME]` tables of a parsed file, by name (ValidationError when `checks`
    or one of them is not a table; their keys are the gate's to check)."""
    return adapter(Checks).validate_python(data.get("checks", {}))


def _without(data: Mapping[str, Any], places: Sequence[tuple[int | str, ...]]) -> dict[str, Any]:
    """A copy of `data` without the keys at `places` (a place is the path of tables to a
    key); the tables on the way are copied, `data` is left as it was."""
    copy = dict(data)
    for place in places:
        table = copy
        for part in place[:-1]:
            table[str(part)] = table = dict(table[str(part)])
        table.pop(str(place[-1]), None)
    return copy
