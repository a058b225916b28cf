"""Theme files: the shipped ones load, read well and are packaged; broken user files are
reported once and skipped; the app's variables resolve under every theme."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import BUILTIN_THEMES
from textual.widgets import Static

from screen_analysis.tui.theme_file import ThemeFile
from screen_analysis.tui.theme_provider import ThemePicker
from screen_analysis.tui.themes import (
    APP_VARIABLES,
    DEFAULT_THEME,
    HIGH_CONTRAST_THEME,
    LIGHT_THEME,
    load_themes,
    parse_theme,
    register_themes,
    shipped_theme_dir,
    user_theme_dir,
    variable_defaults,
)

from .conftest import palette_offers, wait_until

REPO = Path(__file__).resolve().parents[2]
SHIPPED = (DEFAULT_THEME, LIGHT_THEME, HIGH_CONTRAST_THEME)
STATUS_VARIABLES = ("status-pending", "status-processing", "status-completed", "status-failed")
SCORE_VARIABLES = ("score-good", "score-fair", "score-poor", "score-bar-fill")
# Rich's 16-colour palette (ANSI 0-15): the high-contrast theme uses only these values.
ANSI_16 = {
    "#000000", "#AA0000", "#00AA00", "#AA5500", "#0000AA", "#AA00AA", "#00AAAA", "#AAAAAA",
    "#555555", "#FF5555", "#55FF55", "#FFFF55", "#5555FF", "#FF55FF", "#55FFFF", "#FFFFFF",
}  # fmt: skip

GOOD = """
name = "my-theme"
primary = "#336699"
background = "#101010"
dark = true
[variables]
status-failed = "ansi_bright_red"
input-selection-background = "#336699 35%"
"""


def relative_luminance(colour: Color) -> float:
    """WCAG 2 relative luminance."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast(a: Color, b: Color) -> float:
    """WCAG 2 contrast ratio of two opaque colours (1 to 21)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def shipped_files() -> dict[str, dict[str, object]]:
    tables = (tomllib.loads(p.read_text()) for p in sorted((REPO / "themes").glob("*.toml")))
    return {str(table["name"]): table for table in tables}


# --- Shipped themes -----------------------------------------------------------------------


def test_shipped_themes_load_without_problems() -> None:
    result = load_themes(None)
    assert result.problems == ()
    assert set(SHIPPED) <= set(result.names)
    assert set(shipped_files()) == set(result.names)


def test_source_checkout_finds_the_top_level_folder() -> None:
    assert Path(str(shipped_theme_dir())).resolve() == REPO / "themes"


@pytest.mark.parametrize("path", sorted((REPO / "themes").glob("*.toml")), ids=lambda p: p.stem)
def test_each_shipped_file_validates_and_sets_every_app_variable(path: Path) -> None:
    theme = parse_theme(path.read_bytes())
    assert theme == parse_theme(path.read_bytes(), checked=False), "start-up reads it the same"
    assert theme.name == path.stem
    assert set(APP_VARIABLES) <= set(theme.variables)
    ThemeFile.model_validate(tomllib.loads(path.read_text()), strict=True)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_theme_contrast(name: str) -> None:
    """Text at least 4.5:1 (WCAG AA) on the background and on surfaces (the table's);
    status and score colours too, as they colour words and numbers; the bar fill 3:1."""
    table = shipped_files()[name]
    variables = table["variables"]
    assert isinstance(variables, dict)
    grounds = {key: Color.parse(str(table[key])) for key in ("background", "surface")}
    foreground = Color.parse(str(table["foreground"]))
    for ground_name, ground in grounds.items():
        assert contrast(foreground, ground) >= 4.5, f"foreground on {ground_name}"
        for variable in (*STATUS_VARIABLES, "foreground-muted", "score-good", "score-fair"):
            ratio = contrast(Color.parse(variables[variable]), ground)
            assert ratio >= 4.5, f"{variable} on {ground_name}: {ratio:.2f}"
        for variable in ("score-poor", "score-bar-fill", "status-unknown"):
            ratio = contrast(Color.parse(variables[variable]), ground)
            assert ratio >= 3.0, f"{variable} on {ground_name}: {ratio:.2f}"


def test_high_contrast_uses_only_the_16_ansi_colours() -> None:
    table = shipped_files()[HIGH_CONTRAST_THEME]
    variables = table["variables"]
    assert isinstance(variables, dict)
    colours = [str(table[key]) for key in ("primary", "secondary", "accent", "warning")]
    colours += [str(table[key]) for key in ("error", "success", "foreground", "background")]
    colours += [value for value in variables.values() if value.startswith("#")]
    assert {value.upper() for value in colours} <= ANSI_16
    assert (table["foreground"], table["background"]) == ("#FFFFFF", "#000000")


# --- User themes --------------------------------------------------------------------------


BROKEN = {
    "bad-toml.toml": ('name = "x"\nprimary = ', "not valid TOML"),
    "no-name.toml": ('primary = "#123456"\n', "name: Field required"),
    "no-primary.toml": ('name = "no-primary"\n', "primary: Field required"),
    "bad-colour.toml": (
        'name = "bad-colour"\nprimary = "#123456"\nbackground = "dark grey"\n',
        "background: 'dark grey' is not a colour",
    ),
    "bad-variable.toml": (
        'name = "bad-variable"\nprimary = "#123456"\n[variables]\nstatus-completed = "greenish"\n',
        "status-completed = 'greenish' is not a colour",
    ),
    "wrong-type.toml": (
        'name = "wrong-type"\nprimary = "#123456"\ndark = "yes"\n',
        "dark: Input should be a valid boolean",
    ),
    "typo.toml": ('name = "typo"\nprimary = "#123456"\nprimay = "#fff"\n', "primay: Extra inputs"),
    "clash.toml": (f'name = "{DEFAULT_THEME}"\nprimary = "#123456"\n', "already taken"),
    "binary.toml": (b"\xff\xfe\x00", "not UTF-8"),
}


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "good.toml").write_text(GOOD)
    (folder / "notes.txt").write_text("not a theme")
    for file_name, (content, _reason) in BROKEN.items():
        path = folder / file_name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return folder


def test_user_themes_good_loaded_after_shipped_and_broken_reported_once(user_dir: Path) -> None:
    result = load_themes(user_dir)
    assert result.names[: len(SHIPPED)] == tuple(sorted(SHIPPED))
    assert result.names[len(SHIPPED) :] == ("my-theme",)
    by_file = {Path(problem.path).name: problem.reason for problem in result.problems}
    assert len(result.problems) == len(BROKEN) == len(by_file)
    for file_name, (_content, reason) in BROKEN.items():
        assert reason in by_file[file_name], file_name
        assert file_name in str(next(p for p in result.problems if p.path.endswith(file_name)))


def test_good_user_theme_keeps_its_values(user_dir: Path) -> None:
    theme = next(t for t in load_themes(user_dir).themes if t.name == "my-theme")
    assert theme.primary == "#336699"
    assert theme.variables["status-failed"] == "ansi_bright_red"


def test_duplicate_user_names_keep_the_first_file(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD.replace("#336699", "#000000"))
    result = load_themes(tmp_path)
    assert result.names.count("my-theme") == 1
    assert [Path(p.path).name for p in result.problems] == ["b.toml"]


def test_missing_user_dir_is_not_a_problem(tmp_path: Path) -> None:
    assert load_themes(tmp_path / "absent").problems == ()


def test_user_dir_that_is_a_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "themes"
    path.write_text("")
    assert [p.reason for p in load_themes(path).problems] == ["is not a folder"]


def test_oversized_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "huge.toml").write_text(GOOD + "#" * 70_000)
    (problem,) = load_themes(tmp_path).problems
    assert "larger than" in problem.reason


@pytest.mark.parametrize(
    "colour", ["#12345", "rgb(300, 0, 0)", "ansi_not_a_colour", "#123456 150%", "auto"]
)
def test_colours_are_validated_at_load(colour: str) -> None:
    with pytest.raises(ValueError, match="not a colour"):
        parse_theme(
            f'name = "t"\nprimary = "#123456"\n[variables]\nscore-good = "{colour}"'.encode()
        )


def test_ansi_themes_need_a_textual_that_has_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual before 8.2.5 has no `Theme.ansi`: `ansi = true` is one reason there, and a
    theme without it loads on every Textual the range allows."""
    from screen_analysis.tui import theme_file

    monkeypatch.setattr(theme_file, "_THEME_FIELDS", theme_file._THEME_FIELDS - {"ansi"})
    with pytest.raises(ValueError, match=r"^ansi: needs Textual 8\.2\.5 or later$"):
        parse_theme(b'name = "t"\nprimary = "#123456"\nansi = true')
    assert parse_theme(b'name = "t"\nprimary = "#123456"\nansi = false').name == "t"


def test_style_variables_are_validated() -> None:
    data = b'name = "t"\nprimary = "#123456"\n[variables]\nblock-cursor-text-style = "shiny"'
    with pytest.raises(ValueError, match="not a text style"):
        parse_theme(data)


def test_user_theme_dir_is_under_the_config_dir() -> None:
    assert user_theme_dir() == Path(os.environ["XDG_CONFIG_HOME"]) / "screen-analysis" / "themes"


# --- Variables in a running app -----------------------------------------------------------


def test_variable_defaults_follow_the_theme() -> None:
    nord = BUILTIN_THEMES["nord"]
    defaults = variable_defaults(nord)
    assert set(defaults) == set(APP_VARIABLES)
    generated = nord.to_color_system().generate()
    assert defaults["status-completed"] == generated["success"]
    assert defaults["status-failed"] == generated["error"]
    assert defaults["status-pending"] == generated["foreground-muted"]
    assert set(variable_defaults()) == set(APP_VARIABLES)


class ThemedApp(App[None]):
    """The smallest app that uses every app variable in its CSS."""

    CSS = "\n".join(f"#{name} {{ color: ${name}; }}" for name in APP_VARIABLES)

    def __init__(self) -> None:
        super().__init__()
        loaded = load_themes(None)
        register_themes(self, loaded.themes)
        self.theme = DEFAULT_THEME

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        for name in APP_VARIABLES:
            yield Static(name, id=name)


async def test_app_switches_to_every_theme_and_resolves_the_variables() -> None:
    app = ThemedApp()
    async with app.run_test(size=(40, 14)) as pilot:
        assert app.theme == DEFAULT_THEME
        for name in (*SHIPPED, *sorted(set(app.available_themes) - set(SHIPPED))):
            app.theme = name
            await pilot.pause()
            theme = app.current_theme
            expected = {**variable_defaults(theme), **theme.variables}
            for variable in APP_VARIABLES:
                if getattr(theme, "ansi", False):  # terminal colours: nothing fixed to compare
                    continue
                widget = app.query_one(f"#{variable}", Static)
                want = Color.parse(expected[variable])
                got = widget.styles.color
                assert (got.r, got.g, got.b) == (want.r, want.g, want.b), (name, variable)
            assert "status-completed" in app.export_screenshot()


# --- Packaging ----------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv")
def test_wheel_contains_the_theme_files_and_loads_them(tmp_path: Path) -> None:
    subprocess.run(
        ["uv", "build", "--wheel", "--out-dir", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=120,
    )
    (wheel,) = tmp_path.glob("*.whl")

    names = zipfile.ZipFile(wheel).namelist()
    for path in (REPO / "themes").glob("*.toml"):
        assert f"screen_analysis/themes/{path.name}" in names
    script = (
        "from screen_analysis.tui.themes import load_themes, shipped_theme_dir;"
        "r = load_themes(None); print(shipped_theme_dir()); print(len(r.themes), len(r.problems))"
    )
    env = {**os.environ, "PYTHONPATH": str(wheel)}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assert out[0].startswith(str(wheel))
    assert out[1] == f"{len(list((REPO / 'themes').glob('*.toml')))} 0"


# --- Choosing in the command palette ------------------------------------------------------


async def test_picker_previews_the_highlighted_theme_and_esc_restores() -> None:
    app = ThemedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ThemePicker())
        await pilot.pause()
        await pilot.press(*"high-contrast")
        await wait_until(pilot, lambda: palette_offers(app, HIGH_CONTRAST_THEME))
        await pilot.press("down")
        await pilot.pause()
        assert app.theme == HIGH_CONTRAST_THEME
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ThemePicker)
        assert app.theme == DEFAULT_THEME


async def test_picker_keeps_the_chosen_theme() -> None:
    app = ThemedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ThemePicker())
        await pilot.pause()
        await pilot.press(*"analysis-light")
        await wait_until(pilot, lambda: palette_offers(app, LIGHT_THEME))
        await pilot.press("down", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, ThemePicker)
        assert app.theme == LIGHT_THEME
