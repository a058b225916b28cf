"""A quality gate as data: its scope, its assertions, its baseline and how long it waits.

`build_spec` reads the same vocabulary from the command line and from a `[checks.NAME]`
table (keys as in `SPEC_KEYS`), checks every value and raises `GateInputError` with one
line naming the option, before any request is sent. The criteria are the API's documented
breakdown keys, so an unknown one is caught here too, and so is one given twice in one
place. Thresholds in points (`min_score`, `min`, `max_drop`) are finite and ≥ 0, with no
upper bound since the API leaves score bounds open; `max_failed` is a share, 0 to 100.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

from screen_analysis.api.arguments import check_optional_id
from screen_analysis.api.errors import InvalidArgumentError
from screen_analysis.api.models import CRITERIA, Criterion
from screen_analysis.gate.scope import GateInputError, Scope, Window, parse_when, quoted

DEFAULT_TIMEOUT_S = 600.0

SPEC_KEYS = (
    "project_id",
    "label",
    "since",
    "last",
    "min_score",
    "min",
    "max_failed",
    "min_count",
    "baseline",
    "baseline_since",
    "baseline_until",
    "max_drop",
    "wait",
    "timeout",
    "poll_interval",
)


class Kind(StrEnum):
    """What an assertion measures; the value is its option's name."""

    MIN_SCORE = "min-score"  # mean overall score of the completed analyses
    MIN = "min"  # mean of one criterion
    MAX_FAILED = "max-failed"  # failed share of the finished analyses, in percent
    MIN_COUNT = "min-count"  # completed analyses
    MAX_DROP = "max-drop"  # points lost against the baseline (overall, or one criterion)


@dataclass(frozen=True)
class Assertion:
    """One condition the scope must meet."""

    kind: Kind
    threshold: float
    criterion: Criterion | None = None

    @property
    def id(self) -> str:
        """Stable name: `min-score`, `min:cta_effectiveness`, `max-drop`, `max-drop:…`."""
        return self.kind.value + (f":{self.criterion.value}" if self.criterion else "")

    @property
    def at_least(self) -> bool:
        """Whether the value must reach the threshold (else stay at or under it)."""
        return self.kind in (Kind.MIN_SCORE, Kind.MIN, Kind.MIN_COUNT)


@dataclass(frozen=True)
class GateSpec:
    """A checked gate, ready to run."""

    scope: Scope
    assertions: tuple[Assertion, ...]
    baseline_file: Path | None = None
    baseline_window: Window | None = None
    wait: bool = False
    timeout: float = DEFAULT_TIMEOUT_S
    poll_interval: float | None = None  # None: the command's default


class Source(NamedTuple):
    """Option values from one place: the command line (`table` None) or a config table."""

    values: Mapping[str, object]
    table: str | None = None  # e.g. "[checks.release] of /repo/checks.toml"
    base_dir: Path | None = None  # a relative baseline path is relative to this

    def name(self, key: str) -> str:
        """How an error line names the option."""
        flag = "--" + key.replace("_", "-")
        return flag if self.table is None else f"{key} in {self.table}"


def criterion_named(text: object, option: str) -> Criterion:
    """The documented criterion `text` names (case and `-`/`_` aside)."""
    key = str(text).strip().lower().replace("-", "_").replace(" ", "_")
    for criterion in CRITERIA:
        if criterion.value == key:
            return criterion
    known = ", ".join(c.value for c in CRITERIA)
    raise GateInputError(f"{option}: unknown criterion {quoted(text)}; known: {known}")


def number(value: object, option: str, *, percent: bool = False) -> float:
    """A finite number from a TOML number or the command line's text (`10%` for a share)."""
    if isinstance(value, bool):
        raise GateInputError(f"{option}: expected a number, got {quoted(value)}")
    if isinstance(value, int | float):
        result = float(value)
    else:
        text = str(value).strip()
        if percent and text.endswith("%"):
            text = text[:-1].strip()
        try:
            result = float(text)
        except (ValueError, OverflowError):
            raise GateInputError(f"{option}: expected a number, got {quoted(value)}") from None
    if not math.isfinite(result):
        raise GateInputError(f"{option}: expected a finite number, got {quoted(value)}")
    return result


