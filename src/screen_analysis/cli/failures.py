"""One place that turns any failure into one clear line on stderr and an exit code.

The words are the one `problems.explain`'s (the detail, then the advice); the key is cut
out by the one redactor (`secret.SecretRedactor`).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable
from typing import NoReturn, TypeVar

import click

from screen_analysis.api import errors as api_errors
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.config import ConfigError
from screen_analysis.problems import explain
from screen_analysis.safe_text import clean, shorten_runs
from screen_analysis.secret import SecretRedactor

T = TypeVar("T")


def exit_code_for(exc: BaseException) -> ExitCode:
    """The exit code a script sees for `exc`."""
    if isinstance(exc, CliError):
        return exc.code
    if isinstance(exc, api_errors.InvalidArgumentError | ConfigError):
        return ExitCode.USAGE
    if isinstance(exc, api_errors.AuthenticationError):
        return ExitCode.AUTH
    if isinstance(exc, api_errors.NotFoundError):
        return ExitCode.NOT_FOUND
    if isinstance(exc, api_errors.BadRequestError):
        return ExitCode.USAGE  # the server refused what the user asked (e.g. a bad --after)
    if isinstance(exc, api_errors.ScreenAnalysisError):
        return ExitCode.API
    if isinstance(exc, OSError):
        return ExitCode.USAGE  # the system refused a file, a stream or an address we were given
    return ExitCode.INTERNAL


def end_on_signals() -> None:
    """SIGTERM and SIGHUP end a command as an error does: the code unwinds (a file being
    written is removed, a JSON array is closed, the demo server stops), and the exit code
    is 128 + the signal's number, as a shell reports it. (The app has its own: it must
    give the terminal back, `tui/signals.py`.)"""
    for name in ("SIGTERM", "SIGHUP"):
        if (sig := getattr(signal, name, None)) is not None:
            signal.signal(sig, _ended)


class _Signalled:
    """The exit code a signal asked for, once one came (None: none yet)."""

    code: int | None = None


def _ended(signum: int, _frame: object) -> None:
    code = _Signalled.code = 128 + signum
    asyncio = sys.modules.get("asyncio")
    try:
        loop = asyncio.get_running_loop() if asyncio is not None else None
    except RuntimeError:  # no event loop runs here
        loop = None
    if loop is None:
        raise SystemExit(code)
    # Raised here, inside whatever the loop was running (a task's wake-up, a callback),
    # the exit would drop that callback: a task would never wake to be cancelled, and
    # the command would hang as asyncio.run cancels its tasks. Raised from a callback of
    # its own, it ends the loop between callbacks, and every task unwinds as on an error.
    loop.call_soon_threadsafe(_exit, code)


def _exit(code: int) -> None:
    raise SystemExit(code)


def run_reporting(
    action: Callable[[], T], *, debug: bool, secrets: Callable[[], Iterable[str]]
) -> T:
    """Run `action`; on failure print one line (or a redacted traceback with --debug) and exit."""
    try:
        done = action()
    except (click.exceptions.Exit, click.ClickException, click.Abort):
        raise
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        raise SystemExit(ExitCode.INTERRUPTED) from None
    except BrokenPipeError:
        # The reader went away (`| head`): nothing failed from the user's side.
        _silence_stdout()
        raise SystemExit(ExitCode.OK) from None
    except Exception as exc:
        _report(exc, debug=debug, secrets=list(secrets()))
    if _Signalled.code is not None:  # a signal came as the loop ended: no turn left to exit
        raise SystemExit(_Signalled.code)
    return done


def _report(exc: BaseException, *, debug: bool, secrets: list[str]) -> NoReturn:
    code = exit_code_for(exc)
    redactor = SecretRedactor(secrets)
    if debug:
        click.echo(redactor.format_exception(exc), err=True, nl=False)
    if isinstance(exc, CliError):
        message = clean(str(exc))
    elif code is ExitCode.INTERNAL:
        detail = explain(exc).detail
        message = f"internal error: {detail} (run with --debug for details)"
    else:
        message = explain(exc).line()
    message = shorten_runs(message)
    click.echo("Error: " + redactor.redact(message), err=True)
    raise SystemExit(code)


def warn(message: str) -> None:
    """One warning line on stderr (e.g. a key read from the plain-text file)."""
    click.echo(f"Warning: {message}", err=True)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
