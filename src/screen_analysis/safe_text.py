"""Make server text safe to show: no control sequences reach the terminal, no markup is parsed.

One policy per output kind, one function for each (headless, so the command line, the app
and the report share them; docs/reliability.md has the same table):

- terminal (the app's widgets, notifications, the CLI's table): control characters made
  visible (␛ for ESC, control pictures for C0, � for C1 codes and bidi overrides),
  whitespace folded in one-line cells; markup is never parsed (`Text`/`Content`,
  `markup=False`) -> `clean`.
- one-line messages (errors on stderr, the status line, dialogs, server error bodies): as
  the terminal, folded to one line and cut at a length; a body of nothing but control
  characters and spaces is no message -> `one_line` (`clean` where no length applies).
- CSV: as the terminal, newlines kept inside a quoted cell, a cell a spreadsheet would run
  as a formula starts with `'` -> `api.writers` (built on `clean`).
- JSON, JSON Lines: the text as received, every control character escaped (`\u001b`),
  lossless -> `api.writers.dumps_json`.
- HTML (the report): autoescaped by Jinja2, control characters made visible -> `clean` as
  a template filter.
- Markdown (the report): made visible, Markdown and HTML syntax escaped ->
  `report.render.escape_markdown`.

Control characters are shown rather than dropped everywhere people read text: dropping
them would make two different ids, labels or file names look the same.
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


DISPLAY_LIMIT = 1_000  # characters of one server text given to a terminal view (see clean)
TITLE_LIMIT = 160  # in a title or a notice, where a few lines are all there is room for


def clean(value: object, *, single_line: bool = True, limit: int | None = None) -> str:
    """Return `value` as text with control characters made visible.

    ESC becomes ␛, other C0 codes their control picture, C1 codes and bidi overrides �.
    With `single_line`, runs of whitespace (newlines, tabs) fold to one space. With
    `limit`, only the first `limit` characters are taken, and a cut ends with `…`: the
    cut comes before anything else, so a text of megabytes costs what its first screenful
    does (every view draws server text with `limit=DISPLAY_LIMIT`; exports and reports,
    which keep text whole, go without).
    """
    text = "" if value is None else str(value)
    cut = limit is not None and len(text) > limit
    if cut:
        text = text[:limit]
    text = _CONTROL.sub(_visible, text)
    if single_line:
        text = _WHITESPACE.sub(" ", text).strip()
    return text + "…" if cut else text


MESSAGE_LIMIT = 300  # characters of a one-line message (a server's error text)


def one_line(value: object, limit: int = MESSAGE_LIMIT) -> str:
    """`value` as one line for a message: `clean`ed (control characters visible, whitespace
    folded) and cut at `limit` characters with an ellipsis."""
    text = clean(value)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def is_blank(text: str) -> bool:
    """Whether `text` holds nothing but whitespace and control characters."""
    return not _WHITESPACE.sub("", _CONTROL.sub("", text))


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
