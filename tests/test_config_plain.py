"""The config file read without pydantic (`config_plain`, for a start that draws its first
rows before pydantic is loaded) agrees with pydantic's reading on every file it reads, reads
the files people write, and leaves every other file to pydantic, whose words are unchanged."""

from __future__ import annotations

import math
import tomllib
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from screen_analysis import config
from screen_analysis.config import ConfigError, config_tables, declared_tables
from screen_analysis.config_plain import read_plain_tables

PATH = Path("config.toml")
PROFILE_KEYS = [
    "base_url",
    "projects",
    "theme",
    "refresh_interval",
    "images",
    "keymap",
    "proxy",
    "ca_bundle",
    "cache",
    "cache_max_mb",
    "commands",
    "notify",
    "views",
]
CONFIG_KEYS = [*PROFILE_KEYS, "default_profile", "profiles", "checks"]
ODD_KEYS = ["surprise", "Theme", "theme ", "", "profile", "check"]

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
NUMBERS = (
    st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.integers()
    | st.sampled_from([0, -1, 1, 10**308, 10**309, 2**1024, -(10**400)])
    | st.floats()
    | st.sampled_from([0.0, -0.0, 1e-320, math.inf, -math.inf, math.nan, 1e308])
)
WHEN = st.datetimes(timezones=st.none() | st.just(UTC) | st.timezones()) | st.dates() | st.times()
SCALARS = TEXT | NUMBERS | st.booleans() | WHEN
TOML = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
ANY_KEY = st.sampled_from(CONFIG_KEYS + ODD_KEYS) | TEXT


