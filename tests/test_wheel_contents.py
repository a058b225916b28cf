"""The wheel carries every file the package reads besides its modules — templates, themes,
the stylesheet, the page and font `serve` sends — so a file left out of the package data is
caught here rather than by a user. Built as a user builds it (`uv build`: the source archive,
then the wheel from it); .ci/wheel then installs that wheel outside the checkout and runs it.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,  # a build in a fresh environment: seconds, and uv's cache or the network
    pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed"),
]

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "screen_analysis"
CODE_SUFFIXES = {".py", ".pyc"}


def package_files() -> dict[str, set[str]]:
    """What the wheel must hold, as paths inside it: the modules, and the data files (every
    other file of the package, and the top-level themes/ packaged as screen_analysis/themes)."""
    tracked = subprocess.run(
        ["git", "ls-files", "src/screen_analysis", "themes"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    modules, data = set(), set()
    for name in tracked:
        path = Path(name)
        inside = (
            "screen_analysis/themes/" + path.name
            if path.parts[0] == "themes"
            else path.relative_to("src").as_posix()
        )
        (modules if path.suffix in CODE_SUFFIXES else data).add(inside)
    return {"modules": modules, "data": data}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The source archive and the wheel `uv build` makes from this checkout."""
    return build(ROOT, tmp_path_factory.mktemp("dist"))


def build(project: Path, out: Path) -> tuple[Path, Path]:
    """The source archive and the wheel `uv build` makes of `project`, in `out`."""
    subprocess.run(
        ["uv", "build", "--quiet", "--out-dir", str(out)],
        cwd=project,
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return sdist, wheel


def test_the_wheel_carries_every_module_and_data_file(built: tuple[Path, Path]) -> None:
    _sdist, wheel = built
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = package_files()
    assert {"screen_analysis/themes/screen-analysis-dark.toml", "screen_analysis/tui/app.tcss"} <= (
        wanted["data"]
    )
    assert not wanted["data"] - names, f"left out of the wheel: {wanted['data'] - names}"
    assert not wanted["modules"] - names, f"left out of the wheel: {wanted['modules'] - names}"
    stray = (
        {n for n in names if n.startswith("screen_analysis/")} - wanted["data"] - wanted["modules"]
    )
    assert not stray, f"in the wheel but not in the repository: {stray}"
    metadata = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "screen-analysis = screen_analysis.cli:main" in zipfile.ZipFile(wheel).read(
        metadata
    ).decode("utf-8")


def test_the_source_archive_holds_what_the_wheel_is_built_from(built: tuple[Path, Path]) -> None:
    sdist, _wheel = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for data in package_files()["data"]:
        source = data.replace("screen_analysis/themes/", "themes/", 1)
        if not source.startswith("themes/"):
            source = "src/" + data
        assert source in names, source
    assert {"pyproject.toml", "README.md", "CHANGELOG.md"} <= names


def test_a_link_to_the_sources_in_an_ignored_directory_leaves_the_build_whole(
    tmp_path: Path,
) -> None:
    """The mutation tier's workspaces (.mutation/MODULE/, ignored by git) link to src/; the
    build follows links and reads each directory once, so it must not enter ignored ones, or
    src/ is read through the link, dropped as ignored, and then skipped as already read."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", ".gitignore"):
        shutil.copy2(ROOT / name, project / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "src", project / "src", ignore=skip)
    shutil.copytree(ROOT / "themes", project / "themes", ignore=skip)
    workspace = project / ".mutation" / "numbers"
    workspace.mkdir(parents=True)
    (workspace / "src").symlink_to(project / "src")
    _sdist, wheel = build(project, tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = package_files()
    assert not (wanted["modules"] | wanted["data"]) - names
    assert not any(name.startswith(".mutation") for name in names)
