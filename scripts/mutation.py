"""The mutation tier: mutmut changes one headless module at a time, a mutant at a time, and
runs that module's own tests against each change; a change no test notices is a survivor.

    uv run python scripts/mutation.py gate numbers   # some modules, one after the other
    uv run python scripts/mutation.py --all          # the whole tier (a quiet machine)
    uv run python scripts/mutation.py --changed      # the modules a change touched (CI)
    uv run python scripts/mutation.py --survivors gate   # last run's survivors (and unchecked)
    uv run python scripts/mutation_summary.py        # the table of the last runs

The modules, the files each mutates, the tests that must kill the mutants and each module's
floor are in pyproject.toml ([tool.mutation]). Each module runs in a workspace of its own,
.mutation/MODULE/ (ignored by git): a generated pyproject.toml that tells mutmut what to
mutate and which tests to run, beside links to src/ and tests/; mutmut copies both into
.mutation/MODULE/mutants/ and mutates the copy, never the checkout. A run starts afresh
(every mutant tested again against today's tests); --survivors re-tests only the mutants the
last run left alive, a quick check while writing the tests that kill them.

--changed takes the modules whose source or tests differ from a base: --base REV when
given (CI gives HEAD^1: what the last commit brought over its first parent, which for a
merge is everything the merged branch brought), else $MUTATION_BASE when set, else where
this branch left main (`git merge-base HEAD main`), else the first parent of HEAD. A base
git cannot find (a first commit, a shallow clone) runs nothing, and says so. With --budget,
the modules run from the quickest, a module whose expected minutes (pyproject.toml) do not
fit in what is left is skipped with a line saying so, and a run still going when the budget
ends is stopped (within the budget: the stop's grace is kept back from it) and reported
unfinished, which is no failure. --check fails when a finished module kills less than its
floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import tomlkit
from mutation_summary import (
    ROOT,
    Module,
    below_floor,
    equivalents,
    load,
    modules,
    pick,
    render,
    rows,
    settings,
    tally,
)


def _git(*args: str) -> str | None:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


# How long a module stopped at the budget's end is given to stop (mutmut saves its results
# on SIGINT), kept back from the budget so the step ends within it.
STOP_GRACE = 30.0


def change_base(given: str | None = None) -> str | None:
    """The commit a change is measured from (see the module's docstring); None when there
    is none (a first commit, or a clone without that history)."""
    wanted = given or os.environ.get("MUTATION_BASE")
    if wanted:
        return _git("rev-parse", "--verify", "--quiet", f"{wanted}^{{commit}}")
    head = _git("rev-parse", "HEAD")
    fork = _git("merge-base", "HEAD", "main")
    if fork and fork != head:
        return fork
    return _git("rev-parse", "--verify", "--quiet", "HEAD^1")


def changed_modules(given: str | None = None) -> tuple[str, list[Module]]:
    """The base, and the modules whose files differ between it and the working tree."""
    base = change_base(given)
    if base is None:
        print("--changed: no earlier commit to compare with, so no module is run")
        return "nothing", []
    listing = _git("diff", "--name-only", base)
    if listing is None:
        raise SystemExit(f"--changed: git cannot compare with {base}")
    paths = listing.splitlines()
    return base, [m for m in modules() if any(m.owns(p) for p in paths)]


def write_workspace(module: Module, fresh: bool) -> Path:
    """The module's workspace with its generated configuration; `fresh` drops the last run."""
    workspace = module.workspace
    if fresh and workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True, exist_ok=True)
    tier = settings()
    also = list(tier.get("also_copy", []))  # type: ignore[call-overload]
    for name in ("src", "tests", *also):
        link = workspace / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name)
    with open(ROOT / "pyproject.toml", "rb") as f:
        pytest_options = dict(tomllib.load(f)["tool"]["pytest"]["ini_options"])
    pytest_options["addopts"] = tier["addopts"]
    if module.test_timeout is not None:
        pytest_options["timeout"] = module.test_timeout
        # The thread method ends the process at the limit: a hang that goes on in a fixture's
        # teardown (a writer thread joined again) would outlive the signal method's one alarm.
        pytest_options["timeout_method"] = "thread"
    package = "src/screen_analysis"
    config = {
        "tool": {
            "mutmut": {
                "source_paths": [package],
                "only_mutate": [f"{package}/{p}" for p in module.mutate],
                "do_not_mutate": [f"{package}/{p}" for p in module.skip],
                "pytest_add_cli_args_test_selection": list(module.tests),
                "also_copy": also,
                # The workspace is made anew for each run: nothing to track between runs.
                "use_git_change_detection": False,
                "on_dependency_change": "ignore",
            },
            "pytest": {"ini_options": pytest_options},
        }
    }
    header = (
        f"# Generated by scripts/mutation.py for the module {module.name}: edit pyproject.toml.\n"
    )
    (workspace / "pyproject.toml").write_text(header + tomlkit.dumps(config), encoding="utf-8")
    return workspace


