"""The garbage collector while the program starts: held, then released.

Start-up builds tens of thousands of objects that live as long as the program (modules,
classes, functions, styles) and makes little cyclic garbage, yet the collector would walk
them over and over while they are built (measured: about 4% of the instructions before the
app's first rows). So the entry point holds it; once the first screen is drawn, or a
subcommand starts, what start-up built is moved out of the collector's sight (`gc.freeze`,
which also keeps later full collections short) and it runs as usual. The little garbage
start-up made (about half a megabyte of cycles) is frozen with it rather than swept: one
collection over everything would block the event loop for about 40 ms just after the
first rows appear. A first screen that will go (welcome, login) releases it without the
freeze, so that screen can be collected once it is gone.
"""

from __future__ import annotations

import gc

_held = False


def hold() -> None:
    """Stop collecting until `release` (the entry point calls this first)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release(*, keep: bool = True) -> None:
    """Collect as usual again. With `keep`, what exists now lives as long as the program
    and is left out of later collections."""
    global _held
    if _held:
        _held = False
        if keep:
            gc.freeze()
        gc.enable()


def is_held() -> bool:
    """Whether `hold` is in effect."""
    return _held
