"""Two analyses side by side: the overall score and each criterion with the difference, and
the feedback sentences only in A, only in B, and in both."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from screen_analysis.api.models import CRITERIA, Analysis, Criterion
from screen_analysis.insight.aggregates import NOT_FINITE, finite_number
from screen_analysis.numbers import format_delta as format_delta
from screen_analysis.numbers import left_out


@dataclass(frozen=True)
class ScoreDiff:
    """One score in A and B, and B − A when both are numbers."""

    name: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | Decimal | None:
        """B − A, exactly (a Decimal when it is beyond a float: 1e308 − −1e308), or None
        when either is missing."""
        if self.a is None or self.b is None:
            return None
        difference = self.b - self.a
        if isinstance(difference, int) or math.isfinite(difference):
            return difference
        return Decimal(self.b) - Decimal(self.a)


@dataclass(frozen=True)
class Comparison:
    """What the compare screen shows."""

    a: Analysis
    b: Analysis
    overall: ScoreDiff
    criteria: tuple[ScoreDiff, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    both: tuple[str, ...]
    not_finite: int = 0  # scores of A and B (overall and criteria) left out: not finite

    def left_out(self) -> str:
        """What the table leaves out, in the one wording ("" when nothing)."""
        return left_out([(self.not_finite, NOT_FINITE)])


def _criterion(item: Analysis, criterion: Criterion) -> float | None:
    return finite_number((item.breakdown or {}).get(criterion.value))


def _sentences(item: Analysis) -> list[str]:
    """Feedback sentences with whitespace folded, in order, each once."""
    seen: dict[str, None] = {}
    for sentence in item.feedback or ():
        text = " ".join(sentence.split())
        if text:
            seen.setdefault(text, None)
    return list(seen)


def _not_finite(item: Analysis) -> int:
    """How many of `item`'s scores (overall and criteria) are there but cannot be added up."""
    values = [item.score, *((item.breakdown or {}).get(c.value) for c in CRITERIA)]
    return sum(1 for value in values if value is not None and finite_number(value) is None)


def compare(a: Analysis, b: Analysis) -> Comparison:
    """Compare `a` (the marked analysis) with `b`."""
    in_a, in_b = _sentences(a), _sentences(b)
    set_a, set_b = set(in_a), set(in_b)
    return Comparison(
        a=a,
        b=b,
        overall=ScoreDiff("Overall", finite_number(a.score), finite_number(b.score)),
        criteria=tuple(
            ScoreDiff(criterion.title, _criterion(a, criterion), _criterion(b, criterion))
            for criterion in CRITERIA
        ),
        only_a=tuple(s for s in in_a if s not in set_b),
        only_b=tuple(s for s in in_b if s not in set_a),
        both=tuple(s for s in in_a if s in set_b),
        not_finite=_not_finite(a) + _not_finite(b),
    )
