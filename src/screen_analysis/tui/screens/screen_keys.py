"""The keys of the screens opened later (sign-in, welcome, image, overview, comparison,
help, the report export), as data: light enough for the app to list in help and check
`[keymap]` against without importing the screens (or the aggregates behind them).

One rule for going back, as in k9s and lazygit: on every screen opened over the main one,
Esc and q go back (q quits only from the main screen); a field that takes text keeps q."""

from __future__ import annotations

from textual.binding import Binding, BindingType

OVERVIEW_KEYS: list[BindingType] = [
    Binding("escape,q", "back", "Back", tooltip="Stop reading, or go back", id="overview-back"),
    Binding("r", "reload", "Refresh", tooltip="Read every page again", id="overview-refresh"),
    Binding("e", "export", "Export", tooltip="Write this overview as a report", id="export"),
]

COMPARE_KEYS: list[BindingType] = [
    Binding("escape,q", "back", "Back", tooltip="Back to the analyses", id="compare-back"),
    Binding("s", "swap", "Swap A/B", tooltip="Swap the two sides", id="compare-swap"),
]

IMAGE_VIEW_KEYS: list[BindingType] = [
    Binding("escape,q,i", "back", "Back", tooltip="Back to the analyses", id="image-view-back"),
]

LOGIN_KEYS: list[BindingType] = [
    Binding(
        "escape",
        "cancel",
        "Cancel",
        tooltip="Keep the current view (when signing in again)",
        id="login-cancel",
    ),
    # q and ? type into the fields here; a modal screen keeps the app's keys from working
    Binding("ctrl+q", "app.quit", "Quit", tooltip="Quit (exit code 0)", id="login-quit"),
    Binding("f1", "app.help", "Help", tooltip="This help", id="help"),
]

WELCOME_KEYS: list[BindingType] = [
    Binding(
        "ctrl+d",
        "demo",
        "Try the demo",
        tooltip="Start the built-in demo server (made-up data, no key)",
        id="welcome-demo",
    ),
]

HELP_KEYS: list[BindingType] = [
    Binding(
        "escape,q,question_mark,f1", "dismiss", "Close", tooltip="Close this help", id="help-close"
    ),
]
