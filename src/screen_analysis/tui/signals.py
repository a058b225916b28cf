"""The signals that end the app end it the way `q` does.

SIGTERM (a service manager, `kill`, a container stopping) and SIGHUP (the terminal or the
SSH session closed) would otherwise end the process on the spot: the terminal left in the
alternate screen with mouse tracking on and the cursor hidden, and a file being written
(an export, a report) left as a hidden temp file beside its place. Here they ask the app to
exit: its workers are cancelled (a write under way removes its temp file,
`user_files.replacing`), the local cache finishes its writes, Textual gives the terminal
back, and the exit code is 128 + the signal's number, as a shell reports it.

(SIGINT is a key to the app: the terminal is in raw mode.)
"""

from __future__ import annotations

import asyncio
import signal
from types import FrameType
from typing import Any

from textual.app import App

ENDING: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def run_until_ended(app: App[Any]) -> None:
    """Run `app` (`App.run`) until it exits, or until one of `ENDING` asks it to; the
    handlers there were before are put back after."""

    def ask_to_end(signum: int, _frame: FrameType | None) -> None:
        try:
            loop = asyncio.get_running_loop()  # the handler runs on the loop's thread
        except RuntimeError:  # before the app's loop runs, or after: nothing to give back
            raise SystemExit(128 + signum) from None
        loop.call_soon_threadsafe(lambda: app.exit(return_code=128 + signum))

    previous = {sig: signal.signal(sig, ask_to_end) for sig in ENDING}
    try:
        app.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
