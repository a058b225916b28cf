"""Modal dialogs: one frame (`DialogFrame`), one prompt, one choice, one progress, the
error and address dialogs."""

from screen_analysis.tui.dialogs.choice import Choice, ChoiceDialog
from screen_analysis.tui.dialogs.error import ErrorScreen, Problem, explain
from screen_analysis.tui.dialogs.frame import DialogFrame
from screen_analysis.tui.dialogs.progress import ProgressDialog
from screen_analysis.tui.dialogs.prompt import (
    ADD_PROJECT,
    EXPORT,
    FIND,
    AddProjectDialog,
    FindDialog,
    Prompt,
    PromptDialog,
)
from screen_analysis.tui.dialogs.show_url import ShowUrlDialog

__all__ = [
    "ADD_PROJECT",
    "EXPORT",
    "FIND",
    "AddProjectDialog",
    "Choice",
    "ChoiceDialog",
    "DialogFrame",
    "ErrorScreen",
    "FindDialog",
    "Problem",
    "ProgressDialog",
    "Prompt",
    "PromptDialog",
    "ShowUrlDialog",
    "explain",
]
