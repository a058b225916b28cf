"""The full check of a user's theme file: every field of the right kind, colours parsed,
unknown keys refused. Imported only when a user theme file is read (and by the tests for
the shipped ones), so start-up does not pay for building the model.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.color import Color, ColorParseError
from textual.css.constants import VALID_STYLE_FLAGS
from textual.theme import Theme

from screen_analysis.tui.theme_variables import APP_VARIABLES

_COLOUR_FIELDS: Final = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
# Textual 8.2.5 added `Theme.ansi` (the terminal's own colours); before it, a theme has none.
_THEME_FIELDS: Final = frozenset(field.name for field in dataclasses.fields(Theme))
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_VARIABLE_NAME = re.compile(r"[a-z][a-z0-9-]{0,63}")
_PERCENT = re.compile(r"\d{1,3}(\.\d+)?%")


def _textual_variables() -> tuple[frozenset[str], frozenset[str]]:
    """Textual's own variable names: those holding colours, and those holding text styles."""
    generated = Theme(name="probe", primary="#0178D4").to_color_system().generate()
    colours = {name for name, value in generated.items() if _is_colour_value(value)}
    styles = {name for name in generated if name.endswith("-style")}
    return frozenset(colours), frozenset(styles)


def _is_colour_value(value: str) -> bool:
    """A CSS colour as a theme variable may hold it: `#hex`, `red`, `#hex 35%`, `auto 87%`."""
    parts = value.split()
    if len(parts) == 2 and _PERCENT.fullmatch(parts[1]) and float(parts[1][:-1]) <= 100:
        if parts[0] == "auto":
            return True
        parts = parts[:1]
    if len(parts) != 1:
        return False
    try:
        Color.parse(parts[0])
    except ColorParseError:
        return False
    return True


_TEXTUAL_COLOUR_VARIABLES, _TEXTUAL_STYLE_VARIABLES = _textual_variables()


class ThemeFile(BaseModel):
    """The contents of one theme file; field names match `textual.theme.Theme`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="Unique name, also used in `--theme NAME` and the config.")
    primary: str
    secondary: str | None = None
    accent: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    dark: bool = True
    luminosity_spread: float = Field(default=0.15, ge=0.0, le=1.0)
    text_alpha: float = Field(default=0.95, ge=0.0, le=1.0)
    ansi: bool = False
    variables: dict[str, str] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        if not _NAME.fullmatch(value):
            raise ValueError(
                "must be 1-64 lower-case letters, digits, '-' or '_', starting with a letter "
                "or digit"
            )
        return value

    @field_validator("ansi")
    @classmethod
    def _check_ansi(cls, value: bool) -> bool:
        if value and "ansi" not in _THEME_FIELDS:
            raise ValueError("needs Textual 8.2.5 or later")
        return value

    @field_validator(*_COLOUR_FIELDS)
    @classmethod
    def _check_colour(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                Color.parse(value)
            except ColorParseError:
                raise ValueError(f"{value!r} is not a colour") from None
        return value

    @field_validator("variables")
    @classmethod
    def _check_variables(cls, variables: dict[str, str]) -> dict[str, str]:
        faults = []
        for name, value in variables.items():
            if not _VARIABLE_NAME.fullmatch(name):
                faults.append(f"{name!r} is not a variable name")
            elif name in APP_VARIABLES or name in _TEXTUAL_COLOUR_VARIABLES:
                if not _is_colour_value(value):
                    faults.append(f"{name} = {value!r} is not a colour")
            elif name in _TEXTUAL_STYLE_VARIABLES and not set(value.split()) <= VALID_STYLE_FLAGS:
                faults.append(f"{name} = {value!r} is not a text style")
        if faults:
            raise ValueError(", ".join(faults))
        return variables

    def to_theme(self) -> Theme:
        """The Textual theme this file describes."""
        values = self.model_dump()
        return Theme(**{name: value for name, value in values.items() if name in _THEME_FIELDS})


def check_theme_table(table: dict[str, Any]) -> Theme:
    """The theme a parsed file describes; ValueError with a one-line reason if invalid."""
    try:
        return ThemeFile.model_validate(table, strict=True).to_theme()
    except ValidationError as exc:
        raise ValueError(_describe(exc)) from None


def _describe(error: ValidationError) -> str:
    """Pydantic's errors in one line: `primary: field required; dark: ...`."""
    reasons = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "file"
        message = str(item["msg"]).removeprefix("Value error, ")
        reasons.append(f"{where}: {message}")
    return "; ".join(reasons)
