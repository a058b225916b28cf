"""The local floor: the least a Textual app must do to show one page of analyses it has
on this machine already.

Reads one page of analyses (the listing's JSON, as the server sent it) from a local file
and fills a DataTable: no network, no HTTP client. Run it as
`python -m benchmarks.local_app PAGE.json`. `benchmarks/floor.py` compares the app's warm
start (its local cache filled, the server far away) with it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

COLUMNS = ("Status", "Score", "Label", "Project", "Created", "ID")
FIELDS = ("status", "score", "label", "project_id", "created_at", "id")


class LocalApp(App[None]):
    """One DataTable, filled from a page kept in a file."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        """Just the table."""
        yield DataTable(cursor_type="row")

    def on_mount(self) -> None:
        """Add the columns and the page's rows, shown literally."""
        rows = json.loads(self.path.read_text(encoding="utf-8"))["data"]
        table: DataTable[Text] = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.add_rows(tuple(Text(str(row.get(f) or "")) for f in FIELDS) for row in rows)

    def key_q(self) -> None:
        """Quit."""
        self.exit()


if __name__ == "__main__":
    LocalApp(Path(sys.argv[1])).run()
