"""Columns of the analyses table for a given width (text is fitted into them by
`words.fit_cell`).

The label is the column that tells rows apart, so it gets the room (and, cut, keeps its start
and its last words: `words.label_ellipsis`): status, score and age
start compact (a glyph and at most four letters, "5m"; the glyph alone when even then the
label would have less than `LABEL_FLOOR` cells), and the project, the longer status word and
age, and the id are added, in that order, only while the label keeps `LABEL_ROOM` cells.
Everything depends on the width alone, never on the data.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from rich.cells import cell_len

CELL_PADDING = 1  # blank cells on each side of a column
LABEL_ROOM = 40  # an optional column or a longer form is shown only if the label keeps this
LABEL_FLOOR = 26  # below this, the status shows its glyph alone ("●", "✗": they read apart)


class Column(NamedTuple):
    """One column of the table as laid out for a given width.

    `form` names a shorter form of the cells: "short" (status "● done", age "5m"), "glyph"
    (status "●").
    """

    key: str
    title: str
    width: int
    right: bool = False
    form: str = ""

    @property
    def compact(self) -> bool:
        """Whether the column shows a shorter form of its cells."""
        return bool(self.form)

    @property
    def cell_key(self) -> str:
        """The key of the cell text it shows ("status_short" for the short status)."""
        return f"{self.key}_{self.form}" if self.form else self.key


# Full widths fit the longest documented value ("◐ processing", "2025-01-31", "99.5").
_STATUS = Column("status", "Status", 12)
_STATUS_SHORT = Column("status", "Status", 6, form="short")
_STATUS_GLYPH = Column("status", "", 1, form="glyph")
_SCORE = Column("score", "Score", 5, right=True)
_CREATED = Column("created", "Created", 10)
_AGE = Column("created", "Age", 4, form="short")
_PROJECT = Column("project", "Project", 16)
_ID = Column("id", "ID", 16)
_LABEL = Column("label", "Label", 1)

# What is added while the label keeps its room, in order: (replaces, with).
_UPGRADES: tuple[tuple[Column | None, Column], ...] = (
    (None, _PROJECT),
    (_AGE, _CREATED),
    (_STATUS_SHORT, _STATUS),
    (None, _ID),
)
_ORDER = ("status", "score", "label", "project", "created", "id")


def _cells(columns: list[Column]) -> int:
    return sum(column.width + 2 * CELL_PADDING for column in columns)


@lru_cache(maxsize=64)
def layout_columns(width: int) -> tuple[Column, ...]:
    """The columns shown at `width` cells, in order; the label takes what is left."""
    pad = 2 * CELL_PADDING
    chosen = [_STATUS_SHORT, _SCORE, _AGE]
    if width - _cells(chosen) - pad < LABEL_FLOOR:
        chosen = [_STATUS_GLYPH, _SCORE, _AGE]
    for old, new in _UPGRADES:
        trial = [new if column is old else column for column in chosen]
        if old is None:
            trial.append(new)
        if width - _cells(trial) - pad >= LABEL_ROOM:
            chosen = trial
    label = _LABEL._replace(width=max(1, width - _cells(chosen) - pad))
    by_key = {column.key: column for column in [*chosen, label]}
    return tuple(by_key[key] for key in _ORDER if key in by_key)


def label_width(width: int) -> int:
    """The cells the label gets in a table `width` cells wide."""
    return next(column.width for column in layout_columns(width) if column.key == "label")


def pad(text: str) -> str:
    """`text` with the blank cells that separate columns on each side."""
    blank = " " * CELL_PADDING
    return f"{blank}{text}{blank}"


def centre(text: str, width: int) -> str:
    """`text` preceded by the blanks that centre it in `width` cells."""
    text = text.strip()
    left = max(0, (width - cell_len(text)) // 2)
    return " " * left + text
