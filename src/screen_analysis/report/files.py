"""Writing a report file: atomically, and never over an existing file unless asked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_report_file(path: Path, text: str, *, replace: bool) -> None:
    """Write `text` to `path` through a temp file in the same folder.

    Without `replace`, the file is linked into place only if nothing is there yet
    (FileExistsError otherwise), so a file that appeared since the user was asked is kept.
    """
    handle, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        tmp.chmod(0o644)
        if replace:
            tmp.replace(path)
        else:
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
