"""The key bar: the active keys as data (remaps show), cut with `…`, the palette key at the
right edge, the sidebar's key kept in sight when it folds away, a click presses the key."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.demo.runner import DemoServer
from screen_analysis.tui.dialogs.prompt import FindDialog
from screen_analysis.tui.screens.help import HelpScreen
from screen_analysis.tui.widgets.key_bar import MORE, KeyBar

from .conftest import connection_to, make_app, settled, wait_until


def bar_text(bar: KeyBar) -> str:
    return str(bar.render())


async def test_the_bar_shows_the_remapped_key_and_the_palette_at_the_right(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server), keymap={"find": "ctrl+f"})
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await settled(pilot)
        bar = screen.query_one(KeyBar)
        text = bar_text(bar)
        assert len(text) == 200
        assert " ^f Find " in text and " / Find " not in text
        assert text.rstrip().endswith(" ? Help  ^p palette")
        assert MORE not in text  # everything fits in 200 columns
        entries, kept = bar.entries()
        assert [e.key for e in kept] == ["question_mark", "ctrl+p"]
        assert len({e.description for e in entries}) == len(entries)  # one per action


async def test_a_narrow_bar_ends_with_an_ellipsis_and_keeps_the_palette(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        text = bar_text(screen.query_one(KeyBar))
        assert len(text) == 80
        assert MORE in text and text.rstrip().endswith(" ? Help  ^p palette")


async def test_the_sidebar_key_stays_in_sight_where_the_sidebar_is_folded(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    for size in ((80, 24), (120, 40)):
        app = make_app(tmp_path, connection_to(demo_server), keymap={"sidebar": "B"})
        async with app.run_test(size=size) as pilot:
            screen = await settled(pilot)
            bar = screen.query_one(KeyBar)
            text = bar_text(bar)
            assert len(text) == size[0]
            assert " B Sidebar " + MORE in text  # the remapped key, then what was left out
            assert text.rstrip().endswith(" ? Help  ^p palette")
            entries, _ = bar.entries()
            shown = [e.description for e in entries if f" {e.display} {e.description} " in text]
            assert shown == [e.description for e in entries if e.description in shown]
            assert shown[-1] == "Sidebar" and len(shown) < len(entries)


async def test_a_click_on_an_entry_presses_its_key(tmp_path: Path, demo_server: DemoServer) -> None:
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await settled(pilot)
        bar = screen.query_one(KeyBar)
        text = bar_text(bar)
        await pilot.click(KeyBar, offset=(text.index(" / Find ") + 2, 0))
        await wait_until(pilot, lambda: isinstance(app.screen, FindDialog))
        await pilot.press("escape")
        await pilot.click(KeyBar, offset=(text.index(" ? Help ") + 2, 0))
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))


async def test_at_120_columns_the_bar_shows_what_a_presenter_needs(
    tmp_path: Path, demo_server: DemoServer
) -> None:
    """The image, the overview, mark and compare once appeared only when the detail had
    the focus (m and c never): the bar now keeps them by rank, wherever the focus is."""
    app = make_app(tmp_path, connection_to(demo_server))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot)
        for focus in (screen.table, screen.detail):
            focus.focus()
            await pilot.pause()
            text = bar_text(screen.query_one(KeyBar))
            for entry in (" i Image ", " v Overview ", " m Mark ", " c Compare ", " b Sidebar "):
                assert entry in text, (entry, text)
            assert " / Find " in text and " r Refresh " in text
