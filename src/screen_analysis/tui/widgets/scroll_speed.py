"""How fast the reader moves down the rows, so paging can look further ahead when they hurry."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW_S = 0.5


class ScrollSpeed:
    """Rows per second moved down over the last half second (0 when still or going up)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._marks: deque[tuple[float, int]] = deque()

    def mark(self, row: int) -> None:
        """Record that the reading position is now `row`."""
        now = self._clock()
        self._marks.append((now, row))
        while self._marks and now - self._marks[0][0] > WINDOW_S:
            self._marks.popleft()

    def rows_per_second(self) -> float:
        """The recent downward speed."""
        if len(self._marks) < 2:
            return 0.0
        (start, first), (end, last) = self._marks[0], self._marks[-1]
        if self._clock() - end > WINDOW_S or end <= start:
            return 0.0
        return max(0.0, (last - first) / (end - start))

    def reset(self) -> None:
        """Forget the history (a new view starts still)."""
        self._marks.clear()


class NearEndWatch:
    """Whether the reader is near the last loaded row, looking further ahead the faster they
    move; says so once per number of rows loaded (the screen then asks for the next page)."""

    def __init__(self) -> None:
        self.speed = ScrollSpeed()
        self._posted: int | None = None

    def reset(self) -> None:
        """A new set of rows: forget the speed and what was said."""
        self.speed.reset()
        self._posted = None

    def is_near(
        self, *, last: int, cursor: int, bottom: int, threshold: int, lookahead_s: float
    ) -> bool:
        """Whether the cursor or the bottom of the viewport is within reach of row `last`."""
        if last < 0:
            return False
        near = max(threshold, int(self.speed.rows_per_second() * lookahead_s))
        return last - cursor <= near or last - bottom <= near

    def should_say(self, loaded: int, near: bool) -> bool:
        """True the first time the reader is near the end with `loaded` rows."""
        if loaded == 0 or loaded == self._posted or not near:
            return False
        self._posted = loaded
        return True
