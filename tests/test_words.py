"""People's words (`words`, and the signed half of `numbers`): times with their zone, ages,
waits, and cuts to a width in terminal cells; laws where one exists."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from screen_analysis.gate.evaluate import compared
from screen_analysis.numbers import DASH, format_delta, format_number, format_tenths
from screen_analysis.words import (
    capitalised,
    clock_time,
    day_month,
    end_ellipsis,
    fit_cell,
    label_ellipsis,
    local_time,
    long_ago,
    middle_ellipsis,
    relative_time,
    short_age,
    utc_date,
    utc_time,
    wait_words,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "screen_analysis"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PARIS = timezone(timedelta(hours=1))


@pytest.fixture
def in_paris() -> Iterator[None]:
    """The reader's zone is Paris (CET in November), whatever the machine's."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Europe/Paris"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_what_is_written_down_is_in_utc_and_says_so() -> None:
    assert utc_time(datetime(2026, 11, 1, 10, 30, tzinfo=PARIS)) == "2026-11-01 09:30 UTC"
    assert utc_time(datetime(2026, 11, 1, 9, 30)) == "2026-11-01 09:30 UTC"  # naive: the API's
    assert utc_time(None) == DASH
    assert utc_date(datetime(2026, 11, 2, 0, 30, tzinfo=PARIS)) == "2026-11-01"
    assert day_month(date(2026, 11, 3)) == "03 Nov"


def test_the_app_shows_the_readers_zone_by_name(in_paris: None) -> None:
    assert local_time(datetime(2026, 11, 1, 9, 30, tzinfo=UTC)) == "2026-11-01 10:30 CET"
    assert local_time(None) == DASH
    assert clock_time(NOW - timedelta(hours=1), NOW) == "12:00 CET"
    assert clock_time(NOW - timedelta(days=1), NOW) == "Nov 22 13:00 CET"
    assert clock_time(NOW - timedelta(hours=1), NOW, zone=False) == "12:00"
    assert clock_time(NOW - timedelta(days=1), NOW, zone=False) == "Nov 22 13:00"


@pytest.mark.parametrize(
    ("ago", "relative", "short", "long"),
    [
        (timedelta(seconds=10), "just now", "now", "10 s ago"),
        (timedelta(minutes=5), "5m ago", "5m", "5 min ago"),
        (timedelta(hours=3), "3h ago", "3h", "3 hours ago"),
        (timedelta(days=2), "2d ago", "2d", "2 days ago"),
        (timedelta(days=120), "2026-07-26", "4mo", "120 days ago"),
        (timedelta(days=800), "2024-09-14", "2y", "800 days ago"),
    ],
)
def test_an_age_in_three_lengths(
    ago: timedelta, relative: str, short: str, long: str, in_paris: None
) -> None:
    when = NOW - ago
    assert (relative_time(when, NOW), short_age(when, NOW), long_ago(when, NOW)) == (
        relative,
        short,
        long,
    )


def test_a_time_ahead_of_the_clock_is_no_negative_age(in_paris: None) -> None:
    ahead = NOW + timedelta(minutes=3)
    assert relative_time(ahead, NOW) == "2026-11-23 13:03 CET"
    assert short_age(ahead, NOW) == "now" and long_ago(ahead, NOW) == "0 s ago"
    assert relative_time(None, NOW) == short_age(None, NOW) == DASH


def test_a_line_said_on_its_own_starts_a_sentence() -> None:
    assert capitalised("stopped after 50 empty pages") == "Stopped after 50 empty pages"
    assert capitalised("") == "" and capitalised("2 scores left out") == "2 scores left out"


def test_a_wait_is_counted_up() -> None:
    assert [wait_words(s) for s in (0.2, 29.5, 89, 90, 300)] == [
        "1 s",
        "30 s",
        "89 s",
        "2 min",
        "5 min",
    ]


def test_the_utc_format_is_written_once_in_src() -> None:
    """The issue's five copies of "%Y-%m-%d %H:%M UTC": one place words a time for what is
    written down; a clock time for people elsewhere is a second copy (machine stamps, to
    the second, aside: the JUnit file's, the reference server's)."""
    sources = {path: path.read_text() for path in SRC.rglob("*.py")}
    found = [path.name for path, text in sources.items() if "%Y-%m-%d %H:%M UTC" in text]
    assert found == ["words.py"]
    clocks = [
        path.relative_to(SRC).as_posix()
        for path, text in sources.items()
        if re.search(r"%H:%M(?!:%S)", text) and path.name != "words.py"
    ]
    assert clocks == []


CUTTERS: list[Callable[[str, int], str]] = [end_ellipsis, middle_ellipsis, label_ellipsis]
# Server text as a terminal view gets it (control characters made visible): letters, wide
# characters, combining marks, emoji, spaces and punctuation.
TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8", categories=("L", "N", "P", "Zs", "Mn", "So")),
        st.sampled_from("漢字결済 —-()v4"),
    ),
    max_size=60,
)


@given(text=TEXT, cells=st.integers(min_value=0, max_value=40))
def test_a_cut_never_exceeds_its_width_in_cells(text: str, cells: int) -> None:
    for cut in CUTTERS:
        shown = cut(text, cells)
        assert cell_len(shown) <= cells, (cut.__name__, shown)
        if cell_len(text) <= cells and cut is not label_ellipsis:
            assert shown == text  # what fits is never cut (a label is also stripped)
    assert cell_len(fit_cell(text, cells)) == cells
    assert cell_len(fit_cell(text, cells, right=True, cut=label_ellipsis)) == cells


def test_a_wide_character_is_never_split_by_a_cut() -> None:
    assert end_ellipsis("漢字漢字", 4) == "漢…"
    assert middle_ellipsis("漢字ab漢字", 5) == "漢…字"
    assert fit_cell("漢字漢字", 4, right=True) == " 漢…"


def _read_back(text: str) -> Decimal:
    """A worded number read back: "▼ −1,234.5" is -1234.5."""
    plain = text.replace("▲ ", "").replace("▼ ", "").replace("= ", "").replace("−", "-")
    return Decimal(plain.replace(",", "").replace("+", ""))


FINITE = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
)


@given(delta=FINITE)
def test_a_signed_difference_reads_back_its_sign(delta: float | int | Decimal) -> None:
    shown = format_delta(delta)
    value = _read_back(shown)
    if value == 0:
        assert shown.startswith("= ")  # shown as nothing: no sign to read
    else:
        assert (value > 0) == (delta > 0)
        assert shown.startswith("▲ +" if delta > 0 else "▼ −")


@given(value=st.floats(allow_nan=False, allow_infinity=False))
def test_a_threshold_and_a_judged_value_read_back_their_sign(value: float) -> None:
    for shown in (format_number(value), format_tenths(compared(value))):
        read = _read_back(shown)
        assert "-" not in shown  # a real minus sign, never a hyphen
        assert read == 0 or (read > 0) == (value > 0)
