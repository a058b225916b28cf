"""Two analyses side by side: the overall score and each criterion with the difference, and
the feedback sentences only in A, only in B, and in both."""

from __future__ import annotations

from dataclasses import dataclass

from screen_analysis.api.models import CRITERIA, Analysis, Criterion
from screen_analysis.insight.aggregates import finite_number

MINUS = "−"  # U+2212: a real minus sign, as wide as the plus


@dataclass(frozen=True)
class ScoreDiff:
    """One score in A and B, and B − A when both are numbers."""

    name: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        """B − A, or None when either is missing."""
        if self.a is None or self.b is None:
            return None
        return self.b - self.a


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
    )


def format_delta(delta: float | None) -> str:
    """ "▲ +12", "▼ −5", "= 0", or "—" when a side is missing: readable without colour."""
    if delta is None:
        return "—"
    text = f"{abs(delta):.0f}" if float(delta).is_integer() else f"{abs(delta):.1f}"
    if text in {"0", "0.0"}:
        return "= 0"
    return f"▲ +{text}" if delta > 0 else f"▼ {MINUS}{text}"
