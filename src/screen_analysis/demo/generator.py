"""Deterministic, streaming generator of demo projects and analyses.

Everything is drawn from one `random.Random(seed)` in a fixed order, so a seed and a `now`
always give the same data. Analyses are yielded newest first, one at a time, so a million
of them can be written in batches without holding them in memory.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.stories import (
    DAY_S,
    Story,
    draw_error,
    draw_story_breakdown,
    failure_rate,
    screen_version,
    story_for,
)
from screen_analysis.demo.vocabulary import (
    CRITERIA,
    FEEDBACK,
    IMAGE_HOST,
    NEUTRAL_FEEDBACK,
    PLATFORM_WEIGHTS,
    PRODUCTS,
    SCREEN_VARIANTS,
)

SPAN_S = 180 * 86400  # settled analyses are spread over about six months before `now`
FAILURE_RATE = 0.06
LOW_BELOW = 60
HIGH_FROM = 85


class ProjectRow(NamedTuple):
    """A project as stored; counts and averages are computed by the store."""

    id: str
    name: str
    description: str | None
    default_criteria: dict[str, float] | None
    slug: str
    created_at: str
    updated_at: str


class AnalysisRow(NamedTuple):
    """An analysis as stored; `breakdown` follows the order of `CRITERIA`."""

    id: str
    project_id: str
    status: str
    image_url: str
    label: str
    score: int | None
    breakdown: tuple[int, ...] | None
    feedback: tuple[str, ...]
    error_message: str | None
    created_at: str
    completed_at: str | None


class Outcome(NamedTuple):
    """The result of a completed analysis."""

    score: int
    breakdown: tuple[int, ...]
    feedback: tuple[str, ...]


def format_timestamp(epoch_s: float) -> str:
    """ISO 8601 UTC with a `Z`, whole seconds: fixed width, so text order is time order."""
    return datetime.fromtimestamp(int(epoch_s), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_timestamp(text: str) -> datetime:
    """Inverse of `format_timestamp`."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def new_id(rng: random.Random, prefix: str) -> str:
    """`prefix` followed by 24 lowercase hex digits."""
    return f"{prefix}{rng.getrandbits(96):024x}"


def weighted_score(breakdown: Sequence[int], weights: Mapping[str, float]) -> int:
    """Overall score: the weighted mean of the breakdown, rounded half up."""
    total = sum(weights[name] for name in CRITERIA)
    mean = sum(weights[name] * value for name, value in zip(CRITERIA, breakdown, strict=True))
    return int(mean / total + 0.5)


def draw_breakdown(rng: random.Random) -> tuple[int, ...]:
    """Five correlated criterion scores: a screen that is good tends to be good overall."""
    quality = rng.gauss(74.0, 11.0)
    return tuple(min(100, max(0, int(quality + rng.gauss(0.0, 10.0) + 0.5))) for _ in CRITERIA)


def draw_feedback(rng: random.Random, breakdown: Sequence[int]) -> tuple[str, ...]:
    """Sentences that follow the breakdown: the weakest criteria first, then one strength."""
    ranked = sorted(zip(breakdown, CRITERIA, strict=True))
    low = [rng.choice(FEEDBACK[name]["low"]) for value, name in ranked if value < LOW_BELOW]
    high = [rng.choice(FEEDBACK[name]["high"]) for value, name in ranked if value >= HIGH_FROM]
    sentences = low[:3] + high[-1:]
    return tuple(sentences) if sentences else (rng.choice(NEUTRAL_FEEDBACK),)


def draw_outcome(
    rng: random.Random,
    weights: Mapping[str, float] | None,
    story: Story | None = None,
    age_days: float = 0.0,
) -> Outcome:
    """Breakdown (following the project's story when given), overall score (project weights
    or platform defaults) and feedback."""
    breakdown = draw_breakdown(rng) if story is None else draw_story_breakdown(rng, story, age_days)
    score = weighted_score(breakdown, weights or PLATFORM_WEIGHTS)
    return Outcome(score, breakdown, draw_feedback(rng, breakdown))


