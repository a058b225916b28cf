"""Reading the config file's tables without pydantic when every value is of the kind
declared (`config_file.ConfigTable`).

Most config files set a few texts, a number or two, a keymap, profiles and saved views, all
of the kinds the declaration allows. `read_plain_tables` reads such a file into exactly
what `config.config_tables` builds with pydantic — the values of the keys set, in the
declaration's order, each profile as a full table (None for what it does not set), numbers
as floats, tables and lists copied — without importing pydantic, so a start with a config
file draws its first rows before pydantic is loaded. Anything else — a key this version
does not know (whose warning pydantic words), a value of the wrong kind, a number out of
range, a value no TOML file holds — is declined (None) and left to pydantic, which takes
it or words why not, as before. `tests/test_config_plain.py` holds the two readings equal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from typing import Any

_DECLINED = object()
# What a TOML value may be besides a table or an array (tomllib's kinds).
_SCALARS = (str, int, float, bool, datetime, date, time)


def _text(value: Any) -> Any:
    return value if type(value) is str else _DECLINED


def _flag(value: Any) -> Any:
    return value if type(value) is bool else _DECLINED


def _finite(value: Any) -> Any:
    """A number as pydantic's strict float gives it (an integer made a float); never a
    boolean, never infinite or NaN."""
    kind = type(value)
    if kind is int:
        try:
            value = float(value)
        except OverflowError:
            return _DECLINED
    elif kind is not float:
        return _DECLINED
    return value if math.isfinite(value) else _DECLINED


def _above_zero(value: Any) -> Any:
    number = _finite(value)
    return number if number is not _DECLINED and number > 0 else _DECLINED


def _texts(value: Any) -> Any:
    if type(value) is not list or any(type(text) is not str for text in value):
        return _DECLINED
    return list(value)


def _copied(value: Any) -> Any:
    """A TOML value copied as `dataclasses.asdict` copies it (tables and arrays anew)."""
    kind = type(value)
    if kind is dict:
        return _table(value)
    if kind is list:
        items = [_copied(item) for item in value]
        return _DECLINED if any(item is _DECLINED for item in items) else items
    return value if kind in _SCALARS else _DECLINED


def _table(value: Any) -> Any:
    """A table whose values are checked by whoever reads them (a keymap, a view, a gate's
    check): any TOML values under text keys."""
    return _each(value, _copied)


def _tables(value: Any) -> Any:
    """A table of tables (`[views.NAME]`, `[checks.NAME]`)."""
    return _each(value, _table)


def _each(value: Any, read: Callable[[Any], Any]) -> Any:
    """A table whose every value `read` takes, copied; declined otherwise."""
    if type(value) is not dict:
        return _DECLINED
    copy: dict[str, Any] = {}
    for key, item in value.items():
        taken = read(item)
        if type(key) is not str or taken is _DECLINED:
            return _DECLINED
        copy[key] = taken
    return copy


Readers = dict[str, Callable[[Any], Any]]
_PROFILE: Readers = {
    "base_url": _text,
    "projects": _texts,
    "theme": _text,
    "refresh_interval": _finite,
    "images": _text,
    "keymap": _table,
    "proxy": _text,
    "ca_bundle": _text,
    "cache": _flag,
    "cache_max_mb": _above_zero,
    "commands": _table,
    "notify": _copied,
    "views": _tables,
}
"""`config_file.ProfileTable`'s fields, in its order, each with its reader."""


def _profile(value: Any) -> Any:
    """A `[profiles.NAME]` table with every field (None where it sets none)."""
    values = _read(value, _PROFILE)
    if values is None:
        return _DECLINED
    return {name: values.get(name) for name in _PROFILE}


_CONFIG: Readers = {
    **_PROFILE,
    "default_profile": _text,
    "profiles": lambda value: _each(value, _profile),
    "checks": _tables,
}
"""`config_file.ConfigTable`'s fields, in its order."""


def read_plain_tables(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The parsed file's values as `config.config_tables` gives them (the keys set, in the
    declaration's order) when every key is known and every value of its kind; None to leave
    the file to pydantic."""
    values = _read(data, _CONFIG)
    if values is None:
        return None
    return {name: values[name] for name in _CONFIG if name in values}


def _read(data: Any, readers: Readers) -> dict[str, Any] | None:
    """Each key's value read by its reader, or None for an unknown key or a declined value."""
    if type(data) is not dict:
        return None
    values: dict[str, Any] = {}
    for name, value in data.items():
        reader = readers.get(name)  # a TOML key is text; no other key has a reader
        taken = _DECLINED if reader is None else reader(value)
        if taken is _DECLINED:
            return None
        values[name] = taken
    return values
