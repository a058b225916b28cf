"""`screen-analysis report`: an overview of a project (or all) as a page to share."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from screen_analysis.api.models import STATUSES
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.param_types import PROJECT_ID
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import count_of, format_count
from screen_analysis.safe_text import clean


def parse_since(value: str | None) -> datetime | None:
    """An ISO date or date-time; a date means its midnight UTC, a naive time is UTC."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise click.BadParameter(
            f"expected a date like 2026-10-01 or 2026-10-01T09:00Z, got {value!r}",
            param_hint="--since",
        ) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class StderrProgress:
    """ "Reading analyses: 12,400 of 48,210" (or another line) rewritten on stderr, only on a
    TTY."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self._shown = False

    def __call__(self, received: int, total: int | None) -> None:
        """Show how far the walk is."""
        of = f" of {format_count(total)}" if total is not None else ""
        self.show(f"Reading analyses: {format_count(received)}{of}")

    def show(self, text: str) -> None:
        """Replace the line with `text` (our own words: callers clean what they quote)."""
        if not self.enabled:
            return
        sys.stderr.write(f"\r{text}\x1b[K")
        sys.stderr.flush()
        self._shown = True

    def clear(self) -> None:
        """Remove the progress line."""
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._shown = False


@click.command()
@click.option(
    "--project-id", type=PROJECT_ID, metavar="ID", help="Only this project (default: all projects)."
)
@click.option(
    "--status", type=click.Choice([s.value for s in STATUSES]), help="Only analyses in this state."
)
@click.option("--since", metavar="DATE", help="Only analyses created from this date (UTC).")
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="The file to write (replaced if it exists).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "md"]),
    default=None,
    help="html (default; md when the file ends in .md): a page with charts, or Markdown.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Build it from the local cache only (what the app showed; no request).",
)
@click.pass_obj
def report(
    ctx: CliContext,
    project_id: str | None,
    status: str | None,
    since: str | None,
    output: Path,
    fmt: str | None,
    offline: bool,
) -> None:
    """Write an overview (charts, best and weakest screens, latest failures) to share."""
    since_at = parse_since(since)
    chosen = fmt or ("md" if output.suffix.lower() in {".md", ".markdown"} else "html")

    async def run() -> int:
        check_output(output)
        if offline:
            return _offline_report(ctx, output, chosen, project_id, status, since_at)
        from screen_analysis.report.build import gather_report
        from screen_analysis.report.render import render
        from screen_analysis.user_files import write_atomic

        progress = StderrProgress()
        try:
            async with ctx.make_client() as client:
                data = await gather_report(
                    client,
                    clock=lambda: datetime.now(UTC),
                    project_id=project_id,
                    status=status,
                    since=since_at,
                    on_page=lambda builder, total: progress(builder.received, total),
                )
        finally:
            progress.clear()
        try:
            write_atomic(output, render(data, chosen), mode=0o644)
        except OSError as exc:
            raise CliError(
                f"could not write {clean(str(output))}: {exc.strerror or exc}", ExitCode.USAGE
            ) from exc
        return data.overview.seen

    seen = ctx.run(lambda: asyncio.run(run()))
    click.echo(f"Wrote {clean(str(output))} ({count_of(seen, 'analysis', 'analyses')}).", err=True)


def check_output(output: Path) -> None:
    """Refuse, before reading anything, an --output in no folder or that is not a file (a
    device or a folder is never replaced)."""
    if not output.parent.is_dir():
        raise CliError(f"no such folder for --output: {clean(str(output.parent))}", ExitCode.USAGE)
    if output.exists() and not output.is_file():
        raise CliError(f"--output is not a regular file: {clean(str(output))}", ExitCode.USAGE)


def _offline_report(
    ctx: CliContext,
    output: Path,
    fmt: str,
    project_id: str | None,
    status: str | None,
    since: datetime | None,
) -> int:
    """The report from the analyses the local cache kept; their age in its header."""
    from screen_analysis.cli.cache_commands import age_words, nothing_kept, offline_cache
    from screen_analysis.insight.offline import kept_overview
    from screen_analysis.report.render import ReportData, render
    from screen_analysis.user_files import write_atomic

    with offline_cache(ctx) as cache:
        kept = kept_overview(cache, project_id, status=status, since=since)
    if kept is None or kept.fetched_at is None:
        raise nothing_kept("this project" if project_id else "any project")
    source = f"From the local cache, {age_words(kept.fetched_at)}; not read from the server"
    data = ReportData(
        kept.overview, datetime.now(UTC), status=status, since=since,
        project_names=kept.project_names, source=source,
    )  # fmt: skip
    try:
        write_atomic(output, render(data, fmt), mode=0o644)
    except OSError as exc:
        raise CliError(
            f"could not write {clean(str(output))}: {exc.strerror or exc}", ExitCode.USAGE
        ) from exc
    click.echo(source + ".", err=True)
    return data.overview.seen
