"""The gate's spec: every value checked before any request, one line naming the option."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from screen_analysis.api.models import CRITERIA, Criterion
from screen_analysis.browse.scope_model import Scope as ViewScope
from screen_analysis.browse.scope_model import read_scope
from screen_analysis.gate import GateInputError, Kind, Source, build_spec, parse_when
from screen_analysis.gate.scope import parse_duration
from screen_analysis.gate.spec import SPEC_KEYS

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def spec_of(**flags: object):
    return build_spec([Source(flags)], now=NOW)


NOTHING_TO_CHECK = (
    "nothing to check: give at least one of --min-score, --min CRITERION=N, --max-failed,"
    " --min-count, --max-drop (or a check NAME from the config)"
)


def refused(**flags: object) -> str:
    with pytest.raises(GateInputError) as caught:
        spec_of(**flags)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2h", timedelta(hours=2)),
        ("90m", timedelta(minutes=90)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("7d", timedelta(days=7)),
        ("2w", timedelta(weeks=2)),
        ("45s", timedelta(seconds=45)),
        (" 1.5H ", timedelta(hours=1.5)),
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "2", "h", "2x", "2h x", "-2h", "yesterday"])
def test_not_durations(text: str) -> None:
    assert parse_duration(text) is None


def test_when_reads_dates_times_and_durations() -> None:
    assert parse_when("2026-10-01", now=NOW, option="--since") == datetime(2026, 10, 1, tzinfo=UTC)
    assert parse_when("2026-10-01T09:00Z", now=NOW, option="--since") == datetime(
        2026, 10, 1, 9, tzinfo=UTC
    )
    assert parse_when("2026-10-01T09:00", now=NOW, option="--since").tzinfo is UTC
    assert parse_when("2h", now=NOW, option="--since") == NOW - timedelta(hours=2)
    toml_time = datetime(2026, 10, 1, 9)  # a TOML local date-time: taken as UTC
    assert parse_when(toml_time, now=NOW, option="since") == toml_time.replace(tzinfo=UTC)


def test_a_bad_since_names_the_option_and_the_forms() -> None:
    message = refused(since="last tuesday", min_score="1")
    assert message.startswith("--since: ")
    assert "2026-10-01" in message and "2h" in message and "'last tuesday'" in message
    assert "reaches too far back" in refused(since="99999999w", min_score="1")


def test_every_assertion_is_read() -> None:
    spec = spec_of(
        project_id="proj_1",
        label="Checkout*",
        since="7d",
        last="50",
        min_score="70",
        min=("cta_effectiveness=60", "Color-Contrast=55.5"),
        max_failed="10%",
        min_count="20",
        baseline="base.json",
        max_drop="5",
    )
    assert spec.scope.project_id == "proj_1"
    assert spec.scope.label == "Checkout*"
    assert spec.scope.since == NOW - timedelta(days=7)
    assert spec.scope.last == 50
    ids = [a.id for a in spec.assertions]
    assert ids[:5] == [
        "min-score",
        "min:cta_effectiveness",
        "min:color_contrast",
        "max-failed",
        "min-count",
    ]
    assert ids[5:] == ["max-drop", *(f"max-drop:{c.value}" for c in CRITERIA)]
    thresholds = {a.id: a.threshold for a in spec.assertions}
    assert thresholds["min:color_contrast"] == 55.5
    assert thresholds["max-failed"] == 10
    assert spec.baseline_file == Path("base.json")
    assert not spec.wait and spec.timeout == 600


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        ({"min_score": "seventy"}, "--min-score: expected a number, got 'seventy'"),
        ({"min_score": "nan"}, "--min-score: expected a finite number, got 'nan'"),
        ({"min_score": "inf"}, "--min-score: expected a finite number, got 'inf'"),
        (
            {"min": ("cta_effectiveness=lots",)},
            "--min cta_effectiveness: expected a number, got 'lots'",
        ),
        (
            {"min": ("cta_effectiveness",)},
            "--min: expected CRITERION=N, or a table of them, got 'cta_effectiveness'",
        ),
        ({"max_failed": "150"}, "--max-failed: a percentage from 0 to 100, got '150'"),
        (
            {"min_score": "-5"},
            "--min-score: points must be ≥ 0 (a minimum below 0 would pass any score), got '-5'",
        ),
        (
            {"min_score": -0.5},
            "--min-score: points must be ≥ 0 (a minimum below 0 would pass any score), got '-0.5'",
        ),
        (
            {"min": ("visual_clarity=-1",)},
            "--min visual_clarity: points must be ≥ 0 (a minimum below 0 would pass any score),"
            " got '-1'",
        ),
        (
            {"min": ("visual_clarity=nan",)},
            "--min visual_clarity: expected a finite number, got 'nan'",
        ),
        (
            {"max_drop": "inf", "baseline": "b.json"},
            "--max-drop: expected a finite number, got 'inf'",
        ),
        (
            {"min": ("color_contrast=50", "color_contrast=60")},
            "--min: color_contrast given twice (50 and 60); give each criterion once",
        ),
        (
            {"min": ("color-contrast=50", "COLOR_CONTRAST=50")},
            "--min: color_contrast given twice (50 and 50); give each criterion once",
        ),
        ({"max_failed": "ten%"}, "--max-failed: expected a number, got 'ten'"),
        ({"min_count": "2.5"}, "--min-count: expected a whole number ≥ 0, got '2.5'"),
        ({"min_count": "-1"}, "--min-count: expected a whole number ≥ 0, got '-1'"),
        ({"min_score": "1", "last": "0"}, "--last: expected a whole number ≥ 1, got '0'"),
        ({"min_score": "1", "timeout": "0"}, "--timeout: seconds must be > 0, got '0'"),
        ({"min_score": "1", "poll_interval": "0"}, "--poll-interval: at least 0.1 s, got '0'"),
        (
            {"min_score": "1", "project_id": "a/b"},
            "--project-id: must be a non-empty string without '/', control characters"
            " or dot segments, got 'a/b'",
        ),
        (
            {"max_drop": "5"},
            "--max-drop compares with a baseline: give --baseline FILE or"
            " --baseline-since/--baseline-until",
        ),
        (
            {"max_drop": "-1", "baseline": "b.json"},
            "--max-drop: points must be ≥ 0 (a negative allowance would demand a rise), got '-1'",
        ),
        (
            {"min_score": "1", "baseline": "b.json"},
            "a baseline is compared with --max-drop N (points): give it too",
        ),
        (
            {"max_drop": "1", "baseline": "b.json", "baseline_since": "7d"},
            "--baseline: a baseline file or a baseline window"
            " (--baseline-since/--baseline-until), not both",
        ),
        (
            {"max_drop": "1", "baseline_since": "2d", "baseline_until": "7d"},
            "--baseline-since must be before --baseline-until",
        ),
        (
            {},
            NOTHING_TO_CHECK,
        ),
        (
            {"label": "x*"},
            NOTHING_TO_CHECK,
        ),
        (
            {"min": ("cta_effectiveness=6=0",)},
            "--min cta_effectiveness: expected a number, got '6=0'",
        ),
        ({"min": 5}, "--min: expected CRITERION=N, or a table of them, got '5'"),
        ({"max_failed": "-0.1"}, "--max-failed: a percentage from 0 to 100, got '-0.1'"),
        ({"max_failed": "100.1"}, "--max-failed: a percentage from 0 to 100, got '100.1'"),
    ],
)
def test_bad_input_is_one_line_naming_the_option_and_the_value(
    flags: dict[str, object], says: str
) -> None:
    assert refused(**flags) == says


def test_an_unknown_criterion_lists_the_documented_ones() -> None:
    message = refused(min=("delight=3",))
    assert message.startswith("--min: unknown criterion 'delight'")
    for criterion in Criterion:
        assert criterion.value in message


def test_a_table_is_read_and_flags_win_over_it(tmp_path: Path) -> None:
    table = Source(
        {
            "project_id": "proj_1",
            "min_score": 70,
            "min": {"cta_effectiveness": 60, "visual_clarity": 50},
            "max_failed": 10,
            "baseline": "baselines/release.json",
            "max_drop": 5,
            "wait": True,
            "timeout": 120,
        },
        "[checks.release] of checks.toml",
        tmp_path,
    )
    flags = Source({"min_score": "75", "min": ("cta_effectiveness=65",), "wait": None})
    spec = build_spec([table, flags], now=NOW)
    thresholds = {a.id: a.threshold for a in spec.assertions}
    assert thresholds["min-score"] == 75
    assert thresholds["min:cta_effectiveness"] == 65
    assert thresholds["min:visual_clarity"] == 50
    assert spec.baseline_file == tmp_path / "baselines" / "release.json"
    assert spec.wait and spec.timeout == 120
    assert spec.scope.project_id == "proj_1"
    kinds = {a.kind for a in spec.assertions}
    assert kinds == {Kind.MIN_SCORE, Kind.MIN, Kind.MAX_FAILED, Kind.MAX_DROP}


def test_a_table_names_its_own_keys_in_errors() -> None:
    table = Source({"min_score": "high"}, "[checks.release] of c.toml")
    with pytest.raises(GateInputError, match=r"^min_score in \[checks.release\] of c.toml: "):
        build_spec([table], now=NOW)
    typo = Source({"min_scroe": 70}, "[checks.release] of c.toml")
    with pytest.raises(GateInputError, match=r"^min_scroe in \[checks.release\] of c.toml: not a "):
        build_spec([typo], now=NOW)
    boolean = Source({"min_score": True}, "[checks.x] of c.toml")
    with pytest.raises(GateInputError, match="expected a number, got 'True'"):
        build_spec([boolean], now=NOW)
    wait = Source({"min_score": 1, "wait": "yes"}, "[checks.x] of c.toml")
    with pytest.raises(GateInputError, match="expected true or false"):
        build_spec([wait], now=NOW)


def test_a_long_bad_value_is_quoted_short() -> None:
    message = refused(min_score="9" * 5000 + "x")
    assert len(message) < 120


def test_a_criterion_twice_in_one_table_is_refused_but_flags_still_override() -> None:
    table = Source({"min": {"color_contrast": 50, "Color-Contrast": 60}}, "[checks.x] of c.toml")
    with pytest.raises(GateInputError, match=r"^min in \[checks.x\] of c.toml: color_contrast "):
        build_spec([table], now=NOW)
    once = Source({"min": {"color_contrast": 50}}, "[checks.x] of c.toml")
    spec = build_spec([once, Source({"min": ("color_contrast=60",)})], now=NOW)
    assert [(a.id, a.threshold) for a in spec.assertions] == [("min:color_contrast", 60)]


def test_score_thresholds_have_no_upper_bound() -> None:
    """The API leaves score bounds open ("not shown"), so only the floor is ours."""
    spec = spec_of(min_score="150", min=("cta_effectiveness=101",), min_count="0")
    thresholds = {a.id: a.threshold for a in spec.assertions}
    assert thresholds == {"min-score": 150, "min:cta_effectiveness": 101, "min-count": 0}
    assert spec_of(min_score="0").assertions[0].threshold == 0


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ({"last": "many"}, "last in [checks.x] of c.toml: expected a whole number ≥ 1, got 'many'"),
        ({"last": 2.5}, "last in [checks.x] of c.toml: expected a whole number ≥ 1, got '2.5'"),
        ({"label": 3}, "label in [checks.x] of c.toml: should be a valid string, not a number"),
        ({"timeout": -1}, "timeout in [checks.x] of c.toml: seconds must be > 0, got '-1'"),
        ({"max_failed": 101}, "max_failed in [checks.x] of c.toml: a percentage from 0 to 100"),
        ({"min": 5}, "min in [checks.x] of c.toml: expected CRITERION=N, or a table of them"),
        ({"min": {"delight": 3}}, "min in [checks.x] of c.toml: unknown criterion 'delight'"),
        ({"since": 5}, "since in [checks.x] of c.toml: expected a date (2026-10-01), a date-time"),
    ],
)
def test_each_key_of_a_table_is_checked_as_declared(table: dict[str, object], says: str) -> None:
    source = Source({"min_score": 1, **table}, "[checks.x] of c.toml")
    with pytest.raises(GateInputError) as caught:
        build_spec([source], now=NOW)
    assert str(caught.value).startswith(says)
    assert "\n" not in str(caught.value)


def test_wrong_table_values_are_named_together() -> None:
    source = Source({"min_score": "x", "wait": "yes"}, "[checks.x] of c.toml")
    with pytest.raises(GateInputError) as caught:
        build_spec([source], now=NOW)
    assert str(caught.value) == (
        "min_score in [checks.x] of c.toml: expected a number, got 'x'; "
        "wait in [checks.x] of c.toml: expected true or false, got 'yes'"
    )


def test_limits_met_exactly_are_accepted_and_each_setting_is_kept() -> None:
    spec = spec_of(
        max_failed="100",
        timeout="0.5",
        poll_interval="0.1",
        max_drop="1",
        baseline_since="14d",
        baseline_until="7d",
    )
    assert spec.timeout == 0.5 and spec.poll_interval == 0.1
    assert spec.baseline_window is not None
    assert spec.baseline_window.since == NOW - timedelta(days=14)
    assert spec.baseline_window.until == NOW - timedelta(days=7)
    assert spec_of(min_score="1", poll_interval="1").poll_interval == 1
    assert spec_of(min_score="1").poll_interval is None


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        ({"min_score": "50%"}, "--min-score: expected a number, got '50%'"),
        ({"min_score": "1", "timeout": "soon"}, "--timeout: expected a number, got 'soon'"),
        ({"min_score": "1", "poll_interval": "x"}, "--poll-interval: expected a number, got 'x'"),
        ({"min_score": "1", "last": "many"}, "--last: expected a whole number ≥ 1, got 'many'"),
        (
            {"max_drop": "1", "baseline_since": "then"},
            "--baseline-since: expected a date (2026-10-01), a date-time (2026-10-01T09:00Z)"
            " or a duration (2h, 7d), got 'then'",
        ),
        (
            {"max_drop": "1", "baseline_since": "7d", "baseline_until": "7d"},
            "--baseline-since must be before --baseline-until",
        ),
    ],
)
def test_more_bad_input_names_the_option_and_the_value(flags: dict[str, object], says: str) -> None:
    assert refused(**flags) == says


def test_a_table_refuses_an_unknown_key_naming_the_known_ones() -> None:
    with pytest.raises(GateInputError) as refused_key:
        build_spec([Source({"min_scor": 1}, "[checks.x] of c.toml")], now=NOW)
    assert str(refused_key.value) == (
        "min_scor in [checks.x] of c.toml: not a known key; known: " + ", ".join(SPEC_KEYS)
    )
    with pytest.raises(GateInputError) as not_bool:
        build_spec([Source({"min_score": 1, "wait": "yes"}, "[checks.x] of c.toml")], now=NOW)
    assert str(not_bool.value) == "wait in [checks.x] of c.toml: expected true or false, got 'yes'"


def test_a_criterion_is_named_with_spaces_or_dashes_and_an_unknown_one_lists_all() -> None:
    spec = build_spec([Source({"min": "CTA effectiveness=60"}, "[checks.x] of c.toml")], now=NOW)
    assert [a.id for a in spec.assertions] == ["min:cta_effectiveness"]
    assert refused(min=("delight=3",)) == "--min: unknown criterion 'delight'; known: " + (
        ", ".join(c.value for c in CRITERIA)
    )


def a_view(**values: object) -> ViewScope:
    return read_scope(values, lambda key: f"view 'checkout': {key}")


def test_a_views_scope_is_the_gates() -> None:
    view = a_view(label="Checkout*", status="completed", max_score=60, project_id="proj_a")
    spec = build_spec([Source({"min_score": 70})], now=NOW, view=view, view_name="checkout")
    scope = spec.scope
    assert (scope.label, scope.status, scope.project_id) == ("Checkout*", "completed", "proj_a")
    assert (scope.min_score, scope.max_score) == (None, 60)
    assert [a.kind for a in spec.assertions] == [Kind.MIN_SCORE]


def test_the_options_replace_a_views_keys_and_keep_the_rest() -> None:
    view = a_view(label="Checkout*", status="completed", max_score=60)
    spec = build_spec(
        [Source({"min_score": 70, "label": "Login*"})], now=NOW, view=view, view_name="checkout"
    )
    assert (spec.scope.label, spec.scope.status, spec.scope.max_score) == (
        "Login*",
        "completed",
        60,
    )


@pytest.mark.parametrize(
    "bounds", [{"min_score": 40, "max_score": 60}, {"min_score": 40}, {"max_score": 60}]
)
def test_a_score_range_given_replaces_the_views_bounds(bounds: dict[str, float]) -> None:
    view = a_view(status="completed", **bounds)
    spec = build_spec(
        [Source({"min_score": 70, "score": "..80"})], now=NOW, view=view, view_name="checkout"
    )
    assert (spec.scope.min_score, spec.scope.max_score) == (None, 80)
    assert spec.scope.status == "completed"


def test_without_a_view_the_scope_is_the_options_alone() -> None:
    spec = build_spec([Source({"min_score": 70, "score": "50.."})], now=NOW)
    assert (spec.scope.min_score, spec.scope.max_score, spec.scope.label) == (50, None, None)
