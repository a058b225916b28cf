"""The gate's result as JUnit XML, which every CI system shows: one testsuite, one testcase
per assertion, a `<failure>` for each that does not hold; a wait that timed out is one
testcase with an `<error>`.

ElementTree escapes markup; before that, server text loses what XML 1.0 cannot hold at
all (control characters become visible symbols through `safe_text.clean`, and lone
surrogates or U+FFFE/U+FFFF become U+FFFD), so the document always parses.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime

from screen_analysis.cli.check.table import counts_line, heading, offender_lines, timeout_message
from screen_analysis.gate import GateResult, Scope, WaitState
from screen_analysis.safe_text import clean

SUITE = "screen-analysis check"
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def xml_text(value: object, *, single_line: bool = True) -> str:
    """Text that XML 1.0 can carry (ElementTree escapes `<`, `&` and quotes itself)."""
    return _NOT_XML.sub("\ufffd", clean(value, single_line=single_line))


def _classname(name: str | None) -> str:
    return "screen-analysis.check" + (f".{xml_text(name)}" if name else "")


def render_junit(result: GateResult) -> str:
    """One testcase per assertion; failures counted on the suite and the root."""
    failures = len(result.failures)
    tests = len(result.verdicts)
    root, suite = _build(result.name, tests, failures, 0, result.generated_at)
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(
        properties, "property", name="scope", value=xml_text(result.spec.scope.describe())
    )
    if result.baseline_source:
        ET.SubElement(
            properties, "property", name="baseline", value=xml_text(result.baseline_source)
        )
    for verdict in result.verdicts:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_classname(result.name),
            name=f"{verdict.title} {verdict.shown_threshold}",
            time="0",
        )
        if verdict.passed:
            continue
        failure = ET.SubElement(
            case, "failure", message=xml_text(verdict.detail), type="AssertionFailed"
        )
        failure.text = "\n".join(xml_text(line) for line in offender_lines(verdict.worst))
    out = ET.SubElement(suite, "system-out")
    notes = [heading(result), counts_line(result.measured.scores), *result.notes]
    out.text = "\n".join(xml_text(line) for line in notes)
    return _serialise(root)


def render_junit_timeout(name: str | None, scope: Scope, state: WaitState, when: datetime) -> str:
    """A wait that ran out of time: one testcase with an error, so CI shows why."""
    root, suite = _build(name, 1, 0, 1, when)
    case = ET.SubElement(
        suite, "testcase", classname=_classname(name), name="scoring finished in time", time="0"
    )
    error = ET.SubElement(
        case, "error", message=xml_text(timeout_message(state)), type="WaitTimedOut"
    )
    error.text = "Scope: " + xml_text(scope.describe())
    return _serialise(root)


def _build(
    name: str | None, tests: int, failures: int, errors: int, when: datetime
) -> tuple[ET.Element, ET.Element]:
    title = f"{SUITE} {xml_text(name)}" if name else SUITE
    counts = {"tests": str(tests), "failures": str(failures), "errors": str(errors)}
    root = ET.Element("testsuites", {"name": SUITE, **counts})
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S")
    suite = ET.SubElement(
        root, "testsuite", {"name": title, **counts, "skipped": "0", "timestamp": stamp}
    )
    return root, suite


def _serialise(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
