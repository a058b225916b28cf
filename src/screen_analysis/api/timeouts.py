"""Timeouts of the API client."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from screen_analysis.api.errors import InvalidArgumentError


@dataclass(frozen=True)
class Timeouts:
    """Seconds allowed to connect, for each read, for each write and to get a pooled connection;
    `total` bounds one whole attempt, so a body that trickles in never hangs the caller."""

    connect: float = 5.0
    read: float = 30.0
    write: float = 30.0
    pool: float = 10.0
    total: float = 60.0

    def __post_init__(self) -> None:
        for name in ("connect", "read", "write", "pool", "total"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidArgumentError(
                    f"timeout {name} must be a positive number of seconds", param=name
                )

    def to_httpx(self) -> httpx.Timeout:
        """The same timeouts as httpx takes them."""
        return httpx.Timeout(connect=self.connect, read=self.read, write=self.write, pool=self.pool)