def whole(value: object, option: str, *, least: int) -> int:
    """A whole number of at least `least`."""
    result = number(value, option)
    if result != int(result) or result < least:
        raise GateInputError(f"{option}: expected a whole number ≥ {least}, got {quoted(value)}")
    return int(result)


def points(value: object, option: str, *, why: str) -> float:
    """A threshold in points (a mean score, a criterion's mean, a drop): a finite number
    ≥ 0, for the reason `why` the error line gives. No upper bound: the API documents
    scores as integers and leaves their bounds open, so a 0–100 rule would be ours."""
    result = number(value, option)
    if result < 0:
        raise GateInputError(f"{option}: points must be ≥ 0 ({why}), got {quoted(value)}")
    return result


SCORE_FLOOR = "a minimum below 0 would pass any score"
DROP_FLOOR = "a negative allowance would demand a rise"


def _min_entries(value: object, option: str) -> dict[Criterion, float]:
    """`--min CRITERION=N` (repeatable) or a table `min = { cta_effectiveness = 60 }`;
    a criterion given twice (however spelt) is refused rather than one value dropped."""
    if isinstance(value, Mapping):
        pairs: list[tuple[object, object]] = list(value.items())
    else:
        texts = [value] if isinstance(value, str) else value
        if not isinstance(texts, Sequence):
            raise GateInputError(f"{option}: expected CRITERION=N, got {quoted(value)}")
        pairs = []
        for text in texts:
            name, sep, threshold = str(text).partition("=")
            if not sep:
                raise GateInputError(f"{option}: expected CRITERION=N, got {quoted(text)}")
            pairs.append((name, threshold))
    entries: dict[Criterion, float] = {}
    for key, given in pairs:
        criterion = criterion_named(key, option)
        least = points(given, f"{option} {criterion.value}", why=SCORE_FLOOR)
        if criterion in entries:
            raise GateInputError(
                f"{option}: {criterion.value} given twice ({entries[criterion]:g} and "
                f"{least:g}); give each criterion once"
            )
        entries[criterion] = least
    return entries


def _merged(sources: Sequence[Source]) -> dict[str, tuple[object, Source]]:
    """Each key's value from the last source that sets it; unknown table keys refused."""
    chosen: dict[str, tuple[object, Source]] = {}
    for source in sources:
        for key, value in source.values.items():
            if key not in SPEC_KEYS:
                known = ", ".join(SPEC_KEYS)
                raise GateInputError(f"unknown key {quoted(key)} in {source.table}; known: {known}")
            if value is not None and value != ():
                chosen[key] = (value, source)
    return chosen


def _scope(chosen: Mapping[str, tuple[object, Source]], now: datetime) -> Scope:
    def named(key: str) -> str:
        return chosen[key][1].name(key)

    project_id = None
    if "project_id" in chosen:
        try:
            project_id = check_optional_id(str(chosen["project_id"][0]), name=named("project_id"))
        except InvalidArgumentError as exc:
            raise GateInputError(str(exc)) from None
    label = str(chosen["label"][0]) if "label" in chosen else None
    since = None
    if "since" in chosen:
        since = parse_when(chosen["since"][0], now=now, option=named("since"))
    last = whole(chosen["last"][0], named("last"), least=1) if "last" in chosen else None
    return Scope(project_id, label, since, last)


