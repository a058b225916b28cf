"""The gate's result as a JSON document: what `check --format json` writes, and what
`--baseline FILE` reads back.

The document names its kind and version (`DOCUMENT_KIND`, `DOCUMENT_VERSION`); a reader
takes any version up to its own and refuses a newer one, so a baseline written by a later
release is one clear line rather than a wrong comparison. Only `scores` (and `counts`) are
read back; server text in the document (labels, error messages) is kept as received and
escaped by the JSON writer.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

from screen_analysis.api.models import CRITERIA
from screen_analysis.file_reads import NESTED_TOO_DEEP, RefusedFile, read_limited, too_deep
from screen_analysis.gate.evaluate import GateResult, Verdict
from screen_analysis.gate.measure import Offender, Scores
from screen_analysis.gate.scope import GateInputError, Scope
from screen_analysis.gate.wait import WaitState

DOCUMENT_KIND = "screen-analysis-check"
DOCUMENT_VERSION = 1
MAX_BASELINE_BYTES = 4 * 1024 * 1024  # a baseline is a few kilobytes


def _time(value: Any) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def _number(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def scope_document(scope: Scope) -> dict[str, Any]:
    """The scope as the document records it."""
    return {
        "project_id": scope.project_id,
        "label": scope.label,
        "since": _time(scope.since),
        "last": scope.last,
    }


def scores_document(scores: Scores) -> dict[str, Any]:
    """Counts and means of one set of analyses. The means are written whole (the float
    nearest their exact value), so a later run that rounds them as the gate compares them
    gets exactly what this run compared: a scope checked against the baseline it wrote has
    a drop of 0."""
    return {
        "counts": {
            "analyses": scores.analyses,
            "completed": scores.completed,
            "failed": scores.failed,
            "pending": scores.pending,
            "processing": scores.processing,
        },
        "mean_score": scores.mean_score,
        "criteria": dict(scores.criteria),
        "failed_share": _number(scores.failed_share),
    }


def _offender(offender: Offender) -> dict[str, Any]:
    found: dict[str, Any] = {"id": offender.id, "label": offender.label}
    if offender.value is not None:
        found["value"] = offender.value
    if offender.note:
        found["error_message"] = offender.note
    return found


def _verdict(verdict: Verdict) -> dict[str, Any]:
    assertion = verdict.assertion
    return {
        "id": assertion.id,
        "title": verdict.title,
        "comparison": ">=" if assertion.at_least else "<=",
        "threshold": assertion.threshold,
        "value": _number(verdict.value),
        "passed": verdict.passed,
        "detail": verdict.detail,
        "worst": [_offender(o) for o in verdict.worst],
    }


def result_document(result: GateResult) -> dict[str, Any]:
    """The whole result, versioned: the JSON output and a later run's baseline."""
    baseline = None
    if result.baseline is not None:
        baseline = {"source": result.baseline_source, **scores_document(result.baseline)}
    return {
        "kind": DOCUMENT_KIND,
        "version": DOCUMENT_VERSION,
        "name": result.name,
        "generated_at": _time(result.generated_at),
        "passed": result.passed,
        "scope": scope_document(result.spec.scope),
        **scores_document(result.measured.scores),
        "baseline": baseline,
        "assertions": [_verdict(v) for v in result.verdicts],
        "notes": list(result.notes),
    }


def timeout_document(
    name: str | None, scope: Scope, state: WaitState, when: datetime
) -> dict[str, Any]:
    """A wait that ran out of time: no scores, what was still being scored."""
    return {
        "kind": DOCUMENT_KIND,
        "version": DOCUMENT_VERSION,
        "name": name,
        "generated_at": _time(when),
        "passed": False,
        "timed_out": True,
        "scope": scope_document(scope),
        "waiting": {
            # Unknown (null) when no poll read both listings before the deadline.
            "analyses": state.waiting if state.finished_rounds else None,
            "pending": state.pending if state.finished_rounds else None,
            "processing": state.processing if state.finished_rounds else None,
            "elapsed_s": round(state.elapsed, 1),
            "timeout_s": state.timeout,
            "last_poll_failed": state.failed_round or None,
            "last_poll_cut_short": state.cut_short or None,
        },
    }


def _mean(value: object, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise GateInputError(f"{where} is not a number")
    return float(value)


def _count(counts: object, name: str, where: str) -> int:
    value = counts.get(name, 0) if isinstance(counts, dict) else 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise GateInputError(f"{where}: counts.{name} is not a count")
    return value


def scores_from(document: object, where: str) -> Scores:
    """The scores a baseline document holds; GateInputError says what is wrong with it."""
    if not isinstance(document, dict) or document.get("kind") != DOCUMENT_KIND:
        raise GateInputError(f"{where} is not a `check --format json` document")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise GateInputError(f"{where} has no valid version")
    if document.get("timed_out"):
        raise GateInputError(f"{where} records a wait that timed out: it holds no scores")
    if version > DOCUMENT_VERSION:
        raise GateInputError(
            f"{where} is version {version}; this screen-analysis reads up to "
            f"{DOCUMENT_VERSION}: upgrade it, or write the baseline again"
        )
    criteria = document.get("criteria", {})
    if not isinstance(criteria, dict):
        raise GateInputError(f"{where}: criteria is not an object")
    counts = document.get("counts", {})
    return Scores(
        analyses=_count(counts, "analyses", where),
        completed=_count(counts, "completed", where),
        failed=_count(counts, "failed", where),
        pending=_count(counts, "pending", where),
        processing=_count(counts, "processing", where),
        mean_score=_mean(document.get("mean_score"), f"{where}: mean_score"),
        criteria={
            c.value: _mean(criteria.get(c.value), f"{where}: criteria.{c.value}") for c in CRITERIA
        },
    )


def read_baseline(path: Path) -> Scores:
    """The scores of a document an earlier `check --format json` wrote; GateInputError in
    one line when the file cannot be read, is not a regular file (a link to one is read: CI
    systems link artifacts), is over `MAX_BASELINE_BYTES`, nests deeper than
    `file_reads.MAX_NESTING`, or is not such a document."""
    where = f"baseline {path}"
    try:
        data = read_limited(path, max_bytes=MAX_BASELINE_BYTES)
    except RefusedFile as exc:
        raise GateInputError(f"cannot read {where}: {exc.reason}") from None
    if data is None:
        raise GateInputError(f"cannot read {where}: No such file or directory")
    try:
        document = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise GateInputError(f"cannot read {where}: {NESTED_TOO_DEEP}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise GateInputError(f"{where} is not JSON: {exc}") from None
    if too_deep(document):
        raise GateInputError(f"cannot read {where}: {NESTED_TOO_DEEP}")
    return scores_from(document, where)
