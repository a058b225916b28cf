"""Telling that a watched analysis finished: a toast with its score or its error, the
terminal's bell, a desktop notification through the terminal (`notify` in the config).

A desktop notification is an escape sequence the terminal turns into one: OSC 99 for kitty,
OSC 9 for iTerm2, WezTerm and Windows Terminal, OSC 777 for the others (foot, Ghostty,
VTE terminals, rxvt); a terminal that speaks none ignores it. Inside tmux it is wrapped for
passthrough (`set -g allow-passthrough on`), as the images are.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal, Protocol

from textual.screen import Screen

from screen_analysis.browse.watch import EventKind, WatchEvent
from screen_analysis.numbers import format_score
from screen_analysis.safe_text import TITLE_LIMIT, clean
from screen_analysis.tui.graphics import tmux_passthrough
from screen_analysis.validation import adapter, describe_errors

Kind = Literal["toast", "bell", "desktop"]
NOTIFY_DEFAULT: tuple[Kind, ...] = ("toast",)
TITLE = "screen-analysis"


def parse_notify(raw: object) -> tuple[tuple[Kind, ...], str | None]:
    """The ways to tell (`notify = ["toast", "bell", "desktop"]`), and one line when the
    setting was refused (the default then applies)."""
    if raw is None:
        return NOTIFY_DEFAULT, None  # nothing to check: pydantic stays unloaded
    from pydantic import ValidationError

    try:
        kinds = adapter(list[Kind]).validate_python(raw, strict=True)
    except ValidationError as exc:
        return NOTIFY_DEFAULT, f"notify: {describe_errors(exc)}"
    return tuple(dict.fromkeys(kinds)), None


def said(event: WatchEvent) -> str:
    """ "Checkout v3 completed: score 72" / "Checkout v3 failed: image unreadable"."""
    analysis = event.analysis
    name = clean(analysis.label or analysis.id, limit=TITLE_LIMIT)
    if event.kind is EventKind.COMPLETED:
        return f"{name} completed: score {format_score(analysis.score)}"
    reason = clean(analysis.error_message or "no reason given", limit=TITLE_LIMIT)
    return f"{name} failed: {reason}"


def desktop_sequence(title: str, body: str, environ: Mapping[str, str] | None = None) -> str:
    """The escape sequence asking the terminal for a desktop notification (see the module).
    `title` and `body` must be clean (no control characters); `;` is kept out of OSC 777's
    fields, which it separates."""
    env = os.environ if environ is None else environ
    program = env.get("TERM_PROGRAM", "")
    if env.get("KITTY_WINDOW_ID") or env.get("TERM") == "xterm-kitty":
        sequence = f"\x1b]99;i=sa:d=0;{title}\x1b\\\x1b]99;i=sa:d=1:p=body;{body}\x1b\\"
    elif program in ("iTerm.app", "WezTerm") or env.get("WT_SESSION"):
        sequence = f"\x1b]9;{title}: {body}\x1b\\"
    else:
        sequence = f"\x1b]777;notify;{title.replace(';', ',')};{body.replace(';', ',')}\x1b\\"
    return tmux_passthrough(sequence) if env.get("TMUX") else sequence


class Teller(Protocol):
    """Where the app tells things: a toast, the bell, a sequence for the terminal."""

    def toast(self, text: str, severity: Literal["information", "warning", "error"]) -> None:
        """Show a notification."""

    def bell(self) -> None:
        """Ring the terminal's bell."""

    def to_terminal(self, sequence: str) -> None:
        """Write an escape sequence to the terminal."""


def tell(event: WatchEvent, kinds: tuple[Kind, ...], teller: Teller) -> None:
    """Tell that `event`'s analysis finished, in each of `kinds`."""
    text = said(event)
    if "toast" in kinds:
        failed = event.kind is EventKind.FAILED
        teller.toast(text, "warning" if failed else "information")
    if "bell" in kinds:
        teller.bell()
    if "desktop" in kinds:
        teller.to_terminal(desktop_sequence(TITLE, text))


class ScreenTeller:
    """A `Teller` on a screen: its notifications, the app's bell and terminal."""

    def __init__(self, screen: Screen[Any]) -> None:
        """Tell on `screen`."""
        self._screen = screen

    def toast(self, text: str, severity: Literal["information", "warning", "error"]) -> None:
        """A notification of the screen, for longer than most: it may come unlooked for."""
        self._screen.notify(text, severity=severity, markup=False, timeout=10)

    def bell(self) -> None:
        """The terminal's bell."""
        self._screen.app.bell()

    def to_terminal(self, sequence: str) -> None:
        """`sequence` to the terminal, in order with the app's frames."""
        from screen_analysis.tui.compat.textual import write_to_terminal

        write_to_terminal(self._screen.app, sequence)
