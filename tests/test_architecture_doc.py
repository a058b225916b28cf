"""docs/architecture.md stays true: its tree names every package and module under
src/screen_analysis, its table names every import-linter contract, and every source file
it names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "screen_analysis"
DOC = ROOT / "docs" / "architecture.md"


def tree_entries() -> set[str]:
    """The names the tree at the top of the page lists (`cli/`, `config.py`, …)."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```\nsrc/screen_analysis/\n(.*?)```", text, re.S)
    assert block is not None, "the page starts with the tree of src/screen_analysis/"
    return {m.group(1) for m in re.finditer(r"^  (\S+)", block.group(1), re.M)}


def top_level_parts() -> set[str]:
    """Every package (`name/`) and module (`name.py`) of the top level but the package's
    own files (`__init__`, `__main__`, the version)."""
    parts = {f"{p.name}/" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.name for p in PACKAGE.glob("*.py")}
    return parts | (modules - {"__init__.py", "__main__.py", "_version.py"})


def test_the_tree_names_every_package_and_module() -> None:
    missing = top_level_parts() - tree_entries()
    assert not missing, f"docs/architecture.md's tree lacks {sorted(missing)}"


def test_the_tree_names_nothing_that_is_gone() -> None:
    gone = tree_entries() - top_level_parts()
    assert not gone, f"docs/architecture.md's tree names {sorted(gone)}, which do not exist"


def test_every_contract_is_in_the_table() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ids = {c["id"] for c in config["tool"]["importlinter"]["contracts"]}
    text = DOC.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([\w-]+)` \|", text, re.M))
    assert ids <= rows, f"contracts missing from the table: {sorted(ids - rows)}"
    assert rows <= ids, f"the table names contracts that do not exist: {sorted(rows - ids)}"


def named_files() -> set[str]:
    """The source files the page names in backticks (`tui/app.py`, `browse/pager.py`)."""
    text = DOC.read_text(encoding="utf-8")
    return set(re.findall(r"`((?:[\w.]+/)*[\w]+\.(?:py|tcss))[`:]", text))


def test_every_file_named_exists() -> None:
    roots = (PACKAGE, ROOT, PACKAGE / "tui", PACKAGE / "tui" / "widgets")
    everywhere = {p.name for p in PACKAGE.rglob("*.py")}  # a bare name, said beside its folder

    def exists(name: str) -> bool:
        if "/" not in name:
            return name in everywhere
        return any((base / name).is_file() for base in roots)

    missing = sorted(name for name in named_files() if not exists(name))
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_the_checks_read_the_page() -> None:
    """The checks above would notice: the tree and the names are found at all."""
    assert {"cli/", "api/", "browse/", "config.py"} <= tree_entries()
    assert len(named_files()) > 10