def mostly(good: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` four times in five, else `odd`."""
    return st.integers(0, 4).flatmap(lambda pick: odd if pick == 0 else good)


def tables(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A table of `values` under text keys, or sometimes something else."""
    return mostly(st.dictionaries(TEXT, values, max_size=3), TOML)


TABLE = tables(TOML)
SHAPED: dict[str, st.SearchStrategy[Any]] = {
    "base_url": TEXT,
    "projects": st.lists(TEXT, max_size=3),
    "theme": TEXT,
    "refresh_interval": NUMBERS,
    "images": TEXT,
    "keymap": tables(TEXT),
    "proxy": TEXT,
    "ca_bundle": TEXT,
    "cache": st.booleans(),
    "cache_max_mb": NUMBERS,
    "commands": tables(TABLE),
    "notify": TOML,
    "views": tables(TABLE),
    "default_profile": TEXT,
    "checks": tables(TABLE),
}


def shaped(keys: list[str], *, odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Tables of the declared keys, each value of its kind; with `odd`, some values are
    any TOML value and some keys ones the declaration does not know."""
    values = {key: mostly(SHAPED[key], TOML) if odd else SHAPED[key] for key in SHAPED}
    unknown = mostly(st.just({}), st.dictionaries(ANY_KEY, TOML, max_size=1))
    return st.builds(
        lambda known, more: {**known, **more},
        st.fixed_dictionaries({}, optional={key: values[key] for key in keys if key in values}),
        unknown if odd else st.just({}),
    )


def configs(*, odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Config files, with profiles four times in five."""
    profiles = st.dictionaries(TEXT, shaped(PROFILE_KEYS, odd=odd), max_size=3)
    return st.builds(
        lambda top, more: {**top, **more},
        shaped(CONFIG_KEYS, odd=odd),
        mostly(
            st.fixed_dictionaries({"profiles": mostly(profiles, TOML) if odd else profiles}),
            st.just({}),
        ),
    )


CONFIGS = configs(odd=False) | configs(odd=True)
TYPICAL = {
    "base_url": "https://api.example.com",
    "theme": "screen-analysis-dark",
    "refresh_interval": 30,
    "projects": ["proj_1"],
    "default_profile": "work",
    "keymap": {"find": "ctrl+f"},
    "views": {"failures": {"status": "failed", "sort": "-score", "columns": ["status"]}},
    "profiles": {
        "work": {"base_url": "https://work.example.com", "proxy": "http://proxy:3128"},
        "home": {"theme": "x", "cache": False, "cache_max_mb": 50, "keymap": {"a": "b"}},
    },
    "commands": {"show": {"key": "x", "run": ["echo", "{id}"]}},
    "notify": ["bell"],
    "checks": {"ci": {"min_score": 70}},
}


def pydantic_reading(data: dict[str, Any]) -> tuple[dict[str, Any], str | None] | None:
    """pydantic's reading of `data`, or None when it refuses it."""
    try:
        return declared_tables(data, PATH)
    except ConfigError:
        return None


def kinds(value: Any) -> Any:
    """`value` with the kind of every part and the order of every table: `repr` tells
    1 from 1.0 and -0.0 from 0.0, and a NaN equals a NaN."""
    return repr(value)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CONFIGS | st.dictionaries(ANY_KEY, TOML, max_size=4))
@example(TYPICAL)
@example({"refresh_interval": 10**400})
@example({"cache_max_mb": 0})
@example({"profiles": {"work": {"profiles": {}}}})
def test_the_plain_reading_is_pydantics_or_none(data: dict[str, Any]) -> None:
    plain = read_plain_tables(data)
    if plain is None:
        return
    reading = pydantic_reading(data)
    assert reading is not None, "pydantic refuses what was read without it"
    values, note = reading
    assert note is None, "a key this version does not know was read without its warning"
    assert kinds(plain) == kinds(values)


@given(CONFIGS)
@settings(max_examples=100, deadline=None)
def test_a_toml_document_reads_alike_either_way(data: dict[str, Any]) -> None:
    # The generated tables written as TOML and read back: what a config file holds.
    try:
        parsed = tomllib.loads(tomlkit.dumps(data))
    except Exception:  # a table tomlkit cannot write (a key or text it refuses)
        return
    plain = read_plain_tables(parsed)
    if plain is not None:
        assert kinds((plain, None)) == kinds(pydantic_reading(parsed))


def test_the_files_people_write_are_read_without_pydantic() -> None:
    plain = read_plain_tables(TYPICAL)
    assert plain is not None
    assert kinds(plain) == kinds(declared_tables(TYPICAL, PATH)[0])
    assert plain["refresh_interval"] == 30.0 and type(plain["refresh_interval"]) is float
    assert plain["profiles"]["work"]["theme"] is None  # every field of a profile
    for key, value in TYPICAL.items():
        assert read_plain_tables({key: value}) is not None, key
    moments = {"when": datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=1)))}
    assert read_plain_tables({"notify": {**moments, "d": date(2026, 1, 1), "t": time(1)}})


def test_the_config_a_start_reads_never_takes_the_pydantic_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What keeps pydantic off a start with a config file: `config_tables` reads such a file
    without `declared_tables` (whose first act is to import pydantic)."""
    expected = declared_tables(TYPICAL, PATH)

    def refused(data: Any, path: Path) -> Any:
        raise AssertionError("the pydantic path was taken")

    monkeypatch.setattr(config, "declared_tables", refused)
    assert kinds(config.config_tables(TYPICAL, PATH)) == kinds(expected)
    with pytest.raises(AssertionError, match="pydantic path"):
        config.config_tables({"theme": 1}, PATH)


@pytest.mark.parametrize(
    "data",
    [
        {"surprise": 1},  # the warning naming it is pydantic's
        {"profiles": {"work": {"default_profile": "x"}}},
        {"theme": 42},
        {"refresh_interval": True},
        {"refresh_interval": math.inf},
        {"cache_max_mb": 0},
        {"cache_max_mb": -1.5},
        {"projects": "proj_1"},
        {"projects": ["proj_1", 2]},
        {"keymap": ["find"]},
        {"views": {"weak": 2}},
        {"profiles": {"work": "x"}},
        {"checks": {"ci": []}},
        {"theme": None},
        # values no TOML file holds, under a table any value may fill: pydantic says what
        {"keymap": {"find": None}},
        {"keymap": {"find": ["ctrl+f", None]}},
        {"views": {"weak": {"status": ("failed",)}}},
    ],
)
def test_what_is_not_of_its_kind_is_left_to_pydantic(data: dict[str, Any]) -> None:
    assert read_plain_tables(data) is None


def test_a_refused_value_is_worded_by_pydantic_as_before() -> None:
    with pytest.raises(ConfigError) as raised:
        config_tables({"profiles": {"staging": {"theme": 42}}}, PATH)
    assert str(raised.value) == (
        f"config file {PATH}: profiles.staging.theme: should be a string, not a number"
    )
    values, note = config_tables({"theme": "x", "surprise": 1}, PATH)
    assert (
        values == {"theme": "x"}
        and note == f"config file {PATH}: surprise: not a known key (left out)"
    )


KINDS = {
    "base_url": "https://api.example.com",
    "projects": ["proj_1"],
    "theme": "x",
    "refresh_interval": 5,
    "images": "off",
    "keymap": {"find": "ctrl+f"},
    "proxy": "http://proxy:3128",
    "ca_bundle": "~/ca.pem",
    "cache": True,
    "cache_max_mb": 0.5,
    "commands": {"show": {"run": ["echo"]}},
    "notify": ["bell"],
    "views": {"weak": {"max_score": 40}},
    "default_profile": "work",
    "profiles": {"work": {}},
    "checks": {"ci": {}},
}


def test_every_declared_key_is_read_without_pydantic() -> None:
    # A key added to the declaration (`config_file`) and not to the plain reader would send
    # every file that sets it to pydantic: the two lists are one.
    from dataclasses import fields

    from screen_analysis.config_file import ConfigTable, ProfileTable

    assert [field.name for field in fields(ProfileTable)] == PROFILE_KEYS
    assert [field.name for field in fields(ConfigTable)] == CONFIG_KEYS == list(KINDS)
    for key, value in KINDS.items():
        assert read_plain_tables({key: value}) is not None, key
        if key in PROFILE_KEYS:
            assert read_plain_tables({"profiles": {"work": {key: value}}}) is not None, key
