"""Settings of the reference server."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

DEFAULT_API_KEY = "demo-key-not-a-secret"


def rounded_now() -> datetime:
    """The current UTC time, truncated to the second (timestamps on the wire have no fraction)."""
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class DemoConfig:
    """Everything that shapes the demo data and the server's behaviour.

    `now` anchors the generated data: with a fixed `now` and `seed` the data is identical
    from run to run. The fault settings are initial values; `DemoServer.faults` tunes them live.
    """

    analyses: int = 5000
    projects: int = 8
    seed: int = 42
    now: datetime = field(default_factory=rounded_now)
    api_key: str = DEFAULT_API_KEY
    latency_ms: float = 0.0
    latency_jitter_ms: float = 0.0
    error_rate: float = 0.0
    rate_limit_rate: float = 0.0
    retry_after_s: int = 1
    db_path: Path | None = None
    live: bool = False
    live_interval_s: float = 1.0
    image_fault: str = ""  # see faults.IMAGE_FAULTS

    def __post_init__(self) -> None:
        if self.analyses < 0:
            raise ValueError("analyses must be >= 0")
        if self.projects < 1:
            raise ValueError("projects must be >= 1")
        if self.now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        for name in ("error_rate", "rate_limit_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if self.image_fault not in ("", "404", "slow", "corrupt", "not-image", "huge"):
            raise ValueError(f"unknown image fault {self.image_fault!r}")
        if self.live_interval_s <= 0:
            raise ValueError("live_interval_s must be > 0")
