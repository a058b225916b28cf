"""What happens to each demo project over time, so an overview has something to tell.

One product improves over the eight weeks since its redesign (its screens move from v1 to
v4), one declines, one has a burst of failures, and each holds back on a different
criterion with weights of its own. Everything here is a pure function of the story, the
age of an analysis and the generator's random stream, so the data stays deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import NamedTuple

from screen_analysis.demo.vocabulary import CRITERIA, ERROR_MESSAGES

DAY_S = 86400.0
REDESIGN_DAYS = 56.0  # eight weeks
DECLINE_DAYS = 70.0
BURST_DAYS = (9.0, 12.0)  # the window, in days before `now`, of the burst of failures
BURST_FAILURE_RATE = 0.6
WEAK_PENALTY = 13.0
NOISE = 8.0


class Story(NamedTuple):
    """How one project's scores move: a trend, its weakest criterion and its weights."""

    trend: str  # "steady", "improving", "declining" or "failures"
    weak: str  # the criterion this project scores lowest on
    weights: Mapping[str, float] | None  # default_criteria; None: platform defaults


def _weights(*twentieths: int) -> dict[str, float]:
    """Weights in steps of 0.05 that sum to exactly 1.0."""
    assert sum(twentieths) == 20 and len(twentieths) == len(CRITERIA)
    return {name: part / 20 for name, part in zip(CRITERIA, twentieths, strict=True)}


# One story per product of `PRODUCTS`, in the same order.
STORIES: tuple[Story, ...] = (
    Story("improving", "cta_effectiveness", _weights(3, 3, 4, 7, 3)),
    Story("declining", "color_contrast", None),
    Story("failures", "visual_hierarchy", _weights(4, 6, 4, 3, 3)),
    Story("steady", "brand_consistency", _weights(4, 4, 3, 3, 6)),
    Story("steady", "visual_clarity", None),
    Story("steady", "color_contrast", _weights(5, 4, 5, 4, 2)),
    Story("steady", "cta_effectiveness", _weights(3, 4, 4, 6, 3)),
    Story("steady", "visual_hierarchy", None),
    Story("steady", "brand_consistency", _weights(4, 4, 4, 4, 4)),
    Story("steady", "visual_clarity", _weights(6, 4, 3, 3, 4)),
)


def story_for(project_index: int) -> Story:
    """The story of the project at `project_index` (products repeat, and so do stories)."""
    return STORIES[project_index % len(STORIES)]


def mean_quality(story: Story, age_days: float) -> float:
    """The typical score of the project's screens `age_days` before `now`."""
    if story.trend == "improving":
        if age_days >= REDESIGN_DAYS:
            return 60.0
        return 60.0 + 27.0 * (1.0 - age_days / REDESIGN_DAYS)
    if story.trend == "declining":
        if age_days >= DECLINE_DAYS:
            return 82.0
        return 82.0 - 24.0 * (1.0 - age_days / DECLINE_DAYS)
    return 75.0


def draw_story_breakdown(rng: random.Random, story: Story, age_days: float) -> tuple[int, ...]:
    """Five correlated criterion scores around the story's quality, the weak one lower."""
    quality = rng.gauss(mean_quality(story, age_days), 6.0)
    values = []
    for name in CRITERIA:
        bias = -WEAK_PENALTY if name == story.weak else 3.0
        values.append(min(100, max(0, int(quality + bias + rng.gauss(0.0, NOISE) + 0.5))))
    return tuple(values)


def failure_rate(story: Story, age_days: float, base_rate: float) -> float:
    """How likely an analysis of this project fails at that age."""
    if story.trend == "failures" and BURST_DAYS[0] <= age_days < BURST_DAYS[1]:
        return BURST_FAILURE_RATE
    return base_rate


def draw_error(rng: random.Random, story: Story, age_days: float) -> str:
    """A failure reason; the burst is mostly one cause, as real incidents are."""
    in_burst = story.trend == "failures" and BURST_DAYS[0] <= age_days < BURST_DAYS[1]
    if in_burst and rng.random() < 0.8:
        return "Timed out fetching image"
    return rng.choice(ERROR_MESSAGES)


def screen_version(story: Story, age_days: float) -> int | None:
    """The version of the redesigned screens at that age (1 before, 4 at the end), or None."""
    if story.trend != "improving":
        return None
    if age_days >= REDESIGN_DAYS:
        return 1
    if age_days >= 35.0:
        return 2
    if age_days >= 14.0:
        return 3
    return 4
