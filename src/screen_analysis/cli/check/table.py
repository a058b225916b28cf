"""The gate's result for people: a heading, the scope, one row per assertion with value,
threshold and verdict, and under a failed one why and the lowest analyses by label.

Fits one 80×24 screen for a handful of assertions. Server text (labels, ids, error
messages) goes through `safe_text.clean`: control sequences show as symbols, never act.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

from screen_analysis.gate import GateResult, Offender, Verdict, WaitState, format_number
from screen_analysis.gate.measure import Scores
from screen_analysis.numbers import count_of, format_count
from screen_analysis.safe_text import clean

WORST_SHOWN = 3
VERDICT_WIDTH = 8
VALUE_WIDTH = 10
THRESHOLD_WIDTH = 11
NAME_WIDTH = 34


def fit(text: str, width: int) -> str:
    """`text` cut (with an ellipsis) or padded to exactly `width` cells."""
    if width <= 0:
        return ""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def verdict_word(verdict: Verdict) -> str:
    """ "✓ pass" or "✗ FAIL": readable without colour."""
    return "✓ pass" if verdict.passed else "✗ FAIL"


def heading(result: GateResult) -> str:
    """ "check release: 2 of 6 assertions failed" or "…: all 6 assertions hold"."""
    name = f"check {clean(result.name)}" if result.name else "check"
    total = len(result.verdicts)
    failed = len(result.failures)
    if failed:
        return f"{name}: {failed} of {total} assertions failed"
    return f"{name}: all {total} assertions hold" if total > 1 else f"{name}: the assertion holds"


def counts_line(scores: Scores) -> str:
    """ "142 analyses: 130 completed, 8 failed, 3 pending, 1 processing"."""
    parts = [f"{format_count(scores.completed)} completed", f"{format_count(scores.failed)} failed"]
    if scores.pending:
        parts.append(f"{format_count(scores.pending)} pending")
    if scores.processing:
        parts.append(f"{format_count(scores.processing)} processing")
    return f"{analyses(scores.analyses)} in scope: " + ", ".join(parts)


def offender_text(offender: Offender) -> str:
    """ "31  Checkout — payment step v4  ana_…" (a failure: its error message)."""
    value = format_number(offender.value) if offender.value is not None else "failed"
    note = f" — {clean(offender.note)}" if offender.note else ""
    label = clean(offender.label) or "(no label)"
    return f"{value}  {label}{note}  {clean(offender.id)}"


def worst_shown(result: GateResult, height: int) -> int:
    """How many analyses to name under each failed assertion so the whole explanation
    fits `height` lines (one at least, three at most)."""
    failed = len(result.failures)
    if not failed:
        return 0
    unmeasured = sum(1 for verdict in result.failures if verdict.value is None)
    fixed = 5 + len(result.verdicts) + len(result.notes) + (result.baseline is not None)
    per_failure = (height - 1 - fixed - unmeasured) // failed  # a line kept for the prompt
    return max(1, min(WORST_SHOWN, per_failure))


def render_table(result: GateResult, width: int = 100, height: int = 24) -> str:
    """The whole explanation, lines ending in newlines; it fits `width` × `height` unless
    many assertions fail (each still names one analysis)."""
    width = max(width, 60)
    shown = worst_shown(result, height)
    lines = [heading(result), "Scope: " + clean(result.spec.scope.describe())]
    lines.append(counts_line(result.measured.scores))
    if result.baseline is not None:
        source = clean(result.baseline_source or "")
        lines.append(f"Baseline: {source} (mean score {_mean(result.baseline.mean_score)})")
    lines.append("")
    name_width = min(NAME_WIDTH, width - 2 - VERDICT_WIDTH - VALUE_WIDTH - THRESHOLD_WIDTH - 3)
    columns = (VERDICT_WIDTH, name_width, VALUE_WIDTH, THRESHOLD_WIDTH)
    lines.append(_row(("VERDICT", "ASSERTION", "VALUE", "THRESHOLD"), columns, width))
    indent = " " * (2 + VERDICT_WIDTH + 1)
    for verdict in result.verdicts:
        cells = (verdict_word(verdict), verdict.title, verdict.shown_value, verdict.shown_threshold)
        lines.append(_row(cells, columns, width, clean(verdict.context)))
        if verdict.passed:
            continue
        if verdict.value is None:
            lines.append(fit(indent + clean(verdict.detail), width).rstrip())
        for index, offender in enumerate(verdict.worst[:shown]):
            lead = ("lowest: " if offender.value is not None else "latest: ") if index == 0 else ""
            lines.append(fit(indent + f"{lead:8}" + offender_text(offender), width).rstrip())
    lines += ["Note: " + clean(note) for note in result.notes]
    return "\n".join(lines) + "\n"


def _row(cells: tuple[str, ...], widths: tuple[int, ...], width: int, tail: str = "") -> str:
    text = "  " + " ".join(fit(cell, w) for cell, w in zip(cells, widths, strict=True))
    return fit(text + ("  " + tail if tail else ""), width).rstrip()


def _mean(value: float | None) -> str:
    return "—" if value is None else format_number(value)


def analyses(count: int) -> str:
    """ "1 analysis", "3 analyses"."""
    return count_of(count, "analysis", "analyses")


def timeout_message(state: WaitState) -> str:
    """ "timed out after 600 s: 3 analyses still being scored (1 pending, 2 processing)",
    and where a poll the deadline cut off stood."""
    waited = f"timed out after {state.timeout:g} s"
    if state.finished_rounds:
        text = (
            f"{waited}: {analyses(state.waiting)} still being scored "
            f"({format_count(state.pending)} pending, "
            f"{format_count(state.processing)} processing)"
        )
    else:
        text = f"{waited} before a poll of the analyses in flight finished"
    if state.cut_short:
        text += f"; the last poll was cut off at the deadline, reading {state.cut_short}"
    if state.failed_round:
        text += f"; the last poll failed: {clean(state.failed_round)}"
    return text
