"""The cold-start baseline: the least a Textual app must do to show one page of analyses.

Fetches one page of 100 analyses with httpx and fills a DataTable. Run it as
`python -m benchmarks.baseline_app BASE_URL` with the key in SCREEN_ANALYSIS_API_KEY.
"""

from __future__ import annotations

import os
import sys

import httpx
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.widgets import DataTable

COLUMNS = ("Status", "Score", "Label", "Project", "Created", "ID")
FIELDS = ("status", "score", "label", "project_id", "created_at", "id")


class BaselineApp(App[None]):
    """One DataTable, filled from the first page of the listing."""

    def __init__(self, base_url: str, api_key: str) -> None:
        super().__init__()
        self.base_url = base_url
        self.api_key = api_key

    def compose(self) -> ComposeResult:
        """Just the table."""
        yield DataTable(cursor_type="row")

    def on_mount(self) -> None:
        """Add the columns and fetch the page."""
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.load()

    @work(exclusive=True)
    async def load(self) -> None:
        """Fetch one page and add its rows, shown literally."""
        headers = {"Authorization": f"Bearer {self.api_key}"}
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers) as client:
            response = await client.get("/v1/analyses", params={"limit": 100})
        response.raise_for_status()
        rows = response.json()["data"]
        table: DataTable[Text] = self.query_one(DataTable)
        table.add_rows(tuple(Text(str(row.get(f) or "")) for f in FIELDS) for row in rows)

    def key_q(self) -> None:
        """Quit."""
        self.exit()


if __name__ == "__main__":
    BaselineApp(sys.argv[1], os.environ["SCREEN_ANALYSIS_API_KEY"]).run()
