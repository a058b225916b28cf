"""Colour themes: the shipped TOML files, the user's own, and the app's theme variables.

A theme file is a Textual `Theme` written as TOML (see docs/themes.md). Shipped themes live in
the top-level `themes/` folder, packaged into the wheel as `screen_analysis/themes`; users add
theirs to `<config dir>/themes/`. Every file is validated when it is loaded, colours included,
so a broken one is reported once (file and reason) and skipped instead of failing later when
the app switches to it. Nothing here needs a running app.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from textual.app import App
from textual.theme import BUILTIN_THEMES, Theme

from screen_analysis.config import config_dir
from screen_analysis.tui.theme_variables import APP_VARIABLES

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

DEFAULT_THEME: Final = "screen-analysis-dark"
LIGHT_THEME: Final = "screen-analysis-light"
HIGH_CONTRAST_THEME: Final = "screen-analysis-high-contrast"

MAX_THEME_FILE_BYTES: Final = 64 * 1024
LOW_COLOUR: Final = "-low-colour"
"""The App's class in 16 colours or without colour (app.tcss shows focus by shape there)."""


class ThemeProblem(NamedTuple):
    """A theme file that was skipped, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class ThemeLoad(NamedTuple):
    """The themes found (shipped first, then the user's) and the files that were skipped."""

    themes: tuple[Theme, ...]
    problems: tuple[ThemeProblem, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The theme names, in load order."""
        return tuple(theme.name for theme in self.themes)


def shipped_theme_dir() -> Traversable:
    """The shipped theme files: packaged in a wheel, or `themes/` of a source checkout.

    Found on the file system without `importlib.resources` (which costs start-up time),
    except when the package is imported from a zip file."""
    package = Path(__file__).resolve().parents[1]
    if not package.is_dir():  # imported from a zip file, such as a wheel on sys.path
        from importlib.resources import files

        return files("screen_analysis") / "themes"
    packaged = package / "themes"
    return packaged if packaged.is_dir() else package.parents[1] / "themes"


def user_theme_dir() -> Path:
    """Where users put their own theme files."""
    return config_dir() / "themes"


def parse_theme(data: bytes, *, checked: bool = True) -> Theme:
    """A Textual theme from the bytes of a theme file; `checked=False` only for the shipped
    files (checked by the test suite), so start-up does not pay for the full check.

    Raises:
        ValueError: with a one-line reason when the file is not a valid theme.
    """
    try:
        table: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML ({exc})") from None
    if not checked:
        return Theme(**table)
    from screen_analysis.tui.theme_file import check_theme_table

    return check_theme_table(table)


def _theme_files(folder: Traversable) -> list[Traversable]:
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".toml") and entry.is_file()),
        key=lambda entry: entry.name,
    )


def _read_folder(
    folder: Traversable, taken: set[str], *, checked: bool = True
) -> Iterator[Theme | ThemeProblem]:
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
            theme = parse_theme(data, checked=checked)
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
            shipped = folder is folders[0]
            for result in _read_folder(folder, taken, checked=not shipped):
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


def low_colour(app: App[Any]) -> bool:
    """Whether `app` draws in 16 colours (TERM=xterm, the Linux console) or without colour
    (NO_COLOR): there a theme's colours may come out alike, so what colour tells elsewhere
    (focus, a score's tier, a row that just changed) is told by shape or text style too."""
    return app.no_color or app.console.color_system in (None, "standard", "windows")


def mark_low_colour(app: App[Any]) -> None:
    """Give `app` the LOW_COLOUR class when it draws in 16 colours or none: there the
    cursor, focus and changed rows also show by text style (app.tcss)."""
    app.set_class(low_colour(app), LOW_COLOUR)
