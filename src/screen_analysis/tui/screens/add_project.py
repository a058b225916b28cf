"""Moved to `screen_analysis.tui.dialogs`; this name stays for imports not yet moved."""

from screen_analysis.tui.dialogs.prompt import AddProjectDialog

__all__ = ["AddProjectDialog"]
