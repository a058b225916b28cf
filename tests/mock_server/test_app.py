"""The app against the independent server (Prism), in a real terminal (a tmux pane): it
starts, takes a few keys (rows, the status filters), opens its help with `?` and
quits with `q` and exit 0. Every answer is allowed by the API document, so the screen never
shows a traceback or calls an answer invalid, and never says "Loading…" in the table while
its status line says the load failed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from tests.mock_server.prism import MockServer
from tests.reliability.terminal_driver import APP, Pane, app_env, have_tmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed (apt install tmux)"),
]

HELP_TITLE = "screen-analysis — keys"
# Each key and the table's title once it is taken: rows, then each status (a request each).
KEYS = (("j", "All"), ("j", "All"), ("4", "Completed"), ("2", "Pending"), ("5", "Failed"))
KEYS += (("1", "All"),)
ANSWERED = re.compile(r"Loaded \d")  # the status line, once the first answer is in


def settled(text: str) -> bool:
    """Whether the status line shows the view's answer (not still "loading…")."""
    lines = [line for line in text.splitlines() if ANSWERED.search(line)]
    return bool(lines) and "loading…" not in lines[-1]


def contradictions(text: str) -> list[str]:
    """What the screen says that no allowed answer should make it say."""
    found = []
    if "Traceback" in text:
        found.append("a traceback")
    if "invalid response" in text:
        found.append("an allowed answer called invalid")
    if "Loading…" in text and "Couldn't load" in text:
        found.append("'Loading…' beside 'Couldn't load'")
    return found


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_app_against_the_independent_server(
    prism: MockServer, tmp_path: Path, size: tuple[int, int]
) -> None:
    rc_file = tmp_path / "rc"
    line = app_env(tmp_path, "xterm-256color", **prism.env()) + " " + shlex.quote(str(APP))
    pane = Pane(tmp_path, f"{line}; echo $? > {shlex.quote(str(rc_file))}; sleep 5", *size)
    seen: dict[str, str] = {}
    try:
        assert pane.wait(lambda: settled(pane.text()), 30), "no answer shown:\n" + pane.text()
        seen["start"] = pane.text()
        for key, view in KEYS:
            pane.keys(key)
            title = f"Analyses · {view}"
            assert pane.wait(lambda t=title: t in pane.text() and settled(pane.text()), 30), (
                f"after {key}:\n" + pane.text()
            )
            seen[f"after {key}"] = pane.text()
        pane.keys("?")
        assert pane.wait(lambda: HELP_TITLE in pane.text()), "? did not open the help:\n" + (
            pane.text()
        )
        pane.keys("Escape")
        assert pane.wait(lambda: HELP_TITLE not in pane.text()), "Esc left the help open"
        pane.keys("q")
        assert pane.wait(lambda: rc_file.exists() and rc_file.read_text().strip() != "", 15), (
            "q did not end the app:\n" + pane.text()
        )
        raw = pane.raw.read_bytes()
    finally:
        pane.close()
    assert rc_file.read_text().strip() == "0"
    assert b"Traceback" not in raw
    wrong = [f"{when}: {what}" for when, text in seen.items() for what in contradictions(text)]
    assert not wrong, (
        "\n".join(wrong) + "\n\n" + next(text for text in seen.values() if contradictions(text))
    )
