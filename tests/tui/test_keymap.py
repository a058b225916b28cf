"""Keys as data: `[keymap]` remaps binding ids; help, footer and palette show the new keys;
an unknown id or a key Textual cannot name is one message at start and the default stays."""

from __future__ import annotations

from pathlib import Path

from textual.binding import BindingsMap
from textual.widgets import Static

from screen_analysis.config import load_settings
from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.app_keys import BINDING_SCOPES, help_sections, remappable_ids
from screen_analysis.tui.commands import MainCommands
from screen_analysis.tui.dialogs.prompt import FindDialog
from screen_analysis.tui.keys import check_keymap, is_key_name
from screen_analysis.tui.screens.help import HelpScreen

from .conftest import connection_to, make_app, settled, wait_until


def test_key_names_textual_can_bind_are_accepted() -> None:
    for key in ("r", "?", "F", "ctrl+f", "f5", "pageup", "shift+tab", "question_mark", "alt+x"):
        assert is_key_name(key), key
    for key in ("", "ctrl+", "hyper+nonsense", "notakey", "ctrl+blorp", " "):
        assert not is_key_name(key), key


def test_the_documented_ids_exist_and_each_binding_has_an_id() -> None:
    ids = remappable_ids()
    assert {"quit", "refresh", "find", "help", "find-next", "filter-failed"} <= ids
    for title, scope in BINDING_SCOPES:
        for found in BindingsMap(scope).key_to_bindings.values():
            assert all(binding.id for binding in found), f"{title}: {found} has no id"
    sections = [title for title, _rows in help_sections({})]
    assert sections == ["Browse", "Act", "Anywhere", "Overview", "Compare"]


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
        shown = "\n".join(str(w.render()) for w in app.screen.query(Static))
        line = next(x for x in shown.splitlines() if "Find in the loaded rows by label" in x)
        assert line.split()[0] == "ctrl+f"
        await pilot.press("escape")
        choices = [c for c in MainCommands(app.screen)._choices() if c[0] == "Find"]
        assert choices and choices[0][2].endswith("(ctrl+f)")


async def test_a_bad_keymap_is_one_message_and_the_defaults_stay(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    keymap: dict[str, object] = {"no-such-action": "x", "refresh": "ctrl+nonsense"}
    app = make_app(tmp_path, connection_to(demo_server), keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        notes = [n.message for n in app._notifications if "[keymap]" in n.message]
        assert len(notes) == 1
        assert "no-such-action" in notes[0] and "ctrl+nonsense" in notes[0]
        generation = screen.feed.generation
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.feed.generation == generation + 1)
