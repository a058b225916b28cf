"""Make server text safe to show: no control sequences reach the terminal, no markup is parsed.

Headless (no Textual), so the CLI's table output and the TUI share one rule.
"""

from __future__ import annotations

import re

# C0 controls except TAB and NEWLINE, DEL, C1 controls, and the bidi overrides/isolates
# that can reorder what surrounds them.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_WHITESPACE = re.compile(r"\s+")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"


def clean(value: object, *, single_line: bool = True) -> str:
    """Return `value` as text with control characters made visible.

    ESC becomes ␛, other C0 codes their control picture, C1 codes and bidi overrides �.
    With `single_line`, runs of whitespace (newlines, tabs) fold to one space.
    """
    text = "" if value is None else str(value)
    text = _CONTROL.sub(_visible, text)
    if single_line:
        text = _WHITESPACE.sub(" ", text).strip()
    return text


QUOTE_LIMIT = 80  # characters of the user's input an error line repeats
# A stretch between separators: a value as a URL, a quoted string or a sentence holds it.
_STRETCH = re.compile(r"[^\s/?&=:,]+")
_TAIL = re.compile(r"['\".;)]{0,3}$")


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` cut to at most `limit` characters, the cut marked with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten_runs(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` with every stretch between spaces or URL separators that is longer than
    `limit` cut with an ellipsis (closing quotes and punctuation kept): an error line
    repeats about that much of a value the user typed, however long the value was."""

    def cut(match: re.Match[str]) -> str:
        run = match.group()
        if len(run) <= limit:
            return run
        tail = _TAIL.search(run)
        end = tail.group() if tail else ""
        return run[: limit - 1 - len(end)] + "…" + end

    return _STRETCH.sub(cut, text)
