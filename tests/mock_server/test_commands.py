"""Every documented command against the independent server (Prism, `prism.py` beside this
file): the installed console script in a process of its own over real HTTP, ten runs each,
as issue 30's "Done when" asks.

Every answer is random and allowed by the API document, so no run may print a traceback,
outlive its deadline, exit 1 (a bug) or exit 5, except for the one documented situation a
run of allowed answers can reach: a cursor that comes back (a looping cursor, README "Exit
codes"), which only a command that follows cursors can meet. A negative `total`, a page
shorter or longer than `limit`, a cursor of several words are all allowed, never a failure.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.mock_server.prism import MockServer
from tests.reliability.terminal_driver import APP
from tests.support.relays import CountingProxy, counting_proxy

from screen_analysis.cli.exit_codes import ExitCode

pytestmark = pytest.mark.e2e

RUNS = 10  # the "ten runs"
DEADLINE_S = 60.0  # a command without a --timeout: far past any answer of Prism's
WALK_DEADLINE_S = 30.0  # `--all` then gets Ctrl+C: streaming on is not a failure
LOOP = re.compile(r"pagination loop")  # the error line of a looping cursor
GATE = ("--min-score", "50", "--max-failed", "50", "--min-count", "1")
WAIT_TIMEOUT_S = 5
WAIT_DEADLINE_S = WAIT_TIMEOUT_S + 15.0  # a hang; the second after --timeout is timed apart


@dataclass(frozen=True)
class Outcome:
    """How one run ended: the exit code (None when killed at the deadline) and its output."""

    args: tuple[str, ...]
    code: int | None
    stdout: str
    stderr: str
    started: float  # time.monotonic() when it was started, and when it ended
    ended: float
    interrupted: bool = False

    def said(self) -> str:
        """The run's error line, else its last line on stderr."""
        lines = self.stderr.splitlines()
        errors = [line for line in lines if line.startswith("Error:")]
        return (errors or lines or [""])[-1]


def run(
    server: MockServer,
    cwd: Path,
    args: tuple[str, ...],
    deadline: float,
    env: dict[str, str] | None = None,
) -> Outcome:
    """`screen-analysis ARGS` against `server` (`env` added to the environment); at
    `deadline` seconds a run still going is interrupted (Ctrl+C, as a user would) when it
    streams an `--all`, else killed."""
    started = time.monotonic()
    process = subprocess.Popen(
        [str(APP), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env={**os.environ, **server.env(), "COLUMNS": "120", "LINES": "40", **(env or {})},
        encoding="utf-8",
        errors="replace",
    )
    try:
        out, err = process.communicate(timeout=deadline)
        return Outcome(args, process.returncode, out, err, started, time.monotonic())
    except subprocess.TimeoutExpired:
        pass
    if "--all" in args:
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=10)
            ended = time.monotonic()
            return Outcome(args, process.returncode, out, err, started, ended, interrupted=True)
        except subprocess.TimeoutExpired:
            pass
    process.kill()
    out, err = process.communicate()
    return Outcome(args, None, out, err, started, time.monotonic())


OutputCheck = Callable[[Outcome], str]


def problems(
    outcome: Outcome,
    allowed: set[int],
    deadline: float,
    *,
    follows_cursors: bool,
    output: OutputCheck | None = None,
) -> list[str]:
    """What is wrong with one run: a traceback, the deadline passed, an exit code the
    situation does not call for, or output that does not read as its format."""
    found = []
    if "Traceback" in outcome.stdout + outcome.stderr:
        found.append("traceback: " + outcome.said())
    if outcome.code is None:
        found.append(f"still running after {deadline:g} s")
    elif outcome.interrupted and outcome.code == ExitCode.INTERRUPTED:
        pass  # an --all still streaming at the deadline, stopped with Ctrl+C
    elif outcome.code == ExitCode.API and follows_cursors and LOOP.search(outcome.said()):
        pass  # a looping cursor: the one documented exit 5 allowed answers can lead to
    elif outcome.code not in allowed:
        found.append(f"exit {outcome.code}: {outcome.said()}")
    if output is not None and outcome.code in (ExitCode.OK, ExitCode.INTERRUPTED):
        wrong = output(outcome)
        if wrong:
            found.append(wrong)
    return found


