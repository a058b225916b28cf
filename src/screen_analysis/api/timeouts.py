"""Timeouts of the API client."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Self

import httpx

from screen_analysis.api.errors import InvalidArgumentError


class _Seconds(NamedTuple):  # the defaults and the checks are Timeouts.__new__'s
    connect: float
    read: float
    write: float
    pool: float
    total: float


class Timeouts(_Seconds):
    """Seconds allowed to connect, for each read, for each write and to get a pooled connection;
    `total` bounds one whole attempt, so a body that trickles in never hangs the caller."""

    __slots__ = ()

    def __new__(
        cls,
        connect: float = 5.0,
        read: float = 30.0,
        write: float = 30.0,
        pool: float = 10.0,
        total: float = 60.0,
    ) -> Timeouts:
        values = (connect, read, write, pool, total)
        for name, value in zip(cls._fields, values, strict=True):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidArgumentError(
                    f"timeout {name} must be a positive number of seconds", param=name
                )
        return super().__new__(cls, *values)

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]  # checked
        """Built through `__new__`, so `_replace` checks the values too."""
        return cls(*iterable)

    def to_httpx(self) -> httpx.Timeout:
        """The same timeouts as httpx takes them."""
        return httpx.Timeout(connect=self.connect, read=self.read, write=self.write, pool=self.pool)
