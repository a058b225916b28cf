"""Start the terminal app: the composition root hands it settings and a connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.root import CliContext
from screen_analysis.config import Connection
from screen_analysis.state import RememberedProjects

if TYPE_CHECKING:
    from screen_analysis.auth.keystore import KeyStore
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


def start_point(ctx: CliContext) -> tuple[Connection | None, str]:
    """The connection the app opens with, or None and why (the app then asks for a key).

    The address is checked before any key is looked up, and the keyring lookup is
    time-boxed, so a refused address or a hanging keyring becomes a line on the login
    screen rather than an exit or a hang.
    """
    from screen_analysis.auth import (
        InsecureFileError,
        InsecureFileStore,
        InsecureTransportError,
        InvalidBaseURLError,
        NoKeyError,
        check_transport,
        normalise_base_url,
        resolve_api_key,
    )

    if ctx.demo:
        return ctx.connection(), ""
    if not ctx.settings.base_url:
        return None, ""
    try:
        url = normalise_base_url(ctx.settings.base_url)
        check_transport(url, allow_insecure_http=ctx.settings.allow_insecure_http)
    except (InvalidBaseURLError, InsecureTransportError) as exc:
        return None, str(exc)
    try:
        api_key, source = resolve_api_key(url, file_store=InsecureFileStore(warn=_warn))
    except NoKeyError as exc:
        return None, str(exc.keyring_problem or "")
    except InsecureFileError as exc:
        return None, str(exc)
    connection = Connection(base_url=url, api_key=api_key, key_source=source.value)
    ctx.use_connection(connection)
    return connection, ""


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


def _warn(message: str) -> None:
    click.echo(f"Warning: {message}", err=True)


def launch_app(ctx: CliContext) -> None:
    """Run the app until the user quits; exit code 0 on `q`."""
    from screen_analysis.tui.app import ScreenAnalysisApp
    from screen_analysis.tui.themes import load_themes, user_theme_dir

    themes = load_themes(user_theme_dir())
    check_theme_flag(theme_flag(), themes)
    ctx.demo_options.setdefault("live", True)  # the app's demo shows activity
    connection, start_message = start_point(ctx)
    remembered = RememberedProjects(ctx.settings.state_path)
    if remembered.problem:
        _warn(remembered.problem)
    app = ScreenAnalysisApp(
        settings=ctx.settings,
        connection=connection,
        remembered=remembered,
        start_demo=ctx.start_demo,
        save_key=keyring_saver(),
        themes=themes,
        start_message=start_message,
    )
    app.run()
    code = app.return_code or 0
    if code:
        raise SystemExit(code)
