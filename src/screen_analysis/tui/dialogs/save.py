"""The one way the app writes a file the user names (the view's export, the overview's
report): ask where, with a suggestion; refuse a directory; let the caller ask what else it
needs and make the writer; ask before replacing a file that exists; write; and say how it
went, a failure in `problems.explain`'s words naming the file.

Run in a worker of the screen that asks (its dialogs are waited for); the screen is the
`SaveHost`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol, TypeVar

from textual.screen import Screen

from screen_analysis.api.errors import ScreenAnalysisError
from screen_analysis.problems import explain
from screen_analysis.safe_text import clean
from screen_analysis.tui.dialogs.choice import replace_question
from screen_analysis.tui.dialogs.prompt import Prompt, PromptDialog

T = TypeVar("T")

Write = Callable[[Path, bool], Awaitable[str]]
"""Write the file at the path (replacing one that is there only when told so, else
`FileExistsError`); the sentence that says what was written."""

Prepare = Callable[[Path], Awaitable[Write | None]]
"""Given the path chosen: ask what else is needed and return the writer, or None (having
said why) to write nothing."""


class SaveHost(Protocol):
    """What saving needs of the screen: notifications, and dialogs it waits for."""

    def say(self, text: str, severity: str = "information") -> None:
        """One notification (plain text)."""

    async def ask(self, screen: Screen[T]) -> T:
        """Push `screen` and wait for what it is dismissed with (in a worker)."""


def chosen_path(text: str) -> Path:
    """The path typed: `~` expanded, a relative one in the current directory."""
    path = Path(text).expanduser()
    return path if path.is_absolute() else Path.cwd() / path


def not_written(path: Path, error: BaseException) -> str:
    """Why `path` was not written, in `explain`'s words, the file named once."""
    named, problem = clean(str(path)), explain(error)
    said = "Nothing was written" if named in problem.line() else f"{named} was not written"
    return problem.line(prefix=said)


async def save_file(host: SaveHost, prompt: Prompt, suggested: Path, prepare: Prepare) -> None:
    """Ask for a path (`suggested` in the field), then `prepare` the writer, ask before
    replacing, write, and say how it went."""
    answer = await host.ask(PromptDialog(prompt, str(suggested)))
    if not answer:
        return
    path = chosen_path(answer)
    if path.is_dir():
        host.say(f"{clean(str(path))} is a directory; nothing was written.", "warning")
        return
    write = await prepare(path)
    if write is None:
        return
    replace = False
    if path.exists():
        if await host.ask(replace_question(path)) != "replace":
            host.say("The file was kept; nothing was written.")
            return
        replace = True
    try:
        done = await write(path, replace)
    except asyncio.CancelledError:
        host.say("Export cancelled; nothing was written.", "warning")
        raise
    except FileExistsError:
        host.say(f"{clean(str(path))} appeared meanwhile and was kept; nothing was written.")
    except (OSError, ScreenAnalysisError) as exc:
        host.say(not_written(path, exc), "error")
    else:
        host.say(done)
