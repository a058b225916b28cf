"""A quality gate as data: its scope, its assertions, its baseline and how long it waits.

`build_spec` reads the same vocabulary from the command line and from a `[checks.NAME]`
table (the keys and what each may hold are declared in `values.GateValues`), checks every
value of every source and raises `GateInputError` with one line naming the option, before
any request is sent. The criteria are the API's documented breakdown keys, so an unknown
one is caught here too, and so is one given twice in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from screen_analysis.api.models import CRITERIA, Criterion
from screen_analysis.browse.scope import option_name
from screen_analysis.browse.scope_model import Scope as ViewScope
from screen_analysis.browse.scope_model import read_scope
from screen_analysis.gate.scope import GateInputError, Scope, Window, parse_when
from screen_analysis.gate.values import (
    CHECK_SCOPE_KEYS,
    SPEC_KEYS,
    CriterionName,
    GateValues,
    Points,
)
from screen_analysis.validation import UNKNOWN_KEY, Loc, adapter, describe_errors, dotted, quoted

DEFAULT_TIMEOUT_S = 600.0


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
        flag = option_name(key)
        return flag if self.table is None else f"{key} in {self.table}"

    def entry(self, key: str, entry: str) -> str:
        """How an error line names one entry of an option: `--min visual_clarity`, or
        `min.visual_clarity in [checks.release] of …` (a long one cut short)."""
        if self.table is None:
            return f"{self.name(key)} {dotted((entry,))}"
        return f"{dotted((key, entry))} in {self.table}"

    def read(self) -> GateValues:
        """The values, each checked as declared; GateInputError names what cannot be used
        (a key a table should not hold: with the ones it may)."""
        values: GateValues = self.checked(
            GateValues, dict(self.values), lambda loc: self.name(str(loc[0]))
        )
        return values

    def checked(self, kind: Any, value: object, name: Callable[[Loc], str]) -> Any:
        """`value` as the declared `kind`, or GateInputError in the words of
        `describe_errors`, each problem named by `name` (a function of its place) and the
        value found repeated: it is the user's own."""
        try:
            return adapter(kind).validate_python(value)
        except ValidationError as exc:
            words = describe_errors(exc, name=name, values=True)
            if any(error["type"] in UNKNOWN_KEY for error in exc.errors()):
                words += "; known: " + ", ".join(SPEC_KEYS)
            raise GateInputError(words) from None


def _always(name: str) -> Callable[[Loc], str]:
    """One name for every problem of a value (an entry of `min` is one place)."""
    return lambda _place: name


def _min_entries(pairs: Sequence[tuple[str, Any]], source: Source) -> dict[Criterion, float]:
    """`--min CRITERION=N` (repeatable) or a table `min = { cta_effectiveness = 60 }`;
    a criterion given twice (however spelt) is refused rather than one value dropped."""
    entries: dict[Criterion, float] = {}
    for key, given in pairs:
        criterion = source.checked(CriterionName, key, _always(source.name("min")))
        least = source.checked(Points, given, _always(source.entry("min", criterion.value)))
        if criterion in entries:
            raise GateInputError(
                f"{source.name('min')}: {criterion.value} given twice ({entries[criterion]:g} and "
                f"{least:g}); give each criterion once"
            )
        entries[criterion] = least
    return entries


Chosen = Mapping[str, tuple[Any, Source]]


def _merged(
    sources: Sequence[Source],
) -> tuple[dict[str, tuple[Any, Source]], dict[Criterion, float]]:
    """Each key's value from the last source that sets it, and the `min` entries merged by
    criterion (later sources win); every source is checked whole."""
    chosen: dict[str, tuple[Any, Source]] = {}
    mins: dict[Criterion, float] = {}
    for source in sources:
        values = source.read()
        for key in SPEC_KEYS:
            value = getattr(values, key)
            if key == "min":
                mins.update(_min_entries(value or (), source))
            elif value is not None and value != ():
                chosen[key] = (value, source)
    return chosen, mins


def _scope(chosen: Chosen, now: datetime, view: ViewScope | None, view_name: str) -> Scope:
    """The scope: a view's (`--view NAME`), its keys replaced by those the sources give,
    read by the one scope language (`browse.scope`)."""
    values: dict[str, object] = dict(view.values()) if view is not None else {}
    if "score" in chosen:
        values.pop("min_score", None)
        values.pop("max_score", None)
    values.update({key: chosen[key][0] for key in CHECK_SCOPE_KEYS if key in chosen})

    def named(key: str) -> str:
        return chosen[key][1].name(key) if key in chosen else f"view {quoted(view_name)}: {key}"

    return read_scope(values, named).at(now)


def build_spec(
    sources: Sequence[Source],
    *,
    now: datetime,
    view: ViewScope | None = None,
    view_name: str = "",
) -> GateSpec:
    """The gate the sources describe over `view`'s scope, if given (later sources win,
    `min` entries merge by criterion across sources; within one a criterion given twice
    is refused); GateInputError names the first things that cannot be used."""
    chosen, mins = _merged(sources)

    def named(key: str) -> str:
        return chosen[key][1].name(key)

    scope = _scope(chosen, now, view, view_name)
    assertions: list[Assertion] = []
    if "min_score" in chosen:
        assertions.append(Assertion(Kind.MIN_SCORE, chosen["min_score"][0]))
    assertions += [Assertion(Kind.MIN, threshold, c) for c, threshold in mins.items()]
    if "max_failed" in chosen:
        assertions.append(Assertion(Kind.MAX_FAILED, chosen["max_failed"][0]))
    if "min_count" in chosen:
        assertions.append(Assertion(Kind.MIN_COUNT, chosen["min_count"][0]))
    baseline_file, window = _baseline(chosen, now)
    if "max_drop" in chosen:
        drop = chosen["max_drop"][0]
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
    timeout = chosen.get("timeout", (DEFAULT_TIMEOUT_S, None))[0]
    interval = chosen.get("poll_interval", (None, None))[0]
    return GateSpec(scope, tuple(assertions), baseline_file, window, wait, timeout, interval)


def _baseline(chosen: Chosen, now: datetime) -> tuple[Path | None, Window | None]:
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
        path = Path(value).expanduser()
        if not path.is_absolute() and source.base_dir is not None:
            path = source.base_dir / path
        return path, None
    if not bounds:
        return None, None
    window = Window(bounds.get("baseline_since"), bounds.get("baseline_until"))
    if window.since is not None and window.until is not None and window.since >= window.until:
        raise GateInputError("--baseline-since must be before --baseline-until")
    return None, window
