"""MkDocs hooks for the manual (mkdocs.yml names this file).

The screenshots live in the top-level `screenshots/` folder, where `screenshots/render.py`
draws them and the README shows them; the site takes them from there as they are (one copy
in the repository), under `screenshots/` beside the pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "screenshots"


def on_files(files: Files, config: Any) -> Files:
    """Add every screenshot to the site's files."""
    for image in sorted(SCREENSHOTS.glob("*.svg")):
        files.append(File.generated(config, f"screenshots/{image.name}", abs_src_path=str(image)))
    return files
