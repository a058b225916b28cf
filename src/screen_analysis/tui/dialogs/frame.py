"""The one dialog frame: a bordered box on the surface colour, with title and hint styles."""

from __future__ import annotations

from textual.containers import Vertical


class DialogFrame(Vertical):
    """The box every dialog sits in. The `-error` class draws it in the error colour.

    The dialog screen places it (`align`) and may set its width; `.dialog-title` and
    `.dialog-hint` lines inside it get the shared look.
    """

    DEFAULT_CSS = """
    DialogFrame {
        width: 60;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
        &.-error { border: thick $error; }
        & .dialog-title { text-style: bold; }
        & .dialog-hint { color: $foreground-muted; }
    }
    """
