"""Opening an image address in a browser, when this machine has a graphical one."""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit


def is_web_url(url: str | None) -> bool:
    """Only http and https addresses with a host are opened."""
    if not url:
        return False
    # Control characters or spaces inside are no part of a real address (and would reach the
    # browser's command line as they are).
    if any(not char.isprintable() or char.isspace() for char in url.strip()):
        return False
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def has_graphical_browser() -> bool:
    """Whether a browser can open without taking over this terminal.

    A console browser (lynx, w3m) would draw over the app, so on Linux and the BSDs a
    display is required; macOS and Windows always have one.
    """
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_in_browser(url: str) -> bool:
    """Open `url`; False when no browser took it. Blocking: call it from a thread."""
    if not is_web_url(url) or not has_graphical_browser():
        return False
    import webbrowser  # imported when a link is opened, not at start-up

    try:
        return webbrowser.open(url.strip(), new=2)
    except webbrowser.Error:
        return False
