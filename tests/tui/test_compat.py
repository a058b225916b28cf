"""The compat hooks (`tui/compat/`): each fails here when the upstream object it relies on
changes (a name, a signature, the way it is called), and the installed versions are those
pyproject.toml allows."""

from __future__ import annotations

import inspect
import io
import os
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from textual import events
from textual.app import App

from screen_analysis.tui.compat.textual import CrashReportWithoutLocals, terminal_input_events
from screen_analysis.tui.compat.textual_image import image_widgets, send_kitty_commands_through
from screen_analysis.tui.graphics import tmux_passthrough

from .test_graphics import _run_on_a_pty

ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-test-not-a-real-key-in-a-local"


def declared(name: str) -> Requirement:
    """The project's requirement on `name`, from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in project["dependencies"] if Requirement(r).name == name]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize("name", ["textual", "textual-image", "textual-serve", "httpx"])
def test_each_library_has_a_bounded_range_and_the_installed_version_is_in_it(name: str) -> None:
    requirement = declared(name)
    operators = {spec.operator for spec in requirement.specifier}
    assert ">=" in operators and "<" in operators, f"{name}: {requirement}"
    assert requirement.specifier.contains(version(name)), f"{name} {version(name)}"


# --- textual: the crash report -------------------------------------------------------------


def test_textual_still_reports_a_crash_through_the_hook() -> None:
    """`_handle_exception` calls `self._fatal_error()` (no arguments) for an exception without
    `__rich__`, and `panic` takes renderables: the two things the override relies on."""
    assert "self._fatal_error()" in inspect.getsource(App._handle_exception)
    assert list(inspect.signature(App._fatal_error).parameters) == ["self"]
    assert list(inspect.signature(App.panic).parameters) == ["self", "renderables"]


class _Crashing(App[None]):
    def on_mount(self) -> None:
        header = "Bearer " + SECRET  # a local Textual's traceback would show
        raise RuntimeError("render failed " + str(len(header)))


class _CrashingWithoutLocals(CrashReportWithoutLocals[None], _Crashing):
    pass


@pytest.mark.parametrize(
    ("app_class", "shows_locals"), [(_Crashing, True), (_CrashingWithoutLocals, False)]
)
def test_the_crash_report_leaves_out_local_variables(
    app_class: type[App[None]], shows_locals: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    app = app_class()
    app.run(headless=True)
    printed = capsys.readouterr().err
    assert app.return_code == 1
    assert "RuntimeError" in printed and "render failed" in printed
    assert (SECRET in printed) is shows_locals


# --- textual: keys typed before the app started --------------------------------------------


def test_typeahead_becomes_the_events_the_driver_would_send() -> None:
    keys = [e.key for e in terminal_input_events("j\x1b[A\r\x06?") if isinstance(e, events.Key)]
    assert keys == ["j", "up", "enter", "ctrl+f", "question_mark"]


# --- textual-image: importing it asks the terminal nothing --------------------------------

QUIET_IMPORT = (
    "import sys; "
    "from screen_analysis.tui.compat.textual_image import image_widgets; "
    "widgets = image_widgets((9, 18)); "
    "from textual_image._terminal import get_cell_size; "
    "import textual_image.widget as w; "
    "same = widgets == (w.TGPImage, w.SixelImage, w.HalfcellImage); "
    "print('RESULT', tuple(get_cell_size()), same)"
)


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_textual_image_is_imported_on_a_terminal_without_asking_it() -> None:
    """On a real terminal, the import writes no query (textual-image's own import asks for
    the cell size and for sixel and kitty support, and reads the answers from stdin)."""
    output = _run_on_a_pty(QUIET_IMPORT, b"")
    assert "\x1b[" not in output and "\x1b_G" not in output, repr(output)
    result = output[output.index("RESULT") :].split()
    assert result[1:4] == ["(9,", "18)", "True"]


def test_textual_image_caches_the_cell_size_where_the_hook_puts_it() -> None:
    from textual_image import _terminal

    assert 'hasattr(get_cell_size, "_result")' in inspect.getsource(_terminal.get_cell_size)
    assert _terminal.CellSize._fields == ("width", "height")
    widgets = image_widgets((8, 16))
    assert _terminal.get_cell_size() == (8, 16)
    from textual_image.widget import HalfcellImage, SixelImage, TGPImage

    assert widgets == (TGPImage, SixelImage, HalfcellImage)


# --- textual-image: kitty graphics inside tmux ---------------------------------------------


def test_kitty_commands_go_through_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual_image.renderable import tgp

    original = tgp._send_tgp_message
    monkeypatch.setattr(tgp, "_send_tgp_message", original)  # restored after the test
    signature = inspect.signature(original)
    assert [p.kind for p in signature.parameters.values()] == [
        inspect.Parameter.KEYWORD_ONLY,
        inspect.Parameter.VAR_KEYWORD,
    ]
    callers = [
        member
        for member in vars(tgp.Image).values()
        if inspect.isfunction(member) and "_send_tgp_message" in member.__code__.co_names
    ]
    assert callers, "the kitty renderer no longer sends through the module's function"

    written = io.StringIO()
    monkeypatch.setattr(sys, "__stdout__", written)
    send_kitty_commands_through(tmux_passthrough)
    tgp._send_tgp_message(a="d", I=7)
    assert written.getvalue() == tmux_passthrough("\x1b_Ga=d,I=7\x1b\\")


def test_the_pty_helper_is_a_terminal() -> None:
    """The quiet-import test means something only if the child's stdout is a terminal."""
    output = _run_on_a_pty("import sys; print('RESULT', sys.__stdout__.isatty())", b"")
    assert "RESULT True" in output
    assert os.name == "posix"


async def test_a_sequence_for_the_terminal_goes_through_the_driver() -> None:
    """`write_to_terminal` relies on `App._driver` (set while the app runs) and the
    driver's `write` and `flush`; a real terminal's run is tests/reliability's
    test_watch_terminal.py (the OSC sequence read back from what tmux received)."""
    from textual.driver import Driver

    from screen_analysis.tui.compat.textual import write_to_terminal

    assert {"write", "flush"} <= set(vars(Driver))
    app: App[None] = App()
    assert not write_to_terminal(app, "\x1b]9;x\x1b\\")  # not running: no driver
    async with app.run_test():
        assert isinstance(app._driver, Driver)
        assert not write_to_terminal(app, "\x1b]9;x\x1b\\")  # headless: no terminal
