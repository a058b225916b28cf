"""Server text made safe to show: every control character visible (never run, never
dropped), whitespace folded on one line, messages cut at their length with an ellipsis, and
long runs of a typed value cut in an error line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from screen_analysis.safe_text import (
    MESSAGE_LIMIT,
    QUOTE_LIMIT,
    clean,
    is_blank,
    one_line,
    shorten,
    shorten_runs,
)

CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[31mred", "␛[31mred"),  # ESC: its control picture, so no colour is set
        ("a\x00b", "a␀b"),  # the first C0 code
        ("a\x07b\x08c", "a␇b␈c"),
        ("a\x0bb\x0cc", "a␋b␌c"),  # vertical tab and form feed are shown, not folded
        ("a\x1fb", "a␟b"),  # the last C0 code
        ("a\x7fb", "a␡b"),  # DEL
        ("a\x80b\x9bc\x9fd", "a�b�c�d"),  # C1 codes, the CSI among them
        ("a\u202eb\u202ac", "a�b�c"),  # bidi overrides, which reorder what follows
        ("a\u2066b\u2069c", "a�b�c"),  # bidi isolates
        ("a b~é\u00a0€", "a b~é €"),  # printable text is left as it is
    ],
)
def test_control_characters_are_made_visible(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_whitespace_folds_to_one_space_on_one_line_and_stays_on_many() -> None:
    assert clean("  two\n\nlines\tand  a tab \n") == "two lines and a tab"
    assert clean("typed\rover") == "typed␍over"  # a carriage return cannot rewrite a line
    assert clean("two\nlines\tkept", single_line=False) == "two\nlines\tkept"
    assert clean("  edges kept  ", single_line=False) == "  edges kept  "


def test_anything_is_shown_as_text_and_nothing_as_nothing() -> None:
    assert clean(None) == "" and clean(42) == "42" and clean(b"\x1b") == "b'\\x1b'"


def test_a_message_is_cut_at_its_limit_with_an_ellipsis() -> None:
    assert one_line("x" * MESSAGE_LIMIT) == "x" * MESSAGE_LIMIT  # met exactly: whole
    cut = one_line("x" * (MESSAGE_LIMIT + 1))
    assert cut == "x" * (MESSAGE_LIMIT - 1) + "…" and len(cut) == MESSAGE_LIMIT
    assert one_line("abc   defgh", limit=5) == "abc…"  # no space left before the ellipsis
    assert one_line("line\none\x1b", limit=10) == "line one␛"


@pytest.mark.parametrize(
    ("text", "blank"),
    [
        ("", True),
        (" \n\t", True),
        ("\x1b\x07 \u202e", True),  # controls and spaces: no message
        ("\x1bx", False),
        (".", False),
    ],
)
def test_a_body_of_spaces_and_controls_is_blank(text: str, blank: bool) -> None:
    assert is_blank(text) is blank


def test_shorten_cuts_at_the_limit_with_an_ellipsis() -> None:
    assert shorten("x" * QUOTE_LIMIT) == "x" * QUOTE_LIMIT
    assert shorten("x" * (QUOTE_LIMIT + 1)) == "x" * (QUOTE_LIMIT - 1) + "…"
    assert shorten("abcdef", limit=4) == "abc…"


def test_long_runs_in_an_error_line_are_cut_and_the_rest_kept() -> None:
    long = "a" * 200
    line = f"no project 'proj_{long}' at https://host/{long}?q={long}&x=1, try 'proj_1'."
    shown = shorten_runs(line, limit=10)
    assert shown == (
        "no project 'proj_aa…' at https://host/aaaaaaaaa…?q=aaaaaaaaa…&x=1, try 'proj_1'."
    )
    assert shorten_runs("x" * 10, limit=10) == "x" * 10  # met exactly: whole
    assert shorten_runs('"' + "y" * 20 + '".', limit=10) == '"yyyyyy…".'  # closing kept
    assert shorten_runs("y" * 20 + '".);', limit=10) == "yyyyyy….);"  # three at most


@given(st.text())
def test_no_control_character_survives_clean(text: str) -> None:
    shown = clean(text)
    assert not CONTROLS.search(shown) and "\n" not in shown and shown == shown.strip()
    assert not CONTROLS.search(clean(text, single_line=False))


@given(st.text(), st.integers(min_value=2, max_value=400))
def test_a_message_never_exceeds_its_limit(text: str, limit: int) -> None:
    assert len(one_line(text, limit)) <= limit
    assert len(shorten(text, limit)) <= limit


@given(st.text(alphabet=st.sampled_from("ab /?&=:,'\".;) "), max_size=300))
def test_no_run_is_longer_than_the_limit_after_shorten_runs(text: str) -> None:
    for run in re.findall(r"[^\s/?&=:,]+", shorten_runs(text, limit=12)):
        assert len(run) <= 12


def test_a_limit_cuts_first_and_says_so() -> None:
    assert clean("abcdef", limit=3) == "abc…"
    assert clean("abc", limit=3) == "abc"  # met exactly: whole, no ellipsis
    assert clean("abcd", limit=None) == "abcd"
    assert clean("\x1b" * 10, limit=2) == "␛␛…"  # cut before the controls are made visible
    assert clean("a  \n b", limit=3) == "a…"  # and before whitespace folds
    assert clean("a\nb", single_line=False, limit=2) == "a\n…"
