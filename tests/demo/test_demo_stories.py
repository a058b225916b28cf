"""The demo projects tell stories: one improves, one declines, one has a burst of failures,
each is weakest on its own criterion, and the redesigned screens come in versions."""

from __future__ import annotations

import random
import re
import statistics
from datetime import datetime

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.generator import (
    AnalysisRow,
    generate_analyses,
    generate_projects,
    parse_timestamp,
)
from screen_analysis.demo.stories import STORIES
from screen_analysis.demo.vocabulary import CRITERIA


def rows(now: datetime, analyses: int = 5000) -> tuple[list[str], list[AnalysisRow]]:
    config = DemoConfig(analyses=analyses, now=now)
    rng = random.Random(config.seed)
    projects = generate_projects(config, rng)
    return [p.id for p in projects], list(generate_analyses(config, projects, rng))


def age_days(row: AnalysisRow, now: datetime) -> float:
    return (now - parse_timestamp(row.created_at)).total_seconds() / 86400


def mean_score(items: list[AnalysisRow]) -> float:
    return statistics.mean(a.score for a in items if a.score is not None)


def test_one_project_improves_and_one_declines(demo_now: datetime) -> None:
    ids, analyses = rows(demo_now)
    for index, better in ((0, True), (1, False)):
        mine = [a for a in analyses if a.project_id == ids[index] and a.status == "completed"]
        recent = mean_score([a for a in mine if age_days(a, demo_now) < 14])
        before = mean_score([a for a in mine if age_days(a, demo_now) > 70])
        assert (recent - before > 12) if better else (before - recent > 12)


def test_burst_of_failures(demo_now: datetime) -> None:
    ids, analyses = rows(demo_now)
    mine = [a for a in analyses if a.project_id == ids[2] and 9 <= age_days(a, demo_now) < 12]
    failed = [a for a in mine if a.status == "failed"]
    assert len(failed) > 0.4 * len(mine)
    overall = [a for a in analyses if a.status != "pending" and a.status != "processing"]
    assert sum(a.status == "failed" for a in overall) < 0.1 * len(overall)


def test_each_project_is_weakest_on_its_own_criterion(demo_now: datetime) -> None:
    ids, analyses = rows(demo_now)
    for index, project_id in enumerate(ids):
        mine = [a.breakdown for a in analyses if a.project_id == project_id and a.breakdown]
        means = {name: statistics.mean(b[i] for b in mine) for i, name in enumerate(CRITERIA)}
        assert min(means, key=means.__getitem__) == STORIES[index].weak


def test_redesigned_screens_come_in_versions(demo_now: datetime) -> None:
    ids, analyses = rows(demo_now)
    checkout = {a.label for a in analyses if a.project_id == ids[0]}
    versions = {m.group(1) for label in checkout if (m := re.search(r"payment step v(\d)", label))}
    assert versions == {"1", "2", "3", "4"}
