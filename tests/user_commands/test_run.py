"""Your own commands, headless: a hostile label passes as one argument byte for byte (a
real program prints its argv as JSON), a hanging command is killed at its timeout, a
failure is one line with the exit code and the last stderr lines, the config's tables are
checked with the project's wording."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import pytest

from screen_analysis.api.models import Analysis
from screen_analysis.user_commands import (
    CommandConfigError,
    fill,
    parse_commands,
    run_command,
    values_of,
)

PRINT_ARGV = str(Path(__file__).parents[1] / "support" / "print_argv.py")
HOSTILE = "$(touch /tmp/pwned) ; rm -rf ~ `id` \"double\" 'single'\nsecond line\t{id} \\ é"


def analysis(**fields: object) -> Analysis:
    return Analysis.model_validate({"id": "ana_1", "project_id": "proj_1", **fields})


async def test_a_hostile_label_is_one_argument_byte_for_byte(tmp_path: Path) -> None:
    pwned = Path("/tmp/pwned")
    existed = pwned.exists()
    [spec] = parse_commands(
        {"show": {"run": [sys.executable, PRINT_ARGV, "{label}", "{id}", "{score}", "{label}"]}}
    ).values()
    row = analysis(label=HOSTILE, score=72, status="completed")
    result = await run_command(fill(spec.run, values_of(row)), timeout=30)
    assert result.ok, result.line()
    assert json.loads(result.stdout[-1]) == [HOSTILE, "ana_1", "72", HOSTILE]
    assert pwned.exists() == existed  # nothing ran the label


async def test_rows_go_to_standard_input_as_json_lines() -> None:
    script = "import sys, json; print(json.dumps([json.loads(x)['id'] for x in sys.stdin]))"
    rows = b'{"id": "ana_1"}\n{"id": "ana_2"}\n'
    result = await run_command([sys.executable, "-c", script], stdin=rows, timeout=30)
    assert result.ok and json.loads(result.stdout[-1]) == ["ana_1", "ana_2"]


async def test_a_hanging_command_is_killed_at_its_timeout() -> None:
    script = "import sys, time; print('started', flush=True); time.sleep(600)"
    # Long enough for a Python to start and print on a crowded machine.
    result = await run_command([sys.executable, "-c", script], timeout=3, name="hang")
    assert result.timed_out and not result.ok
    assert result.stdout == ("started",)
    assert result.line() == "hang: killed at its timeout"


async def test_a_failure_is_one_line_with_the_code_and_the_last_stderr_lines() -> None:
    script = "import sys\nfor n in range(9): print(f'line {n}', file=sys.stderr)\nsys.exit(3)"
    result = await run_command([sys.executable, "-c", script], timeout=30, name="post")
    assert result.code == 3
    assert result.line() == "post: exit 3: line 4 / line 5 / line 6 / line 7 / line 8"


async def test_a_missing_program_is_said() -> None:
    result = await run_command(["no-such-program-here", "x"], timeout=5, name="open")
    assert result.line() == "open: no-such-program-here not found"


async def test_a_cancelled_run_stops_the_command(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = (
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)"
    )
    task = asyncio.ensure_future(run_command([sys.executable, "-c", script], timeout=600))
    deadline = time.monotonic() + 30  # the child writes its pid as it starts
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the command never started"
        assert not task.done(), "the run ended before the command started"
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"run": ["x"], "shell": True}, "commands.c: shell: not a known key"),
        ({"run": []}, "commands.c: run: "),
        ({"run": ["open", "--url={image_url}"]}, "a placeholder is a whole argument"),
        ({"run": ["open", "{nope}"]}, "unknown placeholder {nope}"),
        ({"run": ["x"], "output": "popup"}, "commands.c: output: "),
        ({"run": ["x"], "timeout": 0}, "commands.c: timeout: "),
        ({"run": "open {id}"}, "commands.c: run: "),
    ],
)
def test_a_bad_table_is_one_line(table: dict[str, object], said: str) -> None:
    with pytest.raises(CommandConfigError) as caught:
        parse_commands({"c": table})
    assert said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_good_table() -> None:
    [spec] = parse_commands(
        {"open-image": {"key": "ctrl+o", "run": ["xdg-open", "{image_url}"], "output": "none"}}
    ).values()
    assert spec.name == "open-image" and spec.binding_id == "command.open-image"
    assert spec.run == ("xdg-open", "{image_url}") and spec.timeout == 30.0
