"""`screen-analysis watch`: one line per change in a scope (`created`, `status`,
`completed`, `failed`), as JSON for scripts or readable with `--format table`; `--until
done` ends once what was in flight at the start has finished; `--exec` runs a command per
event. The rounds are `browse.scope_watch`'s, within the app's refresh budget."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence

import click

from screen_analysis.api.describe import describe_error
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.browse.clock import Clock, SystemClock
from screen_analysis.browse.scope_watch import ScopeWatch, WatchEnd, run_watch
from screen_analysis.browse.watch import EventKind, WatchEvent
from screen_analysis.cli.analyses import project_option, status_option
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import warn
from screen_analysis.cli.root import CliContext
from screen_analysis.config import refresh_interval
from screen_analysis.numbers import count_of, format_score
from screen_analysis.safe_text import clean, one_line
from screen_analysis.user_commands import (
    CommandConfigError,
    fill,
    parse_template,
    run_command,
    values_of,
)
from screen_analysis.words import utc_time, wait_words

CLOCK: Clock = SystemClock()  # tests put a clock of their own here
EXEC_PLACEHOLDERS = ("event", "previous_status")
EXEC_TIMEOUT_S = 60.0
LABEL_LIMIT = 80


@click.command()
@project_option
@status_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "table"]),
    default="jsonl",
    show_default=True,
    help="jsonl: one JSON object per change; table: one readable line per change.",
)
@click.option(
    "--until",
    type=click.Choice(["done"]),
    help="done: exit 0 once every analysis in flight in scope at the start has finished.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Stop after this long (with --until done: exit 7, as `check --wait` does).",
)
@click.option(
    "--exec",
    "exec_line",
    metavar="COMMAND",
    help="Run COMMAND per change, without a shell: {id}, {label}, {score}, {event}, … are "
    "whole arguments.",
)
@click.pass_obj
def watch(
    ctx: CliContext,
    project_id: str | None,
    status: str | None,
    fmt: str,
    until: str | None,
    timeout: float | None,
    exec_line: str | None,
) -> None:
    """Print a line per change of the analyses in scope, polling as the app refreshes."""
    argv: list[str] | None = None
    if exec_line is not None:
        try:
            argv = parse_template(exec_line, EXEC_PLACEHOLDERS)
        except CommandConfigError as exc:
            raise click.BadParameter(str(exc), param_hint="--exec") from None
    scope_status = AnalysisStatus(status) if status else None
    interval = refresh_interval(ctx.settings, demo=ctx.demo)
    if interval <= 0:  # auto-refresh off in the app: the watch still polls, at the default
        interval = refresh_interval(ctx.settings.with_overrides(refresh_interval=None), demo=False)

    async def on_events(events: Sequence[WatchEvent]) -> None:
        for event in events:
            _write(event, fmt)
            if argv is not None:
                await _exec(argv, event)

    def on_failure(exc: BaseException, pause: float) -> None:
        warn(describe_error(exc, prefix="Couldn't look") + f"; trying again in {wait_words(pause)}")

    ctx.demo_options.setdefault("live", True)  # the demo's analyses move on while watched

    async def run() -> None:
        async with ctx.make_client() as client:
            scope = ScopeWatch(client, project_id, scope_status)
            if fmt == "table":
                click.echo(f"Watching every {wait_words(interval)}; Ctrl-C to stop.", err=True)
            outcome = await run_watch(
                scope,
                clock=CLOCK,
                interval=interval,
                on_events=on_events,
                until_done=until == "done",
                timeout=timeout,
                on_failure=on_failure,
            )
        if until == "done" and outcome.end is WatchEnd.TIMED_OUT:
            left = count_of(len(outcome.waiting), "analysis", "analyses")
            raise CliError(f"{left} still in flight at --timeout", ExitCode.WAIT_TIMED_OUT)

    ctx.run(lambda: asyncio.run(run()))


def _write(event: WatchEvent, fmt: str) -> None:
    """One line on stdout, flushed: a reader of a pipe sees each change as it comes."""
    line = json.dumps(event.document(), ensure_ascii=False) if fmt == "jsonl" else _readable(event)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _readable(event: WatchEvent) -> str:
    """ "2026-11-01 09:00 UTC  completed  ana_1  score 72  Checkout — v3"."""
    analysis = event.analysis
    if event.kind is EventKind.COMPLETED:
        what = f"score {format_score(analysis.score)}"
    elif event.kind is EventKind.FAILED:
        what = one_line(analysis.error_message or "no reason given", limit=LABEL_LIMIT)
    else:
        what = str(analysis.status)
    when = utc_time(analysis.completed_at or analysis.created_at)
    label = clean(analysis.label or "", limit=LABEL_LIMIT)
    return f"{when}  {event.kind.value:<9}  {clean(analysis.id)}  {what}  {label}".rstrip()


async def _exec(argv: list[str], event: WatchEvent) -> None:
    """Run the --exec command for `event`; its failure is one warning, the watch goes on."""
    values = values_of(event.analysis, event=event.kind.value, previous_status=event.previous or "")
    result = await run_command(fill(argv, values), timeout=EXEC_TIMEOUT_S)
    if not result.ok:
        warn("--exec " + result.line())
    elif result.stdout:
        for line in result.stdout:
            click.echo(clean(line), err=True)
