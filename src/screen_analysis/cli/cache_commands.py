"""`screen-analysis cache info` and `cache clear`, and reading the local cache for
`--offline` (no request is sent: the rows the app kept, with their age)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

import click

from screen_analysis.cache import CachedView, CacheScope, LocalCache, default_cache_path
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import count_of, format_count
from screen_analysis.safe_text import clean


def cache_scope(ctx: CliContext) -> CacheScope:
    """Whose data the command means: the demo's, or the configured server's (no key)."""
    from screen_analysis.auth.connection import NotConnected, resolve_address
    from screen_analysis.state import server_key

    profile = ctx.settings.profile or ""
    if ctx.demo:
        return CacheScope("demo", profile)
    address = resolve_address(ctx.settings)
    if isinstance(address, NotConnected):
        raise CliError(address.message, ExitCode.USAGE)
    return CacheScope(server_key(address, is_demo=False), profile)


def open_offline(ctx: CliContext) -> LocalCache:
    """The cache to read with `--offline`; a one-line error when it is off or unusable."""
    if not ctx.settings.cache:
        raise CliError(
            "--offline reads the local cache, which is off (cache = false)", ExitCode.USAGE
        )
    cache = LocalCache(cache_scope(ctx), max_mb=ctx.settings.cache_max_mb)
    if cache.warning:
        click.echo(f"Warning: {clean(cache.warning)}", err=True)
    return cache


def age_words(view: CachedView, now: datetime | None = None) -> str:
    """ "data from 2026-11-23 10:42 UTC (3 hours ago)"."""
    moment = now or datetime.now(UTC)
    seconds = max(0, int((moment - view.fetched_at).total_seconds()))
    if seconds < 90:
        ago = f"{seconds} s ago"
    elif seconds < 5400:
        ago = f"{seconds // 60} min ago"
    elif seconds < 172800:
        ago = f"{seconds // 3600} hours ago"
    else:
        ago = f"{seconds // 86400} days ago"
    return f"data from {view.fetched_at:%Y-%m-%d %H:%M} UTC ({ago})"


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
    path = default_cache_path()
    scopes = _scopes(path)
    size = sum(f.stat().st_size for f in path.parent.glob(path.name + "*") if f.is_file())
    if fmt == "json":
        click.echo(json.dumps({"path": str(path), "bytes": size, "scopes": scopes}, indent=1))
        return
    click.echo(f"Cache: {path} ({format_count(size)} bytes)")
    if not scopes:
        click.echo("Nothing kept yet.")
        return
    for scope in scopes:
        who = clean(scope["base_url"]) + (
            f" (profile {clean(scope['profile'])})" if scope["profile"] else ""
        )
        newest = scope["newest"] or "—"
        click.echo(
            f"  {who}: {count_of(scope['views'], 'view')}, "
            f"{count_of(scope['analyses'], 'analysis', 'analyses')}, newest {newest}"
        )


@cache.command("clear")
@click.option("--profile", "profile_name", metavar="NAME", help="Clear this profile's data.")
@click.option("--all", "everything", is_flag=True, help="Clear every server's and profile's data.")
@click.pass_obj
def cache_clear(ctx: CliContext, profile_name: str | None, everything: bool) -> None:
    """Forget what the cache kept: the current server and profile's (default), a profile's,
    or everything."""
    if everything and profile_name:
        raise click.UsageError("--all and --profile cannot be combined")
    ctx.run(lambda: _clear_command(ctx, profile_name, everything))


def _clear_command(ctx: CliContext, profile_name: str | None, everything: bool) -> None:
    path = default_cache_path()
    if not path.exists():
        click.echo("The local cache is empty.")
        return
    scope = None if everything else cache_scope(ctx)
    if scope is not None and profile_name is not None:
        scope = CacheScope(scope.base_url, profile_name)
    removed = _clear(path, scope)
    where = (
        "everything"
        if scope is None
        else clean(scope.base_url) + (f" (profile {clean(scope.profile)})" if scope.profile else "")
    )
    click.echo(f"Cleared {where}: {count_of(removed, 'analysis', 'analyses')}.")


def _scopes(path: Any) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        rows = db.execute(
            "SELECT s.base_url, s.profile,"
            " (SELECT count(*) FROM views v WHERE v.scope = s.id),"
            " (SELECT count(*) FROM analyses a WHERE a.scope = s.id),"
            " (SELECT max(fetched_at) FROM views v WHERE v.scope = s.id)"
            " FROM scopes s ORDER BY s.base_url, s.profile"
        ).fetchall()
    except sqlite3.Error as exc:
        raise CliError(f"cannot read the local cache {path}: {exc}", ExitCode.USAGE) from exc
    finally:
        db.close()
    return [
        {
            "base_url": base,
            "profile": profile,
            "views": views,
            "analyses": analyses,
            "newest": None
            if newest is None
            else f"{datetime.fromtimestamp(newest, UTC):%Y-%m-%d %H:%M} UTC",
        }
        for base, profile, views, analyses, newest in rows
    ]


def _clear(path: Any, scope: CacheScope | None) -> int:
    from screen_analysis.cache.store import clear_scope

    try:
        return clear_scope(path, scope)
    except sqlite3.Error as exc:
        raise CliError(f"cannot clear the local cache {path}: {exc}", ExitCode.USAGE) from exc
