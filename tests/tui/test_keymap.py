"""Keys as data: `[keymap]` remaps binding ids; help, footer and palette show the new keys;
an unknown id or a key Textual cannot name is one message at start and the default stays."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.binding import Binding, BindingsMap
from textual.command import CommandPalette

from screen_analysis.auth.connection import NotConnected, Reason
from screen_analysis.config import load_settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.tui.app_keys import (
    SCOPES,
    SHARED_IDS,
    help_sections,
    remappable_ids,
)
from screen_analysis.tui.commands import palette_commands
from screen_analysis.tui.dialogs.prompt import FindDialog
from screen_analysis.tui.keys import check_keymap, is_key_name
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.screens.login import LoginScreen
from screen_analysis.tui.widgets.key_bar import KeyBar

from .conftest import connection_to, make_app, notes_of, palette_offers, settled, wait_until


def test_key_names_textual_can_bind_are_accepted() -> None:
    for key in ("r", "?", "F", "ctrl+f", "f5", "pageup", "shift+tab", "question_mark", "alt+x"):
        assert is_key_name(key), key
    for key in ("", "ctrl+", "hyper+nonsense", "notakey", "ctrl+blorp", " "):
        assert not is_key_name(key), key


def test_the_documented_ids_exist_and_each_binding_has_an_id() -> None:
    ids = remappable_ids()
    assert {"quit", "refresh", "find", "help", "find-next", "filter-failed"} <= ids
    assert {"sort", "load-all", "sidebar", "prompt-cancel", "login-quit", "detail-down"} <= ids
    for title, scopes in SCOPES:
        for scope in scopes:
            for found in BindingsMap(scope).key_to_bindings.values():
                assert all(binding.id for binding in found), f"{title}: {found} has no id"
    sections = [title for title, _rows in help_sections({})]
    assert sections[:5] == ["Browse", "Act", "Projects (sidebar)", "Detail", "Anywhere"]
    assert {"Sign in", "Welcome", "Dialogs", "Errors", "Image"} <= set(sections)


def _our_classes_with_bindings() -> Iterator[type]:
    import screen_analysis.tui as tui

    for module in pkgutil.walk_packages(tui.__path__, tui.__name__ + "."):
        for value in vars(importlib.import_module(module.name)).values():
            if (
                isinstance(value, type)
                and value.__module__ == module.name
                and vars(value).get("BINDINGS")
            ):
                yield value


def test_every_binding_of_every_screen_widget_and_dialog_has_an_id_a_keymap_knows() -> None:
    """Every class of ours that declares BINDINGS, found by walking the package (not from a
    list that could miss one): each binding has an id, and `[keymap]` accepts it."""
    known = remappable_ids()
    classes = list(_our_classes_with_bindings())
    names = {cls.__name__ for cls in classes}
    assert {"MainScreen", "LoginScreen", "WelcomeScreen", "PromptDialog", "ErrorScreen"} <= names
    assert {"ProjectSidebar", "AnalysisDetail", "ImageView", "ChoiceDialog"} <= names
    for cls in classes:
        for binding in Binding.make_bindings(vars(cls)["BINDINGS"]):
            assert binding.id, f"{cls.__name__}: {binding.key} -> {binding.action} has no id"
            assert binding.id in known, f"{cls.__name__}: {binding.id} is not in SCOPES"


def test_an_id_names_one_thing_unless_it_is_shared_on_purpose() -> None:
    """Two scopes with one id move together when it is remapped: only on purpose."""
    where: dict[str, set[str]] = {}
    for title, scopes in SCOPES:
        for scope in scopes:
            for binding in Binding.make_bindings(scope):
                if binding.id:
                    where.setdefault(binding.id, set()).add(title)
    shared = {binding_id for binding_id, titles in where.items() if len(titles) > 1}
    assert shared == SHARED_IDS


def test_check_keymap_keeps_good_entries_and_names_bad_ones() -> None:
    valid, problems = check_keymap(
        {"find": "ctrl+f", "refresh": "F5, ctrl+r", "nope": "x", "quit": "ctrl+blorp", "help": 3},
        remappable_ids(),
    )
    assert valid == {"find": "ctrl+f", "refresh": "f5,ctrl+r"}
    assert len(problems) == 3
    assert any("'nope'" in p for p in problems)
    assert any("ctrl+blorp" in p for p in problems)


def test_the_keymap_table_is_read_from_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\n[keymap]\nfind = "ctrl+f"  # I search a lot\n', encoding="utf-8")
    assert load_settings(config_path=path, environ={}).keymap == {"find": "ctrl+f"}


async def test_a_remapped_find_opens_with_its_new_key_and_shows_in_help(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), keymap={"find": "ctrl+f"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("slash")
        await pilot.pause()
        assert not isinstance(app.screen, FindDialog), "the old key no longer finds"
        await pilot.press("ctrl+f")
        await wait_until(pilot, lambda: isinstance(app.screen, FindDialog))
        await pilot.press("escape")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("ctrl+f", "Find in the loaded rows by label") in help_rows(app)
        await pilot.press("escape")
        choices = [c for c in app.palette_commands(app.screen)._choices() if c[0] == "Find"]
        assert choices and choices[0][2].endswith("(ctrl+f)")


async def test_a_bad_keymap_is_one_message_and_the_defaults_stay(
    tmp_path: Path, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    keymap: dict[str, object] = {"no-such-action": "x", "refresh": "ctrl+nonsense"}
    app = make_app(tmp_path, connection_to(demo_server), keymap=keymap)
    spy = notes_of(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        notes = [m for m in spy.messages() if "[keymap]" in m]
        assert len(notes) == 1
        assert "no-such-action" in notes[0] and "ctrl+nonsense" in notes[0]
        generation = screen.pager.generation
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.pager.generation == generation + 1)


def help_rows(app: ScreenAnalysisApp) -> list[tuple[str, str]]:
    """The help screen's rows as shown: (keys, what they do)."""
    assert isinstance(app.screen, HelpScreen)
    return app.screen.shown()


