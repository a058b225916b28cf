"""Rows that changed in a refresh, highlighted for a moment without moving anything."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.timer import Timer

FLASH_SECONDS = 1.5

SetTimer = Callable[[float, Callable[[], None]], Timer]


class RowFlashes:
    """Flashing rows by position in the server's order; each ends after `FLASH_SECONDS`."""

    def __init__(self, set_timer: SetTimer, ended: Callable[[int], None]) -> None:
        """`set_timer` is the widget's; `ended(position)` repaints the row."""
        self._set_timer = set_timer
        self._ended = ended
        self._timers: dict[int, Timer] = {}

    def flash(self, position: int) -> None:
        """Start (or restart) the flash of the row at `position`."""
        if (timer := self._timers.pop(position, None)) is not None:
            timer.stop()
        self._timers[position] = self._set_timer(FLASH_SECONDS, partial(self._end, position))

    def clear(self) -> None:
        """Stop every flash (the rows moved)."""
        for timer in self._timers.values():
            timer.stop()
        self._timers.clear()

    def _end(self, position: int) -> None:
        if self._timers.pop(position, None) is not None:
            self._ended(position)

    def __contains__(self, position: object) -> bool:
        return position in self._timers

    def __bool__(self) -> bool:
        return bool(self._timers)
