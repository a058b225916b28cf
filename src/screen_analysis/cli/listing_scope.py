"""`analyses list` over a scope filtered here (`--view`, `--label`, `--score`, …): the
listing's pages walked once, each row kept when the scope matches it, until as many rows
as were asked for; written in the view's order. The rows are those the app's view shows
for the same data: the same filter (`browse.scope.Filter.matches`), the same order
(`browse.order`), the same raw shape (`api.models.as_sent`)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from screen_analysis.api.errors import EmptyPagesError
from screen_analysis.api.models import AnalysisItem
from screen_analysis.browse.order import SortOrder, sort_rows
from screen_analysis.browse.scope import Filter
from screen_analysis.cli.failures import warn
from screen_analysis.cli.output import write_rows
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import format_count

PAGE = 100  # rows a page: a filter reads pages by the hundred


@dataclass
class Scanned:
    """How a filtered listing went: rows matched, rows read, the server's total of the
    listing asked (None: unknown), and whether a run of empty pages stopped it."""

    matched: int = 0
    scanned: int = 0
    total: int | None = None
    more: bool = False
    stopped: EmptyPagesError | None = None

    def words(self) -> str:
        """ "37 match · 2,000 of 4,638 scanned" (never a total that is not known)."""
        of = f" of {format_count(self.total)}" if self.total is not None else ""
        end = " · more remain (--all reads them)" if self.more else ""
        return f"{format_count(self.matched)} match · {format_count(self.scanned)}{of} scanned{end}"


async def list_in_scope(
    ctx: CliContext,
    where: Filter,
    order: SortOrder,
    fmt: str,
    *,
    most: int | None,
    after: str | None,
    prefetch: bool,
    fields: Sequence[str] | None = None,
) -> Scanned:
    """Walk the scope's listing, write the rows that match (at most `most`; a CSV with
    `fields` as its columns when given), and say how far it went."""
    project_id, status = where.server_key
    found: list[AnalysisItem] = []
    scanned = Scanned()
    async with ctx.make_client() as client:
        walk = client.iter_pages(
            project_id,
            status.value if status is not None else None,
            limit=PAGE,
            after=after,
            prefetch=prefetch,
        )
        async with walk:
            try:
                async for page in walk:
                    scanned.scanned += len(page.items)
                    scanned.total = page.total
                    found += [item for item in page.items if where.matches(item)]
                    if most is not None and len(found) >= most:
                        del found[most:]
                        break
            except EmptyPagesError as exc:
                scanned.stopped = exc
                warn(str(exc))
            scanned.more = walk.has_more and scanned.stopped is None
    rows = sort_rows(found, order)
    scanned.matched = len(rows)
    await asyncio.to_thread(write_rows, rows, fmt, sys.stdout, fields)
    return scanned
