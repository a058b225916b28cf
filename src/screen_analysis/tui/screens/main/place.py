"""Where the main view was left, kept for the next start: the project, the status tab and
the analysis picked (by id), per server and profile, as k9s and lazygit give their users
their context back.

A part the screen composes (`MainScreen.place`). The state file is written when the pick has
settled (not at each row the cursor passes), off the event loop, and once more when the
screen goes away; a pick that is gone at the next start is not looked for: the view opens
on its top row.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from textual.timer import Timer

from screen_analysis.api.models import AnalysisStatus
from screen_analysis.state import Place, RememberedPlace
from screen_analysis.tui.feed import ViewKey

SETTLE_S = 2.0  # the pick is written once the cursor has rested this long

SetTimer = Callable[[float, Callable[[], None]], Timer]
Background = Callable[[Coroutine[Any, Any, None], str], None]


def _status(value: str | None) -> AnalysisStatus | None:
    """The status a place names; None (All) for none, or one this version does not know."""
    try:
        return AnalysisStatus(value) if value is not None else None
    except ValueError:
        return None


class PlaceKeeper:
    """The place the screen opens on, and the place it is at, kept as it moves."""

    def __init__(
        self, remembered: RememberedPlace | None, set_timer: SetTimer, background: Background
    ) -> None:
        """Keep the place in `remembered` (None: nowhere); `set_timer` waits for the pick to
        settle, `background` runs the write in a named worker."""
        self._remembered = remembered
        self._set_timer = set_timer
        self._background = background
        self._timer: Timer | None = None  # one at a time, however fast the cursor moves
        self._moved_at = 0.0  # on the monotonic clock: the last move
        self._at = Place()

    def opening(self) -> tuple[ViewKey, str | None]:
        """The view to open and the analysis to pick in it (None: the top row)."""
        place = self._remembered.place if self._remembered is not None else None
        if place is None:
            return ViewKey(), None
        self._at = place
        return ViewKey(place.project_id, _status(place.status)), place.analysis_id

    def moved(self, view: ViewKey, analysis_id: str | None) -> None:
        """The screen shows `view` with `analysis_id` picked: kept once it settles."""
        status = view.status.value if view.status is not None else None
        self._at = Place(view.project_id, status, analysis_id)
        self._moved_at = time.monotonic()
        if self._remembered is not None and self._timer is None:
            self._timer = self._set_timer(SETTLE_S, self._settled)

    def _settled(self) -> None:
        rested = time.monotonic() - self._moved_at
        if rested < SETTLE_S:  # moved since the timer was set: wait for the rest of it
            self._timer = self._set_timer(SETTLE_S - rested, self._settled)
            return
        self._timer = None
        if self._remembered is not None:
            write = asyncio.to_thread(self._remembered.remember, self._at)
            self._background(write, "state-file")

    def leave(self) -> None:
        """The screen goes away: the place it is at is written now (a small file)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._remembered is not None:
            self._remembered.remember(self._at)
