"""The gate's result for people: a heading, the scope, one row per assertion with value,
threshold and verdict, and under a failed one why and the lowest analyses by label.

Fits one 80×24 screen for a handful of assertions; on a terminal shorter than the whole
explanation, fewer analyses are named (elsewhere, as many as in every output:
`LOWEST_SHOWN`). The analyses named line up: scores, labels and ids each in a column.
Server text (labels, ids, error messages) goes through `safe_text.clean`: control
sequences show as symbols, never act.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

from screen_analysis.gate import LOWEST_SHOWN, GateResult, Offender, Verdict, WaitState
from screen_analysis.gate.evaluate import compared
from screen_analysis.gate.measure import Scores
from screen_analysis.numbers import count_of, format_count, format_score, format_tenths, with_minus
from screen_analysis.safe_text import clean
from screen_analysis.words import fit_cell

VERDICT_WIDTH = 8
VALUE_WIDTH = 13  # "rose 11.5 pts"
THRESHOLD_WIDTH = 10  # "≤ 12.5 pts"
NAME_WIDTH = 34
LEAD = "lowest: "  # before the first analysis named under a failed assertion
MIN_LABEL = 12  # cells a label keeps before the line is cut at the width


def verdict_word(verdict: Verdict) -> str:
    """ "✓ pass" or "✗ FAIL": readable without colour."""
    return "✓ pass" if verdict.passed else "✗ FAIL"


def heading(result: GateResult) -> str:
    """ "check release: 2 of 6 assertions failed" or "…: all 6 assertions hold" (one: "the
    assertion failed", "the assertion holds")."""
    name = f"check {clean(result.name)}" if result.name else "check"
    total = len(result.verdicts)
    failed = len(result.failures)
    if failed:
        if total == 1:
            return f"{name}: the assertion failed"
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


def _offender_cells(offender: Offender) -> tuple[str, str, str]:
    """Score (as sent; "failed" for a failure), label (with a failure's message), id."""
    value = format_score(offender.value) if offender.value is not None else "failed"
    note = f" — {clean(offender.note)}" if offender.note else ""
    return (
        with_minus(value),
        (clean(offender.label) or "(no label)") + note,
        clean(offender.id),
    )


def offender_lines(offenders: Sequence[Offender], width: int | None = None) -> list[str]:
    """The analyses named under failed assertions, one a line, in columns: the score right-
    aligned, the label, the id lined up after the longest label ("31  Checkout v4  ana_…").
    With a `width`, labels are cut (…) so each line fits it, ids kept whole."""
    cells = [_offender_cells(offender) for offender in offenders]
    if not cells:
        return []
    value_w = max(cell_len(value) for value, _, _ in cells)
    label_w = max(cell_len(label) for _, label, _ in cells)
    if width is not None:
        id_w = max(cell_len(ident) for _, _, ident in cells)
        label_w = max(MIN_LABEL, min(label_w, width - value_w - id_w - 4))
    return [
        f"{fit_cell(value, value_w, right=True)}  {fit_cell(label, label_w)}  {ident}"
        for value, label, ident in cells
    ]


def offender_text(offender: Offender) -> str:
    """One analysis named, on a line of its own: "31  Checkout — payment step v4  ana_…"."""
    return offender_lines([offender])[0]


def worst_shown(result: GateResult, height: int | None) -> int:
    """How many analyses to name under each failed assertion: `LOWEST_SHOWN`, or on a
    terminal `height` lines tall fewer, so the whole explanation fits (one at least)."""
    failed = len(result.failures)
    if not failed:
        return 0
    if height is None:
        return LOWEST_SHOWN
    unmeasured = sum(1 for verdict in result.failures if verdict.value is None)
    fixed = 5 + len(result.verdicts) + len(result.notes) + (result.baseline is not None)
    per_failure = (height - 1 - fixed - unmeasured) // failed  # a line kept for the prompt
    return max(1, min(LOWEST_SHOWN, per_failure))


def render_table(result: GateResult, width: int = 100, height: int | None = None) -> str:
    """The whole explanation, lines ending in newlines; it fits `width` (and a terminal's
    `height`, unless many assertions fail: each still names one analysis)."""
    width = max(width, 60)
    shown = worst_shown(result, height)
    lines = [heading(result), "Scope: " + clean(result.spec.scope.describe())]
    lines.append(counts_line(result.measured.scores))
    if result.baseline is not None:
        source = clean(result.baseline_source or "")
        lines.append(f"Baseline: {source} (mean score {_mean(result.baseline.mean_score)})")
    lines.append("")
    titles = max((cell_len(verdict.title) for verdict in result.verdicts), default=0)
    room = width - 2 - VERDICT_WIDTH - VALUE_WIDTH - THRESHOLD_WIDTH - 3
    name_width = max(len("ASSERTION"), min(NAME_WIDTH, titles + 1, room))  # two spaces after
    columns = (VERDICT_WIDTH, name_width, VALUE_WIDTH, THRESHOLD_WIDTH)
    lines.append(_row(("VERDICT", "ASSERTION", "VALUE", "THRESHOLD"), columns, width))
    indent = " " * (2 + VERDICT_WIDTH + 1)
    named = [o for verdict in result.failures for o in verdict.worst[:shown]]
    aligned = iter(offender_lines(named, width - len(indent) - len(LEAD)))
    for verdict in result.verdicts:
        cells = (verdict_word(verdict), verdict.title, verdict.shown_value, verdict.shown_threshold)
        lines.append(_row(cells, columns, width, clean(verdict.context)))
        if verdict.passed:
            continue
        if verdict.value is None:
            lines.append(fit_cell(indent + clean(verdict.detail), width).rstrip())
        for index, offender in enumerate(verdict.worst[:shown]):
            lead = ("lowest: " if offender.value is not None else "latest: ") if index == 0 else ""
            lines.append(fit_cell(indent + f"{lead:{len(LEAD)}}" + next(aligned), width).rstrip())
    lines += ["Note: " + clean(note) for note in result.notes]
    return "\n".join(lines) + "\n"


def _row(cells: tuple[str, ...], widths: tuple[int, ...], width: int, tail: str = "") -> str:
    text = "  " + " ".join(fit_cell(cell, w) for cell, w in zip(cells, widths, strict=True))
    return fit_cell(text + ("  " + tail if tail else ""), width).rstrip()


def _mean(value: float | None) -> str:
    return "—" if value is None else format_tenths(compared(value))


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
