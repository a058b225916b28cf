"""The garbage collector while the program starts: held, then released.

Start-up builds tens of thousands of objects that live as long as the program (modules,
classes, functions, styles) and makes little cyclic garbage, yet the collector would walk
them over and over while they are built (measured: about 4% of the instructions before the
app's first rows). So the entry point holds it; once the first screen is drawn, or a
subcommand starts, what start-up built is moved out of its sight (`gc.freeze`, which also
keeps later full collections short) and it runs as usual.
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


def release() -> None:
    """Collect as usual again; what exists now is left out of collections (once)."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def is_held() -> bool:
    """Whether `hold` is in effect."""
    return _held
