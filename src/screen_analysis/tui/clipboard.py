"""Copying to the clipboard with OSC 52, which terminals honour over SSH too."""

from __future__ import annotations

from typing import Any

from textual.app import App

from screen_analysis.safe_text import clean


def copy_text(app: App[Any], text: str) -> str:
    """Copy `text` (control characters made harmless) and return what was copied."""
    safe = clean(text)
    app.copy_to_clipboard(safe)
    return safe
