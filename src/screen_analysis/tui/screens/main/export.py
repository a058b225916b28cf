"""Export what the main screen shows: the view (project, status, the table's sort) to a
CSV or JSON Lines file — a CSV with the columns the view chose (`browse.columns.csv_fields`),
else those of `analyses list` (`api/writers.py`); JSON Lines with each analysis whole.

Run by the main screen in its "export" worker with what the view is (`ExportRequest`),
through the app's one way of writing a file the user names (`dialogs.save`): a path
(default: a name for the view in the current directory), which rows (the loaded ones, or
every page through the client's one page walker, `iter_pages`, with a progress dialog and
Esc to cancel), and a question before replacing a file that exists. The file is written
beside its place and moved there at the end, so a failed or cancelled export leaves
nothing behind.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TextIO

from textual.screen import Screen
from textual.worker import get_current_worker

from screen_analysis.api.current import CurrentClient
from screen_analysis.api.models import AnalysisItem
from screen_analysis.api.writers import RawWriter, make_raw_writer, raw_of
from screen_analysis.browse import ViewKey
from screen_analysis.browse.columns import csv_fields
from screen_analysis.browse.order import SERVER_ORDER, SortOrder, sort_key
from screen_analysis.browse.scope import Filter
from screen_analysis.numbers import count_of, format_count
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.choice import Choice, ChoiceDialog
from screen_analysis.tui.dialogs.progress import ProgressDialog
from screen_analysis.tui.dialogs.prompt import EXPORT
from screen_analysis.tui.dialogs.save import SaveHost, Write, save_file
from screen_analysis.user_files import replacing

EXPORT_PAGE_SIZE = 100  # the largest page the API serves
_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def default_export_path(view: ViewKey, directory: Path, order: SortOrder = SERVER_ORDER) -> Path:
    """`analyses-<project|all>-<status|all>[-by-<column>[-desc]].csv` in `directory`."""
    parts = [view.project_id or "all", view.status or "all"]
    if order.column is not None:
        parts.append(f"by-{order.column}" + ("-desc" if order.descending else ""))
    name = "-".join(_UNSAFE_NAME.sub("_", part)[:60] for part in parts)
    return directory / f"analyses-{name}.csv"


def export_format(path: Path) -> str | None:
    """ "csv" or "jsonl" by the file's suffix; None for any other."""
    return _FORMATS.get(path.suffix.lower())


def make_export_writer(fmt: str, out: TextIO, columns: Sequence[str] | None = None) -> RawWriter:
    """The writer for an export format (`analyses list --format`'s); a CSV writes the
    view's `columns` when it chose some."""
    return make_raw_writer(fmt, out, None if columns is None else csv_fields(columns))


def write_rows(
    path: Path,
    fmt: str,
    items: Sequence[AnalysisItem],
    *,
    replace: bool,
    columns: Sequence[str] | None = None,
) -> int:
    """Write `items` to `path` in `fmt` (over a file there only with `replace`; a CSV with
    the view's `columns` when it chose some); the number of rows written."""
    with replacing(path, exclusive=not replace) as out:
        writer = make_export_writer(fmt, out, columns)
        writer.write(raw_of(items))
        writer.close()
    return len(items)


def in_order(rows: Sequence[tuple[AnalysisItem, Any]], order: SortOrder) -> list[Any]:
    """The raw rows of (item, raw) pairs in server order, put in the table's `order` (the
    table's own sort key, so a file lists them as the screen does)."""
    if order.column is None:
        return [raw for _item, raw in rows]
    ranked = sorted(range(len(rows)), key=lambda i: sort_key(rows[i][0], i, order))
    if order.descending:
        ranked.reverse()  # the keys of a descending order are read backwards
    return [rows[i][1] for i in ranked]


