"""Themes in the app: start-up choice, broken files reported once, the palette's picker, the
choice saved and used again after a restart, and a cursor that reads in every theme (over
the status and the heat map's colours) and without colour."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.style import Style
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.pilot import Pilot
from textual.strip import Strip

from screen_analysis.browse.columns import CRITERION_COLUMNS
from screen_analysis.cli.root import cli
from screen_analysis.config import Settings, load_settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.theme_provider import ThemePicker
from screen_analysis.tui.themes import (
    DEFAULT_THEME,
    HIGH_CONTRAST_THEME,
    LIGHT_THEME,
    user_theme_dir,
)
from screen_analysis.tui.widgets.table import AnalysesTable

from .conftest import connection_to, make_app, notes_of, palette_offers, settled, wait_until


def app_with(tmp_path: Path, server: DemoServer, settings: Settings) -> ScreenAnalysisApp:
    return make_app(tmp_path, connection_to(server), settings=settings)


async def test_the_default_theme_and_its_variables(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.theme == DEFAULT_THEME
        variables = app.get_css_variables()
        assert variables["status-completed"] == app.current_theme.variables["status-completed"]
        assert not notes


async def test_the_config_theme_is_used(tmp_path: Path, demo_server: DemoServer) -> None:
    settings = Settings(theme=LIGHT_THEME, config_path=tmp_path / "config.toml")
    app = app_with(tmp_path, demo_server, settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.theme == LIGHT_THEME
        assert app.has_class("-light-mode")
        assert not app.has_class("-dark-mode")
        # The first paint is already in the light theme's colours, not Textual's default.
        light = app.current_theme
        assert app.screen.styles.background == Color.parse(light.background or "")
        assert app.get_css_variables()["primary"] == Color.parse(light.primary).hex


@pytest.fixture
def reparses(monkeypatch: pytest.MonkeyPatch) -> list[Stylesheet]:
    """Each re-parse of every style rule (`Stylesheet.reparse`, which setting a theme
    schedules), noted by its stylesheet."""
    noted: list[Stylesheet] = []
    reparse = Stylesheet.reparse

    def counted(sheet: Stylesheet) -> None:
        noted.append(sheet)
        reparse(sheet)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    return noted


@pytest.mark.parametrize("name", [DEFAULT_THEME, HIGH_CONTRAST_THEME, LIGHT_THEME])
async def test_the_start_theme_is_whole_and_parsed_once_when_it_keeps_the_ansi_colours(
    tmp_path: Path, demo_server: DemoServer, reparses: list[Stylesheet], name: str
) -> None:
    settings = Settings(theme=name, config_path=tmp_path / "config.toml")
    app = app_with(tmp_path, demo_server, settings)
    async with app.run_test(size=(120, 30)) as pilot:
        await settled(pilot)
        theme = app.current_theme
        assert app.theme == name
        assert app.has_class("-dark-mode") is theme.dark
        assert app.has_class("-light-mode") is not theme.dark
        assert app.ansi_theme is (app.ansi_theme_dark if theme.dark else app.ansi_theme_light)
        variables = app.get_css_variables()
        assert variables["status-completed"] == theme.variables["status-completed"]
        table = app.screen.query_one(AnalysesTable)
        assert table.styles.background == Color.parse(variables["surface"])
        # Textual starts dark: a dark theme is set without re-parsing the rules, with the
        # class the locked Textual's setter gives it (8.0's gives none); a light one through the
        # setter, which re-parses them and changes the ANSI colours.
        assert len(reparses) == (0 if theme.dark else 1)
        assert app.has_class(f"-theme-{name}") or not theme.dark


async def test_a_textual_theme_at_start_goes_through_textual_s_setter(
    tmp_path: Path, demo_server: DemoServer, reparses: list[Stylesheet]
) -> None:
    settings = Settings(theme="nord", config_path=tmp_path / "config.toml")
    app = app_with(tmp_path, demo_server, settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.theme == "nord"  # dark, as Textual starts, but Textual's own
        assert len(reparses) == 1  # so all its setter does is done
        primary = app.get_css_variables()["primary"]
        assert primary == Color.parse(app.current_theme.primary).hex


async def test_an_unknown_config_theme_falls_back_with_a_notice(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(theme="[b]gone[/b]", config_path=tmp_path / "config.toml")
    app = app_with(tmp_path, demo_server, settings)
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(notes))
        assert app.theme == DEFAULT_THEME
        (message,) = notes.messages()
        assert "'[b]gone[/b]' is not available" in message  # shown literally


async def test_broken_user_theme_files_are_reported_once(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = user_theme_dir()
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n')
    (folder / "bad[markup].toml").write_text("this is not toml")
    (folder / "mine.toml").write_text('name = "mine"\nprimary = "#336699"\n')
    app = make_app(tmp_path, connection_to(demo_server))
    notes = notes_of(app, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        (message,) = notes.messages()
        assert "Skipped 2 theme file(s)" in message
        assert "broken.toml" in message and "bad[markup].toml" in message
        assert "mine" in app.available_themes


async def test_the_palette_theme_command_previews_and_the_choice_survives_a_restart(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('# mine, keep it\nbase_url = "http://127.0.0.1:1"  # the test server\n')
    app = app_with(tmp_path, demo_server, load_settings(config_path=config, environ={}))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"theme")
        await wait_until(pilot, lambda: palette_offers(app, "Theme"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ThemePicker))
        await pilot.press(*"high-contrast")
        await wait_until(pilot, lambda: palette_offers(app, HIGH_CONTRAST_THEME))
        await pilot.press("down")
        await pilot.pause()
        assert app.theme == HIGH_CONTRAST_THEME  # the preview
        assert "theme" not in config.read_text(), "a preview is not saved"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, ThemePicker))
        await pilot.pause()
    assert f'theme = "{HIGH_CONTRAST_THEME}"' in config.read_text()
    assert 'base_url = "http://127.0.0.1:1"' in config.read_text(), "other keys are kept"
    assert config.read_text().startswith(
        '# mine, keep it\nbase_url = "http://127.0.0.1:1"  # the test server\n'
    ), "and the user's comments"

    restarted = app_with(tmp_path, demo_server, load_settings(config_path=config, environ={}))
    async with restarted.run_test(size=(100, 30)):
        assert restarted.theme == HIGH_CONTRAST_THEME


async def test_esc_in_the_picker_saves_nothing(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        app.action_change_theme()
        await pilot.pause()
        await pilot.press(*"analysis-light")
        await wait_until(pilot, lambda: palette_offers(app, LIGHT_THEME))
        await pilot.press("down")
        await wait_until(pilot, lambda: app.theme == LIGHT_THEME)  # the preview
        await pilot.press("escape")
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
    assert not (tmp_path / "config.toml").exists()


async def cursor_rows(table: AnalysesTable, pilot: Pilot[Any]) -> AsyncIterator[tuple[int, Strip]]:
    """The first four rows' lines, each drawn with the cursor on it."""
    for row in (0, 1, 2, 3):
        table.move_cursor(row)
        await pilot.pause()
        yield row, table.render_line(1 + row)


