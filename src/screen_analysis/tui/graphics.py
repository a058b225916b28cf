"""How images are drawn: kitty graphics, sixel, half-cell blocks, or not at all.

Decided once, before the app starts (`choose_graphics`), because a terminal can only be
asked while nothing else reads its input. `auto` asks only when stdin and stdout are both
a terminal: one write (a cell-size report and Device Attributes, which tell sixel), then
reading until the Device Attributes answer — which every terminal sends — or a short
deadline. The kitty graphics question goes first only to a terminal that names itself as
one drawing kitty images: elsewhere it can reach the screen (tmux and GNU screen take it for
the window title, the Linux console prints it). Keys typed meanwhile are kept and handed to
the app (`replay_typeahead`), so none is lost. textual-image would ask the terminal itself
when imported; `renderer_class` imports it so that it does not.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast, get_args

if TYPE_CHECKING:
    from textual.app import App
    from textual_image.widget import HalfcellImage, SixelImage, TGPImage

    ImageWidget = TGPImage | SixelImage | HalfcellImage

ImageMode = Literal["auto", "kitty", "sixel", "halfcell", "off"]
IMAGE_MODES: tuple[str, ...] = get_args(ImageMode)
DETECT_TIMEOUT_S = 0.25
DEFAULT_CELL = (10, 20)

_KITTY_QUERY = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
_CELL_QUERY = "\x1b[16t"
_DA1_QUERY = "\x1b[c"
_KITTY_ANSWER = re.compile(r"\x1b_Gi=31;([^\x1b]*)\x1b\\")
_CELL_ANSWER = re.compile(r"\x1b\[6;(\d+);(\d+)t")
_DA1_ANSWER = re.compile(r"\x1b\[\?([\d;]*)c")
# Terminals whose TERM or variables say they draw kitty images with Unicode placeholders.
_KITTY_TERMS = ("xterm-kitty", "xterm-ghostty")
_KITTY_VARIABLES = ("KITTY_WINDOW_ID", "GHOSTTY_RESOURCES_DIR")


class InvalidImageModeError(ValueError):
    """An images setting that is not one of IMAGE_MODES."""


def parse_image_mode(value: str | None) -> ImageMode:
    """`value` as an ImageMode (None: auto)."""
    if value is None:
        return "auto"
    lowered = value.strip().lower()
    if lowered not in IMAGE_MODES:
        raise InvalidImageModeError(
            f"images must be one of {', '.join(IMAGE_MODES)}, got {value!r}"
        )
    return cast(ImageMode, lowered)


class Graphics(NamedTuple):
    """The drawing mode in use, the size of a cell in pixels, why (with images off, the
    sentence the app shows: why, and what draws them), and keys typed during the query."""

    mode: Literal["kitty", "sixel", "halfcell", "off"] = "off"
    cell_size: tuple[int, int] = DEFAULT_CELL
    reason: str = ""
    typeahead: str = ""

    @property
    def enabled(self) -> bool:
        """Whether images are drawn at all."""
        return self.mode != "off"

    def pixel_box(self, columns: int, rows: int) -> tuple[int, int]:
        """The pixels a region of cells shows: half-cell blocks have two per cell, one wide."""
        if self.mode == "halfcell":
            return columns, rows * 2
        return columns * self.cell_size[0], rows * self.cell_size[1]

    def cells_for(self, pixels: tuple[int, int]) -> tuple[int, int]:
        """The cells an image prepared for `pixel_box` takes."""
        width, height = pixels
        if self.mode == "halfcell":
            return width, (height + 1) // 2
        cell_w, cell_h = self.cell_size
        return max(1, round(width / cell_w)), max(1, round(height / cell_h))


class TerminalAnswer(NamedTuple):
    """What the terminal said to the query."""

    kitty: bool = False
    sixel: bool = False
    cell_size: tuple[int, int] | None = None
    typeahead: str = ""


def no_colour(environ: Mapping[str, str]) -> str:
    """Why the terminal shows no colour at all, as the app will see it ("" when it does):
    NO_COLOR set (Textual then draws in greys), or TERM=dumb/unknown. Sixteen colours are
    colour: half-cell blocks read in them."""
    if "NO_COLOR" in environ:
        return "NO_COLOR is set"
    term = environ.get("TERM", "")
    if term in ("dumb", "unknown"):
        return f"TERM={term} has no colour"
    return ""


def _remedy(environ: Mapping[str, str]) -> str:
    """What draws images here: auto, half-cell blocks in greys under NO_COLOR, nothing
    until TERM names a terminal with colours."""
    if environ.get("TERM", "") in ("dumb", "unknown"):
        return "set TERM to your terminal's (e.g. xterm-256color) to see them"
    if "NO_COLOR" in environ:
        return "start with --images halfcell to see them (in greys)"
    return "start with --images auto to see them"


def in_multiplexer(environ: Mapping[str, str]) -> bool:
    """Inside tmux or GNU screen (which answer for the terminal outside them)."""
    term = environ.get("TERM", "")
    return bool(environ.get("TMUX") or environ.get("STY")) or term.startswith(("screen", "tmux"))


def asks_kitty(environ: Mapping[str, str]) -> bool:
    """Whether the kitty graphics question is sent: only to a terminal that names itself as
    one drawing kitty images, and never through a multiplexer, which would show it."""
    if in_multiplexer(environ):
        return False
    named = environ.get("TERM", "") in _KITTY_TERMS or environ.get("TERM_PROGRAM") == "ghostty"
    return named or any(variable in environ for variable in _KITTY_VARIABLES)


def images_off(why: str, environ: Mapping[str, str]) -> Graphics:
    """Images off, with the one sentence that says why and what draws them."""
    return Graphics("off", reason=f"Images are off ({why}); {_remedy(environ)}.")


def choose_graphics(
    requested: ImageMode,
    *,
    environ: Mapping[str, str] | None = None,
    interactive: bool | None = None,
    ask: Callable[[bool], TerminalAnswer] | None = None,
) -> Graphics:
    """The mode for `requested`. `auto` is `off` without colour, half-cell when stdout is
    not a terminal (nothing is asked), else what the terminal answers (`ask(kitty)`: the
    query, told whether to ask about kitty graphics; for tests)."""
    env = dict(os.environ) if environ is None else environ
    if requested == "off":
        return images_off("images = off", env)
    tty = _interactive() if interactive is None else interactive
    cell = _ioctl_cell_size() if tty else None
    if requested != "auto":
        return Graphics(requested, cell or DEFAULT_CELL, reason=f"images {requested} (asked)")
    if colourless := no_colour(env):
        return images_off(colourless, env)
    if not tty:
        return Graphics("halfcell", reason="not a terminal: half-cell, nothing asked")
    query = ask or query_terminal
    answer = query(asks_kitty(env))
    size = cell or answer.cell_size or DEFAULT_CELL
    if answer.sixel:
        return Graphics("sixel", size, "the terminal supports sixel", answer.typeahead)
    if answer.kitty:
        return Graphics("kitty", size, "the terminal supports kitty graphics", answer.typeahead)
    return Graphics("halfcell", size, "no graphics protocol: half-cell", answer.typeahead)


def _interactive() -> bool:
    streams = (sys.__stdin__, sys.__stdout__)
    return all(stream is not None and stream.isatty() for stream in streams)


def _ioctl_cell_size() -> tuple[int, int] | None:
    """Cell size from the window size in pixels, where the terminal reports one."""
    if sys.platform == "win32" or sys.__stdout__ is None:
        return None
    import fcntl
    import struct
    import termios

    try:
        packed = fcntl.ioctl(sys.__stdout__.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
    except OSError:
        return None
    rows, columns, width, height = struct.unpack("HHHH", packed)
    if not (rows and columns and width and height):
        return None
    return width // columns, height // rows


def query_terminal(kitty: bool, timeout_s: float = DETECT_TIMEOUT_S) -> TerminalAnswer:
    """Ask the terminal once (about kitty graphics too when `kitty`) and read until its
    Device Attributes answer (or `timeout_s`).

    Bytes that are not part of an answer are keys typed meanwhile: returned as typeahead.
    """
    if sys.platform == "win32" or sys.__stdin__ is None or sys.__stdout__ is None:
        return TerminalAnswer()
    import select
    import termios
    import tty

    fd = sys.__stdin__.fileno()
    saved = termios.tcgetattr(fd)
    received = b""
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        sys.__stdout__.write((_KITTY_QUERY if kitty else "") + _CELL_QUERY + _DA1_QUERY)
        sys.__stdout__.flush()
        deadline = time.monotonic() + timeout_s
        while not _DA1_ANSWER.search(received.decode("latin-1")):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            received += os.read(fd, 1024)
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
    return parse_answer(received.decode("utf-8", errors="replace"))


def parse_answer(text: str) -> TerminalAnswer:
    """Split what the terminal sent into its answers and the keys typed meanwhile."""
    kitty = _KITTY_ANSWER.search(text)
    cell = _CELL_ANSWER.search(text)
    da1 = _DA1_ANSWER.search(text)
    typeahead = text
    for found in (kitty, cell, da1):
        if found is not None:
            typeahead = typeahead.replace(found.group(0), "", 1)
    return TerminalAnswer(
        kitty=kitty is not None and kitty.group(1) == "OK",
        sixel=da1 is not None and "4" in da1.group(1).split(";"),
        cell_size=(int(cell.group(2)), int(cell.group(1))) if cell else None,
        typeahead=typeahead,
    )


def renderer_class(graphics: Graphics) -> type[ImageWidget]:
    """textual-image's widget for the mode (imported without it querying the terminal)."""
    from screen_analysis.tui.compat.textual_image import (
        image_widgets,
        send_kitty_commands_through,
    )

    widgets = image_widgets(graphics.cell_size)
    if graphics.mode == "kitty" and os.environ.get("TMUX"):
        # Inside tmux, kitty graphics commands go through passthrough; the Unicode
        # placeholders that place the image are ordinary text that tmux draws.
        send_kitty_commands_through(tmux_passthrough)
    classes: dict[str, type[ImageWidget]] = {
        "kitty": widgets.kitty,
        "sixel": widgets.sixel,
        "halfcell": widgets.halfcell,
    }
    return classes.get(graphics.mode, widgets.halfcell)


def tmux_passthrough(sequence: str) -> str:
    """`sequence` wrapped so tmux hands it to the outer terminal (`allow-passthrough on`)."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def replay_typeahead(app: App[Any], typeahead: str) -> None:
    """Deliver keys typed while the terminal was asked, as if typed now."""
    if not typeahead:
        return
    from screen_analysis.tui.compat.textual import terminal_input_events

    for message in terminal_input_events(typeahead):
        app.post_message(message)