def ten_runs(
    server: MockServer,
    cwd: Path,
    args: tuple[str, ...] | Callable[[int], tuple[str, ...]],
    deadline: float = DEADLINE_S,
    env: dict[str, str] | None = None,
) -> list[Outcome]:
    """The command run ten times, one after the other (`args` may name each run's own)."""
    return [
        run(server, cwd, args(number) if callable(args) else args, deadline, env)
        for number in range(1, RUNS + 1)
    ]


def assert_ten_runs(
    server: MockServer,
    cwd: Path,
    args: tuple[str, ...] | Callable[[int], tuple[str, ...]],
    allowed: set[int],
    *,
    deadline: float = DEADLINE_S,
    follows_cursors: bool = False,
    output: OutputCheck | None = None,
    env: dict[str, str] | None = None,
    also: OutputCheck | None = None,
) -> None:
    """Run the command ten times; fail with every run that went wrong, one line each.
    `output` judges the output of a run that succeeded, `also` any run that ended."""
    failures = []
    for number, outcome in enumerate(ten_runs(server, cwd, args, deadline, env), 1):
        found = problems(outcome, allowed, deadline, follows_cursors=follows_cursors, output=output)
        said = also(outcome) if also is not None and outcome.code is not None else ""
        found += [said] if said else []
        failures += [f"run {number}: {shlex.join(outcome.args)}: {p}" for p in found]
    assert not failures, f"{len(failures)} problems in {RUNS} runs:\n" + "\n".join(failures)


def _complete_lines(text: str) -> list[str]:
    """The lines that were written whole (an interrupted stream may end mid-line)."""
    lines = text.splitlines()
    return lines if text.endswith("\n") else lines[:-1]


def _json_array(outcome: Outcome) -> str:
    try:
        document = json.loads(outcome.stdout)
    except ValueError as exc:
        return f"stdout is not JSON: {exc}"
    return "" if isinstance(document, list) else "stdout is not a JSON array"


def _json_lines(outcome: Outcome) -> str:
    for number, line in enumerate(_complete_lines(outcome.stdout), 1):
        try:
            if not isinstance(json.loads(line), dict):
                return f"line {number} of stdout is not a JSON object"
        except ValueError as exc:
            return f"line {number} of stdout is not JSON: {exc}"
    return ""


def _csv(outcome: Outcome) -> str:
    rows = list(csv.reader(io.StringIO(outcome.stdout)))
    return "" if rows and rows[0][:1] == ["id"] else "stdout has no CSV header"


OUTPUT_CHECKS: dict[str, OutputCheck | None] = {
    "table": None,
    "json": _json_array,
    "jsonl": _json_lines,
    "csv": _csv,
}


@pytest.mark.parametrize("fmt", list(OUTPUT_CHECKS))
def test_analyses_list(prism: MockServer, tmp_path: Path, fmt: str) -> None:
    # One page: whatever the document allows in it is shown, exit 0.
    args = ("analyses", "list", "--format", fmt)
    assert_ten_runs(prism, tmp_path, args, {ExitCode.OK}, output=OUTPUT_CHECKS[fmt])


def test_analyses_list_max_items(prism: MockServer, tmp_path: Path) -> None:
    args = ("analyses", "list", "--max-items", "500")
    assert_ten_runs(prism, tmp_path, args, {ExitCode.OK}, follows_cursors=True)


def test_analyses_list_all_streams_to_the_end_or_ctrl_c(prism: MockServer, tmp_path: Path) -> None:
    # Prism's cursors end only by chance (a null drawn for next_cursor): a walk still going
    # at the deadline is stopped with Ctrl+C (exit 130); every line written whole is JSON.
    assert_ten_runs(
        prism,
        tmp_path,
        ("analyses", "list", "--all", "--format", "jsonl"),
        {ExitCode.OK},
        deadline=WALK_DEADLINE_S,
        follows_cursors=True,
        output=_json_lines,
    )


