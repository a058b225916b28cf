"""Bounded summaries: Space-Saving counts and the top N."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date

from screen_analysis.insight.timeline import TimelineBuilder
from screen_analysis.insight.top_k import SpaceSaving, TopN


def test_space_saving_finds_the_frequent_strings() -> None:
    rng = random.Random(1)
    stream = [f"common {rng.randrange(5)}" for _ in range(5000)]
    stream += [f"rare {n}" for n in range(3000)]
    rng.shuffle(stream)
    counter = SpaceSaving(32)
    for key in stream:
        counter.add(key)
    truth = Counter(stream)
    top = counter.top(5)
    assert {key for key, _ in top} == {f"common {n}" for n in range(5)}
    for key, count in top:
        assert truth[key] <= count <= truth[key] + counter.error(key)
    assert len(counter) == 32 and counter.seen == 8000


def test_top_n_keeps_the_largest() -> None:
    top: TopN[int] = TopN(3, float)
    for value in [5, 1, 9, 7, 3, 9]:
        top.add(value)
    assert top.items() == [9, 9, 7]


def test_timeline_by_day_for_a_month_by_week_beyond() -> None:
    short = TimelineBuilder()
    for day in range(1, 21):
        short.add(date(2026, 10, day), 50)
    assert short.result().unit == "day" and len(short.result().points) == 20
    long = TimelineBuilder()
    for day in range(0, 90, 3):
        long.add(date(2026, 1, 1).fromordinal(date(2026, 1, 1).toordinal() + day), 60)
    timeline = long.result()
    assert timeline.unit == "week"
    assert all(p.start.weekday() == 0 for p in timeline.points)
    assert sum(p.count for p in timeline.points) == 30
