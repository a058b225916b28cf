"""The main view: the screen that composes the project sidebar, the status filter, the
analyses pane and the detail (`screen.py`), its keys, its problem desk and its actions."""

from screen_analysis.tui.screens.main.screen import MainScreen

__all__ = ["MainScreen"]