def test_next_page_hint_is_one_shell_word(prism: MockServer, tmp_path: Path) -> None:
    # Prism's cursors are words with spaces between them ("quis consectetur Lorem"): the
    # hint is pasted into a shell, where the cursor must stay one argument. (Exit codes are
    # test_analyses_list's; here only the runs that printed a hint count.)
    hints = [
        line
        for outcome in ten_runs(prism, tmp_path, ("analyses", "list"))
        for line in (outcome.stdout + outcome.stderr).splitlines()
        if "--after " in line
    ]
    unquoted = [line for line in hints if len(shlex.split(line.split("--after ", 1)[1])) != 1]
    assert not unquoted, "\n".join(unquoted)


def test_projects_get(prism: MockServer, tmp_path: Path) -> None:
    assert_ten_runs(prism, tmp_path, ("projects", "get", "proj_x"), {ExitCode.OK})


def test_projects_get_names_the_id_asked_for(prism: MockServer, tmp_path: Path) -> None:
    # Prism sends a random id back, never proj_x: the server contradicts the request, and
    # the user is told, with the id asked for.
    shown = [o for o in ten_runs(prism, tmp_path, ("projects", "get", "proj_x")) if o.code == 0]
    silent = [o.stdout for o in shown if "proj_x" not in o.stdout + o.stderr]
    assert not silent, (
        f"{len(silent)} of {len(shown)} showed another id without a word:\n" + (silent[0])
    )


def test_check(prism: MockServer, tmp_path: Path) -> None:
    # Random scores: the gate holds (0) or not (6), judged either way.
    allowed = {ExitCode.OK, ExitCode.ASSERTION_FAILED}
    assert_ten_runs(prism, tmp_path, ("check", *GATE), allowed, follows_cursors=True)


def test_check_wait_ends_by_its_timeout(prism: MockServer, tmp_path: Path) -> None:
    # Pending and processing analyses in every answer, cursors that go on: the wait ends
    # with the timeout's exit code (7) within a second of --timeout, or the gate is judged.
    # The second is counted from the run's first request, which a counting proxy in front
    # of Prism times: the interpreter's start on a busy machine is not the command's.
    allowed = {ExitCode.OK, ExitCode.ASSERTION_FAILED, ExitCode.WAIT_TIMED_OUT}
    args = ("check", "--wait", "--timeout", str(WAIT_TIMEOUT_S), *GATE)
    with counting_proxy() as proxy:
        assert_ten_runs(
            prism,
            tmp_path,
            args,
            allowed,
            deadline=WAIT_DEADLINE_S,
            follows_cursors=True,
            env=through(proxy),
            also=lambda outcome: _past_timeout(proxy, outcome),
        )


def through(proxy: CountingProxy) -> dict[str, str]:
    """The environment that sends a run's requests through `proxy`."""
    return {"HTTP_PROXY": proxy.url, "http_proxy": proxy.url, "NO_PROXY": "", "no_proxy": ""}


def _past_timeout(proxy: CountingProxy, outcome: Outcome) -> str:
    """How long past --timeout + 1 s the run ended, counted from its first request."""
    mine = [t for t in proxy.times if outcome.started <= t <= outcome.ended]
    if not mine:
        return "no request went through the proxy"
    took = outcome.ended - mine[0]
    limit = WAIT_TIMEOUT_S + 1.0
    return f"ended {took:.1f} s after its first request (over {limit:g} s)" if took > limit else ""


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_report(prism: MockServer, tmp_path: Path, fmt: str) -> None:
    def args(number: int) -> tuple[str, ...]:
        return ("report", "--format", fmt, "--output", f"report-{number}.{fmt}")

    def written(outcome: Outcome) -> str:
        report = tmp_path / outcome.args[-1]
        return "" if report.is_file() and report.stat().st_size else f"{report.name} not written"

    allowed = {ExitCode.OK}
    assert_ten_runs(prism, tmp_path, args, allowed, follows_cursors=True, output=written)