class ExportRequest(NamedTuple):
    """What the view is when `e` is pressed: its key, the loaded rows in the table's order,
    that order, the server's total, whether every page is loaded, the holder of the
    client that reads the rest (read when the pages are walked), a saved view's scope and
    the columns the view chose (None: the table's own)."""

    view: ViewKey
    rows: Sequence[AnalysisItem]
    order: SortOrder
    total: int | None
    everything_loaded: bool
    current: CurrentClient
    where: Filter | None = None  # a saved view's scope, applied to every page's rows
    columns: tuple[str, ...] | None = None


class ExportHost(SaveHost, Protocol):
    """What an export needs of the screen: dialogs it waits for, notifications, and the
    progress dialog of a walk through every page."""

    async def show_progress(self, progress: ProgressDialog, closed: Callable[[Any], None]) -> None:
        """Push the progress dialog; `closed` gets what it is dismissed with."""

    def is_shown(self, screen: Screen[Any]) -> bool:
        """Whether `screen` is the one on top."""


async def export_view(host: ExportHost, request: ExportRequest) -> None:
    """Ask where and what, then write (run in the screen's "export" worker)."""
    initial = default_export_path(request.view, Path.cwd(), request.order)

    async def prepare(path: Path) -> Write | None:
        fmt = export_format(path)
        if fmt is None:
            host.say("Export to a .csv or a .jsonl file; nothing was written.", "warning")
            return None
        every_page = await _every_page(host, request)
        if every_page is None:
            return None

        async def write(target: Path, replace: bool) -> str:
            if every_page:
                count = await _write_pages(host, target, fmt, request, replace=replace)
            else:
                rows = request.rows
                count = await asyncio.to_thread(
                    partial(write_rows, replace=replace, columns=request.columns),
                    target,
                    fmt,
                    rows,
                )
            return f"Wrote {count_of(count, 'analysis', 'analyses')} to {clean(str(target))}."

        return write

    await save_file(host, EXPORT, initial, prepare)


async def _every_page(host: ExportHost, request: ExportRequest) -> bool | None:
    """Whether to write every page of the view (asked unless all are loaded); None: Esc."""
    if request.everything_loaded:
        return False
    counted = "" if request.total is None else f" ({format_count(request.total)})"
    which = await host.ask(
        ChoiceDialog(
            "Export which analyses of this view?",
            [
                Choice("l", "loaded", f"The {format_count(len(request.rows))} loaded"),
                Choice("a", "all", f"Every page{counted}"),
            ],
        )
    )
    return None if which is None else which == "all"


async def _write_pages(
    host: ExportHost, path: Path, fmt: str, request: ExportRequest, *, replace: bool
) -> int:
    """Every page of the view through the client's page walker (the client in use now),
    with a progress dialog; streamed in the server's order, or gathered and sorted like the
    table."""
    worker = get_current_worker()
    progress = ProgressDialog(f"Exporting to {clean(path.name)}…", request.total)

    def closed(result: bool | None) -> None:
        if result is None:
            worker.cancel()  # Esc

    await host.show_progress(progress, closed)
    view, order = request.view, request.order
    walk = request.current.client.iter_pages(
        view.project_id, view.status, limit=EXPORT_PAGE_SIZE, prefetch=True
    )
    count = 0
    gathered: list[tuple[AnalysisItem, Any]] = []
    where = request.where
    try:
        async with walk as pages:
            with replacing(path, exclusive=not replace) as out:
                writer = make_export_writer(fmt, out, request.columns)
                async for page in pages:
                    pairs = list(zip(page.items, page.raw_items, strict=False))
                    if where is not None:  # the view's rows: those its scope matches
                        pairs = [(item, raw) for item, raw in pairs if where.matches(item)]
                        if where.last is not None:
                            pairs = pairs[: max(where.last - count, 0)]
                    if order.column is None:
                        writer.write([raw for _item, raw in pairs])
                    else:
                        gathered.extend(pairs)
                    count += len(pairs)
                    progress.advance(len(page.items))
                    if where is not None and where.last is not None and count >= where.last:
                        break
                if gathered:
                    writer.write(in_order(gathered, order))
                writer.close()
    finally:
        if host.is_shown(progress):
            progress.finish()
    return count
