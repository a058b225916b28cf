"""Modal dialogs: one frame (`DialogFrame`), one prompt, the error and address dialogs."""

from screen_analysis.tui.dialogs.error import ErrorScreen, Problem, explain
from screen_analysis.tui.dialogs.frame import DialogFrame
from screen_analysis.tui.dialogs.prompt import (
    ADD_PROJECT,
    FIND,
    AddProjectDialog,
    FindDialog,
    Prompt,
    PromptDialog,
)
from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

__all__ = [
    "ADD_PROJECT",
    "FIND",
    "AddProjectDialog",
    "DialogFrame",
    "ErrorScreen",
    "FindDialog",
    "Problem",
    "Prompt",
    "PromptDialog",
    "ShowUrlDialog",
    "explain",
]
