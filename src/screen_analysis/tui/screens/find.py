"""Moved to `screen_analysis.tui.dialogs`; this name stays for imports not yet moved."""

from screen_analysis.tui.dialogs.prompt import FindDialog

__all__ = ["FindDialog"]
