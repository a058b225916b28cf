"""Writing a report file: atomically, and never over an existing file unless asked."""

from __future__ import annotations

from pathlib import Path

from screen_analysis.user_files import write_atomic


def write_report_file(path: Path, text: str, *, replace: bool) -> None:
    """Write `text` to `path` through the one atomic writer (`user_files`).

    Without `replace`, the file is put in place only if nothing is there yet
    (FileExistsError otherwise), so a file that appeared since the user was asked is kept.
    Other failures are a `UserFileError` naming the file.
    """
    write_atomic(path, text, exclusive=not replace)
