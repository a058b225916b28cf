"""The app's own theme variables: shared by the theme loader and the theme-file checker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# The app's own theme variables, each with the Textual variables its default is taken from
# (the first one the theme generates) when a theme does not set it, so `$status-completed`
# works with Textual's built-in themes too, ANSI ones included.
APP_VARIABLES: Final[Mapping[str, tuple[str, ...]]] = {
    "status-pending": ("foreground-muted", "foreground"),
    "status-processing": ("warning",),
    "status-completed": ("success",),
    "status-failed": ("error",),
    "status-unknown": ("accent",),
    "score-good": ("success",),
    "score-fair": ("warning",),
    "score-poor": ("error",),
    "score-bar-fill": ("primary",),
    "score-bar-empty": ("foreground-disabled", "foreground-muted", "foreground"),
}
