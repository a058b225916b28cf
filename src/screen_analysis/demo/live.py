"""Live simulation: new analyses arrive as pending, move to processing, then complete or
fail a few seconds later.

`LiveSimulator.tick(now)` advances simulated time; every event has its own scheduled time,
so the result depends only on the seed, `config.now` and the time reached, not on how often
`tick` is called. `LiveLoop` calls it from a background thread against a clock that starts
at `config.now` and runs at real speed.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from screen_analysis.demo.config import DemoConfig
from screen_analysis.demo.generator import (
    FAILURE_RATE,
    AnalysisRow,
    draw_image_url,
    draw_label,
    draw_outcome,
    format_timestamp,
    new_id,
    parse_timestamp,
)
from screen_analysis.demo.store import DemoStore
from screen_analysis.demo.stories import screen_version, story_for
from screen_analysis.demo.vocabulary import ERROR_MESSAGES, PRODUCTS

ARRIVAL_GAP_S = (2.0, 6.0)
QUEUE_WAIT_S = (1.0, 4.0)
PROCESSING_S = (3.0, 8.0)

log = logging.getLogger(__name__)


class LiveSimulator:
    """Drives analyses through their states in simulated time."""

    def __init__(self, config: DemoConfig, store: DemoStore) -> None:
        self._store = store
        # A stream of its own, so live activity never disturbs the seeded data.
        self._rng = random.Random(config.seed * 7919 + 17)
        self._projects = store.projects()
        self._sizes = list(
            itertools.accumulate(self._rng.uniform(0.3, 1.0) for _ in self._projects)
        )
        self._now = config.now.timestamp()
        self._next_arrival = self._now + self._rng.uniform(*ARRIVAL_GAP_S)
        self._events: list[tuple[float, int, str]] = []
        self._rows: dict[str, AnalysisRow] = {}
        self._seq = itertools.count()
        for row in store.in_flight():
            wait = QUEUE_WAIT_S if row.status == "pending" else PROCESSING_S
            self._schedule(row, self._now + self._rng.uniform(*wait))

    @property
    def now(self) -> datetime:
        """The simulated time reached so far."""
        return parse_timestamp(format_timestamp(self._now))

    @property
    def in_flight(self) -> int:
        """How many analyses are pending or processing."""
        return len(self._rows)

    def tick(self, now: datetime) -> list[str]:
        """Play every arrival and transition due by `now`; returns the ids touched."""
        target = now.timestamp()
        touched: list[str] = []
        while True:
            due = self._events[0][0] if self._events else float("inf")
            when = min(due, self._next_arrival)
            if when > target:
                break
            if self._next_arrival <= due:
                touched.append(self._arrive(self._next_arrival))
                self._next_arrival += self._rng.uniform(*ARRIVAL_GAP_S)
            else:
                _, _, analysis_id = heapq.heappop(self._events)
                touched.append(self._advance(self._rows.pop(analysis_id), when))
        self._now = max(self._now, target)
        return touched

    def _schedule(self, row: AnalysisRow, when: float) -> None:
        self._rows[row.id] = row
        heapq.heappush(self._events, (when, next(self._seq), row.id))

    def _arrive(self, when: float) -> str:
        index = self._rng.choices(range(len(self._projects)), cum_weights=self._sizes)[0]
        project = self._projects[index]
        analysis_id = new_id(self._rng, "ana_")
        version = screen_version(story_for(index), 0.0)
        label = draw_label(self._rng, PRODUCTS[index % len(PRODUCTS)].screens, version)
        url = draw_image_url(project.slug, analysis_id)
        created = format_timestamp(when)
        row = AnalysisRow(
            analysis_id, project.id, "pending", url, label, None, None, (), None, created, None
        )
        self._store.add_analysis(row)
        self._schedule(row, when + self._rng.uniform(*QUEUE_WAIT_S))
        return analysis_id

    def _advance(self, row: AnalysisRow, when: float) -> str:
        if row.status == "pending":
            row = row._replace(status="processing")
            self._store.replace_analysis(row)
            self._schedule(row, when + self._rng.uniform(*PROCESSING_S))
            return row.id
        done = format_timestamp(when)
        if self._rng.random() < FAILURE_RATE:
            error = self._rng.choice(ERROR_MESSAGES)
            row = row._replace(status="failed", error_message=error, completed_at=done)
        else:
            index = next(i for i, p in enumerate(self._projects) if p.id == row.project_id)
            criteria = self._projects[index].default_criteria
            outcome = draw_outcome(self._rng, criteria, story_for(index), 0.0)
            row = row._replace(
                status="completed",
                score=outcome.score,
                breakdown=outcome.breakdown,
                feedback=outcome.feedback,
                completed_at=done,
            )
        self._store.replace_analysis(row)
        return row.id


class LiveLoop:
    """Calls `simulator.tick` every `interval_s` from a daemon thread until stopped."""

    def __init__(
        self,
        simulator: LiveSimulator,
        interval_s: float,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.simulator = simulator
        self._interval_s = interval_s
        start, origin = time.monotonic(), simulator.now
        self._clock = clock or (lambda: origin + timedelta(seconds=time.monotonic() - start))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-live", daemon=True)

    def start(self) -> None:
        """Start ticking."""
        self._thread.start()

    def stop(self) -> None:
        """Stop ticking and wait for the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                self.simulator.tick(self._clock())
            except Exception:  # one bad tick must not end the demo
                log.exception("live simulation tick failed")
