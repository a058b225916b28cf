"""`screen-analysis analyses list`: one page, some pages or every page, streamed."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import click

from screen_analysis.api.errors import BadRequestError, EmptyPagesError
from screen_analysis.api.models import STATUSES, AnalysisItem, AnalysisPage, RawPage
from screen_analysis.api.oddities import UNKNOWN_TOTAL, ListingNotes
from screen_analysis.api.pagination import Walk
from screen_analysis.browse.columns import csv_fields
from screen_analysis.browse.order import SortOrder, sort_rows
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import warn
from screen_analysis.cli.listing_scope import list_in_scope
from screen_analysis.cli.output import (
    FORMATS,
    TableWriter,
    make_raw_writer,
    shell_word,
    write_rows,
)
from screen_analysis.cli.param_types import PROJECT_ID
from screen_analysis.cli.root import CliContext
from screen_analysis.cli.scope_options import chosen_scope, scope_at, scope_options
from screen_analysis.numbers import count_of, format_count

if TYPE_CHECKING:
    from screen_analysis.browse.scope import Filter
    from screen_analysis.cache import CachedView

MAX_PAGE = 100


@click.group()
def analyses() -> None:
    """List analyses."""


# The options of a server-side scope alone, for `watch`.
project_option = click.option(
    "--project-id", type=PROJECT_ID, metavar="ID", help="Only analyses of this project."
)
status_option = click.option(
    "--status",
    type=click.Choice([s.value for s in STATUSES]),
    help="Only analyses in this state.",
)


@analyses.command("list")
@scope_options
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_PAGE),
    default=None,
    help="Page size, 1–100 (default 20; with --all or --max-items, 100).",
)
@click.option("--after", metavar="CURSOR", help="Start after this cursor (a next_cursor).")
@click.option("--all", "all_pages", is_flag=True, help="Follow cursors to the end.")
@click.option(
    "--max-items", type=click.IntRange(min=1), metavar="N", help="Follow cursors until N analyses."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table for people; json/jsonl as received; csv with breakdown flattened.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Read the local cache only (what the app showed; no request); its age on stderr.",
)
@click.pass_obj
def list_analyses(
    ctx: CliContext,
    /,
    limit: int | None,
    after: str | None,
    all_pages: bool,
    max_items: int | None,
    fmt: str,
    offline: bool,
    **flags: Any,
) -> None:
    """List analyses, newest first as the server orders them (or as --view sorts them).

    With a label, a time, a score or a criterion (or several projects), the rows are
    filtered here as the pages arrive: the listing reads pages until it has as many rows
    as asked for (--limit, --max-items, --last) or --all reaches the end."""
    scope, view = ctx.run(lambda: chosen_scope(ctx.settings.views, flags))
    where = ctx.run(lambda: scope_at(scope, datetime.now(UTC)))
    project_id, status_key = where.server_key
    status = status_key.value if status_key is not None else None
    if all_pages and max_items is not None:
        raise click.UsageError("--all and --max-items cannot be combined")
    following = all_pages or max_items is not None
    page_size = limit or (MAX_PAGE if following else 20)
    if max_items is not None:
        page_size = min(page_size, max_items)

    order = SortOrder.written(view.sort if view is not None else None)
    # A view's chosen columns are a CSV's columns (JSON keeps each analysis whole).
    fields = csv_fields(view.columns) if view is not None and view.columns else None
    if offline:
        if after is not None:
            raise click.UsageError("--after names a server's cursor: not with --offline")
        most = None if all_pages else (max_items or page_size)
        if where.last is not None:
            most = where.last if most is None else min(most, where.last)
        ctx.run(lambda: _list_offline(ctx, where, most, fmt, order, fields))
        return
    if where.client_side or where.last is not None or order.column is not None:
        most = where.last
        if not all_pages:
            most = min(n for n in (max_items or limit or 20, where.last) if n is not None)
        scanned = ctx.run(
            lambda: asyncio.run(
                list_in_scope(
                    ctx,
                    where,
                    order,
                    fmt,
                    most=most,
                    after=after,
                    prefetch=all_pages,
                    fields=fields,
                )
            )
        )
        if fmt == "table" and scanned.matched == 0 and scanned.stopped is None:
            click.echo("No analyses match.", err=True)
        click.echo(scanned.words(), err=True)
        return

    options: dict[str, Any] = {
        "project_id": project_id,
        "status": status,
        "limit": page_size,
        "after": after,
        # --all reads every page: ask for the next while this one is written.
        "prefetch": all_pages,
        "max_items": max_items,
    }

    notes = ListingNotes(project_id, status)

    async def run() -> _Listing:
        async with ctx.make_client() as client:
            if fmt == "table":
                table = TableWriter(sys.stdout)
                pages = client.iter_pages(**options)
                return await _stream(pages, _model_items, table.write, following, notes)
            writer = make_raw_writer(fmt, sys.stdout, fields)
            try:
                raw = client.iter_raw_pages(**options)
                listing = await _stream(raw, _raw_items, writer.write, following, notes)
            except BaseException:
                with contextlib.suppress(OSError):  # stdout itself may be what failed
                    writer.abandon()  # what was written stays valid: `[` is closed
                raise
            writer.close()
            return listing

    listing = ctx.run(lambda: asyncio.run(run()))
    if listing.stopped is not None:
        warn(f"{listing.stopped.detail}. {_next_page(listing.stopped.next_cursor)}")
    if fmt != "table":
        return
    if listing.written == 0 and listing.next_cursor is None and listing.stopped is None:
        click.echo("No analyses match.", err=True)
    elif listing.next_cursor and (not following or max_items is not None):
        total = UNKNOWN_TOTAL if listing.total is None else format_count(listing.total)
        shown = format_count(listing.written)
        click.echo(f"Showing {shown} of {total}. {_next_page(listing.next_cursor)}", err=True)


def _next_page(cursor: str) -> str:
    """The hint to go on, the cursor quoted for a shell."""
    return f"Next page: --after {shell_word(cursor)}"


@dataclass
class _Listing:
    """What a listing wrote, where the server said it could go on, and whether the walk
    stopped at its bound on pages that bring nothing (`stopped`: more may exist)."""

    written: int = 0
    total: int | None = None
    next_cursor: str | None = None
    stopped: EmptyPagesError | None = None


PageT = TypeVar("PageT", AnalysisPage, RawPage)
ItemT = TypeVar("ItemT")


async def _stream(
    walk: Walk[PageT],
    items_of: Callable[[PageT], Sequence[ItemT]],
    write: Callable[[Sequence[ItemT]], None],
    following: bool,
    notes: ListingNotes,
) -> _Listing:
    """Write each page of the walk (rows not written before, up to --max-items); unless
    `following`, pages until one brings rows (empty pages that say more exist are gone
    through, as far as `Walk`'s bound). What is odd is said once on stderr (`notes`); the
    walk is closed however this ends."""
    listing = _Listing()
    async with walk:
        try:
            async for page in walk:
                for note in notes.page(page, cursor=not following):
                    warn(note)
                rows = items_of(page)
                notes.rows(rows)
                # In a thread, so the loop sends the prefetched request while this is written.
                await asyncio.to_thread(write, rows)
                listing.written += len(rows)
                listing.total, listing.next_cursor = page.total, page.next_cursor
                if not following and listing.written:
                    break
        except EmptyPagesError as exc:
            listing.stopped, listing.next_cursor = exc, None
        except BadRequestError as exc:
            if walk.pages_fetched == 0:
                raise  # the user's own arguments (or --after) were refused
            raise CliError(
                f"{exc}; the server refused the cursor it gave after "
                f"{format_count(listing.written)} "
                "analyses: run the command again to restart the listing from the top",
                ExitCode.API,
            ) from exc
        finally:
            for line in notes.summary():
                warn(line)
    return listing


def _offline_count(
    shown: int, view: CachedView, status: str | None, whole: CachedView | None
) -> str:
    """How many analyses an offline listing shows, in words: "5 analyses of 300"; for a
    status whose own list was never kept, those of the list of every status that have it:
    "0 pending analyses among the 100 kept of all statuses (the pending list itself was
    not kept)"."""
    if whole is None:
        total = "" if view.total is None else f" of {format_count(view.total)}"
        return count_of(shown, "analysis", "analyses") + total
    found = len(view.items)
    some = (
        f"{format_count(shown)} of {format_count(found)}" if shown < found else format_count(found)
    )
    noun = "analysis" if found == 1 else "analyses"
    return (
        f"{some} {status} {noun} among the {format_count(len(whole.items))} kept of all "
        f"statuses (the {status} list itself was not kept)"
    )


def _model_items(page: AnalysisPage) -> list[AnalysisItem]:
    return page.items


def _raw_items(page: RawPage) -> list[Any]:
    return page.data


def _list_offline(
    ctx: CliContext,
    where: Filter,
    most: int | None,
    fmt: str,
    order: SortOrder,
    fields: Sequence[str] | None,
) -> None:
    """The view as the local cache kept it (filtered by the scope); where it is from on
    stderr."""
    from screen_analysis.cli.cache_commands import age_words, nothing_kept, offline_cache

    project_id, status_key = where.server_key
    status = status_key.value if status_key is not None else None
    with offline_cache(ctx) as kept:
        view = kept.view(project_id, status)
        whole = kept.view(project_id, None) if view is None and status is not None else None
        if whole is not None:
            view = kept.matching(project_id, status)
    if view is None:
        raise nothing_kept("this project and status")
    matching = [item for item in view.items if where.matches(item)]
    items = sort_rows(matching if most is None else matching[:most], order)
    click.echo(
        f"From the local cache: {_offline_count(len(items), view, status, whole)}, "
        f"{age_words(view.fetched_at)}.",
        err=True,
    )
    write_rows(items, fmt, sys.stdout, fields)
