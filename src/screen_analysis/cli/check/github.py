"""The gate's result for GitHub Actions: an `::error` annotation per failed assertion (a
`::notice` when all hold), the table for the log, and a Markdown job summary appended to
`$GITHUB_STEP_SUMMARY` when the runner sets it.

Workflow commands are escaped as the runner reads them (GitHub's toolkit, `escapeData`
and `escapeProperty`): in the message `%`, CR and LF; in a property (the title) also `:`
and `,`. The table, which quotes server text, is printed between `::stop-commands::` and
its token, so no label can issue a command. The summary has one escape for all its text,
ours and the server's alike (`markdown_text`): HTML-escaped, Markdown's own characters
backslash-escaped, and every `:` and `@` written as an entity, so no label links or
mentions anyone and every colon of the file is written the same way.
"""

from __future__ import annotations

import html
import re
import secrets

from screen_analysis.cli.check.table import (
    counts_line,
    heading,
    offender_lines,
    render_table,
    timeout_message,
)
from screen_analysis.gate import GateResult, Scope, Verdict, WaitState
from screen_analysis.safe_text import clean

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()|~])")  # in a table cell or after a bullet


def escape_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as a message, and `:` and `,` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: str) -> str:
    """`::kind title=…::message`, every part escaped (server text cleaned first)."""
    props = ",".join(
        f"{name}={escape_property(clean(value))}" for name, value in properties.items()
    )
    lines = [clean(line) for line in message.split("\n")]
    return f"::{kind}{' ' + props if props else ''}::{escape_data(chr(10).join(lines))}"


def markdown_text(value: object) -> str:
    """Text for the job summary (ours or the server's): one line, HTML-escaped, Markdown
    inert, `:` and `@` as entities."""
    text = html.escape(clean(value), quote=True)
    text = _MARKDOWN.sub(r"\\\1", text)
    return text.replace(":", "&#58;").replace("@", "&#64;")


def _title(result: GateResult, verdict: Verdict) -> str:
    name = f"check {result.name}" if result.name else "check"
    return f"{name}: {verdict.title} {verdict.shown_threshold}"


def annotation_lines(result: GateResult) -> list[str]:
    """One `::error` per failed assertion; a `::notice` when every one holds."""
    if result.passed:
        return [command("notice", heading(result), title="screen-analysis check")]
    lines = []
    for verdict in result.failures:
        message = "\n".join([verdict.detail, *offender_lines(verdict.worst)])
        lines.append(command("error", message, title=_title(result, verdict)))
    return lines


def render_github(result: GateResult, width: int = 100) -> str:
    """Annotations, then the table with workflow commands stopped around it."""
    token = secrets.token_hex(16)
    lines = [
        *annotation_lines(result),
        f"::stop-commands::{token}",
        render_table(result, width).rstrip("\n"),
        f"::{token}::",
    ]
    return "\n".join(lines) + "\n"


def render_summary(result: GateResult) -> str:
    """The job summary: heading, scope, a table of assertions, the lowest analyses."""
    mark = "✅" if result.passed else "❌"
    lines = [
        f"## {mark} {markdown_text(heading(result))}",
        "",
        f"{markdown_text('Scope: ' + result.spec.scope.describe())}  ",
        markdown_text(_counts(result)),
        "",
        "| | Assertion | Value | Threshold |",
        "|---|---|---|---|",
    ]
    for verdict in result.verdicts:
        word = "✅ pass" if verdict.passed else "❌ **fail**"
        lines.append(
            f"| {word} | {markdown_text(verdict.title)} | {markdown_text(verdict.shown_value)} "
            f"| {markdown_text(verdict.shown_threshold)} |"
        )
    for verdict in result.failures:
        lines += ["", f"❌ {markdown_text(verdict.detail)}"]
        lines += [f"- {markdown_text(line)}" for line in offender_lines(verdict.worst)]
    if result.notes:
        lines += ["", *(f"> {markdown_text(note)}" for note in result.notes)]
    return "\n".join(lines) + "\n"


def _counts(result: GateResult) -> str:
    return counts_line(result.measured.scores)


def render_github_timeout(name: str | None, scope: Scope, state: WaitState) -> str:
    """A wait that ran out of time, as an annotation."""
    title = f"check {name}: scoring" if name else "check: scoring"
    return command("error", timeout_message(state), title=title) + "\n"


def summary_timeout(name: str | None, scope: Scope, state: WaitState) -> str:
    """The job summary of a wait that ran out of time."""
    title = f"check {name}" if name else "check"
    return (
        f"## ⏱️ {markdown_text(f'{title}: {timeout_message(state)}')}\n\n"
        f"{markdown_text('Scope: ' + scope.describe())}\n"
    )
