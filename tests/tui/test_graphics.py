"""Choosing how images are drawn: once, before the app starts, without losing a key."""

from __future__ import annotations

from typing import Any

import pytest

from screen_analysis.config import load_settings
from screen_analysis.tui.graphics import (
    Graphics,
    InvalidImageModeError,
    TerminalAnswer,
    choose_graphics,
    parse_answer,
    parse_image_mode,
)

COLOUR = {"TERM": "xterm-256color"}


def never_ask(kitty: bool) -> TerminalAnswer:
    raise AssertionError("the terminal must not be asked")


def test_answers_are_split_from_typeahead() -> None:
    answer = parse_answer("j\x1b_Gi=31;OK\x1b\\k\x1b[6;18;9t\x1b[?62;4;22c")
    assert answer.kitty and answer.sixel and answer.cell_size == (9, 18)
    assert answer.typeahead == "jk"
    silent = parse_answer("\x1b[?1;2c")
    assert not silent.kitty and not silent.sixel and silent.typeahead == ""


def test_auto_never_asks_without_a_terminal() -> None:
    chosen = choose_graphics("auto", environ=COLOUR, interactive=False, ask=never_ask)
    assert chosen.mode == "halfcell"


@pytest.mark.parametrize(
    ("environ", "remedy"),
    [
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, "--images halfcell"),
        ({"TERM": "dumb"}, "set TERM"),
    ],
)
def test_without_colour_images_are_off_and_the_reason_names_what_draws_them(
    environ: dict[str, str], remedy: str
) -> None:
    chosen = choose_graphics("auto", environ=environ, interactive=True, ask=never_ask)
    assert chosen.mode == "off"
    assert remedy in chosen.reason and "--images auto" not in chosen.reason
    assert choose_graphics("halfcell", environ=environ, interactive=False).mode == "halfcell"


@pytest.mark.parametrize("term", ["xterm", "xterm-16color", "linux", "screen"])
def test_sixteen_colours_draw_half_cells_by_default(term: str) -> None:
    """xterm draws half-cell blocks with TERM=xterm (in 16 colours, or more)."""
    silent = TerminalAnswer()
    chosen = choose_graphics("auto", environ={"TERM": term}, interactive=True, ask=lambda k: silent)
    assert chosen.mode == "halfcell"


def test_images_set_off_name_auto() -> None:
    chosen = choose_graphics("off", environ={"TERM": "xterm"}, interactive=True, ask=never_ask)
    assert chosen.mode == "off"
    assert chosen.reason == "Images are off (images = off); start with --images auto to see them."


KITTY = {"TERM": "xterm-kitty"}
IN_TMUX = {"TMUX": "/tmp/tmux-0/default,1,0"}


@pytest.mark.parametrize(
    ("answer", "environ", "mode"),
    [
        (TerminalAnswer(sixel=True), COLOUR, "sixel"),
        (TerminalAnswer(kitty=True), KITTY, "kitty"),
        (TerminalAnswer(), COLOUR, "halfcell"),
    ],
)
def test_auto_follows_the_terminal(
    answer: TerminalAnswer, environ: dict[str, str], mode: str
) -> None:
    chosen = choose_graphics("auto", environ=environ, interactive=True, ask=lambda k: answer)
    assert chosen.mode == mode


