"""An analysis's values as whole arguments of a command.

An argument that is exactly `{name}` is replaced by that value of the analysis, as one
argument, byte for byte: no shell reads it, nothing splits it, a label holding `$(…)`, `;`,
quotes or newlines arrives as written. A placeholder inside a longer argument is refused
when the command is read (`check_argument`): it is where a shell would read a value as
code, and a program given `--url={image_url}` may still parse it as its own options.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from screen_analysis.api.models import CRITERIA, Analysis

FIELDS = (
    "id",
    "project_id",
    "label",
    "status",
    "score",
    "image_url",
    "error_message",
    "created_at",
    "completed_at",
)
PLACEHOLDERS: tuple[str, ...] = (*FIELDS, *(criterion.value for criterion in CRITERIA))
_INSIDE = re.compile(r"\{([a-z_]+)\}")


def check_argument(argument: str, extra: Sequence[str] = ()) -> str | None:
    """Why `argument` cannot be a command's argument, or None when it can: a whole
    `{name}` must name a placeholder; one inside a longer argument is refused."""
    known = (*PLACEHOLDERS, *extra)
    whole = _INSIDE.fullmatch(argument)
    if whole is not None:
        return None if whole.group(1) in known else f"unknown placeholder {argument}"
    for inside in _INSIDE.finditer(argument):
        if inside.group(1) in known:
            return (
                f"placeholder {inside.group(0)} inside an argument: a placeholder is a whole "
                "argument of its own"
            )
    return None


def values_of(analysis: Analysis, **more: str) -> dict[str, str]:
    """The placeholders' values for `analysis` ("" for what it does not have)."""
    values = {name: _text(getattr(analysis, name)) for name in FIELDS}
    breakdown = analysis.breakdown or {}
    for criterion in CRITERIA:
        values[criterion.value] = _text(breakdown.get(criterion.value))
    values.update(more)
    return values


def fill(argv: Sequence[str], values: Mapping[str, str]) -> list[str]:
    """`argv` with each whole `{name}` argument replaced by its value, as one argument."""
    filled: list[str] = []
    for argument in argv:
        whole = _INSIDE.fullmatch(argument)
        filled.append(values.get(whole.group(1), argument) if whole else argument)
    return filled


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
