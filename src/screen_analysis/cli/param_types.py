"""Click parameter types whose values a shell completes (`screen-analysis completion`).

Each takes its value as the plain string it was (checking stays where it was: the settings
loader, the gate, the theme check, the scope language)
and offers, when a shell asks, what this machine already
knows: the config file's profiles and checks, the themes, the gate's criteria, and the
project ids of the local cache. Completing a word never sends a request and never asks the
keyring; a config or cache that cannot be read completes nothing rather than failing.

Imported by the command modules as they are defined, so this module imports only click at
its top; each completion imports what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

if TYPE_CHECKING:
    from screen_analysis.config import Settings

# A word a shell can take as it is: no space, quote, glob, comma or control character (bash
# splits and globs what it is given, fish's script splits at commas). A server's id outside
# this is not offered.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.:@+%=/-]{1,200}")
HELP_LIMIT = 60  # characters of a description beside a completion (zsh, fish)


def _items(pairs: Iterable[tuple[str, str | None]], incomplete: str) -> list[CompletionItem]:
    """The completions that start with `incomplete`, each with its description made safe
    for a terminal (server text: control characters shown, one line, cut)."""
    from screen_analysis.safe_text import clean, shorten

    found = []
    for value, about in pairs:
        if value.startswith(incomplete) and _PLAIN_WORD.fullmatch(value):
            words = shorten(clean(about), HELP_LIMIT) if about else None
            found.append(CompletionItem(value, help=words or None))
    return found


def _root_params(ctx: click.Context) -> dict[str, Any]:
    """The root command's options as parsed so far (completion runs no callback)."""
    return ctx.find_root().params


def completion_settings(ctx: click.Context) -> Settings | None:
    """The settings the command line being completed would run with (its --profile,
    --base-url and --no-cache), or None when the config file cannot be read."""
    from screen_analysis.config import load_settings

    params = _root_params(ctx)
    try:
        return load_settings(
            base_url=params.get("base_url"),
            profile=params.get("profile"),
            no_cache=bool(params.get("no_cache")),
        )
    except Exception:  # a damaged config or an unknown profile: nothing to offer
        return None


class ProfileName(click.types.StringParamType):
    """A `[profiles.NAME]` of the config file."""

    name = "profile"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """The config file's profiles, with the server each names."""
        from screen_analysis.config import ConfigError, default_config_path, read_config_file

        path = default_config_path()
        try:
            tables = read_config_file(path).get("profiles")
        except ConfigError:
            return []
        if not isinstance(tables, dict):
            return []
        return _items(
            ((str(name), _server_of(table)) for name, table in tables.items()), incomplete
        )


def _server_of(table: object) -> str | None:
    url = table.get("base_url") if isinstance(table, dict) else None
    return url if isinstance(url, str) else None


class ThemeName(click.types.StringParamType):
    """A theme the app offers: Textual's, the shipped files' and the user's."""

    name = "theme"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """Every theme name, as `--theme` checks it."""
        from screen_analysis.tui.themes import load_themes, theme_names, user_theme_dir

        return _items(
            ((name, None) for name in theme_names(load_themes(user_theme_dir()))), incomplete
        )


class ProjectId(click.types.StringParamType):
    """A project id; completed from the local cache of the server (and profile) in use and
    the config's pinned projects, never from the server."""

    name = "project_id"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """The projects kept for this server, the most recently viewed first."""
        settings = completion_settings(ctx)
        if settings is None:
            return []
        known: dict[str, str | None] = {}
        if settings.cache:
            known.update(_cached_projects(settings, demo=bool(_root_params(ctx).get("demo"))))
        for pinned in settings.projects:
            known.setdefault(pinned, "pinned in the config")
        return _items(known.items(), incomplete)


def _cached_projects(settings: Settings, *, demo: bool) -> list[tuple[str, str | None]]:
    from screen_analysis.auth.connection import NotConnected
    from screen_analysis.cache import default_cache_path
    from screen_analysis.cache.contents import kept_projects
    from screen_analysis.cli.local_scope import settings_scope

    scope = settings_scope(settings, demo=demo)
    if isinstance(scope, NotConnected):  # no server configured: no cache of one
        return []
    return kept_projects(default_cache_path(), scope)


class CheckName(click.types.StringParamType):
    """A `[checks.NAME]` of `--config-file`, or of the config file."""

    name = "check"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """The checks of the file `check` would read, with each one's project."""
        from pathlib import Path

        from screen_analysis.config import ConfigError, check_tables, default_config_path

        given = ctx.params.get("config_file")
        path = Path(given) if given else default_config_path()
        try:
            tables = check_tables(path)
        except ConfigError:
            return []
        return _items(
            ((str(name), _project_of(table)) for name, table in tables.items()), incomplete
        )


def _project_of(table: dict[str, Any]) -> str | None:
    project = table.get("project_id")
    return f"project {project}" if isinstance(project, str) else None


class CriterionThreshold(click.types.StringParamType):
    """`CRITERION=N`: one of the API's documented breakdown keys and a threshold."""

    name = "criterion_threshold"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """`criterion=` for each criterion (the threshold is the user's to type)."""
        if "=" in incomplete:
            return []
        from screen_analysis.api.models import CRITERIA

        return _items(((f"{c.value}=", None) for c in CRITERIA), incomplete)


class ViewName(click.types.StringParamType):
    """A `[views.NAME]` of the config (the profile's, where it has its own)."""

    name = "view"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """The views of the settings the command would run with."""
        settings = completion_settings(ctx)
        if settings is None:
            return []
        return _items(((str(name), None) for name in settings.views), incomplete)


class LocalFile(click.types.StringParamType):
    """A file name, completed by the shell from the file system (read later, by the
    command, with its own wording when it cannot be)."""

    name = "file"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        """The shell's own file completion."""
        return [CompletionItem(incomplete, type="file")]


PROFILE = ProfileName()
THEME = ThemeName()
PROJECT_ID = ProjectId()
CHECK_NAME = CheckName()
CRITERION_THRESHOLD = CriterionThreshold()
LOCAL_FILE = LocalFile()
VIEW_NAME = ViewName()
