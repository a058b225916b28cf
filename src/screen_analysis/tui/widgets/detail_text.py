"""The detail pane's text as `Content`, from an analysis: no widgets, no Textual app.

Colours are named by theme variable (`$status-failed`, `$score-good`, …) and resolved when
the text is drawn, so a theme change repaints them. Server text is cleaned here, at the
edge, and never read as markup.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from textual.content import Content

from screen_analysis.api.models import CRITERIA, Analysis, AnalysisItem, AnalysisStatus
from screen_analysis.numbers import format_weights
from screen_analysis.safe_text import clean
from screen_analysis.tui.formatting import (
    DASH,
    format_score,
    local_time,
    status_class,
    status_glyph,
    status_word,
)
from screen_analysis.tui.project_book import KnownProject
from screen_analysis.tui.widgets.score_bar import bar_cells, score_tier

NAME_CELLS = 18  # the longest title, "CTA effectiveness", and a space
VALUE_CELLS = 5
WEIGHT_CELLS = 7  # " w 0.15"
MIN_BAR_CELLS = 3  # narrower than this, the line shows the numbers only

SECTION = "bold $foreground-muted"
MUTED = "$foreground-muted"
TIER_STYLE = {
    "-high": "$score-good",
    "-mid": "$score-fair",
    "-low": "$score-poor",
    "-out-of-range": "$status-unknown",
    "-none": "$score-bar-fill",
}
NL = Content("\n")


def weights_note(known: KnownProject | None) -> str:
    """Where the weights come from, in a line."""
    if known is None or known.state == "loading":
        return "Weights: loading project…"
    if known.project is None:
        return "Weights: unknown (project not available)"
    if known.project.default_criteria is None:
        return "Weights: platform defaults"
    return "Weights: the project's default criteria"


def number(value: object) -> float | None:
    """A score or weight as a float; None for anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer beyond 1e308: still shown as beyond any scale
        return float("inf") if value > 0 else float("-inf")


def status_text(item: Analysis) -> str:
    """Glyph, word and score (or why there is none)."""
    status = f"{status_glyph(item.status)} {status_word(item.status)}"
    if item.score is not None:
        return f"{status} · score {format_score(item.score)}"
    waiting = item.known_status in (AnalysisStatus.PENDING, AnalysisStatus.PROCESSING)
    return f"{status} · not scored yet" if waiting else f"{status} · no score"


def head(item: AnalysisItem | None) -> Content:
    """Label and status, or why there is nothing to show."""
    if not isinstance(item, Analysis):
        message = "No analysis selected."
        if item is not None:
            message = "This row could not be read: " + clean(item.reason)
        return Content.styled(message, f"italic {MUTED}")
    label = Content.styled(clean(item.label) or "(no label)", "bold $foreground")
    status = Content.styled(status_text(item), f"$status-{status_class(item.status)}")
    return Content.assemble(label, NL, status)


def criterion_line(
    title: str, value: object, weight: str | None, width: int, *, weights: bool = True
) -> Content:
    """Name, bar, the value as sent (bar clamped to 0–100) and, with `weights`, the weight
    (already formatted for its column); one line of `width` cells (the bar takes what the
    rest leaves)."""
    score = number(value)
    fixed = NAME_CELLS + VALUE_CELLS + (WEIGHT_CELLS if weights else 0)
    room = width - fixed
    filled, empty = bar_cells(score, room if room >= MIN_BAR_CELLS else 0)
    shown = DASH if score is None else format_score(score)
    parts = [
        Content(title[: NAME_CELLS - 1].ljust(NAME_CELLS)),
        Content.styled(filled, TIER_STYLE[score_tier(score)]),
        Content.styled(empty, "$score-bar-empty"),
        Content(shown.rjust(VALUE_CELLS)),
    ]
    if weights:
        text = "" if not weight else f"w {weight}"
        parts.append(Content.styled(text.rjust(WEIGHT_CELLS), MUTED))
    return Content.assemble(*parts)


def criteria_lines(
    breakdown: Mapping[str, object],
    weights: Mapping[str, object],
    width: int,
    *,
    show_weights: bool = True,
) -> Iterator[Content]:
    """One line per documented criterion, the weights with the same decimals down the
    column ("0.15", "0.20")."""
    values = [number(weights.get(criterion.value)) for criterion in CRITERIA]
    shown = format_weights(values)
    for criterion, value, text in zip(CRITERIA, values, shown, strict=True):
        yield criterion_line(
            criterion.title,
            breakdown.get(criterion.value),
            None if value is None else text,
            width,
            weights=show_weights,
        )


def body(
    item: AnalysisItem | None, known: KnownProject | None, image_address: str, width: int
) -> Content:
    """Scores, feedback, error and details, in sections; `width` sizes the bars."""
    if not isinstance(item, Analysis):
        if item is None or item.id is None:
            return Content("")
        return _join([*_section("Details"), Content("ID  " + clean(item.id))])
    lines: list[Content] = []
    if item.breakdown is not None or item.known_status is AnalysisStatus.COMPLETED:
        lines += _scores(item, known, width)
    feedback = [clean(line) for line in item.feedback or [] if clean(line)]
    if feedback:
        lines += [*_section("Feedback"), *(Content(f"• {line}") for line in feedback)]
    if item.error_message:
        error = clean(item.error_message, single_line=False)
        lines += [*_section("Error"), Content.styled(error, "$status-failed")]
    lines += [*_section("Details"), Content(_details(item, known, image_address))]
    return _join(lines)


def _scores(item: Analysis, known: KnownProject | None, width: int) -> list[Content]:
    breakdown: Mapping[str, object] = item.breakdown or {}
    weights: Mapping[str, object] = {}
    if known is not None and known.project is not None:
        weights = known.project.default_criteria or {}
    documented = {c.value for c in CRITERIA}
    extra = [
        Content(f"{clean(key)}: {format_score(number(value))}")
        for key, value in breakdown.items()
        if key not in documented
    ]
    return [
        *_section("Scores"),
        Content(weights_note(known)),
        *criteria_lines(breakdown, weights, width),
        *extra,
    ]


def _details(item: Analysis, known: KnownProject | None, image_address: str) -> str:
    project = clean(item.project_id) or DASH
    if known is not None and known.project is not None:
        project = f"{clean(known.project.name)} ({project})"
    return "\n".join(
        [
            f"Created    {local_time(item.created_at)}",
            f"Completed  {local_time(item.completed_at)}",
            f"Image      {clean(image_address) or DASH}",
            f"ID         {clean(item.id) or DASH}",
            f"Project    {project}",
        ]
    )


def _section(title: str) -> list[Content]:
    return [Content(""), Content.styled(title, SECTION)]


def _join(lines: list[Content]) -> Content:
    return NL.join(lines)
