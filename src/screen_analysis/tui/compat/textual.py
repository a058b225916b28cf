"""Textual's internals used where Textual offers no public way.

- `CrashReportWithoutLocals`: an unhandled exception ends the app with Textual's traceback,
  which shows every frame's local variables (`App._fatal_error` renders it with
  `show_locals=True`, and no setting turns that off). A frame's locals may hold the API key
  in plain text (a header being built), so the app's crash report leaves them out. The
  override keeps Textual's own exit path: it rings the bell and hands the traceback to the
  public `App.panic`.
- `terminal_input_events`: keys typed while the terminal was asked about graphics (before
  the app started) are raw terminal input; Textual's xterm parser is the only thing that
  turns escape sequences (arrows, Enter, Ctrl keys) into the events its driver would send.
- `write_to_terminal`: a desktop notification is an escape sequence (OSC 777, 9 or 99) for
  the terminal itself; Textual has no public way to send one, and writing past its driver
  could land in the middle of a frame it is writing. Its driver's `write` queues it in
  order with the frames.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import App, ReturnType

if TYPE_CHECKING:
    from textual.message import Message


class CrashReportWithoutLocals(App[ReturnType]):
    """An App whose report of an unhandled exception shows no local variables."""

    def _fatal_error(self) -> None:
        """Exit after an unhandled exception: the traceback without locals, then Textual's
        own exit (`panic`). Called by `App._handle_exception` inside its `except` block."""
        import rich
        from rich.traceback import Traceback

        self.bell()
        self.panic(Traceback(show_locals=False, width=None, suppress=[rich]))


def terminal_input_events(text: str) -> Iterable[Message]:
    """The events (keys, mouse, paste) Textual's driver would make of `text`."""
    from textual._xterm_parser import XTermParser

    return XTermParser().feed(text)


def write_to_terminal(app: App[object], sequence: str) -> bool:
    """Send `sequence` to the terminal through the app's driver, in order with its frames;
    False when there is no driver (the app is not running) or it is headless."""
    driver = getattr(app, "_driver", None)
    if driver is None or app.is_headless:
        return False
    driver.write(sequence)
    driver.flush()
    return True
