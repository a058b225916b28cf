"""`screen-analysis analyses list`: one page, some pages or every page, streamed."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import Any

import click

from screen_analysis.api.errors import BadRequestError
from screen_analysis.api.models import STATUSES, AnalysisItem
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.output import FORMATS, make_writer
from screen_analysis.cli.root import CliContext

MAX_PAGE = 100


@click.group()
def analyses() -> None:
    """List analyses."""


@analyses.command("list")
@click.option("--project-id", metavar="ID", help="Only analyses of this project.")
@click.option(
    "--status",
    type=click.Choice([s.value for s in STATUSES]),
    help="Only analyses in this state.",
)
@click.option(
    "--limit",
    type=int,
    default=None,
    help="Page size, 1–100 (default 20; with --all or --max-items, 100).",
)
@click.option("--after", metavar="CURSOR", help="Start after this cursor (a next_cursor).")
@click.option("--all", "all_pages", is_flag=True, help="Follow cursors to the end.")
@click.option("--max-items", type=int, metavar="N", help="Follow cursors until N analyses.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table for people; json/jsonl as received; csv with breakdown flattened.",
)
@click.pass_obj
def list_analyses(
    ctx: CliContext,
    project_id: str | None,
    status: str | None,
    limit: int | None,
    after: str | None,
    all_pages: bool,
    max_items: int | None,
    fmt: str,
) -> None:
    """List analyses, newest first as the server orders them."""
    if limit is not None and not 1 <= limit <= MAX_PAGE:
        raise click.BadParameter(
            f"must be between 1 and {MAX_PAGE}, got {limit}", param_hint="--limit"
        )
    if max_items is not None and max_items < 1:
        raise click.BadParameter("must be at least 1", param_hint="--max-items")
    if all_pages and max_items is not None:
        raise click.UsageError("--all and --max-items cannot be combined")
    following = all_pages or max_items is not None
    page_size = limit or (MAX_PAGE if following else 20)
    if max_items is not None:
        page_size = min(page_size, max_items)

    async def run() -> None:
        writer = make_writer(fmt, sys.stdout)
        written = 0
        async with ctx.make_client() as client:
            # --all reads every page: ask for the next while this one is written.
            pages = client.iter_pages(
                project_id=project_id,
                status=status,
                limit=page_size,
                after=after,
                prefetch=all_pages,
            )
            last_total: int | None = None
            next_cursor: str | None = None
            seen: set[str] = set()
            try:
                async for page in pages:
                    items, raw = _unseen(page.items, page.raw_items, seen)
                    if max_items is not None:
                        room = max_items - written
                        items, raw = items[:room], raw[:room]
                    writer.write(items, raw)
                    written += len(items)
                    last_total, next_cursor = page.total, page.next_cursor
                    if not following or (max_items is not None and written >= max_items):
                        break
            except BadRequestError as exc:
                if pages.pages_fetched == 0:
                    raise  # the user's own arguments (or --after) were refused
                raise CliError(
                    f"{exc}; the server refused the cursor it gave after {written:,} "
                    "analyses: run the command again to restart the listing from the top",
                    ExitCode.API,
                ) from exc
            finally:
                await pages.aclose()
            writer.close()
        if next_cursor and (not following or max_items is not None) and fmt == "table":
            total = f" of {last_total:,}" if isinstance(last_total, int) else ""
            click.echo(f"Showing {written:,}{total}. Next page: --after {next_cursor}", err=True)

    ctx.run(lambda: asyncio.run(run()))


def _unseen(
    items: Sequence[AnalysisItem], raw: Sequence[Any], seen: set[str]
) -> tuple[list[AnalysisItem], list[Any]]:
    """The items (and their raw objects) whose id was not written before; ids noted."""
    kept_items: list[AnalysisItem] = []
    kept_raw: list[Any] = []
    for item, obj in zip(items, raw, strict=False):
        if item.id is not None:
            if item.id in seen:
                continue
            seen.add(item.id)
        kept_items.append(item)
        kept_raw.append(obj)
    return kept_items, kept_raw
