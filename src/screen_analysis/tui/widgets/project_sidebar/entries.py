"""What a sidebar entry says and where it stands: the name line, the numbers line, the order."""

from __future__ import annotations

from textual.content import Content

from screen_analysis.numbers import DASH, format_count, format_score
from screen_analysis.safe_text import DISPLAY_LIMIT, clean
from screen_analysis.tui.project_book import KnownProject

NOTES = {
    "queued": "not loaded yet",
    "loading": "loading…",
    "missing": "not found",
    "error": "couldn't load",
}


def entry_lines(entry: KnownProject) -> tuple[str, str]:
    """The name line and the statistics line of an entry, as plain (cleaned) text."""
    project = entry.project
    if project is None:
        note = NOTES.get(entry.state, "loading…")
        return clean(entry.project_id, limit=DISPLAY_LIMIT) or DASH, note
    count = project.analysis_count
    counted = DASH if count is None else f"{format_count(count)}"
    average = DASH if project.avg_score is None else format_score(project.avg_score)
    name = clean(project.name, limit=DISPLAY_LIMIT) or clean(project.id, limit=DISPLAY_LIMIT)
    return name or DASH, f"{counted} · avg {average}"


def listing_order(entry: KnownProject) -> tuple[str, str]:
    """Projects are listed by name (case folded), then id: the same order every run."""
    return entry_lines(entry)[0].casefold(), entry.project_id


def prompt(entry: KnownProject, marker: str) -> Content:
    """The entry's two lines: the marker and the name in bold, then its numbers, dimmed."""
    name, stats = entry_lines(entry)
    return Content.assemble(marker, (name, "bold"), "\n", "  ", (stats, "dim"))


def prompt_all(marker: str) -> Content:
    """The "All projects" line."""
    return Content(marker) + Content.styled("All projects", "bold")
