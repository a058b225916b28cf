"""Export what the main screen shows: the view (project, status, the table's sort) to a
CSV or JSON Lines file, with the columns of `analyses list` (`api/writers.py`).

A part the screen composes (through `HighlightActions.export`). It asks for a path
(default: a name for the view in the current directory), which rows (the loaded ones, or
every page through the client's one page walker, `iter_pages`, with a progress dialog and
Esc to cancel), and before replacing a file that exists. The file is written beside its
place and moved there at the end, so a failed or cancelled export leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from textual.worker import get_current_worker

from screen_analysis.api.describe import describe_error
from screen_analysis.api.errors import ScreenAnalysisError
from screen_analysis.api.models import AnalysisItem
from screen_analysis.api.writers import CsvWriter, JsonLinesWriter, RawWriter, raw_of
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.choice import Choice, ChoiceDialog
from screen_analysis.tui.dialogs.progress import ProgressDialog
from screen_analysis.tui.dialogs.prompt import EXPORT, PromptDialog
from screen_analysis.tui.feed import ViewKey
from screen_analysis.tui.widgets.table_order import SERVER_ORDER, SortOrder, sort_key

if TYPE_CHECKING:
    from screen_analysis.tui.screens.main import MainScreen

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


def make_export_writer(fmt: str, out: TextIO) -> RawWriter:
    """The writer for an export format (the same as `analyses list --format`)."""
    return CsvWriter(out) if fmt == "csv" else JsonLinesWriter(out)


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[TextIO]:
    """A file written beside `path` and moved over it when the block ends well; removed
    when it does not (an error, a cancel)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with partial.open("w", encoding="utf-8", newline="") as out:
            yield out
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def write_rows(path: Path, fmt: str, items: Sequence[AnalysisItem]) -> int:
    """Write `items` to `path` in `fmt`; the number of rows written."""
    with replacing(path) as out:
        writer = make_export_writer(fmt, out)
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


class ViewExport:
    """The main screen's export (key `e`): asks, then writes in a named worker."""

    def __init__(self, screen: MainScreen) -> None:
        self._screen = screen

    def _say(self, text: str, severity: str = "information") -> None:
        self._screen.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    def start(self) -> None:
        """Ask where and what, then write (group `export`; one export at a time)."""
        self._screen.run_worker(self._run(), group="export", exclusive=True, exit_on_error=False)

    async def _run(self) -> None:
        screen = self._screen
        app = screen.app
        view, rows, order = screen.view, list(screen.table.items), screen.table.row_order
        total, everything_loaded = screen.feed.total, screen.feed.done
        initial = default_export_path(view, Path.cwd(), order)
        answer = await app.push_screen_wait(PromptDialog(EXPORT, str(initial)))
        if not answer:
            return
        path = Path(answer).expanduser()
        path = path if path.is_absolute() else Path.cwd() / path
        fmt = export_format(path)
        if fmt is None:
            self._say("Export to a .csv or a .jsonl file; nothing was written.", "warning")
            return
        every_page = False
        if not everything_loaded:
            counted = "" if total is None else f" ({total})"
            which = await app.push_screen_wait(
                ChoiceDialog(
                    "Export which analyses of this view?",
                    [
                        Choice("l", "loaded", f"The {len(rows)} loaded"),
                        Choice("a", "all", f"Every page{counted}"),
                    ],
                )
            )
            if which is None:
                return
            every_page = which == "all"
        if path.is_dir():
            self._say(f"{clean(str(path))} is a directory; nothing was written.", "warning")
            return
        if path.exists():
            replace = await app.push_screen_wait(
                ChoiceDialog(
                    f"{clean(str(path))} exists. Replace it?",
                    [Choice("y", "replace", "Replace it"), Choice("n", "keep", "Keep it")],
                )
            )
            if replace != "replace":
                self._say("The file was kept; nothing was written.")
                return
        try:
            if every_page:
                count = await self._write_pages(path, fmt, view, total, order)
            else:
                count = await asyncio.to_thread(write_rows, path, fmt, rows)
        except asyncio.CancelledError:
            self._say("Export cancelled; nothing was written.", "warning")
            raise
        except (OSError, ScreenAnalysisError) as exc:
            self._say("The export failed: " + clean(describe_error(exc)), "error")
            return
        self._say(f"Wrote {count} analyses to {clean(str(path))}.")

    async def _write_pages(
        self, path: Path, fmt: str, view: ViewKey, total: int | None, order: SortOrder
    ) -> int:
        """Every page of `view` through the client's page walker, with a progress dialog;
        streamed in the server's order, or gathered and sorted like the table."""
        worker = get_current_worker()
        progress = ProgressDialog(f"Exporting to {clean(path.name)}…", total)

        def closed(result: bool | None) -> None:
            if result is None:
                worker.cancel()  # Esc

        await self._screen.app.push_screen(progress, closed)
        pages = self._screen.feed.client.iter_pages(
            view.project_id, view.status, limit=EXPORT_PAGE_SIZE, prefetch=True
        )
        count = 0
        gathered: list[tuple[AnalysisItem, Any]] = []
        try:
            with replacing(path) as out:
                writer = make_export_writer(fmt, out)
                async for page in pages:
                    if order.column is None:
                        writer.write(page.raw_items)
                    else:
                        gathered.extend(zip(page.items, page.raw_items, strict=False))
                    count += len(page.items)
                    progress.advance(len(page.items))
                if gathered:
                    writer.write(in_order(gathered, order))
                writer.close()
        finally:
            if self._screen.app.screen is progress:
                progress.finish()
        return count
