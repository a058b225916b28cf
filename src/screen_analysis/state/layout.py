"""Layout choices remembered between runs, in a file of their own beside the state file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from screen_analysis.file_reads import RefusedFile, read_limited, too_deep
from screen_analysis.user_files import update_text

MAX_LAYOUT_BYTES = 64 * 1024


class LayoutPreferences:
    """Layout choices remembered between runs: whether the project sidebar is folded, and
    the share of the screen the detail pane takes.

    Kept in `layout.json` beside the state file (`{"sidebar_folded": true,
    "detail_width": 40}`), written atomically under its lock, each change merged into the
    file as it is then; a damaged or unreadable file means no choice was made.
    """

    def __init__(self, state_path: Path) -> None:
        self.path = state_path.with_name("layout.json")
        data = self._read()
        folded = data.get("sidebar_folded")
        self._sidebar_folded = folded if isinstance(folded, bool) else None
        width = data.get("detail_width")
        valid = isinstance(width, int) and not isinstance(width, bool) and 10 <= width <= 90
        self._detail_width = width if valid else None

    def _read(self) -> dict[str, Any]:
        try:
            raw = read_limited(self.path, max_bytes=MAX_LAYOUT_BYTES, follow_links=False)
            data = json.loads(raw or b"{}")
        except (RefusedFile, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) and not too_deep(data) else {}

    @property
    def sidebar_folded(self) -> bool | None:
        """The user's choice, or None: none made (folded below 130 columns)."""
        return self._sidebar_folded

    @property
    def detail_width(self) -> int | None:
        """The detail pane's share of the screen in percent, or None: none chosen."""
        return self._detail_width

    def remember_sidebar(self, folded: bool) -> None:
        """Keep the choice in memory and in the file; a file that cannot be written is not
        fatal (the choice lasts this run)."""
        self._sidebar_folded = folded
        self._remember("sidebar_folded", folded)

    def remember_detail_width(self, percent: int) -> None:
        """Keep the detail pane's share (percent) in memory and in the file."""
        self._detail_width = percent
        self._remember("detail_width", percent)

    def _remember(self, key: str, value: object) -> None:
        def apply(text: str | None) -> str:
            try:
                data = json.loads(text) if text else {}
            except (ValueError, RecursionError):
                data = {}
            data = data if isinstance(data, dict) and not too_deep(data) else {}
            return json.dumps({**data, key: value}, indent=1) + "\n"

        try:
            update_text(self.path, apply, follow_links=False)
        except (OSError, ValueError):  # ValueError: not UTF-8
            return
