"""People's words for times and widths, in the app, the report, the gate and the command line
alike (headless; numbers have their half in `numbers`: counts, scores, means, signed
differences, percentages).

One rule each:

- An absolute time always names its zone: the app shows the reader's own (`local_time`,
  "2026-11-01 10:00 CET"; `clock_time`, "10:42 CET"), what is written down or shared — the
  report, the gate, the command line — shows UTC (`utc_time`, "2026-11-01 09:00 UTC"). A
  date alone (`utc_date`, `day_month`) is a calendar day and names none.
- An age is how long ago, in three lengths: a table's column ("5m ago", `relative_time`),
  a narrow one ("5m", `short_age`), a sentence ("3 hours ago", `long_ago`). A time naive
  of its zone is taken as UTC, as the API sends it.
- A wait ahead is counted up ("1 s" until the very end): `wait_words`.
- Text cut to a width is measured in terminal cells, never characters (a wide character
  takes two, a combining mark none), and the cut is marked with `…`: at the end
  (`end_ellipsis`), in the middle of a token (`middle_ellipsis`), or keeping a label's last
  words (`label_ellipsis`); `fit_cell` cuts or pads to exactly a column's width. Only the
  start of a text that could fit is measured, so a text of megabytes costs what `cells` do.
- A line worded to follow something ("stopped after …", "2 scores … left out") said on its
  own starts a sentence: `capitalised`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, date, datetime

from rich.cells import cell_len, set_cell_size

from screen_analysis.numbers import DASH


def capitalised(text: str) -> str:
    """`text` starting a sentence: its first letter in upper case ("Stopped after …"), as
    a line worded for the middle of one is said on its own."""
    return text[:1].upper() + text[1:]


# Times


def _aware(when: datetime) -> datetime:
    """`when` with a zone: a naive time is taken as UTC (the API's)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def utc_time(when: datetime | None) -> str:
    """A time for what is written down or shared (the report, the gate, the command line),
    to the minute in UTC: "2026-11-01 09:00 UTC"; — when missing."""
    if when is None:
        return DASH
    return _aware(when).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def local_time(when: datetime | None) -> str:
    """A time in the app, to the minute in the reader's zone, named: "2026-11-01 10:00
    CET"; — when missing."""
    if when is None:
        return DASH
    return _aware(when).astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def clock_time(when: datetime, now: datetime, *, zone: bool = True) -> str:
    """A time of today as the clock reads it, in the reader's zone, named: "10:42 CET";
    another day's with its day: "Nov 22 10:42 CET" (`zone=False`: a line short of room
    gives the zone up first, "10:42")."""
    local = _aware(when).astimezone()
    day = "" if _aware(now).astimezone().date() == local.date() else "%b %d "
    return local.strftime(day + ("%H:%M %Z" if zone else "%H:%M")).strip()


def utc_date(when: datetime) -> str:
    """The calendar day of `when` in UTC: "2026-11-01"."""
    return _aware(when).astimezone(UTC).strftime("%Y-%m-%d")


def day_month(day: date) -> str:
    """A day on a chart's axis or in a caption: "03 Nov"."""
    return day.strftime("%d %b")


# Ages


def _seconds_ago(when: datetime, now: datetime) -> float:
    return (now - _aware(when)).total_seconds()


def relative_time(when: datetime | None, now: datetime) -> str:
    """`when` relative to `now`: "just now", "5m ago", "3h ago", "2d ago", else the local
    date (and a time ahead of the clock as a local time)."""
    if when is None:
        return DASH
    seconds = _seconds_ago(when, now)
    if seconds < 0:
        return local_time(when)
    if seconds < 45:
        return "just now"
    if seconds < 3600:
        return f"{round(seconds / 60) or 1}m ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h ago"
    if seconds < 30 * 86400:
        return f"{int(seconds // 86400)}d ago"
    return _aware(when).astimezone().strftime("%Y-%m-%d")


def short_age(when: datetime | None, now: datetime) -> str:
    """How long ago, in at most four cells: "now", "5m", "3h", "2d", "4mo", "2y"."""
    if when is None:
        return DASH
    seconds = _seconds_ago(when, now)
    if seconds < 45:
        return "now"  # also a time ahead of the clock: a skew of the server's clock
    if seconds < 3600:
        return f"{round(seconds / 60) or 1}m"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h"
    days = int(seconds // 86400)
    if days < 30:
        return f"{days}d"
    if days < 365:
        return f"{days // 30}mo"
    return f"{min(days // 365, 99)}y"


def long_ago(when: datetime, now: datetime) -> str:
    """How long ago, in a sentence: "42 s ago", "5 min ago", "3 hours ago", "2 days ago"
    (a time ahead of the clock: "0 s ago")."""
    seconds = max(0, int(_seconds_ago(when, now)))
    if seconds < 90:
        return f"{seconds} s ago"
    if seconds < 5400:
        return f"{seconds // 60} min ago"
    if seconds < 172800:
        return f"{seconds // 3600} hours ago"
    return f"{seconds // 86400} days ago"


def wait_words(seconds: float) -> str:
    """How long until the next try, as every retry says it: "30 s", "2 min" (counted up:
    "1 s" until the very end)."""
    if seconds < 90:
        return f"{math.ceil(seconds):.0f} s"
    return f"{math.ceil(seconds / 60):.0f} min"


# Widths in terminal cells

CHARS_PER_CELL = 4  # a text with more characters than this per cell is cut unmeasured


def _fits(text: str, cells: int) -> bool:
    """Whether `text` fits in `cells` cells, measuring no more of it than could fit: a text
    of megabytes is known not to fit by its length alone."""
    return len(text) <= cells * CHARS_PER_CELL and cell_len(text) <= cells


def end_ellipsis(text: str, cells: int) -> str:
    """`text` in at most `cells` cells, cut at the end with `…` (a name: its start is what
    a reader knows it by). The one cutter of a line to a width: only the start of a text
    that could fit is measured, so any length costs what `cells` do."""
    if _fits(text, cells):
        return text
    if cells <= 1:
        return "…"[:cells]
    head = text[: cells * CHARS_PER_CELL]
    return set_cell_size(head, cells - 1).rstrip() + "…"


def middle_ellipsis(text: str, cells: int) -> str:
    """`text` in at most `cells` cells: a long token (an id, an address) keeps its start
    and its end, the middle cut with `…`, so it is never wrapped mid-token."""
    if _fits(text, cells):
        return text
    if cells <= 1:
        return "…"[:cells]
    keep = cells - 1
    head_cells = (keep + 1) // 2
    head, used = "", 0
    for char in text:
        if used + cell_len(char) > head_cells:
            break
        head += char
        used += cell_len(char)
    tail, used_tail = "", 0
    for char in reversed(text):
        if used + used_tail + cell_len(char) > keep:
            break
        tail = char + tail
        used_tail += cell_len(char)
    return head + "…" + tail


TAIL_SHARE = 0.6  # of a cut label, at most this much is its end ("v4 (tablet)")


def label_ellipsis(text: str, cells: int) -> str:
    """A label in at most `cells` cells, cut so that rows stay told apart: its start (the
    screen's name) and its last words (where a version or a variant is: "v4 (tablet)"),
    the middle cut with `…`, as in "Checkout… v4 (tablet)"; a label without a short
    enough last word is cut in the middle."""
    text = text.strip()
    if cell_len(text) <= cells:
        return text
    keep = cells - 2  # the ellipsis and the space after it
    tail = ""
    for start in (i + 1 for i, char in enumerate(text) if char == " "):
        if not (text[start].isalnum() or text[start] == "("):
            continue  # an end starts with a word ("flights"), not with "— flights"
        if cell_len(text[start:]) <= keep * TAIL_SHARE:
            tail = text[start:]  # the first (the longest) end that fits its share
            break
    head = set_cell_size(text, keep - cell_len(tail)).rstrip(" —-–/,:;")
    if not tail or not head:
        return middle_ellipsis(text, cells)
    return head + "… " + tail


def fit_cell(
    text: str, width: int, *, right: bool = False, cut: Callable[[str, int], str] = end_ellipsis
) -> str:
    """`text` cut (with an ellipsis, at the end unless `cut` says otherwise) or padded to
    exactly `width` terminal cells (`right`: aligned to the right, as numbers are)."""
    text = cut(text, width)
    padding = " " * (width - cell_len(text))
    return padding + text if right else text + padding
