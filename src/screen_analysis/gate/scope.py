"""Which analyses a quality gate judges: a project, a label pattern, a time window, the N
newest — and the words for a time ("2026-11-01", "2026-11-01T09:00Z", "2h", "7d").

Headless; every check here runs before any request is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fnmatch import fnmatchcase

from screen_analysis.api.models import Analysis
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import shorten
from screen_analysis.words import utc_time


class GateInputError(ValueError):
    """What the user asked for cannot be used: one line naming the option and the value."""


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}
QUOTED = 40  # characters of a bad value repeated in an error line


def quoted(value: object) -> str:
    """`value` as an error line repeats it: quoted, cut to a few dozen characters."""
    return repr(shorten(str(value), QUOTED))


def parse_duration(text: str) -> timedelta | None:
    """`2h`, `90m`, `1h30m`, `7d`, `2w`, `45s` as a timedelta; None when `text` is not one."""
    compact = text.strip().lower()
    if not compact or _DURATION.sub("", compact).strip():
        return None
    seconds = sum(float(n) * _UNIT_SECONDS[unit] for n, unit in _DURATION.findall(compact))
    try:
        return timedelta(seconds=seconds)
    except OverflowError:
        return None


def parse_when(text: object, *, now: datetime, option: str) -> datetime:
    """A point in time: an ISO date (midnight UTC) or date-time (UTC when it names no
    zone), or a duration before `now` such as `2h` or `7d`."""
    if isinstance(text, datetime):  # a TOML date-time in a [checks.NAME] table
        return text if text.tzinfo is not None else text.replace(tzinfo=UTC)
    value = str(text).strip()
    ago = parse_duration(value)
    if ago is not None:
        try:
            return now - ago
        except OverflowError:
            raise GateInputError(f"{option}: {quoted(text)} reaches too far back") from None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise GateInputError(
            f"{option}: expected a date (2026-10-01), a date-time (2026-10-01T09:00Z) or a "
            f"duration (2h, 7d), got {quoted(text)}"
        ) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def created_of(item: Analysis) -> datetime | None:
    """When the analysis was created, as an aware time (a naive one is taken as UTC)."""
    created = item.created_at
    if created is not None and created.tzinfo is None:
        return created.replace(tzinfo=UTC)
    return created


@dataclass(frozen=True)
class Window:
    """A span of creation times: from `since` (inclusive) to `until` (exclusive)."""

    since: datetime | None = None
    until: datetime | None = None

    def contains(self, created: datetime | None) -> bool:
        """Whether an analysis created at `created` falls in the window (an unknown time
        falls in no bounded window)."""
        if self.since is None and self.until is None:
            return True
        if created is None:
            return False
        if self.since is not None and created < self.since:
            return False
        return self.until is None or created < self.until

    def describe(self) -> str:
        """ "since 2026-11-01 09:00 UTC until …", or "all time"."""
        parts = []
        if self.since is not None:
            parts.append("since " + utc_time(self.since))
        if self.until is not None:
            parts.append("until " + utc_time(self.until))
        return " ".join(parts) or "all time"


@dataclass(frozen=True)
class Scope:
    """The analyses a gate judges. The project is the listing's filter; the label pattern
    (shell-style, case-sensitive), `since` and `last` (the N newest that match) are applied
    to what the listing returns."""

    project_id: str | None = None
    label: str | None = None
    since: datetime | None = None
    last: int | None = None

    def matches_label(self, item: Analysis) -> bool:
        """Whether the analysis's label matches the pattern (any label without one)."""
        return self.label is None or fnmatchcase(item.label or "", self.label)

    def matches(self, item: Analysis) -> bool:
        """Whether the analysis is in scope before `last` picks the newest."""
        return self.matches_label(item) and Window(self.since).contains(created_of(item))

    def describe(self) -> str:
        """One line: "project proj_1 · label Checkout* · since … · last 50"."""
        parts = [f"project {self.project_id}" if self.project_id else "all projects"]
        if self.label is not None:
            parts.append(f"label {self.label}")
        if self.since is not None:
            parts.append("since " + utc_time(self.since))
        if self.last is not None:
            parts.append(f"last {format_count(self.last)}")
        return " · ".join(parts)
