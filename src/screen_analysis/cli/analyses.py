"""`screen-analysis analyses list`: one page, some pages or every page, streamed."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import click

from screen_analysis.api.errors import BadRequestError
from screen_analysis.api.models import STATUSES, AnalysisItem, AnalysisPage, RawPage
from screen_analysis.api.pagination import PageIterator, SeenIds
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.output import FORMATS, TableWriter, make_raw_writer
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import format_count

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

    options: dict[str, Any] = {
        "project_id": project_id,
        "status": status,
        "limit": page_size,
        "after": after,
        # --all reads every page: ask for the next while this one is written.
        "prefetch": all_pages,
    }

    walk: dict[str, Any] = {"following": following, "max_items": max_items}

    async def run() -> None:
        async with ctx.make_client() as client:
            if fmt == "table":
                table = TableWriter(sys.stdout)
                seen = SeenIds()
                listing = await _stream(
                    client.iter_pages(**options), _model_items, seen.fresh, table.write, **walk
                )
            else:
                writer = make_raw_writer(fmt, sys.stdout)
                seen = SeenIds()
                listing = await _stream(
                    client.iter_raw_pages(**options),
                    _raw_items,
                    seen.fresh_raw,
                    writer.write,
                    **walk,
                )
                writer.close()
        if fmt != "table":
            return
        if listing.written == 0:
            click.echo("No analyses match.", err=True)
        elif listing.next_cursor and (not following or max_items is not None):
            total = f" of {format_count(listing.total)}" if isinstance(listing.total, int) else ""
            shown = format_count(listing.written)
            click.echo(
                f"Showing {shown}{total}. Next page: --after {listing.next_cursor}", err=True
            )

    ctx.run(lambda: asyncio.run(run()))


@dataclass
class _Listing:
    """What a listing wrote, and where the server said it could go on."""

    written: int = 0
    total: int | None = None
    next_cursor: str | None = None


class _Page(Protocol):
    """What a listing reads of a page, model or raw."""

    @property
    def next_cursor(self) -> str | None:
        """The cursor of the next page; None on the last."""

    @property
    def total(self) -> int | None:
        """How many analyses match, across pages."""


PageT = TypeVar("PageT", bound=_Page)
ItemT = TypeVar("ItemT")


async def _stream(
    pages: PageIterator[PageT],
    items_of: Callable[[PageT], Sequence[ItemT]],
    fresh: Callable[[Sequence[ItemT]], list[ItemT]],
    write: Callable[[list[ItemT]], None],
    *,
    following: bool,
    max_items: int | None,
) -> _Listing:
    """Write each page's `fresh` items (those not written before), up to `max_items`.

    Only the first page unless `following`.
    """
    listing = _Listing()
    try:
        async for page in pages:
            rows = fresh(items_of(page))
            if max_items is not None:
                rows = rows[: max_items - listing.written]
            # In a thread, so the loop sends the prefetched request while this page is written.
            await asyncio.to_thread(write, rows)
            listing.written += len(rows)
            listing.total, listing.next_cursor = page.total, page.next_cursor
            if not following or (max_items is not None and listing.written >= max_items):
                break
    except BadRequestError as exc:
        if pages.pages_fetched == 0:
            raise  # the user's own arguments (or --after) were refused
        raise CliError(
            f"{exc}; the server refused the cursor it gave after {format_count(listing.written)} "
            "analyses: run the command again to restart the listing from the top",
            ExitCode.API,
        ) from exc
    finally:
        await pages.aclose()
    return listing


def _model_items(page: AnalysisPage) -> list[AnalysisItem]:
    return page.items


def _raw_items(page: RawPage) -> list[Any]:
    return page.data
