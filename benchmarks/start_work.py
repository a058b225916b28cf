"""What the app's own start does before `App.run`, by kind of work.

The warm start's distance to its local floor lies almost all before `App.run` (the
timeline in docs/performance.md): the app's modules being imported. This looks inside
that part. A fresh interpreter imports what the local floor imports (Textual's `App` and
`DataTable`), then runs the app's `main` (`--base-url`, a fake key, a fresh home) up to
`App.run`, which stops it; on the way it times what the app's own modules create, by kind:

- each class statement, by what it derives from: a `typing.NamedTuple`, a Textual class
  (widgets, screens, messages: Textual inspects each when it is created), an `Enum`, an
  exception, a `Protocol`, any other;
- each `dataclasses.dataclass` decorator (the methods it writes and compiles);
- each regular expression compiled, by any module the start imports;
- after the run, the byte code of the app's modules it imported: its size, and how long
  `marshal.loads` takes to read it back (what each import does before the module runs).

`python -m benchmarks.start_work [--src SRC] [REPEATS]`: medians of REPEATS fresh processes
(5 by default) after one discarded run that writes the byte code; SRC, a version's `src/`
folder, goes first on `PYTHONPATH`. The hooks add a little to what they time: read the
shares and the counts, and compare versions measured by the same run.
"""

from __future__ import annotations

import enum
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("NamedTuple", "Textual", "Enum", "exception", "Protocol", "other")
FAKE_KEY = "sk-fake-benchmark-key"


class _Stop(BaseException):
    """Raised in place of `App.run`: the start is measured up to there."""


def _kind(bases: tuple[Any, ...], textual: tuple[type, ...]) -> str:
    for base in bases:
        if base is typing.NamedTuple:
            return "NamedTuple"
        if base is typing.Protocol:
            return "Protocol"
        if not isinstance(base, type):
            continue
        if issubclass(base, textual):
            return "Textual"
        if issubclass(base, enum.Enum):
            return "Enum"
        if issubclass(base, BaseException):
            return "exception"
    return "other"


def _ours(module: object) -> bool:
    return isinstance(module, str) and module.startswith("screen_analysis")


def measure_in_this_process(base_url: str) -> dict[str, Any]:
    """Run the app's `main` up to `App.run` here, hooked; the figures (ms and counts)."""
    import builtins
    import dataclasses
    import re
    import runpy

    import textual.app
    from textual.dom import DOMNode
    from textual.message import Message
    from textual.widgets import DataTable  # noqa: F401 - the local floor's imports

    textual_bases = (DOMNode, Message)
    times_ms = dict.fromkeys(KINDS, 0.0)
    counts = dict.fromkeys(KINDS, 0)
    extra = {"dataclass_ms": 0.0, "dataclasses": 0, "regex_ms": 0.0, "regexes": 0}
    depth = 0
    build_class = builtins.__build_class__

    def timed_build_class(func: Callable[[], Any], name: str, /, *bases: Any, **kw: Any) -> Any:
        nonlocal depth
        depth += 1
        started = time.perf_counter()
        try:
            return build_class(func, name, *bases, **kw)
        finally:
            spent_ms = (time.perf_counter() - started) * 1000
            depth -= 1
            if depth == 0 and _ours(func.__module__):
                kind = _kind(bases, textual_bases)
                times_ms[kind] += spent_ms
                counts[kind] += 1

    dataclass = dataclasses.dataclass

    def timed_dataclass(cls: Any = None, /, **options: Any) -> Any:
        def wrap(cls: type) -> type:
            started = time.perf_counter()
            made: type = dataclass(**options)(cls)
            if _ours(cls.__module__):
                extra["dataclass_ms"] += (time.perf_counter() - started) * 1000
                extra["dataclasses"] += 1
            return made

        return wrap if cls is None else wrap(cls)

    compile_pattern = re.compile

    def timed_compile(pattern: Any, flags: Any = 0) -> re.Pattern[Any]:
        started = time.perf_counter()
        try:
            return compile_pattern(pattern, flags)
        finally:
            extra["regex_ms"] += (time.perf_counter() - started) * 1000
            extra["regexes"] += 1

    def stop(self: object, *args: object, **kwargs: object) -> None:
        raise _Stop

    before = set(sys.modules)
    builtins.__build_class__ = timed_build_class
    dataclasses.dataclass = timed_dataclass
    re.compile = timed_compile
    textual.app.App.run = stop  # type: ignore[method-assign]
    sys.argv = ["screen-analysis", "--base-url", base_url]
    started = time.perf_counter()
    try:
        runpy.run_module("screen_analysis", run_name="__main__", alter_sys=True)
    except _Stop:
        pass
    else:
        raise RuntimeError("the app ended before App.run")
    total_ms = (time.perf_counter() - started) * 1000
    imported = set(sys.modules) - before
    byte_code_kb, unmarshal_ms = _byte_code([name for name in imported if _ours(name)])
    figures: dict[str, Any] = {
        "total_ms": total_ms,
        "modules": len(imported),
        "own_modules": sum(1 for name in imported if _ours(name)),
        "dataclass_ms": extra["dataclass_ms"],
        "dataclasses": extra["dataclasses"],
        "regex_ms": extra["regex_ms"],
        "regexes": extra["regexes"],
        "byte_code_kb": byte_code_kb,
        "unmarshal_ms": unmarshal_ms,
    }
    for kind in KINDS:
        figures[f"{kind}_ms"] = times_ms[kind]
        figures[f"{kind}_classes"] = counts[kind]
    return figures


