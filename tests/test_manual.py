"""The manual (`docs/`, built with MkDocs Material): its command-line reference is generated
from the click commands, so it names every command and option and follows a change to any
of them; its pages are the ones the nav names; the README stays a front door whose dropped
sections live in the manual. The full strict build runs in the e2e tier
(tests/test_manual_build.py) and in CI."""

from __future__ import annotations

import html
import inspect
import re
from pathlib import Path

import click
import markdown
import pytest
import yaml

from screen_analysis.cli.root import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def reference_html() -> str:
    """docs/cli-reference.md as the build renders it (mkdocs-click runs the directive)."""
    page = (DOCS / "cli-reference.md").read_text(encoding="utf-8")
    return html.unescape(
        markdown.Markdown(extensions=["toc", "attr_list", "fenced_code", "mkdocs-click"]).convert(
            page
        )
    )


def commands() -> dict[str, click.Command]:
    """Every command by its path ("", "analyses list", "check"), groups walked."""
    found: dict[str, click.Command] = {}

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        found[" ".join(path)] = command
        if isinstance(command, click.Group):
            context = click.Context(command)
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                assert sub is not None, name
                walk(sub, (*path, name))

    walk(cli, ())
    return found


def sections(rendered: str) -> dict[str, str]:
    """The reference's text per command path, cut at each command's heading."""
    parts = re.split(r'<h\d id="screen-analysis-?([a-z-]*)">', rendered)
    anchors, texts = parts[1::2], parts[2::2]
    return {a.replace("-", " "): text for a, text in zip(anchors, texts, strict=True)}


def test_the_reference_names_every_command_and_option() -> None:
    by_command = sections(reference_html())
    every = commands()
    assert len(every) >= 15
    for path, command in every.items():
        key = path.replace("-", " ")
        assert key in by_command, f"no section for `{path}`"
        text = by_command[key]
        assert inspect.cleandoc(command.help or "").splitlines()[0] in text, path
        for param in command.params:
            for opt in param.opts if isinstance(param, click.Option) else ():
                assert opt in text, f"`{path}` lacks {opt} in the reference"


def test_the_reference_follows_a_changed_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is copied by hand: an option added to a command shows at the next build."""
    check = commands()["check"]
    assert "--made-up-threshold" not in reference_html()
    added = click.Option(["--made-up-threshold"], metavar="N", help="A threshold just added.")
    monkeypatch.setattr(check, "params", [*check.params, added])
    text = sections(reference_html())["check"]
    assert "--made-up-threshold N" in text and "A threshold just added." in text


def nav_pages(entries: object) -> list[str]:
    """The pages the nav of mkdocs.yml names, in order."""
    if isinstance(entries, str):
        return [entries]
    if isinstance(entries, list):
        return [page for entry in entries for page in nav_pages(entry)]
    if isinstance(entries, dict):
        return [page for value in entries.values() for page in nav_pages(value)]
    return []


def mkdocs_config() -> dict[str, object]:
    """mkdocs.yml, read without its Python tags (there are none to run here)."""
    loaded = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    pages = nav_pages(mkdocs_config()["nav"])
    on_disk = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(pages) == on_disk
    for wanted in ("reliability.md", "performance.md", "architecture.md", "themes.md"):
        assert wanted in pages


def test_the_manual_fetches_nothing_from_the_network() -> None:
    config = mkdocs_config()
    theme = config["theme"]
    assert isinstance(theme, dict) and theme["font"] is False
    plugins = config["plugins"]
    assert isinstance(plugins, list) and "offline" in plugins
    extra = config["extra"]
    assert isinstance(extra, dict)
    shims = extra["polyfills"]
    assert isinstance(shims, list) and all((DOCS / shim).is_file() for shim in shims)


README_LIMIT = 220


def test_the_readme_is_a_front_door_and_its_old_sections_are_pages() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_LIMIT
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link
    titles = {
        line.lstrip("# ").strip()
        for page in DOCS.glob("*.md")
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    # The README's headings before it became a front door, each a page or a section now.
    for heading in (
        "Screenshots",
        "Themes",
        "Using the app",
        "Keys",
        "For stakeholders: overview, compare, report",
        "Images",
        "Connect to a server",
        "Export",
        "Profiles: several servers and keys",
        "Proxies and private CAs",
        "Local cache: an instant start, and offline",
        "SSH and headless use",
        "Over SSH, or on a server without a desktop",
        "Plain HTTP",
        "Exit codes of `login`, `logout` and `auth status`",
        "In a browser",
        "On a remote host",
        "Command line",
        "A quality gate for CI: `check`",
        "The reference server",
        "Performance",
        "Development",
    ):
        assert heading in titles, heading
