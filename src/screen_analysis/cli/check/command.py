"""`screen-analysis check`: a quality gate for pipelines.

Everything the user gave (flags, a `[checks.NAME]` table of the config or of
`--config-file`, a baseline file) is read and checked first: bad input is one line and
exit 2 before any request. Then, with `--wait`, the scope's in-flight analyses are polled
until scored; then the scope is walked once (`gate.measure`, on the client's one cursor
walker) and every assertion judged. Exit 0 when all hold, 6 when one fails, 7 when the
wait timed out; errors keep the command line's codes (a `--project-id` the server does not
know is not found, 4, as for `projects get`).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from screen_analysis.cli.check.sources import FORMATS, gather_sources
from screen_analysis.cli.check.table import analyses
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import warn
from screen_analysis.cli.param_types import CHECK_NAME, CRITERION_THRESHOLD, LOCAL_FILE
from screen_analysis.cli.root import CliContext
from screen_analysis.cli.scope_options import saved_view, scope_options
from screen_analysis.gate import (
    Clock,
    GateInputError,
    GateResult,
    GateSpec,
    Scores,
    SystemClock,
    WaitOutcome,
    WaitState,
    build_spec,
    evaluate,
    measure,
    read_baseline,
    wait_for_scoring,
)
from screen_analysis.numbers import format_count

_SURROGATE = re.compile("[\ud800-\udfff]")
CLOCK: Clock = SystemClock()  # tests put a clock of their own here
POLL_INTERVAL_S = 10.0  # a real service: scoring takes seconds, polls cost requests
DEMO_POLL_INTERVAL_S = 2.0


@click.command()
@click.argument("name", required=False, type=CHECK_NAME)
@click.option(
    "--config-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A TOML file with [checks.NAME] tables (default: the config file).",
)
@scope_options
@click.option("--min-score", metavar="N", help="Mean overall score of the completed, at least N.")
@click.option(
    "--min",
    "mins",
    type=CRITERION_THRESHOLD,
    metavar="CRITERION=N",
    multiple=True,
    help="Mean of one criterion, at least N (repeatable).",
)
@click.option("--max-failed", metavar="PCT", help="Failed share of finished analyses, at most PCT.")
@click.option("--min-count", metavar="N", help="At least N completed analyses.")
@click.option(
    "--baseline",
    type=LOCAL_FILE,
    metavar="FILE",
    help="Compare with a `check --format json` document.",
)
@click.option("--baseline-since", metavar="WHEN", help="Compare with the analyses created since.")
@click.option("--baseline-until", metavar="WHEN", help="…and before this time.")
@click.option("--max-drop", metavar="N", help="Points the mean (overall, per criterion) may lose.")
@click.option(
    "--wait/--no-wait", default=None, help="First wait until what is in flight in scope is scored."
)
@click.option("--timeout", metavar="S", help="Give up waiting after S seconds (default 600).")
@click.option("--poll-interval", metavar="S", help="Seconds between polls (default 10).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table for people; json (also the baseline); junit XML; github annotations.",
)
@click.pass_obj
def check(
    ctx: CliContext, /, name: str | None, config_file: Path | None, fmt: str, **flags: Any
) -> None:
    """Assert scores of a scope of analyses; exit 6 when an assertion fails.

    NAME runs the [checks.NAME] table of the config file (or of --config-file); flags
    given as well override its values. --view NAME judges a [views.NAME]'s scope (its
    keys replaced by the scope options given).
    """
    spec, baseline = ctx.run(lambda: _prepare(ctx, name, config_file, flags))
    if spec.wait and ctx.demo:
        ctx.demo_options.setdefault("live", True)  # the demo's analyses then get scored
    interval = spec.poll_interval or (DEMO_POLL_INTERVAL_S if ctx.demo else POLL_INTERVAL_S)
    outcome = ctx.run(lambda: asyncio.run(_run(ctx, spec, baseline, interval, name)))
    width, rows = shutil.get_terminal_size((100, 24))
    height = rows if sys.stdout.isatty() else None  # a log or a file: nothing to fit
    if isinstance(outcome, WaitOutcome):
        state = outcome.state
        ctx.run(lambda: _timed_out(name, spec, state, fmt))
        return
    result: GateResult = outcome
    ctx.run(lambda: _emit(result, fmt, width, height))  # a closed pipe is not a failure
    if not outcome.passed:
        raise SystemExit(ExitCode.ASSERTION_FAILED)


def _prepare(
    ctx: CliContext, name: str | None, config_file: Path | None, flags: dict[str, Any]
) -> tuple[GateSpec, tuple[Scores, str] | None]:
    """The checked gate and its baseline file's scores; CliError (usage) for bad input."""
    view_name = flags.pop("view", None)
    view = saved_view(ctx.settings.views, view_name)
    try:
        sources = gather_sources(ctx.settings.config_path, name, config_file, flags)
        spec = build_spec(sources, now=CLOCK.now(), view=view, view_name=view_name or "")
        if spec.baseline_file is None:
            return spec, None
        return spec, (read_baseline(spec.baseline_file), str(spec.baseline_file))
    except GateInputError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None


