"""What the main screen's workers report: one typed message per outcome.

Each worker runs one of the feed's coroutines through `report`, which posts the matching
message when it ends; the screen has one handler per message. Cancellation is never
swallowed: a cancelled worker reports nothing (its generation is gone).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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


@dataclass
class PageLoaded(Message):
    """A load brought rows."""

    batch: PageBatch


@dataclass
class PageFailed(Message):
    """A load failed."""

    load: PageLoad
    error: Exception


@dataclass
class TotalsLoaded(Message):
    """Totals per status arrived."""

    totals: dict[ViewKey, int]


@dataclass
class TotalsFailed(Message):
    """Asking for the totals failed."""

    error: Exception


@dataclass
class ProjectLoaded(Message):
    """A project arrived; `adding` when the user asked to add it."""

    project_id: str
    project: Project
    adding: bool


@dataclass
class ProjectFailed(Message):
    """A project could not be fetched."""

    project_id: str
    error: Exception
    adding: bool


@dataclass
class RefreshLoaded(Message):
    """An auto-refresh answered."""

    result: RefreshResult


@dataclass
class RefreshFailed(Message):
    """An auto-refresh failed."""

    job: RefreshJob
    error: Exception


@dataclass
class AllLoaded(Message):
    """Loading the rest of the view ended (at the end, or at the bound)."""

    progress: LoadProgress


@dataclass
class LoadAllFailed(Message):
    """Loading the rest of the view stopped on an error (the feed recorded it)."""

    error: Exception
