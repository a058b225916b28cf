"""The mutation tier's figures: killed / survived / no tests / equivalent per module, and the
score, read from the last run of each module (scripts/mutation.py writes them under
.mutation/MODULE/).

    uv run python scripts/mutation_summary.py              # the table, every module run so far
    uv run python scripts/mutation_summary.py gate numbers # some modules
    uv run python scripts/mutation_summary.py --markdown   # the table for docs/reliability.md
    uv run python scripts/mutation_summary.py --survivors gate
                                          # each surviving mutant, as a line of the
                                          # equivalents list (name, function hash, reason)

The score is killed / (mutants - equivalent): a mutant with no test that reaches it counts
against it like a survivor. A mutant killed by a time-out (a test that never ends) counts as
killed. An equivalent is a mutant that cannot change what the module does; the reviewed list
(tests/mutation/equivalents.txt) names each with the hash of its function's source and one
line of reason, so an entry whose function has changed since it was reviewed stops counting
(and is shown as stale) until it is looked at again.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The modules' workspaces; MUTATION_WORK puts them elsewhere (the tier's own test does).
WORK = Path(os.environ.get("MUTATION_WORK") or ROOT / ".mutation")

# mutmut's exit codes for a mutant (mutmut.stats.status_by_exit_code, 3.8): a failing test
# run (1), an error inside pytest (3) and the limits it sets on a run (a time-out, or the
# kill that follows one) all mean a test noticed the mutant.
KILLED = {1, 3, 24, -24, 152, 255, 36, -9, -11}
SURVIVED = {0}
NO_TESTS = {5, 33}
NOT_RUN = {None, 2}


@dataclass(frozen=True)
class Module:
    """One module of the tier, as pyproject.toml's [tool.mutation.modules] names it."""

    name: str
    mutate: tuple[str, ...]
    skip: tuple[str, ...]
    tests: tuple[str, ...]
    floor: float | None
    minutes: float
    # pytest-timeout's limit on each test of a mutant's run (None: the suite's own)
    test_timeout: float | None = None

    @property
    def workspace(self) -> Path:
        """Where its runs live: the generated configuration and mutmut's mutants/."""
        return WORK / self.name

    def owns(self, path: str) -> bool:
        """Whether a repository path (a source file or a test) belongs to this module."""
        from fnmatch import fnmatch

        if any(path == t or path.startswith(t.rstrip("/") + "/") for t in self.tests):
            return True
        sources = [f"src/screen_analysis/{p}" for p in self.mutate]
        skipped = [f"src/screen_analysis/{p}" for p in self.skip]
        return any(fnmatch(path, p) for p in sources) and not any(fnmatch(path, p) for p in skipped)


def settings() -> dict[str, object]:
    """pyproject.toml's [tool.mutation] table."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        table: dict[str, object] = tomllib.load(f)["tool"]["mutation"]
    return table


def modules() -> list[Module]:
    """Every module of the tier, in the order pyproject.toml lists them."""
    found = []
    raw = settings()["modules"]
    assert isinstance(raw, dict)
    for name, spec in raw.items():
        found.append(
            Module(
                name=name,
                mutate=tuple(spec["mutate"]),
                skip=tuple(spec.get("skip", ())),
                tests=tuple(spec["tests"]),
                floor=spec.get("floor"),
                minutes=float(spec.get("minutes", 0)),
                test_timeout=spec.get("test_timeout"),
            )
        )
    return found


def pick(names: Iterable[str]) -> list[Module]:
    """The modules named (all when none is), refusing a name the tier does not know."""
    every = modules()
    wanted = list(names)
    unknown = sorted(set(wanted) - {m.name for m in every})
    if unknown:
        known = ", ".join(m.name for m in every)
        raise SystemExit(f"no module {', '.join(unknown)} in the tier (known: {known})")
    return [m for m in every if not wanted or m.name in wanted]


@dataclass(frozen=True)
class Equivalent:
    """A reviewed equivalent mutant: its name, its function's hash when reviewed, why."""

    mutant: str
    function_hash: str
    reason: str


def equivalents() -> dict[str, Equivalent]:
    """The reviewed list, by mutant name (lines `name hash reason`; `#` starts a comment)."""
    path = ROOT / str(settings()["equivalents"])
    listed: dict[str, Equivalent] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            raise SystemExit(f"{path}:{number}: want `mutant function-hash reason`")
        listed[parts[0]] = Equivalent(*parts)
    return listed


@dataclass
class Result:
    """One module's last run: the verdict of each mutant and the hash of each function."""

    module: Module
    status: dict[str, int | None] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)
    seconds: float | None = None

    def function_hash(self, mutant: str) -> str:
        """The hash of the source of the function a mutant changes."""
        function = mutant.partition("__mutmut_")[0]
        return self.hashes.get(function, "-")


def _meta_files(workspace: Path) -> Iterator[Path]:
    yield from sorted((workspace / "mutants" / "src").rglob("*.py.meta"))


