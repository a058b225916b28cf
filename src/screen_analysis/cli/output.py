"""Writers for `analyses list`: table for people (models), json/jsonl as received, csv flattened.

json, jsonl and csv take the items as parsed from the body (`RawPage.data`) and live in
`api/writers.py`, shared with the app's export; the table takes validated models, so an
invalid item shows as "invalid" with its reason.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Sequence
from typing import TextIO

from screen_analysis.api.models import Analysis, AnalysisItem
from screen_analysis.api.writers import (
    CSV_COLUMNS,
    CsvWriter,
    JsonArrayWriter,
    JsonLinesWriter,
    RawWriter,
    dumps_items,
    dumps_json,
    make_raw_writer,
    raw_of,
)
from screen_analysis.numbers import format_score
from screen_analysis.safe_text import clean
from screen_analysis.words import fit_cell, utc_time

__all__ = [
    "CSV_COLUMNS",
    "FORMATS",
    "CsvWriter",
    "JsonArrayWriter",
    "JsonLinesWriter",
    "RawWriter",
    "TableWriter",
    "dumps_items",
    "dumps_json",
    "make_raw_writer",
    "shell_word",
]

FORMATS = ("table", "json", "jsonl", "csv")


class TableWriter:
    """Aligned columns for people, sized to the terminal; server text cleaned."""

    def __init__(self, out: TextIO, width: int | None = None) -> None:
        self.out = out
        self.width = width or shutil.get_terminal_size((100, 24)).columns
        self.header_written = False

    def _widths(self) -> list[int]:
        # status, score, id, created fixed; label takes the rest
        fixed = [10, 5, 28, 20]
        label = max(12, self.width - sum(fixed) - 4 * 2)
        return [fixed[0], fixed[1], label, fixed[3], fixed[2]]

    def _line(self, cells: Sequence[str]) -> str:
        parts = []
        for cell, width in zip(cells, self._widths(), strict=True):
            parts.append(fit_cell(cell, width))
        return "  ".join(parts).rstrip()

    def write(self, items: Sequence[AnalysisItem]) -> None:
        """Write the page (the header before the first row)."""
        if items and not self.header_written:
            self.out.write(self._line(["STATUS", "SCORE", "LABEL", "CREATED", "ID"]) + "\n")
            self.header_written = True
        for item in items:
            if isinstance(item, Analysis):
                score = format_score(item.score)
                created = utc_time(item.created_at)
                cells = [clean(item.status or "—"), score, clean(item.label or ""), created]
                cells.append(clean(item.id))
            else:
                cells = ["invalid", "—", clean(item.reason), "—", clean(item.id or "—")]
            self.out.write(self._line(cells) + "\n")
        self.out.flush()

    def close(self) -> None:
        """Nothing to close."""


# What a terminal would act on, or a shell's single quotes could not hold as it is.
_NOT_PLAIN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def shell_word(text: str) -> str:
    """`text` as one shell word to paste back as it is (`--after 'quis consectetur'`): in
    single quotes when needed; with control characters, in $'…' with those escaped, so
    none reaches the terminal and the word still stands for the exact text."""
    if not _NOT_PLAIN.search(text):
        return shlex.quote(text)
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return "$'" + _NOT_PLAIN.sub(_escape_code, escaped) + "'"


def _escape_code(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def write_rows(
    rows: Sequence[AnalysisItem],
    fmt: str,
    out: TextIO,
    fields: Sequence[str] | None = None,
) -> None:
    """Rows already read, as a whole, in `fmt`: the table, or JSON, JSON Lines or CSV as the
    API sent them (a CSV with `fields` as its columns when given)."""
    if fmt == "table":
        TableWriter(out).write(rows)
        return
    writer = make_raw_writer(fmt, out, fields)
    writer.write(raw_of(rows))
    writer.close()
