"""Render the screenshots (README, manual) from the demo data, with a fixed seed and clock.

    uv run python screenshots/render.py [--out DIR] [--only NAME ...]

Writes SVG files (main view at 120×40 and 80×24, the detail of a completed and of a failed
analysis, the image in the detail and full screen, the overview, two analyses compared
with both images, the main view in every shipped theme). Running it twice changes no file.

A shot of one project chooses it by name (its id looked up in the demo server's store and
shown through the main screen's `choose_project`), not by keys that depend on the sidebar's
order and on whether it is folded; a shot that does not show what the manual says of it
(`shows`) stops the script rather than writing a misleading picture.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# Fixed before Textual or Rich read them: local times in UTC, a truecolor terminal.
os.environ["TZ"] = "UTC"
os.environ["COLORTERM"] = "truecolor"
os.environ.pop("NO_COLOR", None)
time.tzset()

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the tests' one app factory and waits

from tests.support.apps import build_app, demo_connection  # noqa: E402
from tests.support.pilot import wait_until  # noqa: E402
from textual.pilot import Pilot  # noqa: E402
from textual.screen import ModalScreen  # noqa: E402

from screen_analysis.browse.columns import CRITERION_COLUMNS  # noqa: E402
from screen_analysis.demo.config import DemoConfig  # noqa: E402
from screen_analysis.demo.runner import DemoServer  # noqa: E402
from screen_analysis.tui.app import ScreenAnalysisApp  # noqa: E402
from screen_analysis.tui.graphics import Graphics  # noqa: E402
from screen_analysis.tui.screens.compare import CompareScreen  # noqa: E402
from screen_analysis.tui.screens.image_view import ImageView  # noqa: E402
from screen_analysis.tui.screens.main import MainScreen  # noqa: E402
from screen_analysis.tui.screens.overview import OverviewScreen  # noqa: E402
from screen_analysis.tui.themes import load_themes  # noqa: E402

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
DEMO = DemoConfig(analyses=2000, seed=42, now=NOW)
SHIPPED_THEMES = load_themes(None).names
_RICH_ID = re.compile(r"terminal-\d+")


@dataclass(frozen=True)
class Row:
    """A step of a shot: highlight the first loaded row labelled exactly `label` (a find
    would stop at "Cart summary v1 (RTL)" when "Cart summary v1" is meant)."""

    label: str


@dataclass(frozen=True)
class Shot:
    """One screenshot: file name, terminal size, theme and keys pressed after loading."""

    name: str
    size: tuple[int, int]
    theme: str = SHIPPED_THEMES[0]
    keys: tuple[str | Row, ...] = ()
    title: str = "screen-analysis"
    images: bool = False  # half-cell previews
    project: str | None = None  # the name of the project shown before the keys are pressed
    shows: Callable[[ScreenAnalysisApp], bool] | None = None  # what the manual promises
    settings: Mapping[str, Any] | None = None  # Settings fields (views, view, …)


ACME = "Acme Checkout"
CRITERIA_COLUMNS = ["status", "score", "label", *CRITERION_COLUMNS]
VIEWS = {
    "checkout": {"label": "Checkout*", "status": "completed", "max_score": 60},
    "weak-contrast": {
        "criteria": ["color_contrast < 60"],
        "columns": CRITERIA_COLUMNS,
        "sort": "color_contrast",
    },
    "failures": {"status": "failed", "since": "30d"},
}


def _view_shown(name: str) -> Callable[[ScreenAnalysisApp], bool]:
    def shows(app: ScreenAnalysisApp) -> bool:
        screen = app.screen
        return isinstance(screen, MainScreen) and screen.saved.current == name

    return shows


def _overview_of(name: str) -> Callable[[ScreenAnalysisApp], bool]:
    def shows(app: ScreenAnalysisApp) -> bool:
        screen = app.screen
        return isinstance(screen, OverviewScreen) and (
            screen.overview is not None and screen.overview.scope == name
        )

    return shows


def _compares(a: str, b: str) -> Callable[[ScreenAnalysisApp], bool]:
    def shows(app: ScreenAnalysisApp) -> bool:
        screen = app.screen
        if not isinstance(screen, CompareScreen):
            return False
        return (screen.comparison.a.label, screen.comparison.b.label) == (a, b)

    return shows


def _sidebar_open(app: ScreenAnalysisApp) -> bool:
    screen = app.screen
    return isinstance(screen, MainScreen) and not screen.sidebar.folded


SHOTS: tuple[Shot, ...] = (
    # The sidebar folds away below 130 columns; the README's caption names it: `b` opens it.
    Shot("main-120x40", (120, 40), keys=("b",), shows=_sidebar_open),
    Shot("main-80x24", (80, 24)),
    Shot("detail-completed", (120, 40), keys=("4", "down", "enter")),
    Shot("detail-failed", (120, 40), keys=("5", "enter")),
    Shot("image-preview", (120, 40), keys=("4", "down"), images=True),
    Shot("image-full", (120, 40), keys=("4", "down", "i"), images=True),
    # Acme Checkout improves after its redesign: its overview, and two versions of its cart
    # summary compared.
    Shot(
        "views",
        (120, 40),
        settings={"views": VIEWS, "view": "weak-contrast"},
        shows=_view_shown("weak-contrast"),
    ),
    Shot("overview", (120, 40), project=ACME, keys=("v",), shows=_overview_of(ACME)),
    Shot(
        "compare",
        (120, 40),
        project=ACME,
        keys=("4", Row("Cart summary v1"), "m", Row("Cart summary v4 (dark)"), "c"),
        images=True,  # each side shows its screen
        shows=_compares("Cart summary v1", "Cart summary v4 (dark)"),
    ),
    *(Shot(f"theme-{name}", (120, 40), theme=name, title=name) for name in SHIPPED_THEMES),
)


async def _wait(pilot: Pilot[Any], check: Callable[[], bool]) -> None:
    await wait_until(pilot, check, timeout=20.0)


async def _settled(pilot: Pilot[Any]) -> None:
    app = pilot.app
    if isinstance(app.screen, ModalScreen | ImageView):  # a dialog, or the image full screen
        await pilot.pause()
        return
    if isinstance(app.screen, OverviewScreen | CompareScreen):
        overview = app.screen
        await _wait(pilot, lambda: not getattr(overview, "reading", False))
        await pilot.pause()
        return
    await _wait(pilot, lambda: isinstance(app.screen, MainScreen))
    screen = app.screen
    assert isinstance(screen, MainScreen)
    await _wait(pilot, lambda: screen.pager.started and not screen.busy)
    await pilot.pause()


async def _choose_project(pilot: Pilot[Any], server: DemoServer, name: str) -> None:
    """Show the project called `name` (its id from the server's store), once its rows are
    on screen."""
    project_id = next((p.id for p in server.store.projects() if p.name == name), None)
    if project_id is None:
        raise SystemExit(f"the demo data has no project called {name!r}")
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    screen.choose_project(project_id)

    def showing() -> bool:
        items = list(screen.table.items)
        return (
            screen.view.project_id == project_id
            and not screen.busy
            and bool(items)
            and all(getattr(item, "project_id", None) == project_id for item in items)
        )

    await _wait(pilot, showing)
    await pilot.pause()


async def _highlight(pilot: Pilot[Any], label: str) -> None:
    """Move the table's cursor to the first loaded row labelled `label`."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    table = screen.table
    found = next(
        (row for row, item in enumerate(table.items) if getattr(item, "label", None) == label),
        None,
    )
    if found is None:
        raise SystemExit(f"no loaded row is labelled {label!r}")
    table.move_cursor(found)
    table.focus()
    await _wait(pilot, lambda: getattr(table.highlighted_item, "label", None) == label)


def _image_painted(app: ScreenAnalysisApp) -> bool:
    """Whether every image on the screen is drawn (both sides of a comparison)."""
    from textual_image.widget import HalfcellImage

    from screen_analysis.tui.widgets.screen_image import ScreenImage

    drawn = sum(1 for widget in app.screen.query(HalfcellImage) if widget.display)
    return drawn > 0 and drawn >= len(app.screen.query(ScreenImage))


async def render(shot: Shot, server: DemoServer, folder: Path) -> str:
    """The SVG of one shot (its Rich element ids pinned to the shot's name)."""
    app = build_app(
        folder,
        demo_connection(server),
        clock=lambda: NOW,
        state_file=f"{shot.name}.state.json",  # a fresh sidebar order per shot
        theme=shot.theme,
        themes=load_themes(None),  # shipped themes only: the user's own stay out
        graphics=Graphics("halfcell") if shot.images else None,
        **(shot.settings or {}),
    )
    async with app.run_test(size=shot.size) as pilot:
        await _settled(pilot)
        if shot.project is not None:
            await _choose_project(pilot, server, shot.project)
        for key in shot.keys:
            if isinstance(key, Row):
                await _highlight(pilot, key.label)
            else:
                await pilot.press(key)
            await _settled(pilot)
        if shot.images:
            await _wait(pilot, lambda: _image_painted(app))
        await pilot.pause()
        if shot.shows is not None and not shot.shows(app):
            raise SystemExit(f"{shot.name}: the screen is not what the manual says it shows")
        svg = app.export_screenshot(title=shot.title)
    return _RICH_ID.sub(f"terminal-{shot.name}", svg)


async def render_all(out: Path, only: frozenset[str] = frozenset()) -> list[Path]:
    """Render every shot (or those named in `only`) into `out`; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with DemoServer(DEMO) as server, tempfile.TemporaryDirectory() as scratch:
        for shot in SHOTS:
            if only and shot.name not in only:
                continue
            folder = Path(scratch) / shot.name  # its own state and layout (`b` is kept)
            folder.mkdir()
            svg = await render(shot, server, folder)
            path = out / f"{shot.name}.svg"
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                path.write_text(svg, encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: render into --out (default: this folder)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the SVG files")
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="render this shot only"
    )
    args = parser.parse_args(argv)
    names = {shot.name for shot in SHOTS}
    if unknown := set(args.only) - names:
        parser.error(f"no shot called {', '.join(sorted(unknown))}")
    for path in asyncio.run(render_all(args.out, frozenset(args.only))):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
