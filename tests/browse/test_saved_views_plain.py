"""A saved view told usable without pydantic (`plain_view`, so the first frame draws the
views' tabs before pydantic is loaded) is one `read_view` takes, over any table; the views
people write are told so, and the others are read at start as before."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from screen_analysis.browse.columns import COLUMNS
from screen_analysis.browse.saved_views import plain_names, plain_view, read_view, read_views
from screen_analysis.browse.when import ScopeError

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
NUMBERS = (
    st.integers()
    | st.sampled_from([0, 1, -1, 2**53, 2**53 + 1, 10**400])
    | st.floats()
    | st.sampled_from([math.inf, math.nan, -0.0])
)
SCALARS = TEXT | NUMBERS | st.booleans() | st.datetimes() | st.dates()
TOML = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=2),
    max_leaves=6,
)
STATUSES = st.sampled_from(["pending", "processing", "completed", "failed", "Failed", "done"])
GLOBS = st.sampled_from(["Checkout*", "a[bc]", "a[", "[]x", "", "\x1b", "a]b[c]"]) | TEXT
WHENS = st.sampled_from(["7d", "90m", "2w", "2026-01-01", "2026-01-01T10:00:00Z", "x", "0d"])
CRITERIA = st.sampled_from(
    ["color_contrast < 50", "visual clarity 40..60", "brand_consistency >= 7", "x < 1", "a..b"]
)
SORTS = st.sampled_from([*COLUMNS, *(f"-{c}" for c in COLUMNS), "-", "nope"])
SHAPED: dict[str, st.SearchStrategy[Any]] = {
    "status": STATUSES,
    "label": GLOBS,
    "min_score": NUMBERS,
    "max_score": NUMBERS,
    "last": st.integers(-2, 10**20),
    "since": WHENS,
    "until": WHENS,
    "criteria": CRITERIA | st.lists(CRITERIA | TEXT, max_size=3),
    "sort": SORTS,
    "columns": st.lists(st.sampled_from([*COLUMNS, "nope"]), max_size=4),
}
OTHER_KEYS = st.fixed_dictionaries(
    {},
    optional={
        "project_id": TEXT,
        "score": st.sampled_from(["40..60", "..60", "70..", "x"]),
        "surprise": TOML,
    },
)
ODD = st.integers(0, 5).map(lambda pick: pick == 0)  # one value in six of any kind
USUAL = st.fixed_dictionaries(
    {},
    optional={
        key: ODD.flatmap(lambda odd, value=value: TOML if odd else value)
        for key, value in SHAPED.items()
    },
)
VIEWS = st.builds(
    lambda usual, odd, other: {**usual, **other} if odd else usual, USUAL, ODD, OTHER_KEYS
) | st.dictionaries(st.sampled_from([*SHAPED, "surprise"]) | TEXT, TOML, max_size=3)


def takes(table: object) -> bool:
    try:
        read_view("v", table)
    except ScopeError:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(VIEWS | TOML)
@example({"status": "failed", "sort": "-score", "columns": ["status", "label"]})
@example({"min_score": 2**53 + 1})
@example({"last": True})
def test_a_view_told_usable_without_pydantic_is_read(table: Any) -> None:
    if plain_view(table):
        assert takes(table)


@pytest.mark.parametrize(
    "table",
    [
        {"status": "failed"},
        {"status": "completed", "max_score": 50, "sort": "-score"},
        {"label": "Checkout*", "since": "7d", "columns": ["status", "score", "label"]},
        {"criteria": ["color_contrast < 50"], "min_score": 12.5, "last": 20},
        {"until": "2026-01-01", "criteria": "visual_clarity 40..60"},
    ],
)
def test_the_views_people_write_are_told_usable(table: dict[str, Any]) -> None:
    assert plain_view(table) and takes(table)


@pytest.mark.parametrize(
    "table",
    [
        {"status": "done"},
        {"label": "a["},
        {"columns": []},
        {"min_score": True},
        {"since": "soon"},
        {"surprise": 1},
        {"project_id": "proj_1"},  # a project id is left to read_view
        {"score": "40..60"},
    ],
)
def test_anything_else_is_left_to_read_view(table: dict[str, Any]) -> None:
    assert not plain_view(table)


def test_the_names_are_given_only_when_every_view_is_usable() -> None:
    views = {"failures": {"status": "failed"}, "weak": {"max_score": 40}}
    assert plain_names(views) == ("failures", "weak")
    assert plain_names({**views, "broken": {"label": "a["}}) is None
    assert plain_names({f"v{n}": {"last": 1} for n in range(51)}) is None  # past MAX_VIEWS
    assert tuple(read_views(views).views) == plain_names(views)