@pytest.mark.parametrize(
    ("environ", "asked"),
    [
        (KITTY, True),
        ({"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}, True),
        ({"TERM": "xterm-ghostty"}, True),
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"}, True),
        (COLOUR, False),
        ({"TERM": "xterm"}, False),
        ({"TERM": "linux"}, False),
        (
            {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"},
            False,
        ),
        ({"TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"}, False),
        ({"TERM": "screen-256color", "STY": "1.pts-0.host", "KITTY_WINDOW_ID": "1"}, False),
    ],
)
def test_the_kitty_question_goes_only_where_it_cannot_show(
    environ: dict[str, str], asked: bool
) -> None:
    """tmux and screen take it for the window title, the Linux console prints it: only a
    terminal that names itself as drawing kitty images is asked, and never through tmux."""
    questions: list[bool] = []

    def ask(kitty: bool) -> TerminalAnswer:
        questions.append(kitty)
        return TerminalAnswer(kitty=kitty)

    chosen = choose_graphics("auto", environ=environ, interactive=True, ask=ask)
    assert questions == [asked]
    assert chosen.mode == ("kitty" if asked else "halfcell")


def test_keys_typed_during_the_query_are_kept() -> None:
    answer = TerminalAnswer(typeahead="jj")
    chosen = choose_graphics("auto", environ=COLOUR, interactive=True, ask=lambda k: answer)
    assert chosen.typeahead == "jj"


def test_pixel_boxes() -> None:
    assert Graphics("halfcell").pixel_box(40, 10) == (40, 20)
    assert Graphics("halfcell").cells_for((40, 19)) == (40, 10)
    assert Graphics("kitty", (10, 20)).pixel_box(40, 10) == (400, 200)
    assert Graphics("kitty", (10, 20)).cells_for((400, 190)) == (40, 10)


def test_mode_from_flag_env_and_file(tmp_path: pytest.TempPathFactory) -> None:
    config = tmp_path / "config.toml"  # type: ignore[operator]
    config.write_text('images = "off"\n')
    assert load_settings(config_path=config, environ={}).images == "off"
    env = {"SCREEN_ANALYSIS_IMAGES": "sixel"}
    assert load_settings(config_path=config, environ=env).images == "sixel"
    assert load_settings(images="kitty", config_path=config, environ=env).images == "kitty"
    assert parse_image_mode(None) == "auto"
    with pytest.raises(InvalidImageModeError):
        parse_image_mode("iterm")


def _run_on_a_pty(script: str, typed: bytes, answer: bytes = b"") -> str:
    """Run `script` in a child on a pseudo-terminal; type `typed` at once, answer nothing
    (or `answer`); return what the child printed."""
    import os
    import pty
    import select
    import sys
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.execv(sys.executable, [sys.executable, "-c", script])
    os.write(fd, typed + answer)
    output = b""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    os.waitpid(pid, 0)
    return output.decode("utf-8", "replace")


CHILD = (
    "import time; from screen_analysis.tui.graphics import choose_graphics; "
    "t = time.monotonic(); g = choose_graphics('auto', environ={'TERM': 'xterm-256color'}); "
    "print('RESULT', g.mode, repr(g.typeahead), round(time.monotonic() - t, 2))"
)


def test_a_silent_terminal_neither_hangs_nor_loses_keys() -> None:
    output = _run_on_a_pty(CHILD, b"jk")
    _result, mode, typeahead, seconds = output[output.index("RESULT") :].split()
    assert mode == "halfcell" and typeahead == "'jk'"
    assert float(seconds) < 10  # given up on: the terminal never answers


def test_a_sixel_terminal_is_recognised_on_a_real_pty() -> None:
    output = _run_on_a_pty(CHILD, b"", answer=b"\x1b[?62;4;22c")
    assert "RESULT sixel ''" in output


def asking_child(environ: dict[str, str]) -> str:
    """A child that chooses `auto` for a terminal with `environ` and prints the mode."""
    return (
        "from screen_analysis.tui.graphics import choose_graphics; "
        f"print('RESULT', choose_graphics('auto', environ={environ!r}).mode)"
    )


@pytest.mark.parametrize(
    "environ",
    [
        {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"},
        {"TERM": "screen-256color", "STY": "1.pts-0.host"},
        {"TERM": "xterm"},
        {"TERM": "linux"},
    ],
    ids=["tmux", "screen", "xterm", "linux"],
)
def test_a_terminal_that_would_show_the_kitty_question_is_not_asked_it(
    environ: dict[str, str],
) -> None:
    """What reaches the terminal (the pty) is the cell-size and Device Attributes questions
    only, answered as tmux answers them: no graphics command a multiplexer would take for
    the pane title or a console would print."""
    output = _run_on_a_pty(asking_child(environ), b"", answer=b"\x1b[?1;2c")
    assert "\x1b[c" in output and "\x1b_G" not in output
    assert "RESULT halfcell" in output


def test_kitty_is_asked_and_recognised_on_a_real_pty() -> None:
    output = _run_on_a_pty(
        asking_child({"TERM": "xterm-kitty"}), b"", answer=b"\x1b_Gi=31;OK\x1b\\\x1b[?62;22c"
    )
    assert "\x1b_Gi=31," in output and "RESULT kitty" in output


def test_an_unknown_mode_is_a_usage_error(invoke: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("--images", "iterm", "--demo").exit_code == 2
    from screen_analysis.cli.exit_codes import CliError
    from screen_analysis.cli.launch import image_graphics

    monkeypatch.setenv("SCREEN_ANALYSIS_IMAGES", "iterm")
    with pytest.raises(CliError, match="images must be one of"):
        image_graphics(load_settings())


def test_tmux_passthrough_doubles_escapes() -> None:
    from screen_analysis.tui.graphics import tmux_passthrough

    assert tmux_passthrough("\x1b_Ga=q\x1b\\") == "\x1bPtmux;\x1b\x1b_Ga=q\x1b\x1b\\\x1b\\"
