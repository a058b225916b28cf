"""Watching analyses in the app: `w` watches the highlighted one, `W` the in-flight rows of
the view; one page per refresh interval finds out how they are (`browse.watch`), and their
end is told as configured (`notify`: a toast, the bell, a desktop notification through the
terminal). Watches are kept between runs and dropped once finished."""

from screen_analysis.tui.watching.desk import WatchDesk
from screen_analysis.tui.watching.tell import NOTIFY_DEFAULT, ScreenTeller, Teller, parse_notify

__all__ = ["NOTIFY_DEFAULT", "ScreenTeller", "Teller", "WatchDesk", "parse_notify"]
