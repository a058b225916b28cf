"""Moved to `screen_analysis.tui.dialogs.error`; this name stays for imports not yet moved."""

from screen_analysis.tui.dialogs.error import ErrorScreen, Problem, explain

__all__ = ["ErrorScreen", "Problem", "explain"]
