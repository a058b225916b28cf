"""Render the README's screenshots from the demo data, with a fixed seed and clock.

    uv run python screenshots/render.py [--out DIR]

Writes SVG files (main view at 120×40 and 80×24, the detail of a completed and of a failed
analysis, the image in the detail and full screen, the overview, two analyses compared
with both images, the main view in every shipped theme). Running it twice changes no file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
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
class Shot:
    """One screenshot: file name, terminal size, theme and keys pressed after loading."""

    name: str
    size: tuple[int, int]
    theme: str = SHIPPED_THEMES[0]
    keys: tuple[str, ...] = ()
    title: str = "screen-analysis"
    images: bool = False  # half-cell previews


ACME = ("shift+tab", "down", "down", "down", "down", "enter")


def find(text: str) -> tuple[str, ...]:
    """The keys that find `text` in the loaded labels (the field cleared first)."""
    return ("slash", "ctrl+u", *("space" if c == " " else c for c in text), "enter")


SHOTS: tuple[Shot, ...] = (
    Shot("main-120x40", (120, 40)),
    Shot("main-80x24", (80, 24)),
    Shot("detail-completed", (120, 40), keys=("4", "down", "enter")),
    Shot("detail-failed", (120, 40), keys=("5", "enter")),
    Shot("image-preview", (120, 40), keys=("4", "down"), images=True),
    Shot("image-full", (120, 40), keys=("4", "down", "i"), images=True),
    # Acme Checkout (fourth down the sidebar) improves after its redesign: its overview, and
    # two versions of its cart summary compared.
    Shot("overview", (120, 40), keys=(*ACME, "v")),
    Shot(
        "compare",
        (120, 40),
        keys=(*ACME, "4", *find("Cart summary v1"), "m", *find("Cart summary v4 (dark)"), "c"),
        images=True,  # each side shows its screen
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
    await _wait(pilot, lambda: screen.feed.started and not screen.busy)
    await pilot.pause()


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
    )
    async with app.run_test(size=shot.size) as pilot:
        await _settled(pilot)
        for key in shot.keys:
            await pilot.press(key)
            await _settled(pilot)
        if shot.images:
            await _wait(pilot, lambda: _image_painted(app))
        await pilot.pause()
        svg = app.export_screenshot(title=shot.title)
    return _RICH_ID.sub(f"terminal-{shot.name}", svg)


async def render_all(out: Path) -> list[Path]:
    """Render every shot into `out`; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with DemoServer(DEMO) as server, tempfile.TemporaryDirectory() as scratch:
        for shot in SHOTS:
            svg = await render(shot, server, Path(scratch))
            path = out / f"{shot.name}.svg"
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                path.write_text(svg, encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: render into --out (default: this folder)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the SVG files")
    args = parser.parse_args(argv)
    for path in asyncio.run(render_all(args.out)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
