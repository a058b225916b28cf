"""`screen-analysis cache info` and `cache clear`, and reading the local cache for
`--offline` (no request is sent: the rows the app kept, with their age)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar

import click

from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.param_types import PROFILE
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import count_of, format_count
from screen_analysis.safe_text import clean
from screen_analysis.words import long_ago, utc_time

T = TypeVar("T")


def cache_scope(ctx: CliContext, profile: str | None = None) -> CacheScope:
    """Whose data the command means: the demo's, or the configured server's (no key is
    looked up and nothing is sent, so the transport policy does not apply).

    `profile`: that profile's instead of the current one, with its own server, as the app
    would open with `--profile NAME` and the same flags (the one settings loader; an
    unknown name is a ConfigError: one line, exit 2)."""
    from screen_analysis.auth.connection import NotConnected
    from screen_analysis.cli.local_scope import settings_scope
    from screen_analysis.config import settings_for_profile

    settings = ctx.settings if profile is None else settings_for_profile(ctx.settings, profile)
    scope = settings_scope(settings, demo=ctx.demo)
    if isinstance(scope, NotConnected):
        where = f"profile {settings.profile or ''!r}: " if profile else ""
        raise CliError(where + scope.message, ExitCode.USAGE)
    return scope


@contextlib.contextmanager
def offline_cache(ctx: CliContext) -> Iterator[LocalCache]:
    """The cache to read with `--offline` for the block, closed after it; a one-line error
    when it is off, a warning when it is unusable, and one when rows could not be read (they
    are left out)."""
    from screen_analysis.cache.rows import skipped_words

    if not ctx.settings.cache:
        raise CliError(
            "--offline reads the local cache, which is off (cache = false)", ExitCode.USAGE
        )
    cache = LocalCache(cache_scope(ctx), max_mb=ctx.settings.cache_max_mb)
    if cache.warning:
        click.echo(f"Warning: {clean(cache.warning)}", err=True)
    try:
        yield cache
    finally:
        cache.close()
        if cache.skipped:
            click.echo(f"Warning: {skipped_words(cache.skipped)}", err=True)


def age_words(fetched_at: datetime, now: datetime | None = None) -> str:
    """ "data from 2026-11-23 10:42 UTC (3 hours ago)"."""
    return f"data from {utc_time(fetched_at)} ({long_ago(fetched_at, now or datetime.now(UTC))})"


def nothing_kept(what: str) -> CliError:
    """The error when the cache holds nothing for a view (exit 4, as for a missing thing)."""
    return CliError(
        f"the local cache holds nothing for {what}: open it in the app once while online",
        ExitCode.NOT_FOUND,
    )


@click.group()
def cache() -> None:
    """The local cache of what the app showed (for an instant start and offline use)."""


@cache.command("info")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
@click.pass_obj
def cache_info(ctx: CliContext, fmt: str) -> None:
    """Where the cache is, its size, and per server and profile its views and their age."""
    ctx.run(lambda: _info(fmt))


def _info(fmt: str) -> None:
    from screen_analysis.cache.contents import file_bytes, kept_scopes

    path = default_cache_path()
    scopes = _usable(lambda: kept_scopes(path))
    size = file_bytes(path)
    if fmt == "json":
        rows = [{**scope._asdict(), "newest": _minute(scope.newest)} for scope in scopes]
        click.echo(json.dumps({"path": str(path), "bytes": size, "scopes": rows}, indent=1))
        return
    click.echo(f"Cache: {path} ({format_count(size)} bytes)")
    if not scopes:
        click.echo("Nothing kept yet.")
        return
    for scope in scopes:
        click.echo(
            f"  {_who(scope.base_url, scope.profile)}: {count_of(scope.views, 'view')}, "
            f"{count_of(scope.analyses, 'analysis', 'analyses')}, "
            f"newest {_minute(scope.newest) or '—'}"
        )


@cache.command("clear")
@click.option(
    "--profile", "profile_name", type=PROFILE, metavar="NAME", help="Clear this profile's data."
)
@click.option("--all", "everything", is_flag=True, help="Clear every server's and profile's data.")
@click.pass_obj
def cache_clear(ctx: CliContext, profile_name: str | None, everything: bool) -> None:
    """Forget what the cache kept: the current server and profile's (default), a profile's,
    or everything."""
    if everything and profile_name:
        raise click.UsageError("--all and --profile cannot be combined")
    ctx.run(lambda: _clear_command(ctx, profile_name, everything))


def _clear_command(ctx: CliContext, profile_name: str | None, everything: bool) -> None:
    from screen_analysis.cache.contents import forget

    scope = None if everything else cache_scope(ctx, profile_name)  # checked before the file
    path = default_cache_path()
    gone = _usable(lambda: forget(path, scope))
    where = "everything" if scope is None else _who(scope.base_url, scope.profile)
    if gone.nothing:
        kept_for = "" if scope is None else f" for {where}"
        click.echo(f"Nothing was kept{kept_for}: nothing to clear.")
        return
    click.echo(
        f"Cleared {where}: {count_of(gone.views, 'view')}, "
        f"{count_of(gone.analyses, 'analysis', 'analyses')}."
    )


def _usable(use: Callable[[], tuple[T, str | None]]) -> T:
    """What `use` found in the cache file, after its warning (a damaged file set aside) on
    stderr; a cache another program holds locked is one line and exit 2 (a file the system
    refuses)."""
    from screen_analysis.cache.place import CacheUnusable

    try:
        found, warning = use()
    except CacheUnusable as exc:
        raise CliError(str(exc), ExitCode.USAGE) from exc
    if warning:
        click.echo(f"Warning: {clean(warning)}", err=True)
    return found


def _who(base_url: str, profile: str) -> str:
    """A scope as the user reads it: "https://… (profile staging)"."""
    return clean(base_url) + (f" (profile {clean(profile)})" if profile else "")


def _minute(moment: datetime | None) -> str | None:
    return None if moment is None else utc_time(moment)
