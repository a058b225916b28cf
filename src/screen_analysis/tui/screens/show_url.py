"""Moved to `screen_analysis.tui.dialogs`; this name stays for imports not yet moved."""

from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

__all__ = ["ShowUrlDialog"]
