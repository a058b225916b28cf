"""Writers of analyses as CSV, JSON and JSON Lines, page by page: what `analyses list`
prints and what the app exports, with the same columns. Headless (no terminal, no UI):
server text has its control characters escaped or made visible at this edge. They take the
items as received (JSON values); `raw_of` gives them for rows kept without their page.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Sequence
from typing import Any, Protocol, TextIO

from screen_analysis.api.models import CRITERIA, AnalysisItem, as_sent
from screen_analysis.safe_text import clean

# Characters json.dumps(ensure_ascii=False) leaves raw that a terminal would act on (C1
# codes) or that reorder the line (bidi overrides); in JSON they can only occur in strings.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def dumps_json(value: Any, **options: Any) -> str:
    """JSON text that keeps non-ASCII readable but escapes every control character."""
    return _JSON_UNSAFE.sub(_escape, json.dumps(value, ensure_ascii=False, **options))


def dumps_items(items: Sequence[Any], separator: str) -> str:
    """Each item as compact JSON, joined by `separator`, control characters escaped.

    One encoder call per item and one escaping pass per page: the items are written as
    received, never rebuilt.
    """
    return _JSON_UNSAFE.sub(_escape, separator.join(map(_ENCODER.encode, items)))


class RawWriter(Protocol):
    """Receives the items of each page as received (JSON values), so long listings stream."""

    def write(self, raw: Sequence[Any]) -> None:
        """Write one page's items."""

    def close(self) -> None:
        """Finish the output (closing brackets, flushing)."""

    def abandon(self) -> None:
        """Finish what was written after a failure, so it stays valid (a JSON array that
        was opened is closed; nothing is written when nothing was)."""


class JsonLinesWriter:
    """One JSON object a line, as received, flushed per page."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, raw: Sequence[Any]) -> None:
        """Write the page."""
        if raw:
            self.out.write(dumps_items(raw, "\n") + "\n")
            self.out.flush()

    def close(self) -> None:
        """Nothing to close."""

    def abandon(self) -> None:
        """Nothing to finish: each line stands alone."""


class JsonArrayWriter:
    """A JSON array of the analyses as received, streamed page by page."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0

    def write(self, raw: Sequence[Any]) -> None:
        """Write the page."""
        if raw:
            self.out.write(("[\n  " if self.count == 0 else ",\n  ") + dumps_items(raw, ",\n  "))
            self.count += len(raw)
            self.out.flush()

    def close(self) -> None:
        """Close the array."""
        self.out.write("[]\n" if self.count == 0 else "\n]\n")
        self.out.flush()

    def abandon(self) -> None:
        """Close the array of what was written, if any was (the failure goes to stderr)."""
        if self.count:
            self.close()


CSV_COLUMNS = (
    "id",
    "project_id",
    "status",
    "label",
    "score",
    *(c.value for c in CRITERIA),
    "error_message",
    "feedback",
    "created_at",
    "completed_at",
    "image_url",
)
# A carriage return in front is made visible (␍) before this check, so it starts nothing.
_FORMULA_START = ("=", "+", "-", "@", "\t")


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        value = " | ".join(str(v) for v in value)
    # Spreadsheets and terminals alike would act on control characters: made visible.
    text = clean(value, single_line=False)
    # A cell that a spreadsheet would run as a formula is quoted as text.
    if isinstance(value, str) and text.startswith(_FORMULA_START):
        return "'" + text
    return text


class CsvWriter:
    """CSV with breakdown flattened into one column per criterion: the fields of
    `CSV_COLUMNS`, or those `fields` names (a view's columns), in that order."""

    def __init__(self, out: TextIO, fields: Sequence[str] = CSV_COLUMNS) -> None:
        self.out = out
        self.fields = tuple(fields)
        self.writer = csv.writer(out, lineterminator="\n")
        self.writer.writerow(self.fields)

    def write(self, raw: Sequence[Any]) -> None:
        """Write the page."""
        for obj in raw:
            row = obj if isinstance(obj, dict) else {}
            breakdown = row.get("breakdown") if isinstance(row.get("breakdown"), dict) else {}
            values = {**row, **(breakdown or {})}
            self.writer.writerow([_csv_cell(values.get(col)) for col in self.fields])
        self.out.flush()

    def close(self) -> None:
        """Nothing to close."""

    def abandon(self) -> None:
        """Nothing to finish: each row stands alone."""


def make_raw_writer(fmt: str, out: TextIO, fields: Sequence[str] | None = None) -> RawWriter:
    """The writer for a --format value that passes items through (json, jsonl, csv); a
    CSV's columns are `fields` when given (JSON keeps each object whole)."""
    if fmt == "jsonl":
        return JsonLinesWriter(out)
    if fmt == "json":
        return JsonArrayWriter(out)
    if fmt == "csv":
        return CsvWriter(out, CSV_COLUMNS if fields is None else fields)
    raise ValueError(f"no raw writer for {fmt!r}")


def raw_of(items: Sequence[AnalysisItem]) -> list[Any]:
    """The rows as the server sent them, for items kept without their page (`as_sent`)."""
    return [as_sent(item) for item in items]
