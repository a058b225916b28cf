"""The manual builds with `mkdocs build --strict` (a broken link, a missing anchor or page
fails) and the built site works offline: no page or stylesheet loads anything from another
host, the search index is bundled, the screenshots, the generated command-line reference,
the changelog and the README's dependency list are in it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # a full build: a few seconds of a core

ROOT = Path(__file__).resolve().parents[1]
# A tag that makes the browser fetch (not a link the reader may follow), pointing off the site.
FETCHED_FROM_ELSEWHERE = re.compile(
    r"<(?:script|img|iframe|source|link)\b[^>]*\b(?:src|href)=\"(?:https?:)?//[^\"]*\"", re.I
)
URL_IN_CSS = re.compile(r"url\(\s*['\"]?(?:https?:)?//", re.I)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The manual, built strictly into a folder of its own."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_the_site_fetches_nothing_from_another_host(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 20
    for page in pages:
        found = FETCHED_FROM_ELSEWHERE.findall(page.read_text(encoding="utf-8"))
        assert not found, f"{page.name} loads {found}"
    for sheet in site.rglob("*.css"):
        assert not URL_IN_CSS.search(sheet.read_text(encoding="utf-8")), sheet.name
    assert (site / "search" / "search_index.js").is_file()  # search from the disk
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'src="assets/iframe-worker-shim.js"' in index


def test_the_site_has_what_its_pages_are_built_from(site: Path) -> None:
    shots = {p.name for p in (ROOT / "screenshots").glob("*.svg")}
    assert shots and shots == {p.name for p in (site / "screenshots").glob("*.svg")}
    assert 'src="screenshots/main-120x40.svg"' in (site / "index.html").read_text()
    reference = (site / "cli-reference.html").read_text(encoding="utf-8")
    for anchor in ("screen-analysis-check", "screen-analysis-completion", "screen-analysis-serve"):
        assert f'id="{anchor}"' in reference
    changelog = (site / "changelog.html").read_text(encoding="utf-8")
    assert "Keep a Changelog" in changelog and "Version policy" in changelog
    development = (site / "development.html").read_text(encoding="utf-8")
    assert "mkdocs-click" in development and "--8&lt;--" not in development
    assert "`select`" not in (site / "app.html").read_text()  # the key table is a table