def text_colours(strip: Strip) -> set[object]:
    """The colours of a line's text (not of its blanks)."""
    return {s.style.color for s in strip if s.text.strip() and s.style}


@pytest.mark.parametrize("theme", [DEFAULT_THEME, LIGHT_THEME, HIGH_CONTRAST_THEME, "nord"])
async def test_the_cursor_style_wins_over_the_status_colour(
    tmp_path: Path, demo_server: DemoServer, theme: str
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        app.theme = theme
        await pilot.pause()
        table = screen.table
        cursor = table.get_component_rich_style("analyses-table--cursor")
        async for row, strip in cursor_rows(table, pilot):
            colours = text_colours(strip)
            assert colours == {cursor.color}, (theme, row, colours)
            backgrounds = {s.style.bgcolor for s in strip if s.style}
            assert backgrounds == {cursor.bgcolor}


@pytest.mark.parametrize("theme", [DEFAULT_THEME, LIGHT_THEME, HIGH_CONTRAST_THEME, "nord"])
async def test_the_cursor_style_wins_over_the_heat_maps_colours(
    tmp_path: Path, demo_server: DemoServer, theme: str
) -> None:
    views = {"heat": {"status": "completed", "columns": ["score", "label", *CRITERION_COLUMNS]}}
    app = make_app(tmp_path, connection_to(demo_server), views=views, view="heat", theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        table = screen.table
        cursor = table.get_component_rich_style("analyses-table--cursor")
        shades = set()
        async for row, strip in cursor_rows(table, pilot):
            colours = text_colours(strip)
            assert colours == {cursor.color}, (theme, row, colours)
            shades |= {c for c in strip.text if c in "░▒▓"}
        assert shades, "the shades still tell the tiers on the cursor's row"
        table.move_cursor(0)
        await pilot.pause()
        below = table.render_line(2)  # a row without the cursor keeps its tiers' colours
        assert len(text_colours(below)) > 1


@pytest.mark.parametrize(
    ("env", "unset"),
    [({"NO_COLOR": "1"}, ()), ({"TERM": "xterm"}, ("COLORTERM",))],
    ids=["NO_COLOR", "16-colours"],
)
async def test_without_colour_the_cursor_and_focus_show_by_text_style(
    tmp_path: Path,
    demo_server: DemoServer,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    unset: tuple[str, ...],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for name in unset:
        monkeypatch.delenv(name, raising=False)
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert app.has_class("-low-colour")
        table = screen.table
        focused = table.get_component_rich_style("analyses-table--cursor")
        assert focused.reverse and focused.bold
        screen.sidebar.focus()
        await pilot.pause()
        assert table.get_component_rich_style("analyses-table--cursor").underline
        assert screen.sidebar.styles.border_right[0] == "heavy"  # the focused pane, by shape
        assert screen.pane.styles.border_right[0] == "round"


async def test_in_truecolor_the_cursor_is_colour_only(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        assert not app.has_class("-low-colour")
        style = screen.table.get_component_rich_style("analyses-table--cursor")
        assert not style.reverse
        want = Color.parse(app.current_theme.variables["block-cursor-background"])
        assert style.bgcolor == Style(bgcolor=want.rich_color).bgcolor


def test_an_unknown_theme_flag_exits_2_and_lists_the_themes() -> None:
    result = CliRunner().invoke(cli, ["--theme", "no-such-theme"])
    assert result.exit_code == 2
    assert "unknown theme 'no-such-theme'" in result.output
    for name in (DEFAULT_THEME, LIGHT_THEME, HIGH_CONTRAST_THEME, "nord"):
        assert name in result.output
