"""The mutation tier's summary: verdicts counted per module, a reviewed equivalent counted
only while its function is the one reviewed, and the score less the equivalents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts import mutation_summary as summary

MODULE = summary.Module("numbers", ("numbers.py",), (), ("tests/test_numbers.py",), 90, 1)


def _workspace(tmp_path: Path, codes: dict[str, int | None]) -> Path:
    meta = tmp_path / "numbers" / "mutants" / "src" / "screen_analysis" / "numbers.py.meta"
    meta.parent.mkdir(parents=True)
    document = {"exit_code_by_key": codes, "hash_by_function_name": {"x_nice_top": "abc123"}}
    meta.write_text(json.dumps(document), encoding="utf-8")
    return tmp_path


def _name(n: int) -> str:
    return f"screen_analysis.numbers.x_nice_top__mutmut_{n}"


@pytest.fixture
def result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> summary.Result:
    codes = {_name(1): 1, _name(2): 0, _name(3): 0, _name(4): 33, _name(5): None, _name(6): 36}
    monkeypatch.setattr(summary, "WORK", _workspace(tmp_path, codes))
    found = summary.load(MODULE)
    assert found is not None
    return found


def test_verdicts_are_counted_and_an_equivalent_leaves_the_score(result: summary.Result) -> None:
    listed = {_name(2): summary.Equivalent(_name(2), "abc123", "never equal")}
    tally = summary.tally(result, listed)
    assert (tally.mutants, tally.killed, tally.survived, tally.no_tests) == (6, 2, 1, 1)
    assert (tally.equivalent, tally.not_run) == (1, 1)
    assert tally.survivors == [_name(3), _name(4)] and tally.unchecked == [_name(5)]
    assert tally.score == 50.0  # 2 killed (one by a time-out) of 6 − 1 equivalent − 1 not run


def test_an_equivalent_of_a_changed_function_counts_as_a_survivor_again(
    result: summary.Result,
) -> None:
    listed = {_name(2): summary.Equivalent(_name(2), "0ld0ld", "never equal")}
    tally = summary.tally(result, listed)
    assert tally.equivalent == 0 and _name(2) in tally.survivors
    assert tally.stale == [f"{_name(2)}: its function changed since it was reviewed"]


def test_an_equivalent_a_test_kills_is_said_to_be_stale(result: summary.Result) -> None:
    listed = {_name(1): summary.Equivalent(_name(1), "abc123", "never equal")}
    tally = summary.tally(result, listed)
    assert tally.killed == 2 and tally.stale == [
        f"{_name(1)}: listed as equivalent, but a test kills it"
    ]


def test_the_reviewed_list_names_known_mutants_with_a_hash_and_a_reason() -> None:
    listed = summary.equivalents()
    assert listed and all(e.function_hash and e.reason for e in listed.values())
    # The file or package each mutant's name starts with is one a module of the tier mutates.
    mutated = {
        glob.split("/")[0].removesuffix(".py") for m in summary.modules() for glob in m.mutate
    }
    assert {name.split(".")[1] for name in listed} <= mutated


def test_a_module_the_tier_does_not_know_is_refused() -> None:
    with pytest.raises(SystemExit, match="no module nope in the tier"):
        summary.pick(["nope"])


def test_a_modules_test_limit_reaches_the_runs_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A part with `test_timeout` ends a hung test's process at that limit; one without keeps
    the suite's own limit."""
    import sys
    import tomllib

    monkeypatch.setitem(sys.modules, "mutation_summary", summary)  # the script's own import
    from scripts import mutation

    monkeypatch.setattr(summary, "WORK", tmp_path)
    limited = summary.Module("limited", ("rows.py",), (), ("tests/x.py",), 90, 1, 20)
    plain = summary.Module("plain", ("rows.py",), (), ("tests/x.py",), 90, 1)
    options: dict[str, dict[str, object]] = {}
    for module in (limited, plain):
        workspace = mutation.write_workspace(module, fresh=True)
        with open(workspace / "pyproject.toml", "rb") as f:
            options[module.name] = tomllib.load(f)["tool"]["pytest"]["ini_options"]
    assert (options["limited"]["timeout"], options["limited"]["timeout_method"]) == (20, "thread")
    assert options["plain"]["timeout"] == 120 and "timeout_method" not in options["plain"]
    parts = {m.name: m.test_timeout for m in summary.modules() if m.name.startswith("cache")}
    # each part has a limit of its own (cache.store's, with the most hanging mutants, is 10 s)
    assert parts and None not in parts.values(), "every part of the cache has its limit"
    assert parts["cache.store"] == 10
