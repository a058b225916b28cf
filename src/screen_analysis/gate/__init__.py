"""The quality gate behind `screen-analysis check`, headless: a scope and assertions as
data (`spec`), one walk of the scope's pages measured with the overview's aggregates
(`measure`), verdicts (`evaluate`), the versioned JSON document that is also the baseline
(`document`), and waiting for scoring with an injected clock (`wait`)."""

from screen_analysis.browse.clock import Clock, SystemClock
from screen_analysis.gate.document import DOCUMENT_VERSION, read_baseline, result_document
from screen_analysis.gate.evaluate import GateResult, Verdict, evaluate
from screen_analysis.gate.measure import (
    LOWEST_SHOWN,
    Measured,
    Offender,
    ScopeCollector,
    Scores,
    measure,
)
from screen_analysis.gate.scope import GateInputError, Scope, Window, parse_when
from screen_analysis.gate.spec import Assertion, GateSpec, Kind, Source, build_spec
from screen_analysis.gate.wait import WaitOutcome, WaitState, wait_for_scoring

__all__ = [
    "DOCUMENT_VERSION",
    "LOWEST_SHOWN",
    "Assertion",
    "Clock",
    "GateInputError",
    "GateResult",
    "GateSpec",
    "Kind",
    "Measured",
    "Offender",
    "Scope",
    "ScopeCollector",
    "Scores",
    "Source",
    "SystemClock",
    "Verdict",
    "WaitOutcome",
    "WaitState",
    "Window",
    "build_spec",
    "evaluate",
    "measure",
    "parse_when",
    "read_baseline",
    "result_document",
    "wait_for_scoring",
]
