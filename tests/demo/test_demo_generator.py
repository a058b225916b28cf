"""The seeded generator: deterministic, streaming, realistic and self-consistent."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from datetime import datetime

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.generator import (
    generate_analyses,
    generate_projects,
    parse_timestamp,
    weighted_score,
)
from screen_analysis.demo.vocabulary import CRITERIA, FEEDBACK, PLATFORM_WEIGHTS


def generate(config: DemoConfig) -> tuple[list, list]:  # type: ignore[type-arg]
    rng = random.Random(config.seed)
    projects = generate_projects(config, rng)
    return projects, list(generate_analyses(config, projects, rng))


def test_same_seed_same_data(demo_now: datetime) -> None:
    config = DemoConfig(analyses=500, seed=3, now=demo_now)
    assert generate(config) == generate(config)


def test_other_seed_other_data(demo_now: datetime) -> None:
    first = generate(DemoConfig(analyses=50, seed=3, now=demo_now))
    second = generate(DemoConfig(analyses=50, seed=4, now=demo_now))
    assert [a.id for a in first[1]] != [a.id for a in second[1]]


def test_generation_streams(demo_now: datetime) -> None:
    config = DemoConfig(analyses=10**9, now=demo_now)
    rng = random.Random(config.seed)
    stream = generate_analyses(config, generate_projects(config, rng), rng)
    assert len(list(itertools.islice(stream, 10))) == 10


def test_ids_timestamps_and_order(demo_now: datetime) -> None:
    projects, analyses = generate(DemoConfig(analyses=2000, now=demo_now))
    assert all(re.fullmatch(r"proj_[0-9a-f]{24}", p.id) for p in projects)
    assert all(re.fullmatch(r"ana_[0-9a-f]{24}", a.id) for a in analyses)
    assert len({a.id for a in analyses}) == 2000
    created = [parse_timestamp(a.created_at) for a in analyses]
    assert created == sorted(created, reverse=True)
    assert created[0] <= demo_now and (demo_now - created[-1]).days > 90
    for a in analyses:
        assert a.completed_at is None or a.completed_at > a.created_at


def test_all_statuses_mostly_completed(demo_now: datetime) -> None:
    _, analyses = generate(DemoConfig(analyses=2000, now=demo_now))
    counts = Counter(a.status for a in analyses)
    assert set(counts) == {"pending", "processing", "completed", "failed"}
    assert counts["completed"] > 0.85 * 2000
    assert all(a.error_message for a in analyses if a.status == "failed")


def test_scores_follow_the_weights(demo_now: datetime) -> None:
    projects, analyses = generate(DemoConfig(analyses=1000, now=demo_now))
    weights = {p.id: p.default_criteria or PLATFORM_WEIGHTS for p in projects}
    for a in analyses:
        if a.status == "completed":
            assert a.breakdown is not None and a.score is not None
            assert a.score == weighted_score(a.breakdown, weights[a.project_id])
            assert min(a.breakdown) <= a.score <= max(a.breakdown)


def test_feedback_follows_the_breakdown(demo_now: datetime) -> None:
    _, analyses = generate(DemoConfig(analyses=1000, now=demo_now))
    for a in analyses:
        if a.status != "completed" or a.breakdown is None:
            continue
        ranked = sorted(zip(a.breakdown, CRITERIA, strict=True))
        weakest_low = {name for value, name in ranked[:3] if value < 60}
        criticised = {name for name in CRITERIA if set(a.feedback) & set(FEEDBACK[name]["low"])}
        assert criticised == weakest_low
        praised = {name for name in CRITERIA if set(a.feedback) & set(FEEDBACK[name]["high"])}
        assert all(dict(zip(CRITERIA, a.breakdown, strict=True))[n] >= 85 for n in praised)
        assert a.feedback


def test_labels_look_like_product_screens(demo_now: datetime) -> None:
    _, analyses = generate(DemoConfig(analyses=300, now=demo_now))
    labels = {a.label for a in analyses}
    assert any(" — " in label for label in labels)
    assert any(label.endswith("(dark)") for label in labels)
    assert any(re.search(r" v\d", label) for label in labels)