def build_spec(sources: Sequence[Source], *, now: datetime) -> GateSpec:
    """The gate the sources describe (later sources win, `min` entries merge by criterion
    across sources; within one a criterion given twice is refused); GateInputError names
    the first thing that cannot be used."""
    chosen = _merged(sources)

    def named(key: str) -> str:
        return chosen[key][1].name(key)

    scope = _scope(chosen, now)
    assertions: list[Assertion] = []
    if "min_score" in chosen:
        score = points(chosen["min_score"][0], named("min_score"), why=SCORE_FLOOR)
        assertions.append(Assertion(Kind.MIN_SCORE, score))
    mins: dict[Criterion, float] = {}
    for source in sources:
        value = source.values.get("min")
        if value is not None and value != ():
            mins.update(_min_entries(value, source.name("min")))
    assertions += [Assertion(Kind.MIN, threshold, c) for c, threshold in mins.items()]
    if "max_failed" in chosen:
        share = number(chosen["max_failed"][0], named("max_failed"), percent=True)
        if not 0 <= share <= 100:
            raise GateInputError(
                f"{named('max_failed')}: a percentage from 0 to 100, got {share:g}"
            )
        assertions.append(Assertion(Kind.MAX_FAILED, share))
    if "min_count" in chosen:
        count = whole(chosen["min_count"][0], named("min_count"), least=0)
        assertions.append(Assertion(Kind.MIN_COUNT, count))
    baseline_file, window = _baseline(chosen, now)
    if "max_drop" in chosen:
        drop = points(chosen["max_drop"][0], named("max_drop"), why=DROP_FLOOR)
        if baseline_file is None and window is None:
            raise GateInputError(
                f"{named('max_drop')} compares with a baseline: give --baseline FILE or "
                "--baseline-since/--baseline-until"
            )
        assertions.append(Assertion(Kind.MAX_DROP, drop))
        assertions += [Assertion(Kind.MAX_DROP, drop, c) for c in CRITERIA]
    elif baseline_file is not None or window is not None:
        raise GateInputError("a baseline is compared with --max-drop N (points): give it too")
    if not assertions:
        raise GateInputError(
            "nothing to check: give at least one of --min-score, --min CRITERION=N, "
            "--max-failed, --min-count, --max-drop (or a check NAME from the config)"
        )
    wait = chosen.get("wait", (False, None))[0]
    if not isinstance(wait, bool):
        raise GateInputError(f"{named('wait')}: expected true or false, got {quoted(wait)}")
    timeout = DEFAULT_TIMEOUT_S
    if "timeout" in chosen:
        timeout = number(chosen["timeout"][0], named("timeout"))
        if timeout <= 0:
            raise GateInputError(f"{named('timeout')}: seconds must be > 0, got {timeout:g}")
    interval = None
    if "poll_interval" in chosen:
        interval = number(chosen["poll_interval"][0], named("poll_interval"))
        if interval < 0.1:
            raise GateInputError(f"{named('poll_interval')}: at least 0.1 s, got {interval:g}")
    return GateSpec(scope, tuple(assertions), baseline_file, window, wait, timeout, interval)


def _baseline(
    chosen: Mapping[str, tuple[object, Source]], now: datetime
) -> tuple[Path | None, Window | None]:
    """The baseline file, or the window of creation times the baseline is measured over."""
    bounds = {}
    for key in ("baseline_since", "baseline_until"):
        if key in chosen:
            value, source = chosen[key]
            bounds[key] = parse_when(value, now=now, option=source.name(key))
    if "baseline" in chosen:
        value, source = chosen["baseline"]
        if bounds:
            raise GateInputError(
                f"{source.name('baseline')}: a baseline file or a baseline window "
                "(--baseline-since/--baseline-until), not both"
            )
        path = Path(str(value)).expanduser()
        if not path.is_absolute() and source.base_dir is not None:
            path = source.base_dir / path
        return path, None
    if not bounds:
        return None, None
    window = Window(bounds.get("baseline_since"), bounds.get("baseline_until"))
    if window.since is not None and window.until is not None and window.since >= window.until:
        raise GateInputError("--baseline-since must be before --baseline-until")
    return None, window