def load(module: Module) -> Result | None:
    """The module's last run, or None when it has not been run here."""
    files = list(_meta_files(module.workspace))
    if not files:
        return None
    result = Result(module)
    for meta in files:
        data = json.loads(meta.read_text(encoding="utf-8"))
        try:
            codes, hashes = data["exit_code_by_key"], data["hash_by_function_name"]
        except KeyError as missing:  # the one place this script reads mutmut's own files
            raise SystemExit(f"{meta}: no {missing}: mutmut's result files have changed") from None
        dotted = ".".join(meta.relative_to(module.workspace / "mutants" / "src").parts)
        prefix = dotted.removesuffix(".py.meta").removesuffix(".__init__")
        result.status.update(codes)
        result.hashes.update({f"{prefix}.{name}": h for name, h in hashes.items()})
    timing = module.workspace / "run.json"
    if timing.exists():
        result.seconds = json.loads(timing.read_text(encoding="utf-8")).get("seconds")
    return result


@dataclass
class Tally:
    """A module's counts and score, with the equivalents applied."""

    mutants: int = 0
    killed: int = 0
    survived: int = 0
    no_tests: int = 0
    equivalent: int = 0
    not_run: int = 0
    survivors: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        """Killed, in per cent of the mutants that are not equivalent (None: none ran)."""
        judged = self.mutants - self.equivalent - self.not_run
        return None if judged <= 0 else 100 * self.killed / judged


def tally(result: Result, listed: dict[str, Equivalent]) -> Tally:
    """Count a module's verdicts; a listed equivalent counts as such only while its
    function is the one reviewed and no test kills it."""
    t = Tally(mutants=len(result.status))
    for mutant, code in sorted(result.status.items()):
        entry = listed.get(mutant)
        if entry is not None and entry.function_hash != result.function_hash(mutant):
            t.stale.append(f"{mutant}: its function changed since it was reviewed")
            entry = None
        if code in NOT_RUN:
            t.not_run += 1
            t.unchecked.append(mutant)
        elif code in KILLED:
            t.killed += 1
            if entry is not None:
                t.stale.append(f"{mutant}: listed as equivalent, but a test kills it")
        elif entry is not None:
            t.equivalent += 1
        elif code in NO_TESTS:
            t.no_tests += 1
            t.survivors.append(mutant)
        else:
            t.survived += 1
            t.survivors.append(mutant)
    return t


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} %"


def _minutes(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds / 60:.1f}"


COLUMNS = (
    "module",
    "mutants",
    "killed",
    "survived",
    "no tests",
    "equivalent",
    "score",
    "floor",
    "minutes",
)


def rows(chosen: list[Module]) -> list[tuple[str, ...]]:
    """One row per module that has been run, in COLUMNS' order."""
    listed = equivalents()
    table = []
    for module in chosen:
        result = load(module)
        if result is None:
            continue
        t = tally(result, listed)
        floor = "-" if module.floor is None else f"{module.floor:g} %"
        counts = (t.mutants, t.killed, t.survived, t.no_tests, t.equivalent)
        cells = (_percent(t.score), floor, _minutes(result.seconds))
        table.append((module.name, *map(str, counts), *cells))
    return table


def render(table: list[tuple[str, ...]], markdown: bool) -> str:
    """The table as aligned text, or as Markdown for the docs."""
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(row) + " |" for row in table]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [COLUMNS, *table]) for i in range(len(COLUMNS))]
    out = []
    for row in [COLUMNS, *table]:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells))
    return "\n".join(out)


def below_floor(chosen: list[Module]) -> list[str]:
    """The modules whose last run kills less than their floor, each with its score."""
    listed = equivalents()
    failing = []
    for module in chosen:
        result = load(module)
        if result is None or module.floor is None:
            continue
        t = tally(result, listed)
        if t.score is not None and t.not_run == 0 and t.score < module.floor:
            failing.append(f"{module.name}: {_percent(t.score)} killed, floor {module.floor:g} %")
    return failing


def survivors(module: Module) -> list[str]:
    """The module's surviving mutants as lines of the equivalents list, reason left blank,
    and the stale entries of the list."""
    result = load(module)
    if result is None:
        return [f"{module.name}: not run yet (uv run python scripts/mutation.py {module.name})"]
    t = tally(result, equivalents())
    lines = [f"{m} {result.function_hash(m)} ?" for m in t.survivors]
    lines += [f"# stale: {s}" for s in t.stale]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the table (or the survivors) for the modules asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules (default: every one run so far)")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants")
    args = parser.parse_args(argv)
    chosen = pick(args.modules)
    if args.survivors:
        for module in chosen:
            print("\n".join(survivors(module)))
        hint = "one: cd .mutation/MODULE && uv run --project ../.. mutmut show NAME; all: … browse"
        print(f"({hint})", file=sys.stderr)
        return 0
    table = rows(chosen)
    if not table:
        print("no module has been run yet: uv run python scripts/mutation.py MODULE")
        return 1
    print(render(table, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
