"""The garbage collector while the program starts: held during the imports, then released.

Start-up imports tens of thousands of objects that live as long as the program (modules,
classes, functions, compiled styles) and makes little cyclic garbage, yet the collector would
walk them over and over while they are built (measured: about 4% of the instructions before
the app's first rows). So the entry point holds it, and once the imports are done — a
subcommand starts, or the app's modules are in and nothing of the app is built yet — what
exists is moved out of the collector's sight (`gc.freeze`, which also keeps later full
collections short) and it runs as usual from then on.

The freeze happens once, before any screen, row or client exists, so nothing that can become
garbage later (a screen left behind by a profile switch, a view's rows) is ever frozen:
those are collected as usual (tests/tui/test_memory.py switches profiles and checks the old
screens go).
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
    """The imports are done: what exists now lives as long as the program and is left out
    of later collections; collect as usual again."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def is_held() -> bool:
    """Whether `hold` is in effect."""
    return _held
