"""Keep the garbage collector's full passes short when many rows are loaded.

A full collection walks every tracked object, so with 100,000 analyses loaded one pass can
block the event loop for most of a second. Rows that have been loaded live as long as their
view, so once a page is in they are moved out of the collector's sight (`gc.freeze`); a young
collection first sweeps what just became garbage, so little of it is frozen with them.
"""

from __future__ import annotations

import gc

FREEZE_FROM_ROWS = 5_000


def settle_loaded_rows(loaded: int) -> None:
    """Call after a page is applied; does nothing for small tables."""
    if loaded >= FREEZE_FROM_ROWS:
        gc.collect(1)
        gc.freeze()
