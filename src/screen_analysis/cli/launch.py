"""Start the terminal app with what the composition root (`cli/root.py`) resolved.

Nothing here resolves a connection or builds a client: both come in as arguments, so this
module imports nothing of the command line but its error type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from screen_analysis.auth.connection import NotConnected
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.config import Connection, Settings
from screen_analysis.state import RememberedProjects

if TYPE_CHECKING:
    from screen_analysis.auth.key_check import ClientFactory
    from screen_analysis.auth.keystore import KeyStore
    from screen_analysis.cache import LocalCache
    from screen_analysis.cache.ahead import CacheAhead
    from screen_analysis.tui.graphics import Graphics
    from screen_analysis.tui.sign_in import SaveKey
    from screen_analysis.tui.themes import ThemeLoad


def check_theme_flag(name: str | None, loaded: ThemeLoad) -> None:
    """Refuse an unknown `--theme NAME` before anything starts, naming the choices."""
    from screen_analysis.tui.themes import theme_names

    names = theme_names(loaded)
    if name is not None and name not in names:
        raise CliError(f"unknown theme {name!r}; available: {', '.join(names)}", ExitCode.USAGE)


def theme_flag() -> str | None:
    """The value of the root command's `--theme`, when given on the command line."""
    click_ctx = click.get_current_context(silent=True)
    value = click_ctx.find_root().params.get("theme") if click_ctx else None
    return value if isinstance(value, str) else None


def load_checked_themes() -> ThemeLoad:
    """The shipped and the user's themes; CliError (2) for an unknown `--theme`."""
    from screen_analysis.tui.themes import load_themes, user_theme_dir

    themes = load_themes(user_theme_dir())
    check_theme_flag(theme_flag(), themes)
    return themes


def keyring_saver(keystore: KeyStore | None = None) -> SaveKey:
    """Store a key the server accepted in the OS keyring (time-boxed, off the event loop),
    and drop a plain-text copy in the opt-in file that the new key supersedes."""
    import asyncio
    import contextlib

    from screen_analysis.auth import InsecureFileError, InsecureFileStore, KeyStore

    async def save(connection: Connection) -> None:
        await (keystore or KeyStore()).aset(connection.base_url, connection.api_key)
        with contextlib.suppress(InsecureFileError, OSError):
            await asyncio.to_thread(InsecureFileStore().delete, connection.base_url)

    return save


def image_graphics(settings: Settings) -> Graphics:
    """How the app draws images: decided once, here, before it owns the terminal."""
    from screen_analysis.tui.graphics import (
        InvalidImageModeError,
        choose_graphics,
        parse_image_mode,
    )

    try:
        mode = parse_image_mode(settings.images)
    except InvalidImageModeError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from exc
    return choose_graphics(mode)


def cache_opener(settings: Settings) -> Callable[[Connection], LocalCache] | None:
    """How the app opens the local cache for a connection (its server and profile); None
    when the cache is off (`cache = false`, `--no-cache`)."""
    if not settings.cache:
        return None
    max_mb = settings.cache_max_mb

    def open_cache(connection: Connection) -> LocalCache:
        from screen_analysis.cache import CacheScope, LocalCache
        from screen_analysis.state import server_key

        scope = CacheScope(
            server_key(connection.base_url, is_demo=connection.is_demo), connection.profile or ""
        )
        return LocalCache(scope, max_mb=max_mb)

    return open_cache


def cache_ahead(
    open_cache: Callable[[Connection], LocalCache] | None, start: Connection | NotConnected
) -> CacheAhead | None:
    """The local cache of the connection the app starts with, being opened; None when
    there is no cache or no connection yet."""
    if open_cache is None or not isinstance(start, Connection):
        return None
    from screen_analysis.cache.ahead import CacheAhead

    return CacheAhead.start(open_cache, start)


def launch_app(
    settings: Settings,
    start: Connection | NotConnected,
    *,
    themes: ThemeLoad,
    start_demo: Callable[[], Connection],
    make_client: ClientFactory,
) -> None:
    """Run the app until the user quits; exit code 0 on `q`."""
    open_cache = cache_opener(settings)
    # The start's local cache opens in a thread while the app's modules are imported.
    ahead = cache_ahead(open_cache, start)
    try:
        from screen_analysis import collector
        from screen_analysis.images.disk import DiskCache
        from screen_analysis.tui.app import ScreenAnalysisApp
        from screen_analysis.tui.signals import run_until_ended

        collector.release()  # the app's modules are imported and nothing of it is built yet
        graphics = image_graphics(settings)  # before the app owns the terminal
        remembered = RememberedProjects(settings.state_path)
        if remembered.problem:
            click.echo(f"Warning: {remembered.problem}", err=True)
        app = ScreenAnalysisApp(
            settings=settings,
            connection=start,
            remembered=remembered,
            start_demo=start_demo,
            save_key=keyring_saver(),
            make_client=make_client,
            themes=themes,
            graphics=graphics,
            image_cache=DiskCache() if graphics.enabled else None,
            open_cache=open_cache,
            cache_ahead=ahead,
        )
        run_until_ended(app)  # SIGTERM and SIGHUP end it as `q` does (tui/signals.py)
    finally:
        if ahead is not None:  # not taken when the app ended before it browsed (or failed)
            ahead.discard()
    code = app.return_code or 0
    if code:
        raise SystemExit(code)
