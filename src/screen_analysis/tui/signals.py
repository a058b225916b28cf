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
import contextlib
import signal
from typing import Any

from textual.app import App

ENDING: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def run_until_ended(app: App[Any]) -> None:
    """Run `app` (as `App.run` does) until it exits, or until one of `ENDING` asks it to."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        installed = []
        for sig in ENDING:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, _end, app, sig)  # not on Windows' loop
                installed.append(sig)
        try:
            await app.run_async()
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)

    asyncio.run(run())


def _end(app: App[Any], sig: signal.Signals) -> None:
    app.exit(return_code=128 + sig)
