"""Which points of the score over time the data covers only in part."""

from __future__ import annotations

from datetime import UTC, date, datetime

from screen_analysis.insight.timeline import TimelineBuilder


def weekly(days: list[date]) -> TimelineBuilder:
    builder = TimelineBuilder()
    for day in days:
        builder.add(day, 70.0)
    return builder


def test_the_first_and_an_unfinished_last_week_are_partial() -> None:
    # Wednesday 2 September to Wednesday 28 October 2026: weeks (Mondays) 31 Aug … 26 Oct.
    days = [date(2026, 9, 2), date(2026, 9, 20), date(2026, 10, 10), date(2026, 10, 28)]
    timeline = weekly(days).result()
    assert timeline.unit == "week" and timeline.points[0].start == date(2026, 8, 31)
    first = datetime(2026, 9, 2, 8, 0, tzinfo=UTC)
    flags = timeline.partial(first, now=datetime(2026, 10, 28, 18, 0, tzinfo=UTC))
    assert flags[0] and flags[-1] and not any(flags[1:-1])
    # The same data read after the last week is over, from its first Monday: nothing partial.
    whole = timeline.partial(
        datetime(2026, 8, 31, tzinfo=UTC), now=datetime(2026, 11, 2, tzinfo=UTC)
    )
    assert not any(whole)


def test_a_day_is_partial_only_while_it_lasts() -> None:
    timeline = weekly([date(2026, 10, 30), date(2026, 10, 31)]).result()
    assert timeline.unit == "day"
    assert timeline.partial(None, now=datetime(2026, 10, 31, 12, tzinfo=UTC)) == (False, True)
    assert timeline.partial(None, now=datetime(2026, 11, 1, tzinfo=UTC)) == (False, False)