def draw_label(rng: random.Random, screens: Sequence[str], version: int | None = None) -> str:
    """A label like a real product screen: "Checkout — payment step v3 (dark)".

    With `version` (a redesigned product) every label carries it; otherwise some carry a
    random one.
    """
    label = rng.choice(screens)
    if version is not None:
        label += f" v{version}"
    elif rng.random() < 0.35:
        label += f" v{rng.randint(2, 6)}"
    return label + rng.choice(SCREEN_VARIANTS)


def draw_image_url(slug: str, analysis_id: str) -> str:
    """Address of the analysed image."""
    return f"{IMAGE_HOST}/{slug}/{analysis_id[4:16]}.png"


def generate_projects(config: DemoConfig, rng: random.Random) -> list[ProjectRow]:
    """`config.projects` projects, cycling through the product names and their stories."""
    now = config.now.timestamp()
    projects = []
    for index in range(config.projects):
        product = PRODUCTS[index % len(PRODUCTS)]
        round_ = index // len(PRODUCTS)
        suffix = f" {round_ + 1}" if round_ else ""
        created = now - SPAN_S * 1.5 - rng.uniform(0, 120 * 86400)
        updated = now - rng.uniform(0, 20 * 86400)
        description = product.description if rng.random() < 0.8 else None
        projects.append(
            ProjectRow(
                id=new_id(rng, "proj_"),
                name=product.name + suffix,
                description=description,
                default_criteria=_criteria(story_for(index)),
                slug=product.slug + suffix.replace(" ", "-"),
                created_at=format_timestamp(created),
                updated_at=format_timestamp(updated),
            )
        )
    return projects


def _criteria(story: Story) -> dict[str, float] | None:
    return None if story.weights is None else dict(story.weights)


def in_flight_counts(total: int) -> tuple[int, int]:
    """How many of the newest analyses are pending and processing."""
    each = min(12, max(1, total // 100))
    pending = min(total, each)
    return pending, min(total - pending, each)


def generate_analyses(
    config: DemoConfig, projects: Sequence[ProjectRow], rng: random.Random
) -> Iterator[AnalysisRow]:
    """Yield `config.analyses` analyses, newest first; the newest are still in flight."""
    pending, processing = in_flight_counts(config.analyses)
    sizes = [rng.uniform(0.3, 1.0) for _ in projects]
    cumulative = list(itertools.accumulate(sizes))
    indexes = range(len(projects))
    mean_gap = SPAN_S / max(1, config.analyses)
    t = config.now.timestamp()
    for index in range(config.analyses):
        in_flight = index < pending + processing
        t -= rng.uniform(2.0, 20.0) if in_flight else rng.expovariate(1.0 / mean_gap)
        project_index = rng.choices(indexes, cum_weights=cumulative)[0]
        project = projects[project_index]
        story = story_for(project_index)
        age_days = (config.now.timestamp() - t) / DAY_S
        analysis_id = new_id(rng, "ana_")
        screens = PRODUCTS[project_index % len(PRODUCTS)].screens
        label = draw_label(rng, screens, screen_version(story, age_days))
        base = (analysis_id, project.id)
        url = draw_image_url(project.slug, analysis_id)
        created = format_timestamp(t)
        if in_flight:
            status = "pending" if index < pending else "processing"
            yield AnalysisRow(*base, status, url, label, None, None, (), None, created, None)
        elif rng.random() < failure_rate(story, age_days, FAILURE_RATE):
            done = format_timestamp(t + rng.uniform(1.0, 30.0))
            error = draw_error(rng, story, age_days)
            yield AnalysisRow(*base, "failed", url, label, None, None, (), error, created, done)
        else:
            done = format_timestamp(t + rng.uniform(3.0, 45.0))
            outcome = draw_outcome(rng, project.default_criteria, story, age_days)
            yield AnalysisRow(
                *base,
                "completed",
                url,
                label,
                outcome.score,
                outcome.breakdown,
                outcome.feedback,
                None,
                created,
                done,
            )
