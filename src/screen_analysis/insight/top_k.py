"""Bounded summaries of a stream: the most frequent strings, the highest and latest items.

Each keeps a fixed number of entries however long the stream is, so an overview of a
million analyses holds no more than one of a hundred.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SpaceSaving:
    """Approximate counts of the most frequent strings (the Space-Saving algorithm).

    At most `capacity` strings are tracked. A new string arriving when full replaces the
    least counted one and inherits its count (plus one), so a count can be too high by at
    most the count it inherited (`error`), never too low; any string seen more often than
    `seen / capacity` times is guaranteed to be tracked.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._counts: dict[str, int] = {}
        self._errors: dict[str, int] = {}
        self.seen = 0

    def add(self, key: str) -> None:
        """Count one occurrence of `key`."""
        self.seen += 1
        counts = self._counts
        if key in counts:
            counts[key] += 1
            return
        if len(counts) < self.capacity:
            counts[key] = 1
            self._errors[key] = 0
            return
        victim = min(counts, key=counts.__getitem__)
        inherited = counts.pop(victim)
        self._errors.pop(victim)
        counts[key] = inherited + 1
        self._errors[key] = inherited

    def top(self, n: int) -> list[tuple[str, int]]:
        """The `n` most counted strings with their counts, highest first (ties by text)."""
        ranked = sorted(self._counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return ranked[:n]

    def error(self, key: str) -> int:
        """How much `key`'s count may exceed the truth (0 when it was never evicted in)."""
        return self._errors.get(key, 0)

    def __len__(self) -> int:
        return len(self._counts)


class TopN(Generic[T]):
    """The `n` items with the largest keys seen so far (ties: the earlier item stays)."""

    def __init__(self, n: int, key: Callable[[T], float]) -> None:
        self.n = n
        self._key = key
        self._heap: list[tuple[float, int, T]] = []
        self._order = itertools.count()

    def wants(self, key: float) -> bool:
        """Whether an item with `key` would be kept (so a caller can skip building it)."""
        return len(self._heap) < self.n or key > self._heap[0][0]

    def add(self, item: T) -> None:
        """Offer one item; kept only if it is among the `n` largest so far."""
        entry = (self._key(item), -next(self._order), item)
        if len(self._heap) < self.n:
            heapq.heappush(self._heap, entry)
        elif entry[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, entry)

    def items(self) -> list[T]:
        """The kept items, largest key first."""
        return [item for *_, item in sorted(self._heap, key=lambda e: e[:2], reverse=True)]

    def __len__(self) -> int:
        return len(self._heap)
