"""What the main screen's workers report: one typed message per outcome.

Each worker runs one of the feed's coroutines through `report`, which posts the matching
message when it ends; the screen has one handler per message. Cancellation is never
swallowed: a cancelled worker reports nothing (its generation is gone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from textual.message import Message
from textual.message_pump import MessagePump

from screen_analysis.api.models import Project
from screen_analysis.tui.feed import PageBatch, PageLoad, RefreshJob, RefreshResult, ViewKey
from screen_analysis.tui.feed.load_all import LoadProgress

T = TypeVar("T")


async def report(
    node: MessagePump,
    work: Awaitable[T],
    done: Callable[[T], Message],
    failed: Callable[[Exception], Message],
) -> None:
    """Await `work` and post `done(result)` or `failed(error)` to `node`."""
    try:
        result = await work
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        node.post_message(failed(exc))
    else:
        node.post_message(done(result))


class PageLoaded(Message):
    """A load brought rows."""

    def __init__(self, batch: PageBatch) -> None:
        super().__init__()
        self.batch = batch


class PageFailed(Message):
    """A load failed."""

    def __init__(self, load: PageLoad, error: Exception) -> None:
        super().__init__()
        self.load = load
        self.error = error


class TotalsLoaded(Message):
    """Totals per status arrived."""

    def __init__(self, totals: dict[ViewKey, int]) -> None:
        super().__init__()
        self.totals = totals


class TotalsFailed(Message):
    """Asking for the totals failed."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error


class ProjectLoaded(Message):
    """A project arrived; `adding` when the user asked to add it."""

    def __init__(self, project_id: str, project: Project, adding: bool) -> None:
        super().__init__()
        self.project_id = project_id
        self.project = project
        self.adding = adding


class ProjectFailed(Message):
    """A project could not be fetched."""

    def __init__(self, project_id: str, error: Exception, adding: bool) -> None:
        super().__init__()
        self.project_id = project_id
        self.error = error
        self.adding = adding


class RefreshLoaded(Message):
    """An auto-refresh answered."""

    def __init__(self, result: RefreshResult) -> None:
        super().__init__()
        self.result = result


class RefreshFailed(Message):
    """An auto-refresh failed."""

    def __init__(self, job: RefreshJob, error: Exception) -> None:
        super().__init__()
        self.job = job
        self.error = error


class AllLoaded(Message):
    """Loading the rest of the view ended (at the end, or at the bound)."""

    def __init__(self, progress: LoadProgress) -> None:
        super().__init__()
        self.progress = progress


class LoadAllFailed(Message):
    """Loading the rest of the view stopped on an error (the feed recorded it)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error