def run_module(module: Module, workers: int, survivors_only: bool, seconds: float | None) -> str:
    """Run mutmut on one module; the outcome in a word: done, failed, unfinished or skipped."""
    names = ["*"]
    if survivors_only:
        last = load(module)
        if last is None:
            print(f"{module.name}: no last run to take the survivors from; running it all")
        else:
            # The survivors, and the mutants not checked yet: those of a function that
            # changed since the last run (mutmut makes them anew) or of an unfinished run.
            last_tally = tally(last, equivalents())
            names = last_tally.survivors + last_tally.unchecked
            if not names:
                print(f"{module.name}: no survivors left")
                return "skipped"
    workspace = write_workspace(module, fresh=not survivors_only or names == ["*"])
    mutmut = Path(sys.executable).with_name("mutmut")
    command = [str(mutmut), "run", "--max-children", str(workers), *names]
    log = workspace / "run.log"
    print(f"== {module.name}: mutmut on {', '.join(module.mutate)}, tests {' '.join(module.tests)}")
    print(f"   (output in {log})", flush=True)
    started = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        # A session of its own, so that stopping it at the budget's end reaches its workers.
        child = subprocess.Popen(
            command, cwd=workspace, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = child.wait(timeout=None if seconds is None else max(seconds - STOP_GRACE, 0))
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGINT)  # mutmut stops its workers and saves
            try:
                child.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
            print(f"   {module.name}: stopped at the end of the budget, unfinished")
            return "unfinished"
    elapsed = time.monotonic() - started
    if code != 0:
        print(log.read_text(encoding="utf-8", errors="replace")[-3000:])
        print(f"   {module.name}: mutmut failed (exit {code})")
        return "failed"
    if not survivors_only:
        record = {"seconds": round(elapsed, 1), "workers": workers, "date": time.strftime("%F")}
        (workspace / "run.json").write_text(json.dumps(record), encoding="utf-8")
    print(f"   {module.name}: done in {elapsed / 60:.1f} min", flush=True)
    return "done"


def main(argv: list[str] | None = None) -> int:
    """Run the modules asked, one at a time, then print their table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules (pyproject.toml [tool.mutation])")
    parser.add_argument("--all", action="store_true", help="every module of the tier")
    parser.add_argument("--changed", action="store_true", help="the modules a change touched")
    parser.add_argument("--base", default=None, help="with --changed: the commit to compare with")
    parser.add_argument("--survivors", action="store_true", help="re-test last run's survivors")
    parser.add_argument("--workers", type=int, default=None, help="mutmut's --max-children")
    parser.add_argument("--budget", type=float, default=None, help="minutes for the whole run")
    parser.add_argument("--check", action="store_true", help="fail below a module's floor")
    args = parser.parse_args(argv)
    tier = settings()
    workers = args.workers or int(tier.get("workers", 2))  # type: ignore[call-overload]
    if args.changed:
        base, chosen = changed_modules(args.base)
        print(f"modules changed since {base[:12]}: {', '.join(m.name for m in chosen) or 'none'}")
    elif args.all or args.modules:
        chosen = pick(args.modules)
    else:
        parser.error("name modules, or --all, or --changed")
    started = time.monotonic()
    deadline = None if args.budget is None else started + args.budget * 60
    if deadline is not None:
        chosen = sorted(chosen, key=lambda m: m.minutes)
    outcomes: dict[str, str] = {}
    for module in chosen:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and module.minutes * 60 > left:
            print(
                f"== {module.name}: expected {module.minutes:g} min, more than the "
                f"{max(left, 0) / 60:.1f} min left of the budget; left for a quiet machine"
            )
            outcomes[module.name] = "skipped"
            continue
        outcomes[module.name] = run_module(module, workers, args.survivors, left)
    if deadline is not None:
        used = (time.monotonic() - started) / 60
        print(f"mutation tier: {used:.1f} of the {args.budget:g} min budget used")
    ran = [m for m in chosen if outcomes.get(m.name) in {"done", "unfinished"}]
    if ran:
        print()
        print(render(rows(ran), markdown=False))
    failed = [name for name, outcome in outcomes.items() if outcome == "failed"]
    if failed:
        print(f"mutmut failed on: {', '.join(failed)}")
        return 1
    if args.check:
        finished = [m for m in chosen if outcomes.get(m.name) == "done"]
        short = below_floor(finished)
        if short:
            print("below the floor (survivors: scripts/mutation_summary.py --survivors MODULE):")
            print("\n".join(f"  {line}" for line in short))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
