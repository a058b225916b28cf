"""Where a gate's options come from: a `[checks.NAME]` table (of the config file, or of
`--config-file`) and the flags, which win over it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screen_analysis.config import ConfigError, check_tables
from screen_analysis.gate import GateInputError, Source
from screen_analysis.validation import quoted

FORMATS = ("table", "json", "junit", "github")
FLAG_KEYS = {"mins": "min"}  # click's parameter name -> the gate's key


def gather_sources(
    config_path: Path, name: str | None, config_file: Path | None, flags: dict[str, Any]
) -> list[Source]:
    """The table NAME (if any) and then the flags, for `gate.build_spec`."""
    sources = []
    if name is not None or config_file is not None:
        path = config_file or config_path
        if config_file is not None and not config_file.is_file():
            raise GateInputError(f"--config-file: no such file: {config_file}")
        try:
            tables = check_tables(path)
        except ConfigError as exc:
            raise GateInputError(str(exc)) from None
        known = ", ".join(tables) or "none (add a [checks.NAME] table)"
        if name is None:
            raise GateInputError(f"name the check of {path} to run; its checks: {known}")
        if name not in tables:
            raise GateInputError(f"unknown check {quoted(name)} in {path}; its checks: {known}")
        sources.append(Source(tables[name], f"[checks.{name}] of {path}", path.parent))
    sources.append(Source({FLAG_KEYS.get(key, key): value for key, value in flags.items()}))
    return sources