async def _run(
    ctx: CliContext,
    spec: GateSpec,
    baseline: tuple[Scores, str] | None,
    interval: float,
    name: str | None,
) -> GateResult | WaitOutcome:
    from screen_analysis.cli.report import StderrProgress

    progress = StderrProgress()
    try:
        async with ctx.make_client() as client:
            if spec.wait:
                outcome = await wait_for_scoring(
                    client,
                    spec.scope,
                    clock=CLOCK,
                    timeout=spec.timeout,
                    interval=interval,
                    on_round=lambda state: progress.show(_waiting_line(state)),
                )
                if not outcome.done:
                    return outcome
            measured = await measure(
                client,
                spec.scope,
                spec.baseline_window,
                on_page=lambda collector, total: progress(collector.received, total),
            )
    finally:
        progress.clear()
    scores, source = baseline if baseline is not None else (None, None)
    if source is None and spec.baseline_window is not None:
        source = "analyses created " + spec.baseline_window.describe()
    return evaluate(
        spec,
        measured,
        generated_at=CLOCK.now().replace(microsecond=0),
        name=name,
        baseline=scores,
        baseline_source=source,
    )


def _waiting_line(state: WaitState) -> str:
    """The progress line of a wait (on a terminal only)."""
    clock = f"{state.elapsed:.0f} s of {state.timeout:g} s"
    if state.failed_round:
        return f"Waiting for scoring: the last poll failed, trying again · {clock}"
    return (
        f"Waiting for {analyses(state.waiting)} to be scored "
        f"({format_count(state.pending)} pending, "
        f"{format_count(state.processing)} processing) · {clock}"
    )


def _echo(text: str, *, err: bool = False) -> None:
    """Print `text` as it is (it ends in a newline); a lone surrogate (from a server's JSON
    or an argument that was not UTF-8) becomes U+FFFD rather than an encoding error."""
    click.echo(_SURROGATE.sub("\ufffd", text), nl=False, err=err)


def _emit(result: GateResult, fmt: str, width: int, height: int | None) -> None:
    from screen_analysis.api.writers import dumps_json
    from screen_analysis.cli.check import github, junit, table
    from screen_analysis.gate import result_document

    if fmt == "table":
        _echo(table.render_table(result, width, height))
        return
    if fmt == "json":
        _echo(dumps_json(result_document(result), indent=2) + "\n")
    elif fmt == "junit":
        _echo(junit.render_junit(result))
    else:
        _echo(github.render_github(result, width))
        _append_summary(github.render_summary(result))
        return
    _echo(table.heading(result) + "\n", err=True)


def _timed_out(name: str | None, spec: GateSpec, state: WaitState, fmt: str) -> None:
    """Say the wait ran out of time in the chosen format, then exit 7 with one line."""
    from screen_analysis.api.writers import dumps_json
    from screen_analysis.cli.check import github, junit, table
    from screen_analysis.gate.document import timeout_document

    when = CLOCK.now().replace(microsecond=0)
    if fmt == "junit":
        _echo(junit.render_junit_timeout(name, spec.scope, state, when))
    elif fmt == "json":
        _echo(dumps_json(timeout_document(name, spec.scope, state, when), indent=2) + "\n")
    elif fmt == "github":
        _echo(github.render_github_timeout(name, spec.scope, state))
        _append_summary(github.summary_timeout(name, spec.scope, state))
    raise CliError(table.timeout_message(state), ExitCode.WAIT_TIMED_OUT)


def _append_summary(text: str) -> None:
    """Add to the job summary file GitHub Actions names; a failure is one warning."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(_SURROGATE.sub("\ufffd", text))
    except OSError as exc:
        warn(f"could not write the job summary to {path}: {exc.strerror or exc}")