async def _bar_and_help(
    tmp_path: Path, server: DemoServer, keymap: dict[str, object]
) -> tuple[list[str], int, str, str]:
    """With `keymap`: the key bar's descriptions, Find's row in help, its keys, the bar."""
    app = make_app(tmp_path, connection_to(server), keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        bar = screen.query_one(KeyBar)
        entries, _kept = bar.entries()
        shown = str(bar.render())
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = help_rows(app)
        row = next(i for i, (_keys, what) in enumerate(rows) if "Find in the loaded" in what)
        return [e.description for e in entries], row, rows[row][0], shown


async def test_a_remapped_key_keeps_its_place_in_the_key_bar_and_in_help(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    """`find = "ctrl+f"` used to move Find to the end of both: out of a 120-column key bar,
    and below the fold of the help."""
    default = await _bar_and_help(tmp_path, demo_server, {})
    descriptions, row, keys, shown = await _bar_and_help(tmp_path, demo_server, {"find": "ctrl+f"})
    assert (descriptions, row) == default[:2]
    assert keys == "ctrl+f" and " ^f Find " in shown
    assert default[2] == "/" and " / Find " in default[3]


async def test_a_dialog_key_remapped_works_there_and_shows_in_help(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), keymap={"prompt-cancel": "f8"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("slash")
        await wait_until(pilot, lambda: isinstance(app.screen, FindDialog))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, FindDialog), "Esc no longer cancels"
        await pilot.press("f8")
        await wait_until(pilot, lambda: not isinstance(app.screen, FindDialog))
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("f8", "Close a question without an answer") in help_rows(app)


async def test_a_login_key_remapped_works_there_and_shows_in_help_and_the_key_bar(
    tmp_path: Path,
) -> None:
    no_key = NotConnected(Reason.NO_KEY, "no key", base_url="https://api.example.com")
    app = make_app(tmp_path, no_key, keymap={"login-quit": "f9"})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        await pilot.pause()
        assert " f9 Quit " in str(app.screen.query_one(KeyBar).render())
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("f9", "Quit (exit code 0)") in help_rows(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LoginScreen))
        await pilot.press("f9")
        await wait_until(pilot, lambda: app.return_code == 0)


async def test_the_palette_lists_our_commands_only(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server), keymap={"help": "f2"})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        titles = {hit.text: hit.help async for hit in app.palette_commands(screen).discover()}
        for textual_only in ("Maximize", "Minimize", "Screenshot"):
            assert textual_only not in titles
        assert titles["Keys"] == "This help (f2)"
        assert {"Theme", "Quit", "Find", "Sidebar", "Load all", "Show all projects"} <= set(titles)
        await pilot.press(*"Keys")
        await wait_until(pilot, lambda: palette_offers(app, "Keys"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))


class HandedSwitch:
    """A profile switch that records what it was asked to switch to."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def targets(self) -> tuple[str, ...]:
        return ("staging",)

    def switch(self, name: str) -> None:
        self.asked.append(name)


class HandedServices:
    """What the palette is given in place of the app's own keymap and profile switch."""

    def __init__(self) -> None:
        self.keymap = {"help": "f6"}
        self.profile_switch = HandedSwitch()


async def test_the_palette_is_served_by_what_it_is_handed(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), keymap={"help": "f2"})
    services = HandedServices()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        provider = palette_commands(services)(screen)
        await provider.startup()
        hits = {hit.text: hit async for hit in provider.discover()}
        assert hits["Keys"].help == "This help (f6)", "the keymap handed, not the app's"
        hits["Switch to staging"].command()
        assert services.profile_switch.asked == ["staging"]
