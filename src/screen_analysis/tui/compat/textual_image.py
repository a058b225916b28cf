"""textual-image's internals used where it offers no public way.

- `image_widgets(cell_size)`: importing `textual_image.widget` asks the terminal, on
  stdout, for its cell size and for sixel and kitty graphics support, and reads the answers
  from stdin — while the app may already be reading its input. The app asked once before it
  started (`tui/graphics.py`), so the import must ask nothing: the cell size found then is
  put in `get_cell_size`'s cache, and stdout looks like no terminal while the modules run.
- `send_kitty_commands_through(wrap)`: the kitty renderer writes its graphics commands
  straight to the real stdout through a module-level function; inside tmux they must be
  wrapped for passthrough, and that function is the only place to do it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from textual_image.widget import HalfcellImage, SixelImage, TGPImage


class ImageWidgets(NamedTuple):
    """textual-image's widget class for each drawing mode."""

    kitty: type[TGPImage]
    sixel: type[SixelImage]
    halfcell: type[HalfcellImage]


class _NotATerminal:
    """Stands in for stdout while textual-image is imported, so it asks the terminal nothing."""

    def isatty(self) -> bool:
        return False


def image_widgets(cell_size: tuple[int, int]) -> ImageWidgets:
    """textual-image's widgets, imported without querying the terminal; `cell_size` (in
    pixels) is the size it will scale by."""
    from textual_image import _terminal

    _terminal.get_cell_size._result = _terminal.CellSize(*cell_size)  # type: ignore[attr-defined]
    real = sys.__stdout__
    setattr(sys, "__stdout__", _NotATerminal())  # noqa: B010 - a Final name to mypy
    try:
        from textual_image.widget import HalfcellImage, SixelImage, TGPImage
    finally:
        setattr(sys, "__stdout__", real)  # noqa: B010
    return ImageWidgets(TGPImage, SixelImage, HalfcellImage)


def send_kitty_commands_through(wrap: Callable[[str], str]) -> None:
    """Make textual-image's kitty renderer write each command as `wrap(command)`."""
    from textual_image.renderable import tgp

    def send(*, payload: str | None = None, **controls: int | str | None) -> None:
        stdout = sys.__stdout__
        if stdout is None:
            return
        keys = ",".join(f"{key}={value}" for key, value in controls.items() if value is not None)
        body = f";{payload}" if payload else ""
        stdout.write(wrap(f"\x1b_G{keys}{body}\x1b\\"))
        stdout.flush()

    tgp._send_tgp_message = send
