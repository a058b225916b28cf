"""Colour themes: the shipped TOML files, the user's own, and the app's theme variables.

A theme file is a Textual `Theme` written as TOML (see docs/themes.md). Shipped themes live in
the top-level `themes/` folder, packaged into the wheel as `screen_analysis/themes`; users add
theirs to `<config dir>/themes/`. Every file is validated when it is loaded, colours included,
so a broken one is reported once (file and reason) and skipped instead of failing later when
the app switches to it. Nothing here needs a running app.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.app import App
from textual.color import Color, ColorParseError
from textual.css.constants import VALID_STYLE_FLAGS
from textual.theme import BUILTIN_THEMES, Theme

from screen_analysis.config import config_dir

DEFAULT_THEME: Final = "screen-analysis-dark"
LIGHT_THEME: Final = "screen-analysis-light"
HIGH_CONTRAST_THEME: Final = "screen-analysis-high-contrast"

MAX_THEME_FILE_BYTES: Final = 64 * 1024

# The app's own theme variables, each with the Textual variables its default is taken from
# (the first one the theme generates) when a theme does not set it, so `$status-completed`
# works with Textual's built-in themes too, ANSI ones included.
APP_VARIABLES: Final[Mapping[str, tuple[str, ...]]] = {
    "status-pending": ("foreground-muted", "foreground"),
    "status-processing": ("warning",),
    "status-completed": ("success",),
    "status-failed": ("error",),
    "status-unknown": ("accent",),
    "score-good": ("success",),
    "score-fair": ("warning",),
    "score-poor": ("error",),
    "score-bar-fill": ("primary",),
    "score-bar-empty": ("foreground-disabled", "foreground-muted", "foreground"),
}

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
        return Theme(**self.model_dump())


@dataclass(frozen=True)
class ThemeProblem:
    """A theme file that was skipped, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True)
class ThemeLoad:
    """The themes found (shipped first, then the user's) and the files that were skipped."""

    themes: tuple[Theme, ...]
    problems: tuple[ThemeProblem, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The theme names, in load order."""
        return tuple(theme.name for theme in self.themes)


def shipped_theme_dir() -> Traversable:
    """The shipped theme files: packaged in a wheel, or `themes/` of a source checkout."""
    packaged = files("screen_analysis") / "themes"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "themes"


def user_theme_dir() -> Path:
    """Where users put their own theme files."""
    return config_dir() / "themes"


def parse_theme(data: bytes) -> Theme:
    """A Textual theme from the bytes of a theme file.

    Raises:
        ValueError: with a one-line reason when the file is not a valid theme.
    """
    try:
        table: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML ({exc})") from None
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


def _theme_files(folder: Traversable) -> list[Traversable]:
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".toml") and entry.is_file()),
        key=lambda entry: entry.name,
    )


def _read_folder(folder: Traversable, taken: set[str]) -> Iterator[Theme | ThemeProblem]:
    """Each theme file of `folder` as a theme, or as the problem that keeps it out."""
    for entry in _theme_files(folder):
        where = str(entry)
        try:
            data = entry.read_bytes()
        except OSError as exc:
            yield ThemeProblem(where, f"cannot be read ({exc.strerror or exc})")
            continue
        if len(data) > MAX_THEME_FILE_BYTES:
            yield ThemeProblem(where, f"larger than {MAX_THEME_FILE_BYTES} bytes")
            continue
        try:
            theme = parse_theme(data)
        except ValueError as exc:
            yield ThemeProblem(where, str(exc))
            continue
        if theme.name in taken:
            yield ThemeProblem(where, f"the name {theme.name!r} is already taken")
            continue
        taken.add(theme.name)
        yield theme


def load_themes(user_dir: Path | None = None) -> ThemeLoad:
    """The shipped themes, then those in `user_dir` (pass `user_theme_dir()`; None: none).

    A user theme whose name is already taken (by a shipped theme or an earlier file, in file
    name order) is reported and skipped. A missing user folder is not a problem.
    """
    themes: list[Theme] = []
    problems: list[ThemeProblem] = []
    taken: set[str] = set()
    folders: list[Traversable] = [shipped_theme_dir()]
    if user_dir is not None:
        if user_dir.is_dir():
            folders.append(user_dir)
        elif user_dir.exists():
            problems.append(ThemeProblem(str(user_dir), "is not a folder"))
    for folder in folders:
        try:
            for result in _read_folder(folder, taken):
                if isinstance(result, Theme):
                    themes.append(result)
                else:
                    problems.append(result)
        except OSError as exc:
            problems.append(ThemeProblem(str(folder), f"cannot be listed ({exc.strerror or exc})"))
    return ThemeLoad(tuple(themes), tuple(problems))


def register_themes(app: App[Any], themes: Iterable[Theme]) -> None:
    """Make `themes` available to `app` (for `app.theme = name` and the command palette)."""
    for theme in themes:
        app.register_theme(theme)


def variable_defaults(theme: Theme | None = None) -> dict[str, str]:
    """Values for the app's variables that `theme` does not set, derived from its colours.

    Return this from `App.get_theme_variable_defaults` (passing `self.current_theme`) so
    `$status-completed` and the rest resolve under every theme, Textual's own included.
    """
    base = theme or BUILTIN_THEMES["textual-dark"]
    generated = base.to_color_system().generate()
    return {
        name: next((generated[s] for s in sources if s in generated), "ansi_default")
        for name, sources in APP_VARIABLES.items()
    }


def theme_names(loaded: ThemeLoad) -> list[str]:
    """Every theme name the app offers: Textual's own and the loaded files', sorted."""
    return sorted({*BUILTIN_THEMES, *loaded.names})