def _byte_code(names: Sequence[str]) -> tuple[float, float]:
    """(KB, ms): the size of the byte code files of the modules `names` and the time
    `marshal.loads` takes to read each back, as its import did."""
    import marshal

    size = 0
    spent = 0.0
    for name in names:
        spec = getattr(sys.modules[name], "__spec__", None)
        cached = getattr(spec, "cached", None)
        if not cached:
            continue
        try:
            # Past the 16-byte header: magic number, flags, then mtime and size (or a hash).
            data = Path(cached).read_bytes()[16:]
        except FileNotFoundError:
            continue
        size += len(data)
        started = time.perf_counter()
        marshal.loads(data)
        spent += time.perf_counter() - started
    return size / 1000, spent * 1000


def one_run(env: dict[str, str]) -> dict[str, Any]:
    """The figures of one fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.start_work", "--child"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the measured start failed: {done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return figures


def run(repeats: int = 5, src: str | None = None) -> dict[str, Any]:
    """Medians of `repeats` fresh processes, after one that writes the byte code."""
    # Imported here, not by the measured child: only the floor's imports precede its start.
    from .cold_start import child_env

    with tempfile.TemporaryDirectory(prefix="start-work-") as home:
        env = child_env(FAKE_KEY, Path(home))  # nothing before `App.run` asks the server
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join([src, str(ROOT)])
        one_run(env)
        runs = [one_run(env) for _ in range(repeats)]
    medians = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    classes_ms = sum(medians[f"{kind}_ms"] for kind in KINDS)
    return {
        "repeats": repeats,
        "medians": {name: round(value, 2) for name, value in medians.items()},
        "share": {
            "classes": round(classes_ms / medians["total_ms"], 3),
            "dataclasses": round(medians["dataclass_ms"] / medians["total_ms"], 3),
            "regexes": round(medians["regex_ms"] / medians["total_ms"], 3),
            "unmarshal": round(medians["unmarshal_ms"] / medians["total_ms"], 3),
        },
    }


def _child() -> int:
    figures = measure_in_this_process("http://127.0.0.1:9")
    print(json.dumps(figures), file=sys.__stdout__, flush=True)
    os._exit(0)  # the cache being opened ahead is not waited for


def main(argv: Sequence[str] = sys.argv[1:]) -> int:
    """`python -m benchmarks.start_work [--src SRC] [REPEATS]`."""
    args = list(argv)
    if args == ["--child"]:
        return _child()
    src = None
    if "--src" in args:
        at = args.index("--src")
        src = args[at + 1]
        del args[at : at + 2]
    print(json.dumps(run(int(args[0]) if args else 5, src), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
